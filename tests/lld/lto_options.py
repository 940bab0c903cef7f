"""ld.lld's LTO options, each with what it does to a link's objects: the
table tests/lld/cache-options.py walks (every LTO option of lld's own option
table must be in it) and tests/fuzz/cache-fuzz.py draws from.

A row names the spellings it covers (as lld's Options.td spells them,
without a trailing '='; a BB option's "no-" form is its own spelling) and
either the options of a link that changes it, or why no link does.

  changed   options of the second of two links sharing one cache (the
            first has `base`); the warm link must equal a link from an
            empty cache
  signal    True: the changed program differs from the base one (else the
            row could not fail); False: the option changes no byte of the
            program (it writes other files, or sets threads); None: it may
            or may not on this input (no claim); or per LLVM version
  modes     the LTO kinds it is linked in: thin (--thinlto-mtpc-jobs), full
            (--lto-mtpc-jobs)
  stock     also linked by stock lld (ThinLTO, its cache), to name the options
            whose effect stock's key misses (docs/lld.rst)
  fixture   what the link needs beside the program: a sample profile, a
            context-sensitive profile, a basic block sections list, a pass
            plugin, split DWARF inputs
  relocatable  linked with -r (section names survive)
  driver    clang options of both links (the profile runtime)
"""
from dataclasses import dataclass, field
from typing import Optional


@dataclass
class Row:
    name: str
    spellings: list
    changed: Optional[list] = None
    why: str = ""
    base: list = field(default_factory=list)
    signal: object = True
    modes: tuple = ("thin", "full")
    stock: bool = True
    fixture: Optional[str] = None
    relocatable: bool = False
    driver: list = field(default_factory=list)
    versions: tuple = (19, 22)


MTPC_ONLY = "an mtpc option: stock lld has none"

