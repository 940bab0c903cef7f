/* Every metadata string of a bitcode, where the bytes hold it: one pass over
 * the METADATA_STRINGS records of the module's metadata block and of each
 * function body's (md_strings.c). A string is the same object wherever the
 * module uses it (LLVM uniques them), so the one place its text sits is
 * every use: the partition cache's key swaps a text that only a source
 * file's checksum uses for a placeholder there (cache_masks.h). */
#ifndef MTPC_MD_STRINGS_H
#define MTPC_MD_STRINGS_H

#include <stddef.h>
#include <stdint.h>

#include "bitstream.h"

/* One string: its bytes in the bitcode (`length`, not terminated). Non-zero
 * stops the walk, which returns it. */
typedef int mtpc_md_string_visit(void *arg, const char *text, uint32_t length);

/* Visits the strings in the order the bitcode holds them. 0 when every one
 * was visited; -1 when the bitcode is not one this reads (or memory ran
 * out); else what `visit` returned. */
int mtpc_md_strings_each(const void *bitcode, size_t size, mtpc_md_string_visit *visit, void *arg);
/* The strings of one METADATA_STRINGS record, read: the same results. */
int mtpc_md_strings_of_record(const mtpc_bs_record *record, mtpc_md_string_visit *visit,
                              void *arg);

#endif
