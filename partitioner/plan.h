/* The plan: which partition owns each definition, which partitions receive
 * available_externally copies, and which local symbols must be promoted.
 * It depends only on the graph and the options, never on threads or timing. */
#ifndef MTPC_PLAN_H
#define MTPC_PLAN_H

#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "support/support.h"

#define MTPC_PLAN_FINEST UINT32_MAX
/* By default a partition costs about MTPC_COST_PER_PARTITION (the chunks'
 * target). The target doubles while a module would need more than
 * MTPC_SMALL_MODULE_PARTITIONS of them, up to MTPC_FULL_PARTITION_COST; then
 * the count grows with the module up to its most (MTPC_MAX_DEFAULT_PARTITIONS,
 * or MTPC_MAX_ODR_PARTITIONS), after which the target grows by quarter
 * octaves (2^(1/4)), so a larger module gets 84% to all of its most. A step
 * keeps a plan stable under edits as a doubling does, but doubling would
 * halve the count just past the limit. 80, not 64: on a machine with a core
 * per partition the critical path is the heaviest chunk (up to 1.5 targets),
 * not the count, so smaller targets shorten it (docs/design.rst has the
 * projections). Not more: a partition's fixed cost (reading the module's
 * global records, freeing its context) grows with the module as its work
 * does, so the CPU overhead grows with the count, not the size. A module
 * with discardable ODR code (C++) stops at 40: each cut there also clones
 * the inline functions both sides call, optimized in every holder, which
 * made cppcheck's split at 80 cost 8.6% more CPU than its serial compile
 * and at 40 2.8%, while one function's partition bounds its time on 16
 * cores at either count (docs/design.rst, "The CPU account"). */
#define MTPC_COST_PER_PARTITION 8000u
#define MTPC_SMALL_MODULE_PARTITIONS 32u
#define MTPC_FULL_PARTITION_COST 16000u
#define MTPC_MAX_DEFAULT_PARTITIONS 80u
#define MTPC_MAX_ODR_PARTITIONS 40u
#define MTPC_DEFAULT_IMPORT_LIMIT 30u
/* For a full LTO module without discardable ODR functions: whole, its
 * inliner sees every function, and internalized code inlines more than a
 * ThinLTO module's: at ThinLTO's limit the split program inlined less than
 * stock's, and at C++'s the copies became a large share of the work; this
 * one gives stock's code (docs/design.rst, Full LTO, has the SQLite shell's
 * figures). */
#define MTPC_FULL_LTO_IMPORT_LIMIT 50u
/* A default plan splits only when its cap, the total cost over its heaviest
 * partition's (with what that partition copies), reaches this, in hundredths:
 * on any number of cores a split below it gains less than its own serial
 * steps and per-partition loads cost: a module whose one function is nearly
 * all of it (PostgreSQL's gram.o, docs/design.rst) links slower split than
 * whole. Explicit partition counts always split. */
#define MTPC_SPLIT_FLOOR_PERCENT 110u
/* For modules with discardable ODR functions (C++), ThinLTO's own import
 * limit; their discardable groups are cloned up to MTPC_CLONE_FACTOR times
 * the copy limit (plan.c, choose_limits, says why). */
#define MTPC_ODR_IMPORT_LIMIT 100u
#define MTPC_LIMIT_BY_MODULE UINT32_MAX
#define MTPC_CLONE_FACTOR 2u
/* A local unit smaller than this always stays with its only caller's group. */
#define MTPC_MIN_CUT_COST 200u
/* With a profile: a hot call's callee may be this many times larger than the
 * copy budget (ThinLTO's -import-hot-multiplier), and a hot call edge adds
 * this much to the coupling that keeps caller and callee together. */
#define MTPC_HOT_COPY_FACTOR 10u
#define MTPC_HOT_CALL_COUPLING 32u
/* With a profile, a unit joins the group that makes this share of its
 * profiled calls, as a local joins its only caller's group. */
#define MTPC_DOMINANT_CALLER_PERCENT 90u

typedef struct mtpc_plan_options {
  uint32_t partitions;         /* 0 = from the module's cost; MTPC_PLAN_FINEST = one per group */
  uint32_t import_instr_limit; /* callee size limit for available_externally copies;
                                  MTPC_LIMIT_BY_MODULE (plan.c, choose_limits) */
  /* Partition 0's own work besides its definitions: the compile units' type
   * lists, which only it loads when the others' are cut (cost.h). */
  uint64_t head_cost;
  int whole_program; /* a full LTO module (choose_limits) */
} mtpc_plan_options;

typedef struct mtpc_plan_node {
  char *name;          /* original name ("" when unnamed) */
  char *promoted_name; /* new external hidden name, or NULL */
  mtpc_node_kind kind;
  uint32_t flags;      /* graph flags */
  uint32_t owner;      /* owning partition, or MTPC_NONE for what nobody owns */
  uint32_t group;      /* MTPC_NONE when not owned */
  uint64_t cost;
  int exported;        /* referenced from a partition other than its owner */
  char *pgo_name;      /* the profile's name of a function, when not its own (graph's) */
  mtpc_debug_decl *debug_decl; /* the graph's: how a declaration describes it */
  /* Referenced from a partition other than its owner that has no body of it
   * (no copy or clone): its code, a copy's or a clone's names a declaration. */
  int declared_elsewhere;
} mtpc_plan_node;

/* Node indices, sorted. */
typedef struct mtpc_node_list {
  uint32_t count;
  uint32_t *nodes;
} mtpc_node_list;

