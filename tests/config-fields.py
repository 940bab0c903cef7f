#!/usr/bin/env python3
"""The one list of the LTO configuration (lto-backend/codegen/config_fields.def)
names every field of llvm::lto::Config, llvm::TargetOptions,
llvm::MCTargetOptions and llvm::PipelineTuningOptions of the installed LLVM,
and no other: a field a new LLVM adds must be placed (keyed, copied, or
neither, and why) before the partition cache can be trusted with it.

  config-fields.py SOURCE_DIR LLVM_VERSION

The installed fields come from clang's AST of the headers (clang++-N
-ast-dump), the list's from the preprocessed list."""
import os
import re
import subprocess
import sys

RECORDS = {
    "llvm::lto::Config": ["CONFIG_SETTING", "CONFIG_NAMES", "CONFIG_LLVM_OPTIONS",
                          "CONFIG_FILES", "CONFIG_PROFILE", "CONFIG_CS_PROFILE",
                          "CONFIG_OUTPUT", "CONFIG_OUTPUT_FORM", "CONFIG_PLACE", "CONFIG_DRIVER",
                          "CONFIG_HOOK"],
    "llvm::TargetOptions": ["TARGET_OPTION", "TARGET_OPTION_VIA", "TARGET_OPTION_FILE",
                            "TARGET_OPTION_NOT_KEYED"],
    "llvm::MCTargetOptions": ["MC_OPTION", "MC_OPTION_NOT_KEYED"],
    "llvm::PipelineTuningOptions": ["TUNING_OPTION"],
}


def installed_fields(version, record):
    """The FieldDecls of `record` as clang sees LLVM's headers."""
    source = '#include "llvm/LTO/Config.h"\n#include "llvm/Passes/PassBuilder.h"\n'
    dump = subprocess.run(
        [f"clang++-{version}", "-std=c++17", "-fsyntax-only", "-x", "c++", "-",
         f"-I/usr/lib/llvm-{version}/include", "-Xclang", "-ast-dump", "-Xclang",
         "-ast-dump-filter", "-Xclang", record],
        input=source, capture_output=True, text=True).stdout
    fields, inside = set(), False
    for line in dump.splitlines():
        if line.startswith("Dumping "):
            inside = line == f"Dumping {record}:"
            continue
        m = re.match(r"^[|`]-FieldDecl .*?> (?:col|line:\d+):\d+ (?:(?:referenced|used|implicit) )*(\w+) '", line)
        if inside and m:
            fields.add(m.group(1))
    return fields


def listed_fields(source_dir, version):
    """record -> the names config_fields.def gives, for this LLVM version."""
    defines = []
    for record, kinds in RECORDS.items():
        for kind in kinds:
            defines.append(f"-D{kind}(name, ...)=@{record} name@")
    text = subprocess.run(
        ["cpp", "-P", f"-DLLVM_VERSION_MAJOR={version}", *defines,
         os.path.join(source_dir, "lto-backend", "codegen", "config_fields.def")],
        capture_output=True, text=True, check=True).stdout
    listed = {record: set() for record in RECORDS}
    for record, name in re.findall(r"@(\S+) (\w+)@", text):
        listed[record].add(name)
    return listed


def main():
    source_dir, version = sys.argv[1], sys.argv[2]
    listed = listed_fields(source_dir, version)
    problems = []
    for record in RECORDS:
        have = installed_fields(version, record)
        if not have:
            problems.append(f"{record}: no fields read from LLVM {version}'s headers")
            continue
        problems += [f"{record}::{name}: in LLVM {version}, not in config_fields.def "
                     "(say whether it is copied, keyed, or neither)"
                     for name in sorted(have - listed[record])]
        problems += [f"{record}::{name}: in config_fields.def, not in LLVM {version}"
                     for name in sorted(listed[record] - have)]
        print(f"{record}: {len(have)} fields in LLVM {version}, {len(listed[record])} listed")
    if problems:
        print("\n".join(problems))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
