#!/usr/bin/env python3
"""Every LTO option of ld.lld against its cache: for each row of
tests/lld/lto_options.py that links, two links share one cache, the first
with the row's base options and the second with its changed ones, and the
second (warm) must give the bytes of the same link from an empty cache
(cold). ThinLTO with --thinlto-mtpc-jobs and full LTO with --lto-mtpc-jobs,
every module split (threshold 0). A row that claims a signal must show it:
the cold changed program differs from the base one, so that the row could
fail.

The same ThinLTO links with stock lld (Debian's ld.lld-N) name the options
whose effect stock's own key misses; they must be the ones docs/lld.rst
names for this LLVM ("What stock lld's key misses").

First, lld's own option table (the patched Options.td, which build-lld.sh
copies to <build>/lld-tests): each LTO option in it must be in a row, so a
new lld option fails here until someone says what it does to the cache.

  cache-options.py BUILD_DIR WORK_DIR [--rows NAME,...] [--no-stock]

Prints one line per row and mode; exits 1 on a warm link that differs, a
missing signal, an option not in the table, or docs that name other misses.
"""
import argparse
import filecmp
import glob
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lto_options  # noqa: E402

VERSION = int(os.environ.get("MTPC_LLVM_VERSION", "19"))
LLVM_BIN = f"/usr/lib/llvm-{VERSION}/bin"
HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "inputs")
SOURCES = ["main.cpp", "shapes.cpp"]
SPLIT = {"thin": ["--thinlto-mtpc-jobs=2", "--thinlto-mtpc-threshold=0",
                  "--thinlto-mtpc-partitions=3"],
         "full": ["--lto-mtpc-jobs=2", "--thinlto-mtpc-threshold=0",
                  "--thinlto-mtpc-partitions=3"]}


class Failure(Exception):
    pass


