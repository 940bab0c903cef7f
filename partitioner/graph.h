/* The module's reference graph: a node for every global value, an edge for
 * every reference, and "bonds" between nodes that must share a partition.
 * Plain data: unit tests build graphs by hand, graph_build.c from IR. */
#ifndef MTPC_GRAPH_H
#define MTPC_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "mtpc/mtpc.h"

#define MTPC_NONE UINT32_MAX

typedef enum mtpc_node_kind {
  MTPC_FUNCTION,
  MTPC_VARIABLE,
  MTPC_ALIAS,
  MTPC_IFUNC
} mtpc_node_kind;

enum mtpc_node_flags {
  MTPC_N_DEFINITION = 1u << 0,          /* body, initializer, aliasee or resolver */
  MTPC_N_LOCAL = 1u << 1,               /* internal or private linkage */
  MTPC_N_AVAILABLE_EXTERNALLY = 1u << 2,
  MTPC_N_DISCARDABLE = 1u << 3,         /* linkonce(_odr): dropped when unused */
  MTPC_N_INTERPOSABLE = 1u << 4,        /* weak, linkonce, common: may be replaced at link time */
  MTPC_N_CONSTANT = 1u << 5,
  MTPC_N_THREAD_LOCAL = 1u << 6,
  MTPC_N_IN_COMDAT = 1u << 7,
  MTPC_N_BLOCKADDRESS_TAKEN = 1u << 8,  /* some blockaddress names this function */
  MTPC_N_USES_BLOCKADDRESS = 1u << 9,   /* contains a blockaddress constant */
  MTPC_N_NOINLINE = 1u << 10,
  MTPC_N_ALWAYSINLINE = 1u << 11,
  MTPC_N_PINNED_PRIMARY = 1u << 12,     /* must be owned by partition 0 */
  MTPC_N_USED_LIST = 1u << 13,          /* llvm.used / llvm.compiler.used, rebuilt per partition */
  MTPC_N_IN_USED_LIST = 1u << 14,       /* kept alive by one of those lists */
  MTPC_N_UNNAMED = 1u << 15,
  MTPC_N_REFS_GLOBALS = 1u << 16,       /* references another global value */
  MTPC_N_ASM_NAMES_SYMBOL = 1u << 17,   /* inline asm in the body names a module symbol */
  MTPC_N_REFS_LOCAL_COMDAT = 1u << 18,  /* references a local COMDAT member */
  MTPC_N_APPENDING = 1u << 19,          /* appending linkage (llvm.global_ctors, ...) */
  MTPC_N_DECLARATION_ONLY = 1u << 20,   /* declaration: never owned */
  MTPC_N_PROFILED = 1u << 21,           /* a function with an entry count: its calls have counts */
  MTPC_N_ADDRESS_TAKEN = 1u << 22,      /* named other than as a call's callee (or in a used list) */
  MTPC_N_COMDAT_KEEPS_ALL = 1u << 23    /* its COMDAT is nodeduplicate: the linker keeps every
                                           module's group, so no other copy replaces a member */
};

/* What a declaration of a function needs for its debug info, so that a call
 * into another partition keeps its call-site entry (DW_TAG_call_site). */
typedef struct mtpc_debug_decl {
  char *name, *linkage_name, *file, *directory;
  uint32_t flags; /* DIFlags */
} mtpc_debug_decl;

typedef struct mtpc_node {
  char *name;
  uint32_t name_len;
  mtpc_node_kind kind;
  uint32_t flags;
  uint32_t comdat; /* COMDAT id or MTPC_NONE */
  uint64_t cost;   /* of a definition, in instructions' time (cost.h); 0 otherwise */
  /* A function's IR instructions plus one, what the copy and clone limits
   * weigh, as ThinLTO's importer does: debug records do not count, so -g
   * copies what a build without it copies. add_node sets it to the cost it
   * is given (0 for what the walker adds: a copy of data is folded from,
   * never emitted, so a variable's size stays 0). */
  uint64_t size;
  char *pgo_name;  /* a function's "PGOFuncName" metadata (profiles' name of a local), or NULL */
  mtpc_debug_decl *debug_decl; /* a defined function's, with debug info; else NULL */
} mtpc_node;

/* A named C type of the debug info and the first node, in module order, whose
 * debug info describes it; the key is debug_types.h's (mtpc_walk_debug_types). */
typedef struct mtpc_debug_type {
  char *key;
  uint32_t node;
} mtpc_debug_type;

typedef struct mtpc_profile_target {
  uint32_t from;
  uint64_t hash, count;
} mtpc_profile_target;

