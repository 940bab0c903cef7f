"""Walks the flag sets real builds pass (Inputs/cc-flag-sets.txt) through
`mtpc cc`, on a C and a C++ program (cc-flag-sets.test).

A row that splits: as one partition, clang's instructions; split, clang's
global symbols, and the program's output (and exit status) equal to the one
clang's object gives, run natively or, for AArch64, under qemu-user. A row
that passes through: the note once on standard error (none for a "silent"
row), and clang's object byte for byte.

    cc-flag-sets.test.py TABLE WORK_DIR C_SOURCE CXX_SOURCE SAMPLE_PROFILE SHARE

SHARE (0 or 1): the cases this build runs, every other one of the table's
(row, language) cases; the other build runs the rest.
"""
import os
import re
import shlex
import shutil
import subprocess
import sys

MTPC_CC = ["mtpc", "cc", "--min-source-size=0", "--threshold=0"]
QEMU = {"aarch64": ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"],
        "riscv64": ["qemu-riscv64", "-L", "/usr/riscv64-linux-gnu"]}


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def disassembly(obj):
    out = run(["llvm-objdump", "-d", "--no-show-raw-insn", obj]).stdout
    return out.split("\n", 3)[-1]  # without the header naming the file


def text_size(obj):
    out = run(["llvm-size", obj]).stdout.splitlines()
    return int(out[-1].split()[0])


def text_within(obj, ref, fraction):
    return abs(text_size(obj) - text_size(ref)) <= fraction * text_size(ref)


def global_symbols(obj):
    out = run(["llvm-nm", "--extern-only", "--defined-only", "-P", obj]).stdout
    return sorted(" ".join(line.split()[:2]) for line in out.splitlines())


def target_of(flags):
    for flag in flags:
        if flag.startswith("--target="):
            return flag.split("=", 1)[1].split("-")[0]
    return None


def compile_flags(flags):
    """Flags without those only a compile takes (dependency files)."""
    return [f for f in flags if f not in ("-MMD", "-MP")]


def run_program(flags, compiler, obj, exe, work):
    target = target_of(flags)
    link = [compiler] + compile_flags(flags) + [obj, "-o", exe, "-lm"]
    if target:
        link.insert(1, "-fuse-ld=lld")
    linked = run(link, cwd=work)
    if linked.returncode:
        return "link failed: " + linked.stderr.strip()
    runner = QEMU.get(target, []) if target else []
    if target and (not runner or not shutil.which(runner[0])):
        return "cannot run " + target
    env = dict(os.environ, LLVM_PROFILE_FILE=exe + ".profraw")
    ran = run(runner + [exe], cwd=work, env=env)
    return f"status {ran.returncode}\n{ran.stdout}"


class Row:
    def __init__(self, line, values):
        name, langs, flags, expected = (part.strip() for part in line.split("|"))
        self.name, self.langs, self.expected = name, langs.split(), expected
        if flags == "@dpkg-buildflags":
            flags = " ".join(run(["dpkg-buildflags", "--get", kind]).stdout.strip()
                             for kind in ("CPPFLAGS", "CFLAGS"))
        self.flags_text = flags
        self.values = values

    def flags(self, lang):
        return shlex.split(self.flags_text.format(**self.values[lang]))


def check_split(row, lang, compiler, source, work):
    flags = row.flags(lang)
    base = os.path.join(work, f"{row.name}-{lang}")
    ref, one, split = base + ".ref.o", base + ".one.o", base + ".split.o"
    made = run([compiler] + flags + ["-c", source, "-o", ref], cwd=work)
    if made.returncode:
        return "clang failed: " + made.stderr.strip()
    one_run = run(MTPC_CC + ["--verbose", "--partitions=1", compiler] + flags +
                  ["-c", source, "-o", one], cwd=work)
    if "split into 1 partition" not in one_run.stderr:
        return "not split: " + one_run.stderr.strip()
    if disassembly(one) != disassembly(ref) and not (
            row.expected == "split~" and text_within(one, ref, 0.01)):
        return "one partition's instructions differ from clang's"
    split_run = run(MTPC_CC + ["--verbose", "--partitions=3", compiler] + flags +
                    ["-c", source, "-o", split], cwd=work)
    if not re.search(r"split into [2-9] partitions", split_run.stderr):
        return "not split in several: " + split_run.stderr.strip()
    if global_symbols(split) != global_symbols(ref):
        return "global symbols differ"
    want = run_program(flags, compiler, ref, base + ".ref", work)
    got = run_program(flags, compiler, split, base + ".split", work)
    if not want.startswith("status "):
        return want
    if want != got:
        return f"output differs: clang's {want!r}, split {got!r}"
    return None


