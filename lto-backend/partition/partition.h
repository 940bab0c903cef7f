/* Turning a lazily loaded copy of the module into one partition of a plan. */
#ifndef MTPC_PARTITION_H
#define MTPC_PARTITION_H

#include <llvm-c/Types.h>

#include "lto-backend/bitcode/partition_bitcode.h"
#include "partitioner/plan.h"

/* Rewrites `module` (lazily loaded from `view`) into partition `q`: owned
 * definitions stay, copies become available_externally, everything else
 * becomes a declaration or goes; exported locals get their promoted names;
 * the ODR types the view homes here are kept; and what the other
 * partitions decide for this one's debug info is noted in the module (see
 * mtpc_finish_debug_info), so that the partition cache's key holds it.
 * `merged`: the partitions' objects are merged (mtpc_options.merge).
 * 0 on success; else *message (free()) says what went wrong, or is NULL
 * when memory ran out. */
int mtpc_make_partition(LLVMModuleRef module, const mtpc_plan *plan, uint32_t q, int merged,
                        const mtpc_bitcode_view *view, char **message);

/* After optimization, what mtpc_make_partition noted: a function that
 * several partitions define (a clone) keeps its debug info only in the
 * first of them, whose copy the merge and the linker keep when it survives.
 * The others' copies, when the partitions are merged, keep a subprogram with
 * nothing inside, so that calls to them keep their call-site entries (the
 * merge marks the discarded copies' code ranges dead, dead_debug.h); when
 * the objects go to a link apart, they keep none, since the linker would
 * leave the discarded ones at address 0, where they overlap. And a copy the
 * optimizer dropped (not inlined everywhere) is described as a declaration,
 * so calls to it keep their call-site entries. The notes then leave the
 * module. Non-zero when memory runs out. */
int mtpc_finish_debug_info(LLVMModuleRef module);

#endif
