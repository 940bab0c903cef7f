/* The merged ELF object's address-significance table (.llvm_addrsig), made
 * from the partitions' own.
 *
 * ld.lld -r concatenates the partitions' tables and sets the section's
 * sh_link to 0, which tells a later link that the indices in it are void:
 * ld.lld's --icf=safe then treats every symbol of the object as
 * address-significant and warns (an error with --fatal-warnings). The
 * table a serial compile writes lists the symbols whose address the code
 * takes; the merged object's lists the same symbols: each partition's
 * entries found again in the merged symbol table, a global by its name, a
 * local by its place (ld.lld -r writes each input's locals in the input's
 * order, one input after the other, leaving out section symbols and those
 * of the COMDAT groups an earlier input already had). Where an entry
 * cannot be found that way, the table lists every symbol, which is what a
 * linker assumes of an object without one. */
#ifndef MTPC_ADDRSIG_H
#define MTPC_ADDRSIG_H

#include <stddef.h>
#include <stdint.h>

typedef struct mtpc_addrsig {
  int found;         /* every partition's entries were found */
  uint32_t *symbols; /* their merged symbol indices */
  size_t count;
} mtpc_addrsig;

/* The entries of `merged`'s table (an object mtpc_elf_open reads, as
 * ld.lld -r wrote it from objects[0..count)). 1 when memory runs out. */
int mtpc_addrsig_collect(uint8_t *merged, size_t merged_size, void *const *objects,
                         const size_t *sizes, uint32_t count, mtpc_addrsig *table);

/* Writes the table where *object (the merged object, a mapping when
 * *mapped) has a void one: the entries found (sorted, each once), else
 * every symbol. *object becomes a new buffer with the table at its end, the
 * section's header pointing at it and at the symbol table. 1 when memory
 * runs out (then *object is unchanged). */
int mtpc_addrsig_write(mtpc_addrsig *table, void **object, size_t *object_size, int *mapped);

void mtpc_addrsig_free(mtpc_addrsig *table);

#endif
