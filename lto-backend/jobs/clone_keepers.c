/* Which partition keeps a clone's code (clone_keepers.h). */
#define _GNU_SOURCE
#include "clone_keepers.h"

#include <stdlib.h>
#include <string.h>

#include "lto-backend/cache/cache_masks.h"
#include "support/support.h"

struct mtpc_clone_keepers {
  const mtpc_plan *plan;
  uint32_t *rank;         /* partition -> its place in the plan's order */
  uint32_t *cand_start;   /* partition q's candidates: cand[cand_start[q] .. [q + 1]) */
  uint32_t *cand;         /* node indices, ascending within a partition */
  uint8_t *survived;      /* beside cand */
  uint8_t *by_use;        /* beside cand: a dead promoted definition's candidate */
  uint8_t *recorded;      /* per partition */
  uint32_t *holder_start; /* node v's holders: holders[holder_start[v] .. [v + 1]) */
  uint32_t *holders;      /* partitions, in the plan's order */
};

static int earlier_partition(const void *a, const void *b, void *ranks) {
  const uint32_t *rank = ranks;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return rank[x] < rank[y] ? -1 : rank[x] > rank[y];
}

static int plan_order(const void *a, const void *b, void *plan) {
  return mtpc_plan_partition_order(plan, *(const uint32_t *)a, *(const uint32_t *)b);
}

static int rank_partitions(mtpc_clone_keepers *k) {
  const mtpc_plan *plan = k->plan;
  uint32_t n = plan->partition_count;
  uint32_t *order = mtpc_alloc(n ? n : 1, sizeof(uint32_t));
  k->rank = mtpc_alloc(n ? n : 1, sizeof(uint32_t));
  if (!order || !k->rank) {
    free(order);
    return -1;
  }
  for (uint32_t q = 0; q < n; q++)
    order[q] = q;
  qsort_r(order, n, sizeof(uint32_t), plan_order, (void *)plan);
  for (uint32_t i = 0; i < n; i++)
    k->rank[order[i]] = i;
  free(order);
  return 0;
}

/* What a node is to the keepers: a clone (the first holder in the plan's
 * order where it survives keeps its code) or a promoted local that other
 * partitions copy, whose owner drops it when no holder still uses it. */
enum { NOT_SHARED, SHARED_CLONE, SHARED_BY_USE };

size_t mtpc_promoted_stem_length(const char *name, size_t length) {
  size_t promoted = mtpc_promoted_suffix_length(name, length);
  if (promoted)
    return length - promoted;
  size_t placeholder = mtpc_cache_suffix_placeholder_length(name, length);
  if (placeholder)
    return length - placeholder;
  size_t thin = mtpc_thin_suffix_length(name, length);
  return thin ? length - thin : 0;
}

/* A promoted local function that partitions other than its owner only
 * name through copies: once none of them, nor the owner, uses it, its
 * definition is dead. Its stem (its name) must be no other function's. */
static int dead_if_unused(const mtpc_plan *plan, uint32_t v, const uint8_t *copied,
                          const mtpc_strmap *stems) {
  const mtpc_plan_node *n = &plan->nodes[v];
  uint32_t ignored;
  return copied[v] && n->kind == MTPC_FUNCTION && n->owner != MTPC_NONE && n->promoted_name &&
         !n->declared_elsewhere && !mtpc_strmap_get(stems, n->name, strlen(n->name), &ignored);
}

/* The stems of the functions whose names have a promoted suffix (the
 * keys point into the plan). Non-zero when memory runs out. */
static int suffixed_stems(const mtpc_plan *plan, mtpc_strmap *stems) {
  if (mtpc_strmap_init(stems, 64))
    return -1;
  for (uint32_t v = 0; v < plan->node_count; v++) {
    const char *name = plan->nodes[v].name;
    size_t stem = mtpc_promoted_stem_length(name, strlen(name));
    if (plan->nodes[v].kind == MTPC_FUNCTION && stem && mtpc_strmap_put(stems, name, stem, v)) {
      mtpc_strmap_free(stems);
      return -1;
    }
  }
  return 0;
}

static void add_holder(mtpc_clone_keepers *k, uint32_t v, uint32_t q, uint32_t *fill) {
  if (fill)
    k->holders[fill[v]++] = q;
  else
    k->holder_start[v + 1]++;
}

