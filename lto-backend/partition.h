/* Turning a lazily loaded copy of the module into one partition of a plan. */
#ifndef MTPC_PARTITION_H
#define MTPC_PARTITION_H

#include <llvm-c/Types.h>

#include "../partitioner/plan.h"

/* Rewrites `module` (lazily loaded from the planned module's bitcode) into
 * partition `q`: owned definitions stay, copies become available_externally,
 * everything else becomes a declaration or goes; exported locals get their
 * promoted names. 0 on success; else *message (free()) says what went wrong. */
int mtpc_make_partition(LLVMModuleRef module, const mtpc_plan *plan, uint32_t q, char **message);

#endif
