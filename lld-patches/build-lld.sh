#!/usr/bin/env bash
# Builds lld with this directory's patches against the installed LLVM and
# this checkout's libmtpc, and puts it at <build>/bin/lld, with ld.lld and
# lld-link beside it.
#
#   lld-patches/build-lld.sh [--llvm 19|22] [--source DIR]
#
# --llvm picks the series: 19/ for lld 19.1.7 (the default), 22/ for lld
# 22.1.8. The build directory of libmtpc is $MTPC_BUILD_DIR (build/ for 19,
# build-22/ for 22), and it must be configured for the same LLVM: a libmtpc
# built against one LLVM is never linked into the other's lld.
#
# The source is Debian's llvm-toolchain-N source package, the one the
# installed lld-N was built from (fetched once, checked by its SHA-256), with
# the Debian patches its ld.lld-N carries, unless --source names an
# llvm-project checkout of that release of your own. The build directory is
# cached under $MTPC_CACHE/lld/<key>, the key hashing the lld source, the
# patches' diffs of it (not of their tests), the version and the recipe
# version below; libmtpc is linked statically, so a change to it only
# re-links.
#
# Only the libraries the patches change (lldCommon, lldELF, lldCOFF and
# lldMinGW) are compiled; the other drivers (MachO, wasm) come from Debian's
# liblld-N-dev, built from the same source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cache=${MTPC_CACHE:-/var/cache/mtpc}
version=19
source_dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --llvm) version=$2; shift 2 ;;
    --source) source_dir=$(cd "$2" && pwd); shift 2 ;;
    *) echo "usage: $0 [--llvm 19|22] [--source LLVM_PROJECT_DIR]" >&2; exit 2 ;;
  esac
done

log() { echo "build-lld: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Per version: the release, the Debian patches of the series that touch the
# lld sources extracted here, and the default libmtpc build.
case $version in
  19) release=19.1.7; debian_patches=(env-lld-package-metadata.diff)
      build=${MTPC_BUILD_DIR:-$root/build} ;;
  # No patch of 22's series changes lld alone: env-lld-package-metadata.diff
  # is commented out there, and the ones that touch lld/ (shebangs, docs)
  # edit the whole tree and nothing lld compiles.
  22) release=22.1.8; debian_patches=()
      build=${MTPC_BUILD_DIR:-$root/build-22} ;;
  *) die "--llvm $version: the lld series are 19 and 22" ;;