ROWS = [
    # ---- What the backends compile with: every one a field of lto::Config.
    Row("opt-level", ["lto-O", "plugin-opt=O"], ["--lto-O0"]),
    Row("codegen-level", ["lto-CGO"], ["--lto-CGO0"]),
    Row("pipeline", ["lto-newpm-passes"], ["--lto-newpm-passes=function(instcombine)"]),
    Row("aa-pipeline", ["lto-aa-pipeline"], ["--lto-aa-pipeline=basic-aa"], signal=None),
    # clang records each function's CPU in its attributes, which win.
    Row("cpu", ["plugin-opt=mcpu"], ["-plugin-opt=mcpu=x86-64-v3"], signal=None),
    Row("mllvm", ["mllvm"], ["--mllvm=-align-all-functions=6"]),
    Row("plugin-opt-llvm", ["plugin-opt=-"], ["-plugin-opt=-align-all-functions=6"]),
    # A profile's counts show in the program as sections for hot and cold code.
    Row("sample-profile", ["lto-sample-profile", "plugin-opt=sample-profile"],
        ["-z", "keep-text-section-prefix", "--lto-sample-profile=link.prof"],
        base=["-z", "keep-text-section-prefix"]),
    Row("cs-generate", ["lto-cs-profile-generate", "plugin-opt=cs-profile-generate"],
        ["--lto-cs-profile-generate"], driver=["-fprofile-generate"]),
    # The runtime that clang links writes default.profraw, whatever the path.
    Row("cs-generate-path", ["lto-cs-profile-file", "plugin-opt=cs-profile-path"],
        ["--lto-cs-profile-generate", "--lto-cs-profile-file=other.profraw"],
        base=["--lto-cs-profile-generate"], driver=["-fprofile-generate"], signal=None),
    Row("cs-use", ["lto-cs-profile-file"],
        ["-z", "keep-text-section-prefix", "--lto-cs-profile-file=cs.profdata"],
        base=["-z", "keep-text-section-prefix"], fixture="cs"),
    Row("whole-program-visibility",
        ["lto-whole-program-visibility", "no-lto-whole-program-visibility"],
        ["--lto-whole-program-visibility"]),
    Row("validate-vtables", ["lto-validate-all-vtables-have-type-infos",
                             "no-lto-validate-all-vtables-have-type-infos"],
        ["--lto-whole-program-visibility", "--lto-validate-all-vtables-have-type-infos"],
        base=["--lto-whole-program-visibility"], signal=None),
    Row("known-safe-vtables", ["lto-known-safe-vtables"],
        ["--lto-known-safe-vtables=_ZTV*"],
        base=["--lto-whole-program-visibility", "--lto-validate-all-vtables-have-type-infos"],
        signal=None),
    # lld 22 reads "labels" as --lto-basic-block-address-map, then sets the
    # address map from that option again: the program stays as it was.
    Row("bb-labels", ["lto-basic-block-sections"], ["--lto-basic-block-sections=labels"],
        signal={19: True, 22: False}),
    Row("bb-all", ["lto-basic-block-sections"], ["--lto-basic-block-sections=all"]),
    Row("bb-list", ["lto-basic-block-sections"], ["--lto-basic-block-sections=bb.txt"],
        fixture="bb"),
    Row("bb-address-map", ["lto-basic-block-address-map", "no-lto-basic-block-address-map"],
        ["--lto-basic-block-address-map"]),
    Row("bb-unique-names", ["lto-unique-basic-block-section-names",
                            "no-lto-unique-basic-block-section-names"],
        ["--lto-basic-block-sections=all", "--lto-unique-basic-block-section-names"],
        base=["--lto-basic-block-sections=all"], relocatable=True),
    Row("pass-plugin", ["load-pass-plugin"], ["--load-pass-plugin=./plugin.so"], fixture="plugin"),
    Row("dwo-dir", ["plugin-opt=dwo_dir"], ["-plugin-opt=dwo_dir=dwo"], fixture="split-dwarf"),
    Row("mtpc-partitions", ["thinlto-mtpc-partitions", "plugin-opt=thinlto-mtpc-partitions"],
        ["--thinlto-mtpc-partitions=2"], stock=False),
    Row("mtpc-threshold", ["thinlto-mtpc-threshold", "plugin-opt=thinlto-mtpc-threshold"],
        ["--thinlto-mtpc-threshold=100000000"], stock=False),

    # ---- What changes no byte of the program: outputs beside it, threads,
    # checks. Linked all the same (a warm link must still equal a cold one).
    Row("pass-manager-log", ["lto-debug-pass-manager", "plugin-opt=debug-pass-manager"],
        ["--lto-debug-pass-manager"], signal=False),
    Row("remarks", ["opt-remarks-filename", "opt-remarks-passes", "opt-remarks-format",
                    "opt-remarks-with-hotness", "opt-remarks-hotness-threshold",
                    "plugin-opt=opt-remarks-filename", "plugin-opt=opt-remarks-passes",
                    "plugin-opt=opt-remarks-format", "plugin-opt=opt-remarks-with-hotness",
                    "plugin-opt=opt-remarks-hotness-threshold"],
        ["--opt-remarks-filename", "r.yaml", "--opt-remarks-passes", "inline",
         "--opt-remarks-format", "yaml", "--opt-remarks-with-hotness",
         "--opt-remarks-hotness-threshold=1"], signal=False),
    Row("save-temps", ["save-temps", "plugin-opt=save-temps"], ["--save-temps"], signal=False),
    Row("save-temps-some", ["save-temps"], ["--save-temps=opt"], signal=False),
    Row("stats-file", ["plugin-opt=stats-file"], ["-plugin-opt=stats-file=stats.txt"],
        signal=False),
    Row("time-trace", ["time-trace", "time-trace-granularity", "plugin-opt=time-trace"],
        ["--time-trace=trace.json", "--time-trace-granularity=100"], signal=False),
    Row("emit-imports", ["thinlto-emit-imports-files", "plugin-opt=thinlto-emit-imports-files"],
        ["--thinlto-emit-imports-files"], signal=False, modes=("thin",)),
    Row("emit-index", ["thinlto-emit-index-files"], ["--thinlto-emit-index-files"],
        signal=False, modes=("thin",)),
    Row("obj-path", ["lto-obj-path", "plugin-opt=obj-path"], ["--lto-obj-path=objs.o"],
        signal=False),
    Row("disable-verify", ["disable-verify", "plugin-opt=disable-verify"], ["--disable-verify"],
        signal=False),
    Row("pgo-warn-mismatch", ["lto-pgo-warn-mismatch", "no-lto-pgo-warn-mismatch"],
        ["--no-lto-pgo-warn-mismatch"], signal=False),
    Row("thinlto-jobs", ["thinlto-jobs", "plugin-opt=jobs"], ["--thinlto-jobs=1"], signal=False),
    Row("cache-policy", ["thinlto-cache-policy"], ["--thinlto-cache-policy=prune_interval=0s"],
        signal=False),
    Row("lto-partitions", ["lto-partitions", "plugin-opt=lto-partitions"],
        ["--lto-partitions=2"], signal=None),
    Row("mtpc-jobs", ["thinlto-mtpc-jobs", "plugin-opt=thinlto-mtpc-jobs", "lto-mtpc-jobs",
                      "plugin-opt=lto-mtpc-jobs"],
        ["--thinlto-mtpc-jobs=1", "--lto-mtpc-jobs=1"], signal=False, stock=False),
    Row("mtpc-memory-limit", ["thinlto-mtpc-memory-limit",
                              "plugin-opt=thinlto-mtpc-memory-limit"],
        ["--thinlto-mtpc-memory-limit=64M"], signal=False, stock=False),
    Row("mtpc-stats", ["thinlto-mtpc-stats", "plugin-opt=thinlto-mtpc-stats"],
        ["--thinlto-mtpc-stats=stats.txt"], signal=False, stock=False),
    # Not the object file: the output is assembly or bitcode (compared whole).
    Row("emit-asm", ["lto-emit-asm", "plugin-opt=emit-asm"], ["--lto-emit-asm"]),
    # Each ThinLTO module is written to the one output, the last one there
    # staying (as with stock lld): one backend thread makes that the last task.
    Row("emit-llvm", ["lto-emit-llvm", "plugin-opt=emit-llvm"],
        ["--thinlto-jobs=1", "--lto-emit-llvm"], base=["--thinlto-jobs=1"]),

    # ---- Not linked here, and why.
    Row("cache-dir", ["thinlto-cache-dir"], why="the cache itself, in every link here"),
    Row("index-only", ["thinlto-index-only", "plugin-opt=thinlto-index-only",
                       "thinlto-object-suffix-replace", "plugin-opt=thinlto-object-suffix-replace",
                       "thinlto-prefix-replace", "plugin-opt=thinlto-prefix-replace"],
        why="distributed ThinLTO: lld writes the index and runs no backend "
            "(mtpc backend's cache: tests/fuzz/cache-fuzz.py, tool backend)"),
    Row("single-module", ["thinlto-single-module"],
        why="debugging: lld compiles the named modules and writes their objects, no program"),
    Row("unified", ["lto"],
        why="picks the backend of Unified LTO inputs (-funified-lto); which backend a "
            "module takes is in its key (full LTO keys through libmtpc alone)"),
    Row("fat-objects", ["fat-lto-objects", "no-fat-lto-objects"],
        why="which section of an input is read as bitcode: what is read is in the key "
            "(the module's hash)"),
    Row("gold-plugin", ["plugin", "plugin-opt", "plugin-opt=thinlto",
                        "plugin-opt=-fresolution", "plugin-opt=-pass-through"],
        why="ignored: what clang passes to GNU linkers' LTO plugin"),
    Row("dtlto", ["thinlto-distributor", "thinlto-distributor-arg", "thinlto-remote-compiler",
                  "thinlto-remote-compiler-prepend-arg", "thinlto-remote-compiler-arg"],
        why="DTLTO: the backends run in the distributor's jobs, which lld does not cache "
            "(mtpc distribute: tests/e2e/dtlto-e2e.sh)", versions=(22,)),
]


