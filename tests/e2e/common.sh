# Sourced by the end-to-end scripts, which take BUILD_DIR WORK_DIR: sets
# build, work, here (tests/e2e), root (the checkout), mtpc, version (the LLVM
# mtpc is built against), globals (a binary's global symbols) and on_llvm,
# and enters an empty work directory.
build=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mtpc=$build/bin/mtpc
version=${MTPC_LLVM_VERSION:-19}
# on_llvm 19|22: whether this build's suite runs a case that a repetitive
# test shares out between the two suites (each runs the cases named for its
# LLVM and the ones both run; docs/testing.rst, "Shared out").
on_llvm() { if [ "$1" = 19 ]; then [ "$version" = 19 ]; else [ "$version" != 19 ]; fi; }
globals() { LLVM_NM=llvm-nm-$version "$here/../global-symbols.sh" "$@"; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
