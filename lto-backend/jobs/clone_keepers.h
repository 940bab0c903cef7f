/* Which partition keeps a clone's code. A discardable group cloned into
 * several partitions survives their optimization in some of them (where a
 * call is left) and disappears from the others (inlined everywhere). The
 * objects' COMDAT groups keep one copy, so every surviving copy but one was
 * code-generated for nothing. Here a partition, once optimized, says which
 * of its clones survived; the first partition in the plan's order
 * (mtpc_plan_partition_order, which also gives that partition the clone's
 * debug info) that kept one keeps its code, and every later one drops its
 * copy to a declaration before code generation. The decision depends only
 * on what each partition's optimization left, so the output does not depend
 * on threads or timing. The caller serializes the calls. (clone_keepers.c)
 *
 * The same bookkeeping finds dead promoted definitions: a local function
 * that other partitions call gets their copies, and its owner keeps an
 * exported definition in case one of them still calls it. When every other
 * holder (owner and copies) comes before the owner in the plan's order and
 * none of them, nor the owner, still uses it after optimization, the owner
 * drops it, as the serial compile drops a local that every caller inlined.
 * Such a candidate is "by use": survived[i] says it is still used there,
 * and its name in the partitions is its promoted one. */
#ifndef MTPC_CLONE_KEEPERS_H
#define MTPC_CLONE_KEEPERS_H

#include <stdint.h>

#include "partitioner/plan.h"

typedef struct mtpc_clone_keepers mtpc_clone_keepers;

/* NULL when memory runs out. */
mtpc_clone_keepers *mtpc_clone_keepers_new(const mtpc_plan *plan);
void mtpc_clone_keepers_free(mtpc_clone_keepers *k);

/* Partition q's function nodes that another partition defines too (its
 * candidates), sorted; returns their count. */
uint32_t mtpc_clone_keepers_candidates(const mtpc_clone_keepers *k, uint32_t q,
                                       const uint32_t **nodes);
/* The length of `name` without a promoted suffix: mtpc's (".llvm.mtpc" and
 * 16 hex digits, plan.h), the partition cache's placeholder for one
 * (".llvm.mtpc.s" and digits, cache_masks.h) or ThinLTO's (".llvm." and
 * digits); 0 when it has none. A promoted function's stem is the same in a
 * partition's module whether the cache masks its names or not, so by-use
 * candidates are found by stem, and only those whose stem no other
 * function's name has. */
size_t mtpc_promoted_stem_length(const char *name, size_t length);
/* by_use[i] for q's i-th candidate (see above); its stem is its plan name. */
const uint8_t *mtpc_clone_keepers_by_use(const mtpc_clone_keepers *k, uint32_t q);
/* later[i]: 1 when q's i-th candidate is a clone with a holder before q in
 * the plan's order, which keeps its code whenever it survives there too. */
void mtpc_clone_keepers_later(const mtpc_clone_keepers *k, uint32_t q, uint8_t *later);
/* Partition q was optimized: survived[i] for its i-th candidate (NULL: it
 * failed, and keeps nothing). */
void mtpc_clone_keepers_record(mtpc_clone_keepers *k, uint32_t q, const uint8_t *survived);
/* 1 when every partition before q that holds one of q's surviving
 * candidates (or a by-use candidate q may drop) has recorded, so that q's
 * drops are known. */
int mtpc_clone_keepers_ready(const mtpc_clone_keepers *k, uint32_t q);
/* drop[i]: 1 when q's i-th candidate is a clone that survived in q and in a
 * partition before it, or a dead promoted definition. Call once ready. */
void mtpc_clone_keepers_drops(const mtpc_clone_keepers *k, uint32_t q, uint8_t *drop);

#endif
