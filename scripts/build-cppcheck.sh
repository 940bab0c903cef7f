#!/usr/bin/env bash
# A large C++ module with debug info: cppcheck 2.10's library as one LLVM
# module, the workload of a big C++ service (C++11, the standard containers
# throughout). Debian's cppcheck source is built with clang++-19 -O2 -g
# -flto=thin, a production build's flags; the 70 files of its library, its
# bundled simplecpp and tinyxml2, and its command-line code except main()
# (what its Makefile links `testrunner` from besides the tests) are joined by
# llvm-link into cppcheck.bc (about 50 MB). The tests (test/*.cpp, cppcheck's
# own suite) are compiled without LTO at -O1, and cli/main.cpp at -O2 -g, as
# native objects that link against the module's object.
#
#   scripts/build-cppcheck.sh   -> prints the directory holding
#       tree/             the built source tree (testrunner runs from its top)
#       cppcheck.bc       the module
#       tests.txt         the test objects (testrunner = module + these)
#       main.o            cli/main.cpp (cppcheck = module + main.o)
#       check-stock.log   testrunner's output, stock ThinLTO build
#
# Cached under $MTPC_CACHE/cppcheck/<key>, the key a hash of the source
# package's version, clang's and the flags; built once.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${MTPC_CACHE:-/var/cache/mtpc}
src=$("$root/scripts/fetch-inputs.sh" cppcheck)
module_flags="-O2 -g -flto=thin -DNDEBUG"
test_flags="-O1 -DNDEBUG"
main_flags="-O2 -g -DNDEBUG"
key=$( { cat "$src/../version"; clang++-19 --version | head -1;
         echo "$module_flags|$test_flags|$main_flags|recipe 1"; } | sha256sum | cut -c1-16)
out=$cache/cppcheck/$key
if [ -f "$out/cppcheck.bc" ]; then
  echo "$out"
  exit 0
fi
jobs=$(nproc)
[ -d "$out/tree" ] || { mkdir -p "$out" && cp -a "$src" "$out/tree.tmp" && mv "$out/tree.tmp" "$out/tree"; }
cd "$out/tree"
make_vars() { sed -n "/^$1 *=/,/^\$/p" Makefile | tr -d '\\' | sed "s/^$1 *=//"; }
libcppdir=lib
lib_objects=$(make_vars LIBOBJ | sed "s/\$(libcppdir)/$libcppdir/g")
ext_objects=$(make_vars EXTOBJ)
cli_objects=$(make_vars CLIOBJ | tr ' ' '\n' | grep -v '^cli/main.o$' || true)
test_objects=$(make_vars TESTOBJ)
module_objects=$(echo $lib_objects $ext_objects $cli_objects)

# The Makefile appends its -std; CXXFLAGS on the command line replace its
# optimization and warning flags.
make -s -j"$jobs" CXX=clang++-19 CXXFLAGS="$module_flags" $module_objects > make.log 2>&1 ||
  { tail -40 make.log >&2; exit 1; }
make -s -j"$jobs" CXX=clang++-19 CXXFLAGS="$test_flags" $test_objects >> make.log 2>&1 ||
  { tail -40 make.log >&2; exit 1; }
clang++-19 -Ilib -isystem externals/simplecpp -isystem externals/tinyxml2 $main_flags -std=c++0x \
  -c cli/main.cpp -o "$out/main.o"

# Stock: the same objects through ld.lld's ThinLTO, and its test results.
clang++-19 -flto=thin -fuse-ld=lld -O2 $module_objects $test_objects -pthread \
  -o "$out/testrunner-stock"
"$root/scripts/cppcheck-check.sh" "$out" "$out/testrunner-stock" > "$out/check-stock.log.tmp" || true
mv "$out/check-stock.log.tmp" "$out/check-stock.log"
rm -f "$out/testrunner-stock"

(cd "$out/tree" && printf '%s\n' $test_objects | sed "s|^|$out/tree/|") > "$out/tests.txt"
llvm-link-19 $module_objects -o "$out/cppcheck.bc.tmp"
mv "$out/cppcheck.bc.tmp" "$out/cppcheck.bc"
echo "$out"