def run(args, cwd, env=None):
    p = subprocess.run(args, cwd=cwd, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    if p.returncode != 0:
        raise Failure(f"{' '.join(args)} (in {cwd}) failed: "
                      f"{(p.stderr or p.stdout).strip()[-600:]}")
    return p


# ---- lld's option table ----------------------------------------------------

def options_td_spellings(path):
    """The spellings Options.td defines, without a trailing '='; a BB
    option's "no-" form too."""
    text = open(path).read()
    spellings = set()
    for m in re.finditer(r'^\s*defm?\s*\w*\s*:\s*(\w+)\s*<\s*(?:\[[^\]]*\]\s*,\s*)?"([^"]+)"',
                         text, re.M):
        kind, spelling = m.groups()
        spelling = spelling.rstrip("=")
        spellings.add(spelling)
        if kind in ("BB", "B"):
            spellings.add("no-" + spelling)
    return spellings


def check_coverage(options_td):
    lto = {s for s in options_td_spellings(options_td) if re.match(lto_options.LTO_SPELLING, s)}
    covered = {s for r in lto_options.rows_for(VERSION) for s in r.spellings}
    missing = sorted(lto - covered)
    print(f"lld {VERSION}'s option table: {len(lto)} LTO options, "
          f"{len(lto & covered)} in the table")
    if missing:
        raise Failure("LTO options of lld not in tests/lld/lto_options.py (say what each does "
                      f"to a link's objects): {', '.join(missing)}")


# ---- The program and what the rows need ------------------------------------

class Fixtures:
    """The program's objects (per mode and variant: plain, split DWARF,
    compiled with an IR profile) and the files the rows name."""

    def __init__(self, work, lld):
        self.work = work
        self.lld = lld
        self.objects = {}
        self.files = {}  # name -> path, for every link
        self.mode_files = {"thin": {}, "full": {}}  # the same, of one LTO kind
        self.dir = os.path.join(work, "fixtures")
        os.makedirs(self.dir, exist_ok=True)

    def compile(self, mode, variant="plain", extra=()):
        key = (mode, variant)
        if key in self.objects:
            return self.objects[key]
        where = os.path.join(self.work, "objects", f"{mode}-{variant}")
        os.makedirs(where, exist_ok=True)
        # Line tables: a sample profile's counts are matched by line. Sample
        # and instrumented profiles do not mix.
        flags = ["-O2", "-flto=thin" if mode == "thin" else "-flto", "-fwhole-program-vtables",
                 *extra]
        flags += ["-g", "-gsplit-dwarf"] if variant == "split-dwarf" else ["-gline-tables-only"]
        if variant == "ir-profile":
            flags.append(f"-fprofile-use={self.mode_files[mode]['ir.profdata']}")
        elif variant in ("plain", "split-dwarf"):
            flags.append(f"-fprofile-sample-use={INPUTS}/prelink.prof")
        objs = []
        for source in SOURCES:
            obj = os.path.join(where, source.replace(".cpp", ".o"))
            run([f"clang++-{VERSION}", *flags, "-c", os.path.join(INPUTS, source), "-o", obj],
                where)
            objs.append(obj)
        self.objects[key] = objs
        return objs

    def objects_for(self, mode, fixture):
        variant = {"split-dwarf": "split-dwarf", "cs": "ir-profile"}.get(fixture, "plain")
        return self.compile(mode, variant)

    def prepare(self, fixtures):
        d = self.dir
        shutil.copy(os.path.join(INPUTS, "link.prof"), d)
        self.files["link.prof"] = os.path.join(d, "link.prof")
        with open(os.path.join(d, "bb.txt"), "w") as f:
            f.write("!_Z8hot_loopi\n!!0 1\n!!2\n")
        self.files["bb.txt"] = os.path.join(d, "bb.txt")
        if "cs" in fixtures:
            self.cs_profile("cs.profdata", ["a"])
        if "plugin" in fixtures:
            self.files["plugin.so"] = self.plugin()

    def instrumented_run(self, d, name, objs, link_flags, run_args):
        """Links `objs` instrumented in `d`, runs the program with
        `run_args`, and returns its raw profile."""
        exe = name + ".exe"
        run([f"clang++-{VERSION}", "-fuse-ld=lld", f"--ld-path={self.lld}", *objs, "-o", exe,
             *link_flags], d)
        run([f"./{exe}", *run_args], d, env={"LLVM_PROFILE_FILE": name + ".profraw"})
        return name + ".profraw"

    def cs_profile(self, name, run_args):
        """A context-sensitive profile of each LTO kind, as a CS-PGO build
        makes one: an IR profile of an instrumented build, then a build that
        uses it and is instrumented again at link time
        (--lto-cs-profile-generate), run with `run_args`; both merged."""
        for mode in ("thin", "full"):
            d = os.path.join(self.dir, mode)
            os.makedirs(d, exist_ok=True)
            lto = "-flto=thin" if mode == "thin" else "-flto"
            files = self.mode_files[mode]
            if "ir.profdata" not in files:
                objs = self.compile(mode, "ir-generate", extra=["-fprofile-generate"])
                raw = self.instrumented_run(d, "ir", objs, ["-fprofile-generate"], ["a"])
                run([f"{LLVM_BIN}/llvm-profdata", "merge", "-o", "ir.profdata", raw], d)
                files["ir.profdata"] = os.path.join(d, "ir.profdata")
            objs = self.compile(mode, "cs-generate",
                                extra=[f"-fprofile-use={files['ir.profdata']}",
                                       "-fcs-profile-generate"])
            # clang passes --lto-cs-profile-generate only to an LTO link.
            raw = self.instrumented_run(d, name, objs, [lto, "-fcs-profile-generate"], run_args)
            run([f"{LLVM_BIN}/llvm-profdata", "merge", "-o", name, "ir.profdata", raw], d)
            files[name] = os.path.join(d, name)

    def plugin(self):
        """A pass plugin that aligns every function to 64 bytes."""
        cxxflags = run([f"{LLVM_BIN}/llvm-config", "--cxxflags"], self.dir).stdout.split()
        out = os.path.join(self.dir, "plugin.so")
        run([f"clang++-{VERSION}", *cxxflags, "-shared", "-fPIC", "-O1",
             os.path.join(INPUTS, "align-plugin.cpp"), "-o", out], self.dir)
        return out


# ---- One row ---------------------------------------------------------------

def compared_files(where, options):
    """The program, or with --lto-emit-asm the assembly files."""
    if "--lto-emit-asm" in options:
        return sorted(os.path.basename(p) for p in glob.glob(os.path.join(where, "out*.s")))
    return ["out"]


def link(fx, lld, row, mode, where, options, cache, mtpc):
    """One link in `where`, of the program's objects linked there (lld
    writes a ThinLTO module's assembly beside its object), with the row's
    files at hand."""
    os.makedirs(where, exist_ok=True)
    objs = fx.objects_for(mode, row.fixture)
    for path in list(fx.files.values()) + list(fx.mode_files[mode].values()) + objs:
        target = os.path.join(where, os.path.basename(path))
        if not os.path.lexists(target):  # a file replaced in place is there already
            os.symlink(path, target)
    ld_args = (SPLIT[mode] if mtpc else []) + list(options)
    if cache:
        ld_args.append(f"--thinlto-cache-dir={cache}")
    args = [f"clang++-{VERSION}", "-fuse-ld=lld", f"--ld-path={lld}", *row.driver,
            *(os.path.basename(o) for o in objs), "-o", "out"]
    if row.relocatable:
        args.insert(1, "-r")
    for a in ld_args:
        args += ["-Xlinker", a]
    run(args, where)
    files = compared_files(where, options)
    if not files:
        raise Failure(f"{row.name} {mode}: the link wrote none of the files compared")
    return files


def same(a_dir, b_dir, files):
    return all(filecmp.cmp(os.path.join(a_dir, f), os.path.join(b_dir, f), shallow=False)
               for f in files)


def check_row(fx, lld, row, mode, work, mtpc):
    """(warm equals cold, the option changed the program)."""
    d = os.path.join(work, "rows", row.name, mode + ("" if mtpc else "-stock"))
    shutil.rmtree(d, ignore_errors=True)
    cache = os.path.join(d, "cache")
    first = link(fx, lld, row, mode, os.path.join(d, "first"), row.base, cache, mtpc)
    warm = link(fx, lld, row, mode, os.path.join(d, "warm"), row.changed, cache, mtpc)
    cold = link(fx, lld, row, mode, os.path.join(d, "cold"), row.changed,
                os.path.join(d, "empty-cache"), mtpc)
    if warm != cold:
        return False, True
    changed = first != cold or not same(os.path.join(d, "first"), os.path.join(d, "cold"), cold)
    return same(os.path.join(d, "warm"), os.path.join(d, "cold"), cold), changed


# ---- Files replaced in place -------------------------------------------------

class InPlace:
    """A file a link reads, replaced at the same path between two links
    that share one cache: the second must give a cold link's bytes, and the
    two versions of the file must give different programs."""

    def __init__(self, name, path, options, versions, fixture=None, llvm=(19, 22)):
        self.name, self.path, self.options = name, path, options
        self.versions = versions  # (fx, mode) -> (bytes of A, bytes of B)
        self.fixture, self.llvm = fixture, llvm


def text_of(path):
    with open(path, "rb") as f:
        return f.read()


def renamed_cs_profile(fx):
    """The CS profile of the run that calls cold_path, its records under
    another name, which a remapping file maps back."""
    for mode in ("thin", "full"):
        d = os.path.join(fx.dir, mode)
        text = run([f"{LLVM_BIN}/llvm-profdata", "merge", "--text", "cs-other.profdata", "-o",
                    "-"], d).stdout
        with open(os.path.join(d, "cs-renamed.proftext"), "w") as f:
            f.write(text.replace("_Z9cold_pathi", "_Z9warm_pathi"))
        run([f"{LLVM_BIN}/llvm-profdata", "merge", "-o", "cs-renamed.profdata",
             "cs-renamed.proftext"], d)
        fx.mode_files[mode]["cs-renamed.profdata"] = os.path.join(d, "cs-renamed.profdata")


def codegen_data(fx):
    """Codegen data (LLVM 22) of the program, whose two note_ functions its
    global function merging then merges, and of another program."""
    d = os.path.join(fx.dir, "cgdata")
    os.makedirs(d, exist_ok=True)
    generate = ["-O2", "-c", "-mllvm", "-codegen-data-generate", "-mllvm",
                "-enable-global-merge-func"]
    natives = []
    for source in SOURCES:
        native = source.replace(".cpp", ".native.o")
        run([f"clang++-{VERSION}", *generate, os.path.join(INPUTS, source), "-o", native], d)
        natives.append(native)
    with open(os.path.join(d, "other.cpp"), "w") as f:
        f.write("int other(int x) { return x * 7 + 1; }\n")
    run([f"clang++-{VERSION}", *generate, "other.cpp", "-o", "other.native.o"], d)
    # Untrimmed: the program's two alike functions would be trimmed as one
    # module's entries otherwise.
    for name, objs in (("program.cgdata", natives), ("other.cgdata", ["other.native.o"])):
        run([f"{LLVM_BIN}/llvm-cgdata", "--merge", "--skip-trim", *objs, "-o", name], d)


def prepare_in_place(fx, items):
    d = fx.dir
    names = {i.name for i in items}
    if names & {"sample-remapping"}:
        with open(os.path.join(d, "renamed.prof"), "w") as f:
            f.write("_Z9warm_loopi:1000000:100000\n" +
                    "".join(f" {line}: 100000\n" for line in range(1, 5)) +
                    "_Z9cold_pathi:10:1\n 1: 1\n")
        fx.files["renamed.prof"] = os.path.join(d, "renamed.prof")
    if names & {"cs-profile", "cs-remapping"}:
        fx.cs_profile("cs.profdata", ["a"])
        fx.cs_profile("cs-other.profdata", ["a", "b", "c", "d", "e", "f", "g"])
    if "cs-remapping" in names:
        renamed_cs_profile(fx)
    if "codegen-data" in names:
        codegen_data(fx)


def remappings(renamed, to, elsewhere):
    """Two remapping files: one maps the profile's `to` back to `renamed`,
    one maps it elsewhere."""
    return lambda fx, mode: (f"name {renamed} {to}\n".encode(),
                             f"name {renamed} {elsewhere}\n".encode())


PREFIXES = ["-z", "keep-text-section-prefix"]

IN_PLACE = [
    InPlace("sample-profile", "prof.txt", PREFIXES + ["--lto-sample-profile=prof.txt"],
            lambda fx, mode: (text_of(f"{INPUTS}/link.prof"), text_of(f"{INPUTS}/prelink.prof"))),
    InPlace("sample-remapping", "remap.txt",
            PREFIXES + ["--lto-sample-profile=renamed.prof",
                        "--mllvm=-sample-profile-remapping-file=remap.txt"],
            remappings("8hot_loop", "9warm_loop", "9cool_loop")),
    InPlace("cs-profile", "cs.profdata", PREFIXES + ["--lto-cs-profile-file=cs.profdata"],
            lambda fx, mode: (text_of(f"{fx.dir}/{mode}/cs.profdata"),
                              text_of(f"{fx.dir}/{mode}/cs-other.profdata")),
            fixture="cs"),
    InPlace("cs-remapping", "remap.txt",
            PREFIXES + ["--lto-cs-profile-file=cs-renamed.profdata",
                        "--mllvm=-pgo-test-profile-remapping-file=remap.txt"],
            remappings("9cold_path", "9warm_path", "9cool_path"), fixture="cs"),
    InPlace("codegen-data", "data.cgdata",
            ["--mllvm=-codegen-data-use-path=data.cgdata", "--mllvm=-enable-global-merge-func"],
            lambda fx, mode: (text_of(f"{fx.dir}/cgdata/program.cgdata"),
                              text_of(f"{fx.dir}/cgdata/other.cgdata")), llvm=(22,)),
    InPlace("bb-list", "bb.txt", ["--lto-basic-block-sections=bb.txt"],
            lambda fx, mode: (b"!_Z8hot_loopi\n!!0 1\n!!2\n", b"!_Z8hot_loopi\n!!0\n!!1 2\n")),
]


def check_in_place(fx, lld, item, mode, work, mtpc):
    """(warm equals cold, the two versions give different programs)."""
    d = os.path.join(work, "in-place", item.name, mode + ("" if mtpc else "-stock"))
    shutil.rmtree(d, ignore_errors=True)
    row = lto_options.Row(item.name, [], item.options, fixture=item.fixture)
    first_version, second_version = item.versions(fx, mode)
    cache = os.path.join(d, "cache")
    dirs = {}
    for step, version, cache_dir in (("first", first_version, cache),
                                      ("warm", second_version, cache),
                                      ("cold", second_version, os.path.join(d, "empty-cache"))):
        where = os.path.join(d, step)
        os.makedirs(where)
        # One path for the file in every link, written over in place.
        shared = os.path.join(d, item.path)
        with open(shared, "wb") as f:
            f.write(version)
        os.symlink(shared, os.path.join(where, item.path))
        link(fx, lld, row, mode, where, item.options, cache_dir, mtpc)
        dirs[step] = where
    warm_equal = same(dirs["warm"], dirs["cold"], ["out"])
    return warm_equal, not same(dirs["first"], dirs["cold"], ["out"])


# ---- docs/lld.rst ------------------------------------------------------------

def documented_misses(source_dir):
    """The rows docs/lld.rst says stock's key misses, for this LLVM."""
    text = open(os.path.join(source_dir, "docs", "lld.rst")).read()
    section = text.split(".. stock-key-misses", 1)
    if len(section) < 2:
        raise Failure("docs/lld.rst has no '.. stock-key-misses' table")
    misses = set()
    row = r"\* - [^\n]*\((\S+)\)\s*\n\s*- ([^\n]*?)\s*\n\s*- ([^\n]*?)\s*\n"
    for m in re.finditer(row, section[1]):
        name, v19, v22 = m.groups()
        if (v19 if VERSION == 19 else v22) == "missed":
            misses.add(name)
    return misses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("work")
    parser.add_argument("--rows", default="", help="only these rows, comma separated")
    parser.add_argument("--no-stock", action="store_true", help="skip stock lld's links")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    build = os.path.abspath(args.build)
    work = os.path.abspath(args.work)
    source_dir = os.path.dirname(os.path.dirname(HERE))
    lld = os.path.join(build, "bin", "ld.lld")
    stock_lld = f"{LLVM_BIN}/ld.lld"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    check_coverage(os.path.join(build, "lld-tests", "Options.td"))
    rows = lto_options.linked_rows(VERSION)
    if args.rows:
        rows = [r for r in rows if r.name in args.rows.split(",")]
    fx = Fixtures(work, lld)
    fx.prepare({r.fixture for r in rows})

    items = [i for i in IN_PLACE if VERSION in i.llvm]
    if args.rows:
        items = [i for i in items if i.name in args.rows.split(",")]
    prepare_in_place(fx, items)
    for what in rows + items:  # every object set, before the links run at once
        for mode in ("thin", "full"):
            fx.objects_for(mode, what.fixture)
    jobs = [(r, m, True) for r in rows for m in r.modes]
    jobs += [(i, m, True) for i in items for m in ("thin", "full")]
    if not args.no_stock:
        jobs += [(r, "thin", False) for r in rows if r.stock and "thin" in r.modes]
        jobs += [(i, "thin", False) for i in items]
    failures, stock_misses = [], set()

    def one(job):
        what, mode, mtpc = job
        check = check_in_place if isinstance(what, InPlace) else check_row
        try:
            return job, check(fx, lld if mtpc else stock_lld, what, mode, work, mtpc), None
        except Failure as e:
            return job, None, str(e)

    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(one, jobs))
    for (what, mode, mtpc), result, error in results:
        name = what.name if isinstance(what, lto_options.Row) else f"file:{what.name}"
        signal = (lto_options.expected_signal(what, VERSION)
                  if isinstance(what, lto_options.Row) else True)
        who = f"{name:<24} {mode}{'' if mtpc else ' (stock lld)'}"
        if error:
            failures.append(f"{who}: {error}")
            print(f"{who}: ERROR {error}")
            continue
        equal, changed = result
        if not mtpc:
            print(f"{who}: {'warm == cold' if equal else 'stock key MISSES it'}")
            if not equal:
                stock_misses.add(name)
            continue
        problems = []
        if not equal:
            problems.append("the warm link differs from a cold one")
        if signal is True and not changed:
            problems.append("no signal: the option did not change the program")
        if signal is False and changed:
            problems.append("the option changed the program, which the table says it does not")
        print(f"{who}: {'; '.join(problems) if problems else 'warm == cold'}"
              f"{', program changed' if changed else ''}")
        failures += [f"{who}: {p}" for p in problems]

    if not args.no_stock and not args.rows:
        documented = documented_misses(source_dir)
        if documented != stock_misses:
            failures.append(f"stock lld {VERSION}'s key misses {sorted(stock_misses)}, "
                            f"docs/lld.rst names {sorted(documented)}")
        print(f"stock lld {VERSION}'s key misses: {', '.join(sorted(stock_misses)) or 'none'}")
    linked = len(jobs)
    print(f"cache options: lld {VERSION}: {len(rows)} rows, {linked} row links, "
          f"{len(failures)} failures")
    for f in failures:
        print(f"FAIL {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        print(f"cache-options: error: {e}")
        sys.exit(1)