esac
patches=("$here/$version"/*.patch)
[ -f "${patches[0]}" ] || die "no patches in $here/$version"
llvm=/usr/lib/llvm-$version
[ -f "$llvm/lib/liblldELF.a" ] && [ -x "$llvm/bin/clang++" ] ||
  die "LLVM $version is not installed: apt-get install llvm-$version-dev clang-$version liblld-$version-dev (scripts/install-deps.sh)"

# The version of Debian's package that the installed lld-N comes from.
installed_version() { dpkg-query -W -f '${source:Version}' "liblld-$version-dev"; }

# checksum_of LISTING FILE: the SHA-256 that apt's source LISTING names for FILE.
checksum_of() {
  awk -v f="$2" '/^Checksums-Sha256:/ {in_sums = 1; next} /^[^ ]/ {in_sums = 0}
                 in_sums && $3 == f {print $1; exit}' "$1"
}

# apt_private apt-get|apt-cache ARGS...: the tool with a sources list and
# state of its own (deb-src of the suites that hold llvm-toolchain-N),
# leaving the machine's apt as it was.
apt_private() {
  local tool=$1
  shift
  "$tool" -o Dir::Etc::SourceList="$apt_dir/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
    -o Dir::State::Lists="$apt_dir/lists" -o Dir::Cache="$apt_dir/cache" "$@"
}

# download DIR: the orig tarball and Debian's tarball of the installed
# version into DIR, each checked against the SHA-256 of the installed
# version's Sources entry. The .dsc files are not served on every mirror, so
# apt-get source's status says nothing: the files and their sums do.
download() {
  local dl=$1 wanted orig debian listing
  wanted=$(installed_version)
  apt_dir=$(mktemp -d)
  trap 'rm -rf "$apt_dir"' RETURN
  mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
  cat > "$apt_dir/sources.list" <<SRC
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main
SRC
  apt_private apt-get update -qq >/dev/null 2>&1 || die "apt-get update of Debian's deb-src lists failed (no network?)"
  listing=$apt_dir/listing
  apt_private apt-cache showsrc "llvm-toolchain-$version" |
    awk -v v="$wanted" '/^Package:/ {keep = 0} /^Version:/ {keep = ($2 == v)} keep' > "$listing"
  [ -s "$listing" ] || die "Debian's deb-src lists do not name llvm-toolchain-$version $wanted, the installed one"
  orig=llvm-toolchain-${version}_$release.orig.tar.xz
  debian=llvm-toolchain-${version}_${wanted#*:}.debian.tar.xz
  local file sum
  for file in "$orig" "$debian"; do
    sum=$(checksum_of "$listing" "$file")
    [ -n "$sum" ] || die "the Sources entry of $wanted names no $file"
    if ! echo "$sum  $dl/$file" | sha256sum -c --status 2>/dev/null; then
      rm -f "$dl/$file"
      # Any listed version whose entry names this very file may fetch it: the
      # orig tarball of a security upload lives in the main archive's pool.
      local candidate
      for candidate in "$wanted" $(apt_private apt-cache showsrc "llvm-toolchain-$version" |
          awk '/^Version:/ {print $2}' | sort -u); do
        (cd "$dl" && apt_private apt-get source -qq --download-only "llvm-toolchain-$version=$candidate" \
           >/dev/null 2>&1) || true
        [ -f "$dl/$file" ] && break
      done
      echo "$sum  $dl/$file" | sha256sum -c --status 2>/dev/null ||
        die "could not download $file with SHA-256 $sum from Debian's archives; see docs/lld.rst"
    fi
  done
  find "$dl" -maxdepth 1 -type f ! -name "$orig" ! -name "$debian" -delete
}

fetch_debian_source() {
  local dir=$cache/llvm-toolchain-$version
  if [ ! -f "$dir/src/lld/ELF/LTO.cpp" ]; then
    log "fetching Debian's llvm-toolchain-$version source package"
    mkdir -p "$dir/dl"
    download "$dir/dl"
    rm -rf "$dir/extract" "$dir/src"
    mkdir -p "$dir/extract"
    tar -xJf "$dir/dl/llvm-toolchain-${version}_$release.orig.tar.xz" -C "$dir/extract" \
      --wildcards '*/lld/*' '*/cmake/*' '*/libunwind/include/*'
    tar -xJf "$dir"/dl/llvm-toolchain-"$version"_*.debian.tar.xz -C "$dir/extract" debian/patches
    local tree p
    tree=$(echo "$dir"/extract/llvm-toolchain-*"$release")
    for p in "${debian_patches[@]}"; do
      (cd "$tree" && patch -p1 -s < "$dir/extract/debian/patches/$p") ||
        die "Debian's $p does not apply to lld $release"
    done
    mv "$tree" "$dir/src.new" && mv "$dir/src.new" "$dir/src"
    rm -rf "$dir/extract" "$dir/dl"
  fi
  echo "$dir/src"
}

# The libmtpc build must be the same LLVM's.
if [ -f "$build/CMakeCache.txt" ]; then
  built_for=$(sed -n 's/^MTPC_LLVM_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
  [ "$built_for" = "$version" ] ||
    die "$build holds a libmtpc built against LLVM $built_for, not $version: lld $release links only a libmtpc of LLVM $version (configure one with cmake -DMTPC_LLVM_VERSION=$version, and set MTPC_BUILD_DIR to it)"
fi

[ -n "$source_dir" ] || source_dir=$(fetch_debian_source) || exit 1
[ -f "$source_dir/lld/ELF/LTO.cpp" ] || die "no lld sources in $source_dir"
grep -q "LLVM_VERSION_MAJOR $version\b" "$source_dir/cmake/Modules/LLVMVersion.cmake" 2>/dev/null ||
  die "$source_dir is not lld $version's source (cmake/Modules/LLVMVersion.cmake)"

# part_of_patches code|tests: the patches' diffs of lld's sources, or of its
# tests (lld/test/): a change to the tests alone never rebuilds the linker.
part_of_patches() {
  awk -v want="$1" '/^From [0-9a-f]+ / {tests = 0}
                    /^diff --git / {tests = ($3 ~ /^a\/lld\/test\//)}
                    (want == "tests") == tests' "${patches[@]}"
}

recipe=8 # bump when the configuration or link below changes
key=$( { (cd "$source_dir" && find lld cmake -type f -print0 | sort -z | xargs -0 sha256sum);
         part_of_patches code; echo "$version $recipe"; } | sha256sum | cut -c1-16)
work=$cache/lld/$key
prefix=$work/mtpc

# libmtpc, installed where the cached lld build expects it.
cmake -S "$root" -B "$build" -G Ninja -DMTPC_LLVM_VERSION="$version" >/dev/null
ninja -C "$build" mtpc >/dev/null
mkdir -p "$prefix/include/mtpc" "$prefix/lib"
cp -p "$root/include/mtpc/mtpc.h" "$root/include/mtpc/llvm.h" "$prefix/include/mtpc/"
cmp -s "$build/libmtpc.a" "$prefix/lib/libmtpc.a" || cp "$build/libmtpc.a" "$prefix/lib/libmtpc.a"

if [ ! -f "$work/configured" ]; then
  log "patching and configuring lld $release in $work"
  rm -rf "$work/src" "$work/build"
  mkdir -p "$work/src"
  cp -r "$source_dir/lld" "$source_dir/cmake" "$work/src/"
  [ -d "$source_dir/libunwind" ] && mkdir -p "$work/src/libunwind" &&
    cp -r "$source_dir/libunwind/include" "$work/src/libunwind/"
  for p in "${patches[@]}"; do
    (cd "$work/src" && patch -p1 -s --no-backup-if-mismatch < "$p") ||
      die "$(basename "$p") does not apply to lld $release"
  done
  # A unity build (a few large translation units instead of one per file)
  # takes well under half the CPU time of one per file: the files share most
  # of their headers. Files that define static functions or classes under
  # names another file (or an llvm:: namespace) uses compile one by one: the
  # targets' files in ELF/Arch, and ELF/Writer.cpp (lld 19's findSection is
  # also SyntheticSections.cpp's). Such a clash is mostly a compile error;
  # one that could pick another overload silently is what the linker's tests
  # (byte-identical to stock's with the options off) are there to catch. So
  # does the driver's main, whose objects the link below names.
  printf '%s\n' 'file(GLOB mtpc_own_units Arch/*.cpp Writer.cpp)' \
    'set_source_files_properties(${mtpc_own_units} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)' \
    >> "$work/src/lld/ELF/CMakeLists.txt"
  echo 'set_target_properties(lld PROPERTIES UNITY_BUILD OFF)' >> "$work/src/lld/tools/lld/CMakeLists.txt"
  cmake -G Ninja -S "$work/src/lld" -B "$work/build" \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_C_COMPILER="clang-$version" -DCMAKE_CXX_COMPILER="clang++-$version" \
    -DLLVM_DIR="$llvm/lib/cmake/llvm" \
    -DLLVM_LINK_LLVM_DYLIB=ON -DLLVM_INCLUDE_TESTS=OFF \
    -DLLD_VENDOR=Debian -DLLD_MTPC_DIR="$prefix" >/dev/null || die "configuring lld $release failed"
  touch "$work/configured"
  log "building ld.lld $release (several minutes; later runs reuse this build)"
fi
ninja -C "$work/build" lldCommon lldELF lldCOFF lldMinGW tools/lld/CMakeFiles/lld.dir/lld.cpp.o \
  tools/lld/CMakeFiles/lld.dir/lld-driver.cpp.o >/dev/null || die "building lld $release failed"
debian=$llvm/lib
(cd "$work/build" && "clang++-$version" -O2 -Wl,--export-dynamic -rdynamic \
  tools/lld/CMakeFiles/lld.dir/lld.cpp.o tools/lld/CMakeFiles/lld.dir/lld-driver.cpp.o \
  lib/liblldCommon.a lib/liblldCOFF.a lib/liblldELF.a $debian/liblldMachO.a \
  lib/liblldMinGW.a $debian/liblldWasm.a lib/liblldCOFF.a lib/liblldCommon.a \
  "$prefix/lib/libmtpc.a" -lz -lzstd $debian/libLLVM.so.1 -Wl,-rpath,$debian \
  /usr/lib/x86_64-linux-gnu/libjemalloc_pic.a -ldl -lm -lpthread -o lld.new) ||
  die "linking lld $release failed"
# Only a linker that runs takes the place the tools look in.
"$work/build/lld.new" -flavor gnu --version | grep -q "LLD $release" ||
  die "the linked ld.lld does not run as lld $release"
mkdir -p "$build/bin"
mv "$work/build/lld.new" "$build/bin/lld"
ln -sf lld "$build/bin/ld.lld"
ln -sf lld "$build/bin/lld-link"

# The series' own tests, for lit <build>/lld-tests (the lld_series test),
# from the patches as they are (the cached tree may hold older ones).
tests=$(mktemp -d)
part_of_patches tests | (cd "$tests" && patch -p1 -s) || die "the series' tests do not apply"
rm -rf "$build/lld-tests" && mkdir -p "$build/lld-tests/Inputs"
cp "$tests"/lld/test/ELF/lto/mtpc-*.ll "$build/lld-tests/"
cp "$tests"/lld/test/ELF/lto/Inputs/mtpc*.ll "$build/lld-tests/Inputs/"
mkdir -p "$build/lld-tests/COFF/Inputs" "$build/lld-tests/MinGW"
cp "$tests"/lld/test/COFF/mtpc-*.ll "$build/lld-tests/COFF/"
cp "$tests"/lld/test/COFF/Inputs/mtpc*.ll "$build/lld-tests/COFF/Inputs/"
cp "$tests"/lld/test/MinGW/mtpc-*.test "$build/lld-tests/MinGW/"
rm -rf "$tests"
cp "$here/lit.cfg.py" "$build/lld-tests/"
# lld's own option table, patched: tests/lld/cache-options.py walks its LTO
# options (every one must be in its table).
cp "$work/src/lld/ELF/Options.td" "$build/lld-tests/"
echo "$version" > "$build/lld-tests/llvm-version"
echo "$build/bin/ld.lld"