typedef struct mtpc_plan_partition {
  uint64_t cost;          /* of the definitions it owns (partition 0: and the head) */
  uint64_t imported_cost; /* of the copies and clones it receives */
  uint32_t functions;
  uint32_t groups;
  /* Available_externally bodies it keeps of definitions owned elsewhere, or
   * the module's own available_externally definitions. */
  mtpc_node_list copies;
  /* Definitions of its own of members of small groups of discardable ODR
   * definitions (with their COMDAT); the linker keeps one. */
  mtpc_node_list clones;
  /* Declarations that only a value profile names (likely targets of an
   * indirect call here), kept so that indirect call promotion can still
   * call them directly. */
  mtpc_node_list declarations;
} mtpc_plan_partition;

/* A named C type described fully only by its home partition, declared in the
 * others (lto-backend/partition/debug_info.h, mtpc_bridge_share_debug_types). */
typedef struct mtpc_plan_debug_type {
  char *key;
  uint32_t home;
} mtpc_plan_debug_type;

typedef struct mtpc_plan {
  char *module_id;
  uint32_t partition_count;
  mtpc_plan_partition *partitions;
  uint32_t node_count;
  mtpc_plan_node *nodes;
  uint32_t group_count;
  /* Sorted by key; empty when the module is not split. */
  uint32_t debug_type_count;
  mtpc_plan_debug_type *debug_types;
  uint32_t copy_limit;  /* largest callee copied (size), and */
  uint32_t clone_limit; /* largest discardable group cloned */
  uint64_t total_cost; /* of the definitions, and the head */
  uint64_t head_cost;  /* the options', counted in partition 0's cost */
  uint64_t duplicated_cost;
  char *unsplit_reason; /* why the module is compiled as one partition, or NULL */
  int below_floor;      /* that reason: the cap is below MTPC_SPLIT_FLOOR_PERCENT */
  /* Nodes, edges, groups and list items the planner visited: every step is
   * linear in the graph's size and the partitions' contents, which the
   * scaling test checks by this count. */
  uint64_t work;
} mtpc_plan;

void mtpc_plan_options_init(mtpc_plan_options *o);
/* MTPC_OK, or MTPC_ERR_NO_MEMORY (and nothing to free). */
__attribute__((warn_unused_result)) mtpc_status mtpc_plan_build(const mtpc_graph *g,
                                                                const mtpc_plan_options *o,
                                                                mtpc_plan *plan);
void mtpc_plan_free(mtpc_plan *plan);
void mtpc_plan_print(const mtpc_plan *plan, FILE *out);
/* The cost a default partition aims at, for a module of total_cost that
 * gets at most `most` partitions (MTPC_MAX_DEFAULT_PARTITIONS or
 * MTPC_MAX_ODR_PARTITIONS; at least MTPC_SMALL_MODULE_PARTITIONS). */
uint64_t mtpc_partition_target(uint64_t total_cost, uint64_t most);
/* The order partitions are compiled in, and in which a clone's copies are
 * ranked: costlier (own and imported cost) first, then by index. <0, 0, >0. */
int mtpc_plan_partition_order(const mtpc_plan *plan, uint32_t a, uint32_t b);
/* The lowest partition defining node i (its owner or one with a clone of it),
 * or MTPC_NONE. */
uint32_t mtpc_plan_first_definer(const mtpc_plan *plan, uint32_t node);
/* Partition q reads node i without its name (the bitcode it loads cuts it):
 * a function or variable definition that q neither owns nor has a body of,
 * no list, no intrinsic, nothing a value profile names. q's own code may
 * still name it; what survives q's erasures takes its name back. */
int mtpc_plan_name_unneeded(const mtpc_plan *plan, uint32_t partition, uint32_t node);
/* The home partition of a debug type, or MTPC_NONE. */
uint32_t mtpc_plan_debug_type_home(const mtpc_plan *plan, const char *key);

/* Where `node` is in the sorted list, or MTPC_NONE. */
static inline uint32_t mtpc_node_list_index(const mtpc_node_list *list, uint32_t node) {
  uint32_t low = 0, high = list->count;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    if (list->nodes[mid] < node)
      low = mid + 1;
    else
      high = mid;
  }
  return low < list->count && list->nodes[low] == node ? low : MTPC_NONE;
}

static inline int mtpc_node_list_has(const mtpc_node_list *list, uint32_t node) {
  return mtpc_node_list_index(list, node) != MTPC_NONE;
}

static inline int mtpc_plan_has_copy(const mtpc_plan *plan, uint32_t partition, uint32_t node) {
  return mtpc_node_list_has(&plan->partitions[partition].copies, node);
}

static inline int mtpc_plan_has_clone(const mtpc_plan *plan, uint32_t partition, uint32_t node) {
  return mtpc_node_list_has(&plan->partitions[partition].clones, node);
}

static inline int mtpc_plan_has_declaration(const mtpc_plan *plan, uint32_t partition,
                                            uint32_t node) {
  return mtpc_node_list_has(&plan->partitions[partition].declarations, node);
}

/* The partition defines the node: owns it, or has a copy or a clone of it. */
static inline int mtpc_plan_holds(const mtpc_plan *plan, uint32_t partition, uint32_t node) {
  return plan->nodes[node].owner == partition || mtpc_plan_has_clone(plan, partition, node) ||
         mtpc_plan_has_copy(plan, partition, node);
}

/* `base` + ".llvm.mtpc" + 16 hex digits of xxh64(module_id, NUL, base): the
 * ".llvm." suffix of ThinLTO's promoted names, which profile readers strip
 * to find a promoted local under its own name. */
char *mtpc_promoted_name(const char *module_id, const char *base); /* NULL: out of memory */
/* The length of the suffix mtpc_promoted_name gives, ".llvm.mtpc" and 16
 * lowercase hex digits, at the end of name; 0 when there is none. */
size_t mtpc_promoted_suffix_length(const char *name, size_t length);

#endif
