/* Whether a module should be split (split_advice.c): mtpc_should_split, and
 * the part of it a compile applies itself. */
#ifndef MTPC_SPLIT_ADVICE_H
#define MTPC_SPLIT_ADVICE_H

#include "mtpc/mtpc.h"

/* Why a module for `triple` cannot be split (a static string), or NULL
 * when it can: its partitions' objects are merged into one object
 * (`merges_objects`), which only ELF's can be, or given to a linker apart,
 * which ELF's and COFF's can. */
const char *mtpc_target_unsplit_reason(const char *triple, int merges_objects);

/* Whether a compile with `options` merges its partitions' objects into one
 * (merge = 1, and objects rather than IR); NULL: the defaults, which do. */
int mtpc_merges_objects(const mtpc_options *options);

#endif
