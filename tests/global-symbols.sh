#!/bin/sh
# Prints "name type" for every defined global or weak symbol of an object,
# executable or shared library, sorted: what a split compile must keep
# exactly as a serial one has it. With -D: the dynamic symbol table's.
#
#   tests/global-symbols.sh [-D] FILE
# llvm-nm is $LLVM_NM, else the first on PATH (lit puts LLVM's tools first).
table=--extern-only
if [ "$1" = -D ]; then
  table=-D
  shift
fi
"${LLVM_NM:-llvm-nm}" $table --defined-only -P "$1" | awk '{print $1, $2}' | sort