/* Counts (fill NULL) or lists each shared node's holders. */
static void visit_holders(mtpc_clone_keepers *k, const uint8_t *shared, uint32_t *fill) {
  const mtpc_plan *plan = k->plan;
  for (uint32_t v = 0; v < plan->node_count; v++)
    if (shared[v] != NOT_SHARED && plan->nodes[v].owner != MTPC_NONE)
      add_holder(k, v, plan->nodes[v].owner, fill);
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_node_list *clones = &plan->partitions[q].clones;
    const mtpc_node_list *copies = &plan->partitions[q].copies;
    for (uint32_t m = 0; m < clones->count; m++)
      if (shared[clones->nodes[m]] == SHARED_CLONE)
        add_holder(k, clones->nodes[m], q, fill);
    for (uint32_t m = 0; m < copies->count; m++)
      if (shared[copies->nodes[m]] == SHARED_BY_USE)
        add_holder(k, copies->nodes[m], q, fill);
  }
}

/* holders of every shared function: its owner and the partitions with a
 * clone (or a copy) of it, in the plan's order. */
static int find_holders(mtpc_clone_keepers *k, const uint8_t *shared) {
  const mtpc_plan *plan = k->plan;
  uint32_t nodes = plan->node_count;
  k->holder_start = mtpc_zalloc(nodes + 1, sizeof(uint32_t));
  if (!k->holder_start)
    return -1;
  visit_holders(k, shared, NULL);
  for (uint32_t v = 0; v < nodes; v++)
    k->holder_start[v + 1] += k->holder_start[v];
  k->holders = mtpc_alloc(k->holder_start[nodes] ? k->holder_start[nodes] : 1, sizeof(uint32_t));
  uint32_t *fill = mtpc_alloc(nodes ? nodes : 1, sizeof(uint32_t));
  if (!k->holders || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, k->holder_start, nodes * sizeof(uint32_t));
  visit_holders(k, shared, fill);
  free(fill);
  for (uint32_t v = 0; v < nodes; v++)
    qsort_r(k->holders + k->holder_start[v], k->holder_start[v + 1] - k->holder_start[v],
            sizeof(uint32_t), earlier_partition, k->rank);
  return 0;
}

/* Each partition's candidates: the shared functions it holds. */
static int find_candidates(mtpc_clone_keepers *k, const uint8_t *shared) {
  const mtpc_plan *plan = k->plan;
  uint32_t parts = plan->partition_count, nodes = plan->node_count;
  k->cand_start = mtpc_zalloc(parts + 1, sizeof(uint32_t));
  k->recorded = mtpc_zalloc(parts ? parts : 1, 1);
  if (!k->cand_start || !k->recorded)
    return -1;
  for (uint32_t h = 0; h < k->holder_start[nodes]; h++)
    k->cand_start[k->holders[h] + 1]++;
  for (uint32_t q = 0; q < parts; q++)
    k->cand_start[q + 1] += k->cand_start[q];
  uint32_t total = k->cand_start[parts];
  k->cand = mtpc_alloc(total ? total : 1, sizeof(uint32_t));
  k->survived = mtpc_zalloc(total ? total : 1, 1);
  k->by_use = mtpc_zalloc(total ? total : 1, 1);
  uint32_t *fill = mtpc_alloc(parts ? parts : 1, sizeof(uint32_t));
  if (!k->cand || !k->survived || !k->by_use || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, k->cand_start, parts * sizeof(uint32_t));
  for (uint32_t v = 0; v < nodes; v++) /* ascending v: each list comes out sorted */
    for (uint32_t h = k->holder_start[v]; h < k->holder_start[v + 1]; h++) {
      k->by_use[fill[k->holders[h]]] = shared[v] == SHARED_BY_USE;
      k->cand[fill[k->holders[h]]++] = v;
    }
  free(fill);
  return 0;
}

/* shared[v] for every node (NOT_SHARED, SHARED_CLONE, SHARED_BY_USE);
 * non-zero when memory runs out. */
static int classify(const mtpc_plan *plan, uint8_t *shared) {
  uint8_t *copied = mtpc_zalloc(plan->node_count ? plan->node_count : 1, 1);
  mtpc_strmap stems;
  if (!copied || suffixed_stems(plan, &stems)) {
    free(copied);
    return -1;
  }
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_node_list *clones = &plan->partitions[q].clones;
    const mtpc_node_list *copies = &plan->partitions[q].copies;
    for (uint32_t m = 0; m < clones->count; m++)
      shared[clones->nodes[m]] = SHARED_CLONE;
    for (uint32_t m = 0; m < copies->count; m++)
      copied[copies->nodes[m]] = 1;
  }
  for (uint32_t v = 0; v < plan->node_count; v++) {
    if (shared[v] == SHARED_CLONE)
      shared[v] = plan->nodes[v].kind == MTPC_FUNCTION ? SHARED_CLONE : NOT_SHARED;
    else if (dead_if_unused(plan, v, copied, &stems))
      shared[v] = SHARED_BY_USE;
  }
  mtpc_strmap_free(&stems);
  free(copied);
  return 0;
}

