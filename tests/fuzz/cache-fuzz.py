#!/usr/bin/env python3
"""Cache consistency: for each seed, a generated C or C++ program is built
with the partition cache (cold), edited at random, and built again against
that cache (warm) and without one; the two must be byte-identical, and the
program must print what a stock build of the edited sources prints.

The program (a header and one or two sources) has functions that call each
other, static and inline functions, templates and classes (C++; in half
of them a class of its own holding a std::string), string
literals and an initialized table. An edit changes a literal, adds one
(every later .str.N is renumbered), changes a constant on its line or a
callee, an initializer, an inline function or a template, inserts a line
(every later line moves), edits the header, or only touches a line (a new
MD5). Options, drawn per seed: C or C++, -O1..-O3, CPU, PIC, debug info
(none, -g, split DWARF), a sample profile, CS-PGO generation, the partition
count, and the tool: `mtpc compile` (ThinLTO or full LTO bitcode), `mtpc
backend` (distributed ThinLTO), ld.lld (ThinLTO or full LTO). With ld.lld,
the links also take random LTO options of lld's (tests/lld/lto_options.py:
levels, pipelines, LLVM options, basic block sections and address maps,
visibility, remarks...), and the link after the edit may change them (one
drawn again, added or dropped): the warm link must still equal a link
without a cache.

  cache-fuzz.py BUILD_DIR WORK_DIR FIRST_SEED COUNT [--jobs N] [--keep] [--also S1,S2]

Prints one line per difference and a summary (cases, differences, partition
hits in the warm builds); exits 1 on a difference or a failure. A failing
case's directory is kept under WORK_DIR/failures.
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lld"))
import lto_options  # noqa: E402

VERSION = os.environ.get("MTPC_LLVM_VERSION", "19")
LLVM_BIN = f"/usr/lib/llvm-{VERSION}/bin"


class CaseError(Exception):
    pass


# ---- The program -----------------------------------------------------------

class Program:
    """A program as lists of lines per file, which edits change in place."""

    def __init__(self, rng, cxx, two_files, library=None):
        self.cxx = cxx
        self.library = library  # C++: a random.Random for library classes, or None
        ext = ".cpp" if cxx else ".c"
        self.sources = ["gen" + ext] + (["gen2" + ext] if two_files else [])
        self.files = {"gen.h": [], **{s: [] for s in self.sources}}
        count = rng.randint(14, 30)
        self.functions = [f"f{i}" for i in range(count)]
        self.literals = [f"lit{i}_{rng.randint(0, 999)}" for i in range(rng.randint(4, 9))]
        self._header(rng)
        self._bodies(rng, count)

    def _header(self, rng):
        h = self.files["gen.h"]
        h += ["#ifndef GEN_H", "#define GEN_H", f"/* header {rng.randint(0, 10**6)} */"]
        h += [f"int {f}(int x);" for f in self.functions]
        h.append(f"static inline int hin(int x) {{ return x * {rng.randint(2, 99)} + 1; }}")
        if self.cxx:
            h.append("template <int N> int tpl(int x) {")
            h.append(f"  return x * N + {rng.randint(1, 50)};")
            h.append("}")
            h.append("struct Acc {")
            h.append("  int v;")
            h.append(f"  int add(int x) {{ v += x ^ {rng.randint(1, 255)}; return v; }}")
            h.append("};")
        if self.library:
            # A class of the library's, whose members its debug info
            # describes (a remap of the files once described them twice).
            h.append("#include <string>")
            h.append("struct Names {")
            h.append("  typedef std::string text;")
            h.append("  typedef unsigned size_type;")
            h.append("  text first;")
            h.append("  size_type count(const text &t) const {")
            h.append(f"    return (size_type)t.size() * {self.library.randint(2, 9)}u + 1;")
            h.append("  }")
            h.append("};")
        h.append("extern int table[16];")
        h.append("#endif")

    def _bodies(self, rng, count):
        for name in self.sources:
            lines = self.files[name]
            lines += ['#include "gen.h"', "#include <string.h>", "#include <stdio.h>"]
        main = self.files[self.sources[0]]
        values = ", ".join(str(rng.randint(0, 1000)) for _ in range(16))
        main.append(f"int table[16] = {{{values}}};")
        main.append("static const char *names[] = {")
        main += [f'  "{lit}",' for lit in self.literals]
        main.append("};")
        for i, f in enumerate(self.functions):
            lines = self.files[self.sources[i % len(self.sources)]]
            lines += self._function(rng, i, f)
        main.append("int main(void) {")
        main.append("  unsigned h = 0;")
        main.append(f"  for (int i = 0; i < {rng.randint(20, 60)}; i++) {{")
        for f in rng.sample(self.functions, min(6, len(self.functions))):
            main.append(f"    h = h * 31u + (unsigned){f}(i);")
        main.append("  }")
        main.append('  printf("%u %s\\n", h, names[h % (sizeof(names) / sizeof(*names))]);')
        main.append("  return 0;")
        main.append("}")

    def _function(self, rng, i, f):
        static = f"s{i}"
        out = [f"static __attribute__((noinline)) int {static}(int x) {{"]
        out.append(f"  int y = x * {rng.randint(3, 97)} + {rng.randint(0, 9)};")
        out.append(f"  for (int k = 0; k < (x & {rng.choice([3, 7, 15])}); k++)")
        out.append(f"    y = y * {rng.randint(3, 31)} + k;")
        out.append("  return y;")
        out.append("}")
        out.append(f"int {f}(int x) {{")
        out.append(f"  int r = {static}(x) + hin(x);")
        for j in rng.sample(range(i), min(i, rng.randint(0, 3))):
            out.append(f"  r += f{j}(x + {rng.randint(1, 9)}) & 0xff;")
        if rng.random() < 0.5:
            lit = rng.choice(self.literals)
            out.append(f'  r += (int)strlen("{lit}");')
        out.append(f"  r ^= table[(x + {rng.randint(0, 15)}) & 15];")
        if self.cxx and rng.random() < 0.5:
            out.append(f"  r += tpl<{rng.randint(1, 5)}>(x);")
            out.append("  { Acc a{r}; r = a.add(x); }")
        if self.library and self.library.random() < 0.5:
            lit = self.library.choice(self.literals)
            out.append(f'  {{ Names n{{"{lit}"}}; r += (int)n.count(n.first + "{i}"); }}')
        out.append("  return r;")
        out.append("}")
        return out

    def write(self, directory):
        for name, lines in self.files.items():
            with open(os.path.join(directory, name), "w") as f:
                f.write("\n".join(lines) + "\n")


# ---- Edits -----------------------------------------------------------------

def _lines_matching(program, pattern, files=None):
    hits = []
    for name in files or program.files:
        for n, line in enumerate(program.files[name]):
            if re.search(pattern, line):
                hits.append((name, n))
    return hits


def _replace_number(rng, line):
    start = line.find("{") + 1 if "= {" in line else 0  # an initializer's values
    numbers = [m for m in re.finditer(r"(?<![\w.])\d+(?![\w.])", line) if m.start() >= start]
    if not numbers:
        return None
    m = rng.choice(numbers)
    return line[:m.start()] + str(int(m.group()) + rng.randint(1, 9)) + line[m.end():]


def _new_callee(rng, line):
    """Another callee, of a lower index (callees always have one: no recursion)."""
    callee = int(re.search(r"f(\d+)\(", line).group(1))
    return re.sub(r"f\d+\(", f"f{rng.randint(0, callee)}(", line, 1)


# Edits of one line: the lines they apply to (a pattern, in which files:
# None for the sources) and the line they make of one.
LINE_EDITS = {
    "constant": (r"^  int y = x \*", None, _replace_number),
    "initializer": (r"^int table\[16\]", None, _replace_number),
    "inline": (r"static inline int hin", ["gen.h"], _replace_number),
    "template": (r"^  return x \* N", ["gen.h"], _replace_number),
    "literal": (r'strlen\("', None,
                lambda rng, line: re.sub(r'strlen\("([^"]*)"\)',
                                         lambda m: f'strlen("{m.group(1)}x")', line)),
    "callee": (r"^  r \+= f\d+\(", None, _new_callee),
}


def edit(program, rng, kind):
    """Changes the program; returns what it did, or None if it could not."""
    src = program.sources
    if kind in LINE_EDITS:
        pattern, files, rewrite = LINE_EDITS[kind]
        sites = _lines_matching(program, pattern, files or src)
        if not sites:
            return None
        name, n = rng.choice(sites)
        changed = rewrite(rng, program.files[name][n])
        if changed is None:
            return None
        program.files[name][n] = changed
        return f"{kind} {name}:{n + 1}"
    if kind == "new_literal":
        sites = _lines_matching(program, r"^  int r = s\d+", src)
        name, n = rng.choice(sites[: max(1, len(sites) // 3)])
        program.files[name].insert(n + 1, f'  r += (int)strlen("new{rng.randint(0, 999)}");')
        return f"new literal {name}:{n + 2}"
    if kind == "insert_line":
        name = rng.choice(src)
        at = rng.randint(3, max(3, len(program.files[name]) // 2))
        program.files[name].insert(at, f"/* inserted {rng.randint(0, 10**6)} */")
        return f"inserted line {name}:{at + 1}"
    if kind == "header":
        program.files["gen.h"].insert(2, f"/* header edit {rng.randint(0, 10**6)} */")
        return "header comment"
    if kind == "touch":
        name = rng.choice(src)
        n = rng.randrange(len(program.files[name]))
        program.files[name][n] += " "
        return f"touched {name}:{n + 1}"
    raise ValueError(kind)


EDITS = ["constant", "initializer", "inline", "literal", "new_literal", "callee",
         "insert_line", "header", "touch", "template"]


# ---- Building --------------------------------------------------------------

def run(args, cwd, env=None, timeout=300):
    full_env = dict(os.environ, PATH=f"{LLVM_BIN}:{os.environ.get('PATH', '')}", **(env or {}))
    p = subprocess.run(args, cwd=cwd, env=full_env, capture_output=True, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        raise CaseError(f"{' '.join(args)} failed ({p.returncode}): "
                        f"{(p.stderr or p.stdout).strip().splitlines()[-1:] }")
    return p


class Case:
    def __init__(self, build, work, seed):
        self.seed = seed
        self.rng = random.Random(seed)
        self.mtpc = os.path.join(build, "bin", "mtpc")
        self.lld = os.path.join(build, "bin", "ld.lld")
        self.dir = os.path.join(work, f"seed{seed}")
        rng = self.rng
        tools = ["compile-thin", "compile-full", "backend"]
        if os.path.exists(self.lld):
            tools += ["lld-thin", "lld-full"]
        self.tool = rng.choice(tools)
        self.cxx = rng.random() < 0.4
        self.opt = rng.choice(["-O1", "-O2", "-O2", "-O3"])
        self.cpu = rng.choice([None, None, "x86-64-v2", "x86-64-v3"])
        self.pic = rng.random() < 0.3
        self.debug = rng.choice(["none", "g", "g", "split"])
        self.profile = rng.choice(["none", "none", "none", "sample", "cs"])
        self.partitions = rng.choice(["2", "3", "5", "max"])
        self.jobs = rng.choice(["1", "2"])
        self.edits = rng.sample(EDITS, rng.choice([1, 1, 2]))
        # Library classes (C++), from a generator of their own, as lld's
        # options below.
        library = random.Random(seed * 15485863 + 2)
        self.library = self.cxx and library.random() < 0.5
        self.program = Program(rng, self.cxx, two_files=self.tool in ("backend", "lld-thin",
                                                                      "lld-full"),
                               library=library if self.library else None)
        self.hits = 0
        # lld's own options, from a generator of their own: the seeds drawn
        # before these existed keep their programs.
        self.lld_before, self.lld_after = {}, {}
        if self.tool.startswith("lld"):
            orng = random.Random(seed * 104729 + 1)
            self.lld_before = lto_options.draw_options(orng)
            self.lld_after = lto_options.mutate_options(orng, self.lld_before)
            if self.profile == "cs":
                # A custom pipeline has no place for CS-PGO's passes: stock
                # lld fails that link too.
                for drawn in (self.lld_before, self.lld_after):
                    drawn.pop("pipeline", None)

    def describe(self):
        lld = ""
        if self.tool.startswith("lld"):
            lld = (f" lld options {' '.join(lto_options.flatten(self.lld_before)) or '-'} then "
                   f"{' '.join(lto_options.flatten(self.lld_after)) or '-'}")
        language = ("c++ with <string>" if self.library else "c++") if self.cxx else "c"
        return (f"seed {self.seed}: {self.tool} {language} {self.opt} "
                f"cpu={self.cpu} pic={int(self.pic)} debug={self.debug} "
                f"profile={self.profile} partitions={self.partitions}{lld}")

    # The compile flags of the sources.
    def cflags(self, lto):
        flags = [self.opt, "-w"]
        if self.cpu:
            flags.append(f"-march={self.cpu}")
        if self.pic:
            flags.append("-fPIC")
        if self.debug != "none":
            flags.append("-g")
        if self.debug == "split" and self.tool != "compile-thin" and self.tool != "compile-full":
            flags.append("-gsplit-dwarf")
        if self.profile == "sample":
            flags += ["-funique-internal-linkage-names", "-fprofile-sample-use=prelink.prof"]
        if lto:
            flags.append("-flto" if self.tool.endswith("full") else "-flto=thin")
        return flags

    def compiler(self):
        return "clang++" if self.cxx else "clang"

    def sample_profile(self, d, names):
        """Sample profiles naming `names`: at compile time a part of them,
        at link time all of them, each hot or cold at random."""
        rng = random.Random(self.seed * 7919)
        profiles = {"prelink.prof": [], "link.prof": []}
        for name in names:
            for profile, lines in profiles.items():
                if profile == "prelink.prof" and rng.random() < 0.5:
                    continue
                total = rng.choice([1, 3, 10000, 100000])
                lines += [f"{name}:{total}:{max(1, total // 100)}", f" 1: {max(1, total // 10)}"]
        for profile, lines in profiles.items():
            with open(os.path.join(d, profile), "w") as out:
                out.write("\n".join(lines) + "\n")

    def profiled_sources(self, d):
        """With a sample profile: the sources compiled once to learn the names
        the profile should use (static functions get unique names), then with
        profiles naming them."""
        if self.profile == "sample":
            self.sample_profile(d, self.program.functions)
            names = []
            for obj in self.compile_sources(d):
                nm = run([f"{LLVM_BIN}/llvm-nm", "--defined-only", "-j", obj], d).stdout
                names += [n for n in nm.split() if n != "main" and "__uniq" in n or
                          n in self.program.functions]
            self.sample_profile(d, sorted(set(names)))
        return self.compile_sources(d)

    def compile_sources(self, d):
        objs = []
        for s in self.program.sources:
            obj = s.rsplit(".", 1)[0] + ".o"
            run([self.compiler(), *self.cflags(lto=True), "-c", s, "-o", obj], d)
            objs.append(obj)
        return objs

    def mtpc_compile_flags(self):
        flags = [f"--partitions={self.partitions}", f"-j{self.jobs}", self.opt]
        if self.cpu:
            flags.append(f"--mcpu={self.cpu}")
        if self.tool == "compile-full":
            flags.append("--full-lto")
        if self.profile == "sample":
            flags.append("--sample-profile=../link.prof")
        if self.profile == "cs":
            flags += ["--cs-profile-generate", "--cs-profile=cs.profraw"]
        return flags

    def build(self, d, objs, cache, sub, lld_options=()):
        """Builds the objects in d/sub, with the cache d/cache or none, under the
        same names whatever sub is (ld.lld takes `lld_options` too); returns the
        files to compare."""
        self.hits = 0 if sub == "warm" else self.hits
        where = os.path.join(d, sub)
        os.makedirs(where, exist_ok=True)
        objs = ["../" + o for o in objs]
        cache_flag = ["--cache-dir=../cache"] if cache else []
        if self.tool.startswith("compile"):
            flags = self.mtpc_compile_flags() + cache_flag + ["--stats"]
            if self.debug == "split":
                flags += ["--split-dwarf-output=out.dwo", "--split-dwarf-file=out.dwo"]
            p = run([self.mtpc, "compile", objs[0], "-o", "out.o", *flags], where)
            self.count_hits(p.stderr, cache)
            return ["out.o"] + (["out.dwo"] if self.debug == "split" else [])
        if self.tool == "backend":
            return self.build_backend(d, sub, cache)
        return self.build_lld(where, objs, cache, lld_options)

    def build_backend(self, d, sub, cache):
        """Distributed ThinLTO: the index, then a backend job per module, run
        where the index names the modules (d)."""
        objs = [s.rsplit(".", 1)[0] + ".o" for s in self.program.sources]
        run([f"{LLVM_BIN}/ld.lld", "--thinlto-index-only", "-e", "main", "-o", "/dev/null", *objs,
             "--unresolved-symbols=ignore-all"], d)
        files = []
        for obj in objs:
            native = obj[:-2] + ".native.o"
            flags = ["-c", self.opt, "-x", "ir", obj, f"-fthinlto-index={obj}.thinlto.bc",
                     "--threshold=0", f"--partitions={self.partitions}", f"-j{self.jobs}",
                     "-o", f"{sub}/{native}"]
            if self.cpu:
                flags.append(f"-march={self.cpu}")
            if self.pic:
                flags.append("-fPIC")
            if self.debug == "split":
                dwo = native[:-2] + ".dwo"
                flags += ["-Xclang", "-split-dwarf-file", "-Xclang", dwo,
                          "-Xclang", "-split-dwarf-output", "-Xclang", f"{sub}/{dwo}"]
            if self.profile == "sample":
                flags.append("-fprofile-sample-use=link.prof")
            if self.profile == "cs":
                flags.append("-fcs-profile-generate")
            if cache:
                flags.append("--cache-dir=cache")
            run([self.mtpc, "backend", *flags], d)
            files.append(native)
            if self.debug == "split":
                files.append(native[:-2] + ".dwo")
        return files

    def build_lld(self, where, objs, cache, lld_options):
        full = self.tool == "lld-full"
        flags = ["--thinlto-mtpc-threshold=0", f"--thinlto-mtpc-partitions={self.partitions}",
                 "--thinlto-mtpc-stats=out.stats"]
        flags.append(f"--lto-mtpc-jobs={self.jobs}" if full else f"--thinlto-mtpc-jobs={self.jobs}")
        flags.append(f"--lto-{self.opt[1:]}")
        if self.cpu:
            flags.append(f"-plugin-opt=mcpu={self.cpu}")
        if self.profile == "sample":
            flags.append("--lto-sample-profile=../link.prof")
        if self.profile == "cs":
            flags += ["--lto-cs-profile-generate", "--lto-cs-profile-file=cs.profraw"]
        if self.debug == "split":
            flags.append("--plugin-opt=dwo_dir=out.dwo.d")
        flags += lld_options
        if cache:
            flags.append("--thinlto-cache-dir=../cache")
        args = [self.compiler(), "-fuse-ld=lld", f"--ld-path={self.lld}", *objs, "-o", "out"]
        for f in flags:  # -Xlinker: an option's value may hold commas
            args += ["-Xlinker", f]
        if self.profile == "cs":
            args.append("-fprofile-generate")
        run(args, where)
        stats = os.path.join(where, "out.stats")
        if os.path.exists(stats):
            with open(stats) as f:
                self.count_hits(f.read(), cache)
        files = ["out"]
        if self.debug == "split":
            files += [os.path.join("out.dwo.d", f)
                      for f in sorted(os.listdir(os.path.join(where, "out.dwo.d")))]
        return files

    def count_hits(self, stats, cache):
        if cache:
            self.hits += sum(int(h) for h in re.findall(r"partition cache: (\d+) hit", stats))

    def link(self, where, files):
        """The built objects linked into a program (lld built one already)."""
        if self.tool.startswith("lld"):
            return files[0]
        objs = [f for f in files if f.endswith(".o")]
        args = [self.compiler(), *objs, "-o", "program"]
        if self.profile == "cs":
            args.append("-fprofile-generate")
        run(args, where)
        return "program"

    @staticmethod
    def read(d, sub, name):
        with open(os.path.join(d, sub, name), "rb") as f:
            return f.read()

    def check(self):
        d = self.dir
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        self.program.write(d)
        # The cold build where the warm one goes, as a build directory is
        # built again: files of a task the warm build takes whole from lld's
        # cache (whose .dwo files lld does not keep) are the cold build's.
        first = self.build(d, self.profiled_sources(d), True, "warm",
                           lto_options.flatten(self.lld_before))
        first_bytes = {f: self.read(d, "warm", f) for f in first}
        done = [edit(self.program, self.rng, kind) for kind in self.edits]
        if not any(done):
            done.append(edit(self.program, self.rng, "touch"))
        self.program.write(d)
        objs = self.compile_sources(d)
        after = lto_options.flatten(self.lld_after)
        warm = self.build(d, objs, True, "warm", after)
        alone = self.build(d, objs, False, "alone", after)
        # An edit or options that change the partitions or tasks change the
        # .dwo files' names (partition K's "T.partK.dwo"): the first link's
        # stay in the build directory, as stock lld leaves a task's that is
        # gone. Only such files, as the first link left them, may be extra.
        missing = [f for f in alone if f not in warm]
        if missing:
            raise CaseError(f"the warm build did not write {missing}")
        written = [f for f in warm if f in alone or first_bytes.get(f) != self.read(d, "warm", f)]
        if written != alone:
            raise CaseError(f"the warm build wrote {written}, the one without a cache {alone}")
        warm = alone
        for f in warm:
            with open(os.path.join(d, "warm", f), "rb") as a, \
                 open(os.path.join(d, "alone", f), "rb") as b:
                if a.read() != b.read():
                    raise CaseError(f"warm {f} differs from a build without a cache "
                                    f"(edits: {', '.join(filter(None, done))})")
        program = self.link(os.path.join(d, "alone"), alone)
        got = run([f"./{program}"], os.path.join(d, "alone"),
                  env={"LLVM_PROFILE_FILE": "run.profraw"}, timeout=30).stdout
        run([self.compiler(), "-O1", "-w", *self.program.sources, "-o", "stock"], d)
        want = run(["./stock"], d, timeout=30).stdout
        if got != want:
            raise CaseError(f"the program prints {got.strip()!r}, a stock build {want.strip()!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("work")
    parser.add_argument("first", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep every case's directory")
    parser.add_argument("--also", default="", help="more seeds, comma separated (regressions)")
    args = parser.parse_args()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(work, "failures"))
    lock = threading.Lock()
    totals = {"cases": 0, "differences": 0, "hits": 0, "by_tool": {}}

    def one(seed):
        case = Case(os.path.abspath(args.build), work, seed)
        try:
            case.check()
            error = None
        except (CaseError, subprocess.TimeoutExpired) as e:
            error = str(e)
        with lock:
            totals["cases"] += 1
            totals["hits"] += case.hits
            totals["by_tool"][case.tool] = totals["by_tool"].get(case.tool, 0) + 1
            if error:
                totals["differences"] += 1
                print(f"{case.describe()}: {error}", flush=True)
                shutil.copytree(case.dir, os.path.join(work, "failures", f"seed{seed}"))
        if not args.keep:
            shutil.rmtree(case.dir, ignore_errors=True)

    seeds = list(range(args.first, args.first + args.count))
    seeds += [int(seed) for seed in args.also.split(",") if seed]
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        list(pool.map(one, seeds))
    tools = ", ".join(f"{t} {n}" for t, n in sorted(totals["by_tool"].items()))
    also = f" and {args.also}" if args.also else ""
    print(f"cache fuzz: seeds {args.first}..{args.first + args.count - 1}{also}: "
          f"{totals['cases']} cases ({tools}), {totals['differences']} differences, "
          f"{totals['hits']} partitions from the warm cache")
    return 1 if totals["differences"] else 0


if __name__ == "__main__":
    sys.exit(main())