def check_pass(row, lang, compiler, source, work):
    flags = row.flags(lang)
    base = os.path.join(work, f"{row.name}-{lang}")
    # One output name for both: gcov and -grecord-gcc-switches record it.
    ref, out = base + ".ref.o", base + ".pass.o"
    made = run([compiler] + flags + ["-c", source, "-o", out], cwd=work)
    if made.returncode:
        return "clang failed: " + made.stderr.strip()
    os.replace(out, ref)
    launched = run(MTPC_CC + [compiler] + flags + ["-c", source, "-o", out], cwd=work)
    notes = [l for l in launched.stderr.splitlines() if l.startswith("mtpc:")]
    if row.expected == "silent":
        if notes:
            return "a note where none was expected: " + notes[0]
    else:
        reason = row.expected.split(":", 1)[1].strip()
        if len(notes) != 1 or f"not split: {reason}" not in notes[0]:
            return f"expected one note 'not split: {reason}', got {notes}"
    if open(ref, "rb").read() != open(out, "rb").read():
        return "not clang's object"
    return None


def make_profiles(work, compilers, sources):
    """{lang: {name: path}}: a profile of clang's instrumentation, one of IR
    instrumentation and one with context-sensitive records too (the IR
    profile's use instrumented after the inliner), each from a run of the
    program."""
    values = {}
    for lang in ("c", "c++"):
        cc, src = compilers[lang], sources[lang]
        paths = {}
        for kind, flags in (("clang", ["-fprofile-instr-generate"]), ("ir", ["-fprofile-generate"]),
                            ("cs", ["-fprofile-use=" + os.path.join(work, f"profile-ir-{lang}.profdata"),
                                    "-fcs-profile-generate"])):
            exe = os.path.join(work, f"profile-{kind}-{lang}")
            raw, data = exe + ".profraw", exe + ".profdata"
            subprocess.run([cc, "-O2", *flags, src, "-o", exe, "-lm"], check=True, cwd=work)
            env = dict(os.environ, LLVM_PROFILE_FILE=raw)
            subprocess.run([exe], check=True, cwd=work, env=env, stdout=subprocess.DEVNULL)
            merged = [paths["ir_profile"], raw] if kind == "cs" else [raw]
            subprocess.run(["llvm-profdata", "merge", *merged, "-o", data], check=True)
            paths[f"{kind}_profile"] = data
        values[lang] = paths
    return values


def main():
    table, work, c_source, cxx_source, sample = map(os.path.abspath, sys.argv[1:6])
    share = int(sys.argv[6])
    compilers = {"c": "clang", "c++": "clang++"}
    sources = {"c": c_source, "c++": cxx_source}
    values = make_profiles(work, compilers, sources)
    for lang in values:
        values[lang].update(dir=work, sample_profile=sample)
    counts = {"split": 0, "passed through": 0, "failed": 0}
    table_counts = {"split": 0, "passed through": 0}
    case = 0
    for line in open(table):
        if not line.strip() or line.startswith("#"):
            continue
        row = Row(line, values)
        kind = "split" if row.expected.startswith("split") else "passed through"
        for lang in row.langs:
            table_counts[kind] += 1
            case += 1
            if case % 2 != share:
                continue
            check = check_split if kind == "split" else check_pass
            problem = check(row, lang, compilers[lang], sources[lang], work)
            print(f"{row.name} {lang}: {'FAILED: ' + problem if problem else kind}")
            counts["failed" if problem else kind] += 1
    print(f"the table: {table_counts['split']} split, {table_counts['passed through']} passed through")
    print(f"this build's share: {counts['split']} split, {counts['passed through']} passed through, "
          f"{counts['failed']} failed")
    return 1 if counts["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
