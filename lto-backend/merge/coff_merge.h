/* Partition objects (COFF) -> one COFF object. No linker writes a
 * relocatable COFF object, and none is needed: a COFF object may hold any
 * number of sections of one name (COMDATs are sections, not groups), and
 * its linker resolves external symbols by name, so one object is the
 * partitions' sections, symbols and relocations one after the other,
 * renumbered. Promoted symbols become static again under their original
 * names (as do the sections MinGW names after them, ".text$<name>"), and
 * a reference to a symbol another partition defines points at that
 * definition, as a serial compile's object would. */
#ifndef MTPC_COFF_MERGE_H
#define MTPC_COFF_MERGE_H

#include <stddef.h>
#include <stdint.h>

/* Merges objects[0..count) in order into *out (malloc'ed). names[i] is a
 * promoted symbol's name, originals[i] the name it gets back. 0 on
 * success, else *message (NULL: memory ran out). */
int mtpc_coff_merge(const void *const *objects, const size_t *sizes, uint32_t count,
                    const char *const *names, const char *const *originals, size_t name_count,
                    void **out, size_t *out_size, char **message);

#endif