mtpc_clone_keepers *mtpc_clone_keepers_new(const mtpc_plan *plan) {
  mtpc_clone_keepers *k = mtpc_zalloc(1, sizeof(*k));
  uint8_t *shared = mtpc_zalloc(plan->node_count ? plan->node_count : 1, 1);
  if (!k || !shared) {
    free(shared);
    free(k);
    return NULL;
  }
  k->plan = plan;
  int failed = classify(plan, shared) || rank_partitions(k) || find_holders(k, shared) ||
               find_candidates(k, shared);
  free(shared);
  if (failed) {
    mtpc_clone_keepers_free(k);
    return NULL;
  }
  return k;
}

void mtpc_clone_keepers_free(mtpc_clone_keepers *k) {
  if (!k)
    return;
  free(k->rank);
  free(k->cand_start);
  free(k->cand);
  free(k->survived);
  free(k->by_use);
  free(k->recorded);
  free(k->holder_start);
  free(k->holders);
  free(k);
}

uint32_t mtpc_clone_keepers_candidates(const mtpc_clone_keepers *k, uint32_t q,
                                       const uint32_t **nodes) {
  *nodes = k->cand + k->cand_start[q];
  return k->cand_start[q + 1] - k->cand_start[q];
}

void mtpc_clone_keepers_record(mtpc_clone_keepers *k, uint32_t q, const uint8_t *survived) {
  uint32_t count = k->cand_start[q + 1] - k->cand_start[q];
  if (survived)
    memcpy(k->survived + k->cand_start[q], survived, count);
  k->recorded[q] = 1;
}

static int survived_in(const mtpc_clone_keepers *k, uint32_t q, uint32_t v) {
  mtpc_node_list candidates = {k->cand_start[q + 1] - k->cand_start[q], k->cand + k->cand_start[q]};
  uint32_t i = mtpc_node_list_index(&candidates, v);
  return i != MTPC_NONE && k->survived[k->cand_start[q] + i];
}

/* Visits the holders of q's i-th candidate that come before q; stops at the
 * first for which `stop` says so, and returns 1 then. */
static int any_earlier_holder(const mtpc_clone_keepers *k, uint32_t q, uint32_t v,
                              int (*stop)(const mtpc_clone_keepers *, uint32_t, uint32_t)) {
  for (uint32_t h = k->holder_start[v]; h < k->holder_start[v + 1]; h++) {
    uint32_t holder = k->holders[h];
    if (k->rank[holder] >= k->rank[q])
      return 0;
    if (stop(k, holder, v))
      return 1;
  }
  return 0;
}

static int not_recorded(const mtpc_clone_keepers *k, uint32_t holder, uint32_t v) {
  (void)v;
  return !k->recorded[holder];
}

static int kept_there(const mtpc_clone_keepers *k, uint32_t holder, uint32_t v) {
  return k->recorded[holder] && survived_in(k, holder, v);
}

/* q's i-th candidate (absolute index) is a promoted local q owns and does
 * not use, and every other holder comes before q: whether it is dead is
 * known once they have all recorded. */
static int owner_may_drop(const mtpc_clone_keepers *k, uint32_t q, uint32_t i) {
  uint32_t v = k->cand[i];
  return k->by_use[i] && k->plan->nodes[v].owner == q && !k->survived[i] &&
         k->holders[k->holder_start[v + 1] - 1] == q;
}

int mtpc_clone_keepers_ready(const mtpc_clone_keepers *k, uint32_t q) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++) {
    int waits = k->by_use[i] ? owner_may_drop(k, q, i) : k->survived[i];
    if (waits && any_earlier_holder(k, q, k->cand[i], not_recorded))
      return 0;
  }
  return 1;
}

void mtpc_clone_keepers_drops(const mtpc_clone_keepers *k, uint32_t q, uint8_t *drop) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++) {
    int used_earlier = any_earlier_holder(k, q, k->cand[i], kept_there);
    drop[i - k->cand_start[q]] =
        k->by_use[i] ? owner_may_drop(k, q, i) && !used_earlier : k->survived[i] && used_earlier;
  }
}

void mtpc_clone_keepers_later(const mtpc_clone_keepers *k, uint32_t q, uint8_t *later) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++)
    later[i - k->cand_start[q]] = !k->by_use[i] && k->holders[k->holder_start[k->cand[i]]] != q;
}

const uint8_t *mtpc_clone_keepers_by_use(const mtpc_clone_keepers *k, uint32_t q) {
  return k->by_use + k->cand_start[q];
}
