/* One walker of a module's IR (graph_build.c): the graph of every node and of
 * the references of the values it was given to walk. graph_read.c runs
 * walkers, one per copy of the module, and joins their graphs. */
#ifndef MTPC_GRAPH_WALK_H
#define MTPC_GRAPH_WALK_H

#include <llvm-c/Types.h>

#include "debug_types.h"
#include "graph.h"
#include "graph_profile.h"
#include "support/support.h"

typedef struct mtpc_graph_walker {
  mtpc_graph *g;
  LLVMModuleRef module;
  LLVMValueRef *values; /* per node */
  size_t value_cap;
  uint32_t function_count;
  mtpc_ptrmap value_to_node;
  mtpc_strmap name_to_node;
  mtpc_ptrmap comdat_ids;
  mtpc_ptrmap seen_constants; /* constant -> generation of the last walk */
  uint32_t generation;
  LLVMValueRef *stack;
  size_t stack_count, stack_cap;
  uint8_t *asm_sensitive; /* named by module asm while local or declared */
  uint8_t *named_by_asm;  /* local named by inline asm in some function */
  mtpc_profile_index profile;
  mtpc_type_walk *types; /* NULL without debug info */
  uint32_t *debug_records; /* per function node, counted from the bitcode; NULL: from the IR */
} mtpc_graph_walker;

/* Adds every node of `module` to `g` (initialized by the caller); non-zero
 * when memory runs out. */
int mtpc_walker_init(mtpc_graph_walker *w, mtpc_graph *g, LLVMModuleRef module);
void mtpc_walker_free(mtpc_graph_walker *w);
/* Takes each function's debug record count from `records` (per function
 * body, in module order) instead of its IR, which then has none
 * (lto-backend/bitcode/plan_bitcode.h). Ignored when the bodies do not match the
 * module's definitions, and for a module that declares debug intrinsics
 * (bitcode from before debug records). Non-zero when memory runs out. */
int mtpc_walker_use_debug_records(mtpc_graph_walker *w, const uint32_t *records, uint32_t bodies);

/* Walks functions [first, end) (node ids; their bodies must be there): their
 * references, cost, bonds and debug types. */
void mtpc_walker_walk_functions(mtpc_graph_walker *w, uint32_t first, uint32_t end);
/* Walks the other globals: variables' initializers, aliasees, resolvers. */
void mtpc_walker_walk_others(mtpc_graph_walker *w);

/* The rules that need the whole graph, after mtpc_graph_finalize; `w` is any
 * walker, its named_by_asm and asm_sensitive joined from all of them. */
void mtpc_walker_apply_module_rules(mtpc_graph_walker *w, mtpc_graph *g);

#endif
