#!/usr/bin/env bash
# The C++ corpus: each program under tests/cxx/ is built five ways and run;
# its output and exit status must equal the stock build's, and the lld
# build's global symbols the stock build's.
#   stock    clang++-19 -flto=thin, Debian's ld.lld-19;
#   lld      the patched ld.lld splitting every module as finely as it can
#            (--thinlto-mtpc-threshold=0, one partition per group);
#   cli      the program's modules joined by llvm-link, then
#            `mtpc compile --partitions max`, linked as one object;
#   cli-dup  the same with aggressive duplication (--import-instr-limit=1000);
#   cli-one  the same module compiled unsplit (--partitions 1).
# Each program is also built with full LTO (-flto), stock against ld.lld
# --lto-mtpc-jobs, with the same checks (full_lto below).
# Variants add flags (sanitizers, debug info, whole-program vtables: without
# split LTO units, which llvm-link cannot join); with -g the split programs'
# DWARF must verify. A program with a count-indirect-calls file is also built
# without its flags: the lld build must make as many indirect calls as the
# stock one, and fewer than that plain build (the calls devirtualization
# turned direct stay direct when every module is split).
#
#   tests/cxx/cxx-corpus.sh BUILD_DIR WORK_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
version=${MTPC_LLVM_VERSION:-19} # the LLVM mtpc and its ld.lld are built against
work=$2
here=$(cd "$(dirname "$0")" && pwd)
lld=$build/bin/ld.lld
mtpc=$build/bin/mtpc
stock_lld=/usr/lib/llvm-$version/bin/ld.lld
[ -x "$lld" ] && [ -x "$mtpc" ] || { echo "build mtpc and ld.lld first" >&2; exit 2; }
symbols() { LLVM_NM=llvm-nm-$version "$here/../global-symbols.sh" "$@"; }
split="-Wl,--thinlto-mtpc-jobs=2,--thinlto-mtpc-threshold=0,--thinlto-mtpc-partitions=100000"
rm -rf "$work" && mkdir -p "$work"

# name  source directory  extra flags
variants=(
  "shapes shapes"
  "exceptions exceptions"
  "statics statics"
  "lowlevel lowlevel"
  "devirt devirt -fwhole-program-vtables -fvisibility=hidden -fno-split-lto-unit"
  "exceptions+asan exceptions -fsanitize=address,undefined -fno-sanitize-recover=all"
  "statics+asan statics -fsanitize=address,undefined -fno-sanitize-recover=all"
  "lowlevel+asan lowlevel -fsanitize=address,undefined -fno-sanitize-recover=all"
  "shapes+g shapes -g"
  "exceptions+g exceptions -g"
  "statics+g statics -g"
  "lowlevel+g lowlevel -g"
)

ways="stock lld cli cli-dup cli-one"
# build_ways OUT_PREFIX LINK_FLAGS OBJECTS...: OUT_PREFIX.<way> for each way
build_ways() {
  local out=$1 link=$2; shift 2
  clang++-$version -flto=thin -fuse-ld=lld --ld-path="$stock_lld" $link "$@" -o "$out.stock"
  clang++-$version -flto=thin -fuse-ld=lld --ld-path="$lld" $link "$@" $split -o "$out.lld" 2> "$out.lld.err"
  llvm-link-$version "$@" -o "$out.bc"
  "$mtpc" compile "$out.bc" --partitions max -j2 -o "$out.cli.o" 2> "$out.cli.err"
  "$mtpc" compile "$out.bc" --partitions max --import-instr-limit=1000 -j2 -o "$out.cli-dup.o" 2> "$out.cli-dup.err"
  "$mtpc" compile "$out.bc" --partitions 1 -o "$out.cli-one.o"
  for way in cli cli-dup cli-one; do
    clang++-$version -fuse-ld=lld --ld-path="$stock_lld" $link "$out.$way.o" -o "$out.$way"
  done
}

# indirect_calls EXE: calls and jumps through a register or memory.
indirect_calls() { llvm-objdump-$version -d --no-show-raw-insn "$1" | grep -cE '(call|jmp)q?\s+\*'; }

run() { # run EXE OUT: output and exit status
  local status=0
  (cd "$(dirname "$1")" && timeout 60 "./$(basename "$1")") > "$2" 2>&1 || status=$?
  echo "exit status $status" >> "$2"
}

