#!/bin/sh
# Prints "name type" for every defined global or weak symbol of an object,
# sorted: what a split compile must keep exactly as a serial one has it.
llvm-nm --extern-only --defined-only -P "$1" | awk '{print $1, $2}' | sort