# Options.td spellings that are LTO options: they must each be in a row.
LTO_SPELLING = r"^(no-)?(lto|thinlto|plugin|fat-lto|opt-remarks|save-temps|mllvm|" \
               r"load-pass-plugin|disable-verify|time-trace)\b"


def expected_signal(row, version):
    return row.signal.get(version) if isinstance(row.signal, dict) else row.signal


def rows_for(version):
    return [r for r in ROWS if version in r.versions]


def linked_rows(version, mode=None):
    """The rows that link, in `mode` when given."""
    return [r for r in rows_for(version)
            if r.changed is not None and (mode is None or mode in r.modes)]


# ---- For tests/fuzz/cache-fuzz.py: options a random link may take, by row.
# Each draws the options of one row's kind; what writes no program (assembly,
# bitcode), needs a fixture, or only prints is left out.
FUZZ = {
    "opt-level": lambda rng: [f"--lto-O{rng.randint(0, 3)}"],
    "codegen-level": lambda rng: [f"--lto-CGO{rng.randint(0, 3)}"],
    "aa-pipeline": lambda rng: ["--lto-aa-pipeline=" + rng.choice(["basic-aa", "basic-aa,tbaa"])],
    "pipeline": lambda rng: ["--lto-newpm-passes=" + rng.choice(
        ["function(instcombine)", "default<O1>", "function(sroa,early-cse)"])],
    "mllvm": lambda rng: [f"--mllvm=-align-all-functions={rng.randint(4, 6)}"],
    "plugin-opt-llvm": lambda rng: [f"-plugin-opt=-align-all-functions={rng.randint(4, 6)}"],
    "whole-program-visibility": lambda rng: [rng.choice(["--lto-whole-program-visibility",
                                                         "--no-lto-whole-program-visibility"])],
    "bb-sections": lambda rng: ["--lto-basic-block-sections=" + rng.choice(["all", "labels",
                                                                           "none"])],
    "bb-address-map": lambda rng: [rng.choice(["--lto-basic-block-address-map",
                                               "--no-lto-basic-block-address-map"])],
    "bb-unique-names": lambda rng: ["--lto-basic-block-sections=all",
                                    "--lto-unique-basic-block-section-names"],
    "lto-partitions": lambda rng: [f"--lto-partitions={rng.randint(1, 3)}"],
    "mtpc-threshold": lambda rng: [f"--thinlto-mtpc-threshold={rng.choice([0, 50, 10**8])}"],
    "mtpc-partitions": lambda rng: ["--thinlto-mtpc-partitions=" + rng.choice(["2", "4", "max"])],
    "disable-verify": lambda rng: ["--disable-verify"],
    "thinlto-jobs": lambda rng: [f"--thinlto-jobs={rng.randint(1, 2)}"],
    "remarks": lambda rng: ["-plugin-opt=opt-remarks-filename=remarks.yaml",
                            "-plugin-opt=opt-remarks-passes=inline"],
}


def draw_options(rng):
    """A random set of lld options: {kind: options}."""
    kinds = rng.sample(sorted(FUZZ), rng.choice([0, 1, 2, 3]))
    return {kind: FUZZ[kind](rng) for kind in kinds}


def mutate_options(rng, drawn):
    """The options of a second link: the same, or with one kind drawn again,
    added or dropped."""
    after = dict(drawn)
    step = rng.choice(["same", "same", "redraw", "add", "drop"])
    if step == "redraw" and after:
        kind = rng.choice(sorted(after))
        after[kind] = FUZZ[kind](rng)
    elif step == "add":
        kind = rng.choice(sorted(FUZZ))
        after[kind] = FUZZ[kind](rng)
    elif step == "drop" and after:
        del after[rng.choice(sorted(after))]
    return after


def flatten(drawn):
    return [option for kind in sorted(drawn) for option in drawn[kind]]
