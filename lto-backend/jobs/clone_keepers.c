/* Which partition keeps a clone's code (clone_keepers.h). */
#define _GNU_SOURCE
#include "clone_keepers.h"

#include <stdlib.h>
#include <string.h>

#include "support/support.h"

struct mtpc_clone_keepers {
  const mtpc_plan *plan;
  uint32_t *rank;         /* partition -> its place in the plan's order */
  uint32_t *cand_start;   /* partition q's candidates: cand[cand_start[q] .. [q + 1]) */
  uint32_t *cand;         /* node indices, ascending within a partition */
  uint8_t *survived;      /* beside cand */
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

static int shared_function(const mtpc_plan *plan, uint32_t v, const uint8_t *cloned) {
  return cloned[v] && plan->nodes[v].kind == MTPC_FUNCTION;
}

/* holders of every cloned function: its owner and the partitions with a
 * clone, in the plan's order. */
static int find_holders(mtpc_clone_keepers *k, const uint8_t *cloned) {
  const mtpc_plan *plan = k->plan;
  uint32_t nodes = plan->node_count;
  k->holder_start = mtpc_zalloc(nodes + 1, sizeof(uint32_t));
  if (!k->holder_start)
    return -1;
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_node_list *clones = &plan->partitions[q].clones;
    for (uint32_t m = 0; m < clones->count; m++)
      if (shared_function(plan, clones->nodes[m], cloned))
        k->holder_start[clones->nodes[m] + 1]++;
  }
  for (uint32_t v = 0; v < nodes; v++) {
    if (shared_function(plan, v, cloned) && plan->nodes[v].owner != MTPC_NONE)
      k->holder_start[v + 1]++;
    k->holder_start[v + 1] += k->holder_start[v];
  }
  k->holders = mtpc_alloc(k->holder_start[nodes] ? k->holder_start[nodes] : 1, sizeof(uint32_t));
  uint32_t *fill = mtpc_alloc(nodes ? nodes : 1, sizeof(uint32_t));
  if (!k->holders || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, k->holder_start, nodes * sizeof(uint32_t));
  for (uint32_t v = 0; v < nodes; v++)
    if (shared_function(plan, v, cloned) && plan->nodes[v].owner != MTPC_NONE)
      k->holders[fill[v]++] = plan->nodes[v].owner;
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_node_list *clones = &plan->partitions[q].clones;
    for (uint32_t m = 0; m < clones->count; m++)
      if (shared_function(plan, clones->nodes[m], cloned))
        k->holders[fill[clones->nodes[m]]++] = q;
  }
  free(fill);
  for (uint32_t v = 0; v < nodes; v++)
    qsort_r(k->holders + k->holder_start[v], k->holder_start[v + 1] - k->holder_start[v],
            sizeof(uint32_t), earlier_partition, k->rank);
  return 0;
}

/* Each partition's candidates: the shared functions it holds. */
static int find_candidates(mtpc_clone_keepers *k) {
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
  uint32_t *fill = mtpc_alloc(parts ? parts : 1, sizeof(uint32_t));
  if (!k->cand || !k->survived || !fill) {
    free(fill);
    return -1;
  }
  memcpy(fill, k->cand_start, parts * sizeof(uint32_t));
  for (uint32_t v = 0; v < nodes; v++) /* ascending v: each list comes out sorted */
    for (uint32_t h = k->holder_start[v]; h < k->holder_start[v + 1]; h++)
      k->cand[fill[k->holders[h]]++] = v;
  free(fill);
  return 0;
}

mtpc_clone_keepers *mtpc_clone_keepers_new(const mtpc_plan *plan) {
  mtpc_clone_keepers *k = mtpc_zalloc(1, sizeof(*k));
  uint8_t *cloned = mtpc_zalloc(plan->node_count ? plan->node_count : 1, 1);
  if (!k || !cloned) {
    free(cloned);
    free(k);
    return NULL;
  }
  k->plan = plan;
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_node_list *clones = &plan->partitions[q].clones;
    for (uint32_t m = 0; m < clones->count; m++)
      cloned[clones->nodes[m]] = 1;
  }
  int failed = rank_partitions(k) || find_holders(k, cloned) || find_candidates(k);
  free(cloned);
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

int mtpc_clone_keepers_ready(const mtpc_clone_keepers *k, uint32_t q) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++)
    if (k->survived[i] && any_earlier_holder(k, q, k->cand[i], not_recorded))
      return 0;
  return 1;
}

void mtpc_clone_keepers_drops(const mtpc_clone_keepers *k, uint32_t q, uint8_t *drop) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++)
    drop[i - k->cand_start[q]] =
        k->survived[i] && any_earlier_holder(k, q, k->cand[i], kept_there);
}

void mtpc_clone_keepers_later(const mtpc_clone_keepers *k, uint32_t q, uint8_t *later) {
  for (uint32_t i = k->cand_start[q]; i < k->cand_start[q + 1]; i++)
    later[i - k->cand_start[q]] = k->holders[k->holder_start[k->cand[i]]] != q;
}