# full_lto NAME SRC OUT CFLAGS FLAGS: the program built with -flto (full
# LTO), stock against ld.lld --lto-mtpc-jobs splitting the merged module as
# finely as it can: the same output, global symbols and indirect calls (the
# calls whole-program devirtualization turned direct), and valid DWARF.
# Both export their symbols (--export-dynamic): internalized, a small
# program is one call tree under main, which no cut splits.
full_lto() {
  local name=$1 src=$2 out=$3 cflags=$4 flags=$5 f parts objects=()
  for f in "$src"/*.cpp; do
    clang++-$version $cflags -flto -c "$f" -o "$out/$(basename "$f" .cpp).full.o"
    objects+=("$out/$(basename "$f" .cpp).full.o")
  done
  clang++-$version -flto -fuse-ld=lld --ld-path="$stock_lld" $flags -rdynamic "${objects[@]}" \
    -o "$out/prog.full-stock"
  clang++-$version -flto -fuse-ld=lld --ld-path="$lld" $flags -rdynamic "${objects[@]}" -o "$out/prog.full-lld" \
    -Wl,--lto-mtpc-jobs=2,--thinlto-mtpc-threshold=0,--thinlto-mtpc-partitions=100000 \
    -Wl,--thinlto-mtpc-stats="$out/prog.full-lld.stats"
  parts=$(sed -nE 's/^mtpc: ld-temp.o: ([0-9]+) partitions.*/\1/p' "$out/prog.full-lld.stats")
  [ "${parts:-0}" -gt 1 ] || { echo "$name: full LTO: not split"; exit 1; }
  run "$out/prog.full-stock" "$out/prog.full-stock.out"
  run "$out/prog.full-lld" "$out/prog.full-lld.out"
  diff -u "$out/prog.stock.out" "$out/prog.full-stock.out"
  diff -u "$out/prog.full-stock.out" "$out/prog.full-lld.out"
  diff -u <(symbols "$out/prog.full-stock") <(symbols "$out/prog.full-lld")
  if [[ " $flags " == *" -g "* ]]; then
    llvm-dwarfdump-$version --verify --quiet "$out/prog.full-lld" || { echo "$name: full LTO: broken DWARF"; exit 1; }
  fi
  if [ -f "$src/count-indirect-calls" ]; then
    local calls_stock calls_lld
    calls_stock=$(indirect_calls "$out/prog.full-stock") calls_lld=$(indirect_calls "$out/prog.full-lld")
    echo "$name: full LTO: indirect calls: stock $calls_stock, split $calls_lld"
    [ "$calls_lld" -eq "$calls_stock" ] || exit 1
  fi
  echo "$name: full LTO ($parts partitions) agrees"
}

for v in "${variants[@]}"; do
  read -r name dir flags <<< "$v"
  src=$here/$dir
  out=$work/$name
  mkdir -p "$out"
  cflags="-O2 -std=c++17 $flags"
  objects=()
  for f in "$src"/*.cpp; do
    o=$out/$(basename "$f" .cpp).o
    clang++-$version $cflags -flto=thin -c "$f" -o "$o"
    objects+=("$o")
  done
  if [ -f "$src/lib.list" ]; then
    libobjs=()
    for f in $(cat "$src/lib.list"); do
      o=$out/${f%.cpp}.pic.o
      clang++-$version $cflags -fPIC -DSHAPES_SHARED -flto=thin -c "$src/$f" -o "$o"
      libobjs+=("$o")
    done
    build_ways "$out/lib" "$flags -shared -fPIC" "${libobjs[@]}"
    main=$out/main.pic.o
    clang++-$version $cflags -fPIC -DSHAPES_SHARED -flto=thin -c "$src/main.cpp" -o "$main"
    for way in $ways; do
      mkdir -p "$out/$way" && cp "$out/lib.$way" "$out/$way/libprog.so"
      clang++-$version -flto=thin -fuse-ld=lld --ld-path="$stock_lld" $flags "$main" \
        -L"$out/$way" -lprog -Wl,-rpath,"$out/$way" -o "$out/$way/main"
      symbols -D "$out/lib.$way" > "$out/lib.$way.syms"
      run "$out/$way/main" "$out/lib-main.$way.out"
    done
  fi
  build_ways "$out/prog" "$flags" "${objects[@]}"
  for way in $ways; do
    run "$out/prog.$way" "$out/prog.$way.out"
  done
  grep -q "exit status 0" "$out/prog.stock.out" || { echo "$name: the stock build fails"; cat "$out/prog.stock.out"; exit 1; }
  diff -u <(symbols "$out/prog.stock") <(symbols "$out/prog.lld")
  for way in lld cli cli-dup cli-one; do
    diff -u "$out/prog.stock.out" "$out/prog.$way.out"
    if [ -f "$src/lib.list" ]; then
      diff -u "$out/lib-main.stock.out" "$out/lib-main.$way.out"
      [ $way = lld ] && ref=stock || ref=cli-one
      diff -u "$out/lib.$ref.syms" "$out/lib.$way.syms"
    fi
  done
  if [[ " $flags " == *" -g "* ]]; then
    for f in prog.lld prog.cli prog.cli-dup; do
      llvm-dwarfdump-$version --verify --quiet "$out/$f" || { echo "$name: $f: broken DWARF"; exit 1; }
    done
  fi
  if [ -f "$src/count-indirect-calls" ]; then
    plain=()
    for f in "$src"/*.cpp; do
      clang++-$version -O2 -std=c++17 -flto=thin -c "$f" -o "$out/$(basename "$f" .cpp).plain.o"
      plain+=("$out/$(basename "$f" .cpp).plain.o")
    done
    clang++-$version -flto=thin -fuse-ld=lld --ld-path="$stock_lld" "${plain[@]}" -o "$out/prog.plain"
    calls_stock=$(indirect_calls "$out/prog.stock") calls_lld=$(indirect_calls "$out/prog.lld")
    calls_plain=$(indirect_calls "$out/prog.plain")
    echo "$name: indirect calls: stock $calls_stock, split $calls_lld, without its flags $calls_plain"
    [ "$calls_lld" -eq "$calls_stock" ] && [ "$calls_stock" -lt "$calls_plain" ] || exit 1
  fi
  full_lto "$name" "$src" "$out" "$cflags" "$flags"
  if [ -s "$out/prog.cli.err" ]; then
    echo "$name: unexpected diagnostics:"; cat "$out/prog.cli.err"; exit 1
  else
    parts=$("$mtpc" plan "$out/prog.bc" --partitions max | sed -n 's/^partitions: //p')
    [ "$parts" -gt 1 ] || { echo "$name: not split"; exit 1; }
  fi
  echo "$name: $ways agree"
done
