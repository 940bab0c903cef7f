# Runs an lld series' own tests (lld/test/ELF/lto/mtpc-*.ll, COFF/mtpc-*.ll,
# MinGW/mtpc-*.test and their Inputs in the patched tree, which build-lld.sh
# copies beside this file into <build>/lld-tests) as lld's lit runs them:
# `ld.lld` and `lld-link` are the patched linker, the other tools (opt,
# llvm-as, FileCheck, not, ...) the installed LLVM's.
#
#   lit <build>/lld-tests
import os
import sys

import lit.formats

config.name = "lld-mtpc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = config.test_source_root

with open(os.path.join(config.test_source_root, "llvm-version")) as f:
    llvm_version = f.read().strip()
lld_bin = os.path.join(config.test_source_root, "..", "bin")
llvm_bin = "/usr/lib/llvm-%s/bin" % llvm_version
config.environment["PATH"] = os.pathsep.join([lld_bin, llvm_bin, "/usr/bin", "/bin"])
config.substitutions.append(("%python", '"%s"' % sys.executable))
# What lld's own lit.cfg.py gives these tests.
config.available_features.update(["x86", "mtpc"])
