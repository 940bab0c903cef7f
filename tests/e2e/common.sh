# Sourced by the end-to-end scripts, which take BUILD_DIR WORK_DIR: sets
# build, work, here (tests/e2e), root (the checkout), mtpc, version (the LLVM
# mtpc is built against) and globals (a binary's global symbols), and enters
# an empty work directory.
build=$(cd "$1" && pwd)
work=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
mtpc=$build/bin/mtpc
version=${MTPC_LLVM_VERSION:-19}
globals() { LLVM_NM=llvm-nm-$version "$here/../global-symbols.sh" "$@"; }
rm -rf "$work" && mkdir -p "$work" && cd "$work"
