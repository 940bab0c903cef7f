#!/bin/sh
# Prints, sorted and once each, the qualified name of every class, struct,
# union and enum an object's DWARF describes fully (a definition, not a
# DW_AT_declaration), as "tag scope::name": what a split compile must still
# describe somewhere.
#
#   tests/debug-types.sh FILE
# llvm-dwarfdump is $LLVM_DWARFDUMP, else the first on PATH.
"${LLVM_DWARFDUMP:-llvm-dwarfdump}" --debug-info "$1" | awk '
  function finish() {
    if (open && name[depth] != "" && !declaration) {
      qualified = ""
      for (d = 1; d < depth; d++)
        if (scope[d] && name[d] != "")
          qualified = qualified name[d] "::"
      print kind " " qualified name[depth]
    }
    open = 0
  }
  /^0x[0-9a-f]+: +(DW_TAG_|NULL)/ {
    finish()
    match($0, /: +/)
    depth = (RLENGTH - 2) / 2
    tag = $2
    name[depth] = ""
    scope[depth] = tag ~ /^DW_TAG_(namespace|class_type|structure_type|union_type)$/
    open = tag ~ /^DW_TAG_(class_type|structure_type|union_type|enumeration_type)$/
    kind = tag
    declaration = 0
    next
  }
  /DW_AT_name/ { v = $0; sub(/^[^(]*\("/, "", v); sub(/"\)$/, "", v); name[depth] = v }
  /DW_AT_declaration/ { declaration = 1 }
  END { finish() }' | sort -u