typedef struct mtpc_graph {
  char *module_id;
  uint32_t node_count;
  mtpc_node *nodes;
  /* CSR successors, deduplicated and sorted. edge_weights counts every
   * reference, edge_calls only those that are the callee of a call (or a
   * value profile's target), edge_profile_refs those that only a value
   * profile names (an indirect call's likely target, which the IR does not
   * name), edge_counts the profile counts of the calls. */
  uint32_t *edge_offsets;
  uint32_t *edge_targets;
  uint32_t *edge_weights;
  uint32_t *edge_calls;
  uint32_t *edge_profile_refs;
  uint64_t *edge_counts;
  /* The profile count from which a call is hot; 0 without a profile. */
  uint64_t hot_count;
  /* Per node: the profile counts of all calls to it (from edge_counts). */
  uint64_t *call_counts_in;
  /* Pairs of nodes that must be owned by the same partition. */
  uint32_t bond_count;
  uint32_t (*bonds)[2];
  uint32_t debug_type_count;
  mtpc_debug_type *debug_types;

  /* Builder state, released by mtpc_graph_finalize. */
  size_t node_cap, raw_count, raw_cap, bond_cap, debug_type_cap;
  struct mtpc_raw_edge *raw_edges;
  mtpc_profile_target *profile_targets;
  size_t profile_target_count, profile_target_cap;
  /* Set when an allocation failed: later additions are dropped, and
   * finalize reports MTPC_ERR_NO_MEMORY. */
  int out_of_memory;
} mtpc_graph;

/* Building a graph: when memory runs out, an addition sets out_of_memory
 * (add_node then returns MTPC_NONE) and the graph is only good to free. */
void mtpc_graph_init(mtpc_graph *g, const char *module_id);
uint32_t mtpc_graph_add_node(mtpc_graph *g, mtpc_node_kind kind, const char *name, size_t len,
                             uint32_t flags, uint32_t comdat, uint64_t cost);
typedef enum mtpc_ref_kind {
  MTPC_REF,           /* an operand that is not a direct callee */
  MTPC_CALL,          /* the callee of a call */
  MTPC_PROFILE_TARGET /* a value profile's target of an indirect call */
} mtpc_ref_kind;
void mtpc_graph_add_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind);
/* The same with the profile count of a call (its block's, or the target's). */
void mtpc_graph_add_counted_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind,
                                 uint64_t count);
/* An indirect call's value-profile target, named by its PGO name's hash
 * until mtpc_profile_resolve_targets (graph_profile.h) makes it an edge. */
void mtpc_graph_add_profile_target(mtpc_graph *g, uint32_t from, uint64_t hash, uint64_t count);
/* Moves the edges and profile targets `from` has added (before its
 * finalize) to `g`. */
void mtpc_graph_take_edges(mtpc_graph *g, mtpc_graph *from);
void mtpc_graph_set_pgo_name(mtpc_graph *g, uint32_t node, const char *name, size_t len);
/* A declaration's description, or NULL when memory runs out. */
mtpc_debug_decl *mtpc_debug_decl_new(const char *name, size_t name_len, const char *linkage_name,
                                     size_t linkage_len, const char *file, size_t file_len,
                                     const char *directory, size_t directory_len, uint32_t flags);
mtpc_debug_decl *mtpc_debug_decl_copy(const mtpc_debug_decl *decl);
void mtpc_debug_decl_free(mtpc_debug_decl *decl);
void mtpc_graph_add_bond(mtpc_graph *g, uint32_t a, uint32_t b);
void mtpc_graph_add_debug_type(mtpc_graph *g, const char *key, uint32_t node);
/* Builds the CSR arrays and applies the graph-level rules (a reference into a
 * local member of a foreign COMDAT bonds the referencer to that COMDAT). */
__attribute__((warn_unused_result)) mtpc_status mtpc_graph_finalize(mtpc_graph *g);
void mtpc_graph_free(mtpc_graph *g);

/* A finalized graph's references alone (its CSR successors), kept past the
 * graph for what partitions name. */
typedef struct mtpc_graph_edges {
  uint32_t node_count;
  uint32_t *offsets; /* node_count + 1 */
  uint32_t *targets;
} mtpc_graph_edges;

/* Moves the successors out of `g` (which mtpc_graph_free still frees). */
void mtpc_graph_move_references(mtpc_graph *g, mtpc_graph_edges *edges);
void mtpc_graph_edges_free(mtpc_graph_edges *edges);

static inline int mtpc_node_ownable(const mtpc_node *n) {
  return (n->flags & MTPC_N_DEFINITION) && !(n->flags & MTPC_N_AVAILABLE_EXTERNALLY) &&
         !(n->flags & MTPC_N_USED_LIST);
}

/* Builds the graph of an LLVM module (llvm-c); defined in graph_build.c. */
struct LLVMOpaqueModule;
__attribute__((warn_unused_result)) mtpc_status mtpc_graph_build(mtpc_graph *g,
                                                                 struct LLVMOpaqueModule *module);

#endif
