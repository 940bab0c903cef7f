/* The profile's part of the reference graph: call counts from each block's
 * count, and indirect calls' value-profile targets as call edges, so that
 * indirect call promotion can still inline a hot target. */
#ifndef MTPC_GRAPH_PROFILE_H
#define MTPC_GRAPH_PROFILE_H

#include <llvm-c/Types.h>

#include "graph.h"
#include "support/support.h"

typedef struct mtpc_profile_index {
  mtpc_graph *g; /* whose out_of_memory records a failed allocation */
  LLVMContextRef context;
  unsigned prof_kind, pgo_name_kind; /* metadata kinds "prof", "PGOFuncName" */
  uint64_t *block_counts;
  size_t block_cap;
} mtpc_profile_index;

/* Reads the profile summary into g->hot_count (0: no profile). Non-zero
 * when memory runs out. */
int mtpc_profile_index_init(mtpc_profile_index *p, mtpc_graph *g, LLVMModuleRef module);
void mtpc_profile_index_free(mtpc_profile_index *p);

/* Records a function's PGO name (g->nodes[node].pgo_name), which it has
 * once its body is materialized. */
void mtpc_profile_add_function(mtpc_profile_index *p, mtpc_graph *g, uint32_t node,
                               LLVMValueRef function);

/* The count of each of `function`'s blocks, in order, and the PROFILED flag
 * on its node; NULL when it has no entry count (or the module no profile).
 * Valid until the next call. */
const uint64_t *mtpc_profile_function_counts(mtpc_profile_index *p, mtpc_graph *g,
                                             uint32_t node, LLVMValueRef function);

/* How often a call runs: the weight a sample profile gives the call itself
 * (which ProfileSummaryInfo prefers for a sample profile), else its
 * block's count. */
uint64_t mtpc_profile_call_count(const mtpc_profile_index *p, LLVMValueRef call,
                                 uint64_t block_count);

/* Each target an indirect call's value profile names, by its name's hash,
 * with its count (mtpc_graph_add_profile_target). */
void mtpc_profile_add_call_targets(mtpc_profile_index *p, mtpc_graph *g, uint32_t from,
                                   LLVMValueRef call);

/* Once every function's PGO name is known: an edge from each call to the
 * function its profile target's hash names (the first in module order of
 * those a hash could name). Non-zero when memory runs out. */
int mtpc_profile_resolve_targets(mtpc_graph *g);

#endif
