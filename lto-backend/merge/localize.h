/* The merged object's promoted symbols made local again, in place: ld.lld -r
 * leaves them hidden globals. Only the symbol table, the string tables'
 * terminators and the relocations' symbol indices change, where LLVM's
 * ObjCopy (objects.cpp, the fallback) writes the whole object anew, debug
 * sections included.
 *
 * A promoted name is its original name with a suffix
 * (".llvm.mtpc<hash>"), so the original name is the promoted name's string
 * cut short; a section named after a promoted symbol (".text.<promoted>")
 * takes the original's name the same way. Local symbols come first in an
 * ELF symbol table, so the localized ones move to the end of the locals and
 * every relocation, and each COMDAT group's signature, is renumbered. */
#ifndef MTPC_LOCALIZE_H
#define MTPC_LOCALIZE_H

#include <stddef.h>
#include <stdint.h>

typedef enum mtpc_localize_status {
  MTPC_LOCALIZED,
  MTPC_LOCALIZE_UNSUPPORTED, /* not an ELF64 little-endian relocatable object as
                                ld.lld -r writes it: nothing was changed */
  MTPC_LOCALIZE_NO_MEMORY    /* nothing was changed */
} mtpc_localize_status;

/* Localizes the global symbols of `object` named names[i] (each original[i]
 * a prefix of it, or equal), gives them default visibility and the original
 * name, and renames the sections named after them. held[0..held_count)
 * are symbol indices kept outside the object, renumbered with it. */
mtpc_localize_status mtpc_localize_in_place(uint8_t *object, size_t size,
                                            const char *const *names,
                                            const char *const *originals, size_t count,
                                            uint32_t *held, size_t held_count);

#endif
