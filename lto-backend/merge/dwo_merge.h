/* The partitions' split DWARF, merged into one .dwo (dwo_merge.c), as one
 * compile of the module writes it: every partition's units in one file,
 * their strings in one string offsets table, their location and range
 * lists in one table each, so that a debugger that opens the .dwo a
 * skeleton unit names finds that unit there by its DWO id. */
#ifndef MTPC_DWO_MERGE_H
#define MTPC_DWO_MERGE_H

#include <stddef.h>

/* Merges `count` .dwo files (ELF64 little-endian, DWARF 5 split units, as
 * LLVM writes them; NULL or empty ones are skipped), in order, into
 * *merged (malloc'ed). Units keep their order and DWO ids; a type unit
 * whose signature an earlier one has is left out. 0 on success; else
 * *message (NULL: out of memory) says what it cannot merge. */
int mtpc_merge_dwo(const void *const *dwos, const size_t *sizes, unsigned count, void **merged,
                   size_t *merged_size, char **message);

#endif
