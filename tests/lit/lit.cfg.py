# lit configuration for mtpc's IR and command-line tests.
import os
import sys
import lit.formats

config.name = "mtpc"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.mtpc_build_dir, "tests", "lit")

llvm_bin = config.llvm_tools_dir
config.environment["PATH"] = os.pathsep.join(
    [os.path.join(config.mtpc_build_dir, "bin"), llvm_bin, config.environment.get("PATH", "")])
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%mtpc", os.path.join(config.mtpc_build_dir, "bin", "mtpc")))
config.substitutions.append(
    ("%global-symbols", os.path.join(config.test_source_root, "..", "global-symbols.sh")))
config.substitutions.append(
    ("%peak-concurrency", os.path.join(config.test_source_root, "..", "peak-concurrency.py")))
config.substitutions.append(
    ("%debug-stats", os.path.join(config.test_source_root, "..", "debug-stats.py")))
config.substitutions.append(
    ("%remarks-compare", os.path.join(config.test_source_root, "..", "remarks-compare.py")))
config.substitutions.append(
    ("%debug-types", os.path.join(config.test_source_root, "..", "debug-types.sh")))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "Inputs")))
# Which share of a table the two builds divide (docs/testing.rst, "Shared
# out"): 0 in the LLVM 19 build, 1 in the LLVM 22 one.
config.substitutions.append(("%share", "0" if config.mtpc_llvm_version == "19" else "1"))
# Every partition module must pass the verifier on its own.
config.substitutions.append(
    ("%verify-partitions",
     "sh -c 'for f in \"$0\"/part*.ll; do opt -passes=verify -disable-output \"$f\" || exit 1; done'"))

# The patched ld.lld (lld-patches/build-lld.sh puts it next to mtpc).
mtpc_lld = os.path.join(config.mtpc_build_dir, "bin", "ld.lld")
if os.path.exists(mtpc_lld):
    config.available_features.add("mtpc-lld")
config.substitutions.append(("%lld", mtpc_lld))
# Before %stock-lld, which is a prefix of it.
config.substitutions.append(("%stock-lld-link", os.path.join(config.llvm_tools_dir, "lld-link")))
config.substitutions.append(("%stock-lld", os.path.join(config.llvm_tools_dir, "ld.lld")))


# The mtpc program's allocator: jemalloc makes a partition's memory figure
# exact (its thread's peak allocation).
if config.mtpc_allocator == "jemalloc":
    config.available_features.add("jemalloc")

import shutil
if shutil.which("gdb"):
    config.available_features.add("gdb")
# lldb-19 (scripts/install-deps.sh) debugs the other targets' programs
# through qemu-user's gdbstub.
if shutil.which("lldb-19") and shutil.which("qemu-aarch64"):
    config.available_features.add("lldb")

# wine64 and the MinGW runtime (scripts/install-deps.sh) run Windows programs.
if os.path.exists("/usr/lib/wine/wine64") and os.path.exists("/usr/x86_64-w64-mingw32/lib/libmsvcrt.a"):
    config.available_features.add("wine")
    config.substitutions.append(("%wine", "/usr/lib/wine/wine64"))

# gdb-multiarch reads the other targets' programs (and mtpc compile's
# merged .dwo, which lldb 19 does not) through qemu-user's gdbstub.
if shutil.which("gdb-multiarch") and shutil.which("qemu-aarch64"):
    config.available_features.add("gdb-multiarch")

# LLVM 19's writer can still write debug intrinsics instead of records (the
# bitcode of earlier LLVMs); LLVM 22's cannot.
import subprocess
import tempfile
opt_help = subprocess.run([os.path.join(llvm_bin, "opt"), "--help-hidden"],
                          capture_output=True, text=True).stdout
if "--write-experimental-debuginfo-iterators-to-bitcode" in opt_help:
    config.available_features.add("debug-intrinsics-writer")

# Key Instructions' atom groups (clang 21 and later).
key_instructions = subprocess.run(
    [os.path.join(llvm_bin, "clang"), "-gkey-instructions", "-g", "-x", "c", "-c", "-",
     "-o", os.devnull], input="int f(void) { return 0; }\n", capture_output=True, text=True)
if key_instructions.returncode == 0:
    config.available_features.add("key-instructions")

# RISC-V split DWARF with linker relaxation (clang 22 writes it; 19 refuses:
# relocations would remain in the .dwo sections).
with tempfile.TemporaryDirectory() as scratch:
    riscv_split_dwarf = subprocess.run(
        [os.path.join(llvm_bin, "clang"), "--target=riscv64-linux-gnu", "-gsplit-dwarf", "-g",
         "-x", "c", "-c", "-", "-o", os.path.join(scratch, "f.o")],
        input="int f(void) { return 0; }\n", capture_output=True, text=True)
if riscv_split_dwarf.returncode == 0:
    config.available_features.add("riscv-split-dwarf")
