/* Whether a module should be split (split_advice.c): mtpc_should_split, and
 * the part of it a compile applies itself. */
#ifndef MTPC_SPLIT_ADVICE_H
#define MTPC_SPLIT_ADVICE_H

#include "mtpc/mtpc.h"

/* Why a module for `triple` cannot be split (a static string), or NULL
 * when it can: its object format is ELF or COFF. */
const char *mtpc_target_unsplit_reason(const char *triple);
/* Whether `triple`'s objects are COFF. */
int mtpc_target_writes_coff(const char *triple);

/* The same for `module`, whose partitions' objects are merged into one
 * (`merges_objects`) or given to a linker apart: a COFF module with
 * CodeView debug info is only split for a linker. */
const char *mtpc_module_unsplit_reason(LLVMModuleRef module, const char *triple,
                                       int merges_objects);

/* Whether a compile with `options` merges its partitions' objects into one
 * (merge = 1, and objects rather than IR); NULL: the defaults, which do. */
int mtpc_merges_objects(const mtpc_options *options);

#endif
