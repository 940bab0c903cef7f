/* The graph -> plan step on hand-built graphs: ownership, grouping, balance,
 * bonds, pins, copies, clones, promotion, debug type homes, determinism. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "partitioner/graph.h"
#include "partitioner/plan.h"

static uint32_t fn(mtpc_graph *g, const char *name, uint32_t flags, uint64_t cost) {
  return mtpc_graph_add_node(g, MTPC_FUNCTION, name, strlen(name), MTPC_N_DEFINITION | flags,
                             MTPC_NONE, cost);
}

static uint32_t var(mtpc_graph *g, const char *name, uint32_t flags) {
  return mtpc_graph_add_node(g, MTPC_VARIABLE, name, strlen(name), MTPC_N_DEFINITION | flags,
                             MTPC_NONE, 0);
}

static void plan_with(const mtpc_graph *g, uint32_t partitions, mtpc_plan *plan) {
  mtpc_plan_options o;
  mtpc_plan_options_init(&o);
  o.partitions = partitions;
  CHECK(mtpc_plan_build(g, &o, plan) == MTPC_OK);
}

/* Every ownable node has exactly one owner in range; nothing else has one. */
static int ownership_is_total(const mtpc_graph *g, const mtpc_plan *plan) {
  for (uint32_t i = 0; i < g->node_count; i++) {
    uint32_t owner = plan->nodes[i].owner;
    if (mtpc_node_ownable(&g->nodes[i]) != (owner != MTPC_NONE))
      return 0;
    if (owner != MTPC_NONE && owner >= plan->partition_count)
      return 0;
  }
  return 1;
}

static void test_seed_example(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "seed.bc");
  uint32_t foo = fn(&g, "foo", 0, 5), bar = fn(&g, "bar", 0, 4);
  uint32_t gg = fn(&g, "g", MTPC_N_LOCAL | MTPC_N_NOINLINE, 2), h = fn(&g, "h", MTPC_N_LOCAL, 2);
  mtpc_graph_add_edge(&g, foo, gg, MTPC_CALL);
  mtpc_graph_add_edge(&g, foo, h, MTPC_CALL);
  mtpc_graph_add_edge(&g, bar, gg, MTPC_CALL);
  mtpc_graph_add_edge(&g, bar, h, MTPC_CALL);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 2, &plan);
  CHECK_EQ_U(plan.partition_count, 2);
  CHECK(ownership_is_total(&g, &plan));
  CHECK(plan.nodes[foo].owner != plan.nodes[bar].owner);
  CHECK(plan.nodes[gg].exported && plan.nodes[h].exported);
  CHECK(plan.nodes[gg].promoted_name && !strncmp(plan.nodes[gg].promoted_name, "g.llvm.mtpc", 11));
  CHECK_EQ_U(strlen(plan.nodes[gg].promoted_name), strlen("g.llvm.mtpc") + 16);
  CHECK(!plan.nodes[foo].promoted_name && !plan.nodes[bar].promoted_name);
  /* h is small and inlinable: a copy where it is not owned; g is noinline. */
  uint32_t other = 1 - plan.nodes[h].owner;
  CHECK(mtpc_plan_has_copy(&plan, other, h));
  for (uint32_t q = 0; q < plan.partition_count; q++)
    CHECK(!mtpc_plan_has_copy(&plan, q, gg));
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

static void test_local_callee_joins_its_only_caller(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t a = fn(&g, "a", 0, 50), b = fn(&g, "b", 0, 50);
  uint32_t helper = fn(&g, "helper", MTPC_N_LOCAL | MTPC_N_NOINLINE, 30);
  uint32_t data = var(&g, "only_b_data", MTPC_N_LOCAL);
  mtpc_graph_add_edge(&g, a, helper, MTPC_CALL);
  mtpc_graph_add_edge(&g, a, helper, MTPC_CALL);
  mtpc_graph_add_edge(&g, b, data, MTPC_REF);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 2, &plan);
  CHECK_EQ_U(plan.nodes[helper].owner, plan.nodes[a].owner);
  CHECK_EQ_U(plan.nodes[helper].group, plan.nodes[a].group);
  CHECK_EQ_U(plan.nodes[data].owner, plan.nodes[b].owner);
  CHECK(!plan.nodes[helper].exported && !plan.nodes[helper].promoted_name);
  CHECK(!plan.nodes[data].exported);
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

static void test_bonds_and_pins(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t n[12];
  for (int i = 0; i < 12; i++) {
    char name[8];
    snprintf(name, sizeof(name), "f%d", i);
    n[i] = fn(&g, name, i == 11 ? MTPC_N_PINNED_PRIMARY : 0, 100 + (uint64_t)i);
  }
  mtpc_graph_add_bond(&g, n[1], n[7]);
  mtpc_graph_add_bond(&g, n[7], n[9]);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 4, &plan);
  CHECK_EQ_U(plan.partition_count, 4);
  CHECK_EQ_U(plan.nodes[n[1]].owner, plan.nodes[n[7]].owner);
  CHECK_EQ_U(plan.nodes[n[7]].owner, plan.nodes[n[9]].owner);
  CHECK_EQ_U(plan.nodes[n[11]].owner, 0);
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

static void test_local_comdat_member_is_never_exported(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t key = mtpc_graph_add_node(&g, MTPC_FUNCTION, "key", 3,
                                     MTPC_N_DEFINITION | MTPC_N_DISCARDABLE | MTPC_N_IN_COMDAT, 0, 500);
  uint32_t member = mtpc_graph_add_node(&g, MTPC_FUNCTION, "member", 6,
                                        MTPC_N_DEFINITION | MTPC_N_LOCAL | MTPC_N_IN_COMDAT, 0, 5);
  uint32_t outside = fn(&g, "outside", 0, 500);
  uint32_t other = fn(&g, "other", 0, 500);
  mtpc_graph_add_bond(&g, key, member);
  mtpc_graph_add_edge(&g, key, member, MTPC_CALL);
  mtpc_graph_add_edge(&g, outside, member, MTPC_CALL);
  mtpc_graph_add_edge(&g, other, key, MTPC_CALL);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  CHECK(g.nodes[outside].flags & MTPC_N_REFS_LOCAL_COMDAT);
  mtpc_plan plan;
  plan_with(&g, 3, &plan);
  CHECK_EQ_U(plan.nodes[outside].owner, plan.nodes[member].owner);
  CHECK(!plan.nodes[member].exported);
  for (uint32_t q = 0; q < plan.partition_count; q++)
    CHECK(!mtpc_plan_has_copy(&plan, q, key)); /* key names a local member */
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

static void test_small_odr_groups_are_cloned(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t a = fn(&g, "a", 0, 300), b = fn(&g, "b", 0, 300);
  uint32_t inl = fn(&g, "inline_fn", MTPC_N_DISCARDABLE, 10);
  uint32_t big = fn(&g, "big_inline", MTPC_N_DISCARDABLE, 1000);
  mtpc_graph_add_edge(&g, a, inl, MTPC_CALL);
  mtpc_graph_add_edge(&g, b, inl, MTPC_CALL);
  mtpc_graph_add_edge(&g, a, big, MTPC_CALL);
  mtpc_graph_add_edge(&g, b, big, MTPC_CALL);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 3, &plan);
  uint32_t clones = 0;
  for (uint32_t q = 0; q < plan.partition_count; q++)
    clones += mtpc_plan_has_clone(&plan, q, inl);
  CHECK(clones >= 1);
  CHECK(!plan.nodes[inl].exported);
  CHECK(plan.nodes[big].exported); /* too big to clone: one owner, others call it */
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

/* A random module-like graph: roots calling into a shared library of local
 * functions, some recursion, local data. */
static void random_graph(mtpc_graph *g, uint32_t n, uint32_t seed) {
  mtpc_graph_init(g, "random.bc");
  for (uint32_t i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    char name[16];
    snprintf(name, sizeof(name), "n%u", i);
    if (i % 7 == 6)
      var(g, name, i % 2 ? MTPC_N_LOCAL : 0);
    else
      fn(g, name, i % 5 ? MTPC_N_LOCAL : 0, 1 + (seed >> 8) % 400);
  }
  for (uint32_t i = 0; i < n; i++) {
    if (g->nodes[i].kind != MTPC_FUNCTION)
      continue;
    for (int k = 0; k < 3; k++) {
      seed = seed * 1103515245u + 12345u;
      uint32_t target = (seed >> 8) % n;
      mtpc_graph_add_edge(g, i, target, g->nodes[target].kind == MTPC_FUNCTION ? MTPC_CALL : MTPC_REF);
    }
  }
  CHECK(mtpc_graph_finalize(g) == MTPC_OK);
}

static int same_list(const mtpc_node_list *x, const mtpc_node_list *y) {
  return x->count == y->count && (!x->count || !memcmp(x->nodes, y->nodes, x->count * 4));
}

static int same_plan(const mtpc_plan *x, const mtpc_plan *y) {
  if (x->partition_count != y->partition_count || x->node_count != y->node_count)
    return 0;
  for (uint32_t i = 0; i < x->node_count; i++) {
    if (x->nodes[i].owner != y->nodes[i].owner || x->nodes[i].exported != y->nodes[i].exported)
      return 0;
    if ((x->nodes[i].promoted_name == NULL) != (y->nodes[i].promoted_name == NULL))
      return 0;
    if (x->nodes[i].promoted_name && strcmp(x->nodes[i].promoted_name, y->nodes[i].promoted_name))
      return 0;
  }
  for (uint32_t q = 0; q < x->partition_count; q++)
    if (!same_list(&x->partitions[q].copies, &y->partitions[q].copies) ||
        !same_list(&x->partitions[q].clones, &y->partitions[q].clones))
      return 0;
  return 1;
}

static void test_determinism_and_balance(void) {
  mtpc_graph g1, g2;
  random_graph(&g1, 4000, 99);
  random_graph(&g2, 4000, 99);
  mtpc_plan p1, p2;
  plan_with(&g1, 8, &p1);
  plan_with(&g2, 8, &p2);
  CHECK(same_plan(&p1, &p2));
  CHECK(ownership_is_total(&g1, &p1));
  CHECK_EQ_U(p1.partition_count, 8);
  uint64_t heaviest = 0, sum = 0;
  for (uint32_t q = 0; q < p1.partition_count; q++) {
    sum += p1.partitions[q].cost;
    if (p1.partitions[q].cost > heaviest)
      heaviest = p1.partitions[q].cost;
    CHECK(p1.partitions[q].cost > 0);
  }
  CHECK_EQ_U(sum, p1.total_cost);
  /* within 15% of a perfect split */
  CHECK(heaviest * 8 <= p1.total_cost * 115 / 100);
  mtpc_plan_free(&p1);
  mtpc_plan_free(&p2);
  mtpc_graph_free(&g1);
  mtpc_graph_free(&g2);
}

static void test_oversize_scc_is_split(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  enum { N = 10 };
  uint32_t n[N];
  for (int i = 0; i < N; i++) {
    char name[8];
    snprintf(name, sizeof(name), "r%d", i);
    n[i] = fn(&g, name, 0, 1000);
  }
  for (int i = 0; i < N; i++)
    mtpc_graph_add_edge(&g, n[i], n[(i + 1) % N], MTPC_CALL);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 4, &plan);
  CHECK_EQ_U(plan.partition_count, 4);
  for (uint32_t q = 0; q < plan.partition_count; q++)
    CHECK(plan.partitions[q].cost <= 3000);
  mtpc_plan_free(&plan);
  /* A small cycle stays whole. */
  mtpc_graph h;
  mtpc_graph_init(&h, "m");
  uint32_t x = fn(&h, "x", 0, 10), y = fn(&h, "y", 0, 10), z = fn(&h, "z", 0, 500);
  mtpc_graph_add_edge(&h, x, y, MTPC_CALL);
  mtpc_graph_add_edge(&h, y, x, MTPC_CALL);
  CHECK(mtpc_graph_finalize(&h) == MTPC_OK);
  plan_with(&h, 2, &plan);
  CHECK_EQ_U(plan.nodes[x].group, plan.nodes[y].group);
  CHECK(plan.nodes[z].owner != plan.nodes[x].owner);
  mtpc_plan_free(&plan);
  mtpc_graph_free(&h);
  mtpc_graph_free(&g);
}

static void test_finest_and_single(void) {
  mtpc_graph g;
  random_graph(&g, 500, 3);
  mtpc_plan plan;
  plan_with(&g, MTPC_PLAN_FINEST, &plan);
  uint32_t costly = 0;
  uint64_t *group_cost = calloc(plan.group_count, sizeof(uint64_t));
  for (uint32_t i = 0; i < plan.node_count; i++)
    if (plan.nodes[i].group != MTPC_NONE)
      group_cost[plan.nodes[i].group] += plan.nodes[i].cost;
  for (uint32_t k = 0; k < plan.group_count; k++)
    costly += group_cost[k] > 0;
  free(group_cost);
  CHECK_EQ_U(plan.partition_count, costly);
  CHECK(ownership_is_total(&g, &plan));
  mtpc_plan_free(&plan);

  plan_with(&g, 1, &plan);
  CHECK_EQ_U(plan.partition_count, 1);
  for (uint32_t i = 0; i < plan.node_count; i++)
    CHECK(!plan.nodes[i].exported);
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

/* A debug type's home is the owner of the first node describing it; a
 * repeated key keeps its first home; an unsplit plan shares nothing. */
static void test_debug_type_homes(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t a = fn(&g, "a", 0, 500), b = fn(&g, "b", 0, 500);
  uint32_t decl = mtpc_graph_add_node(&g, MTPC_FUNCTION, "ext", 3, MTPC_N_DECLARATION_ONLY,
                                      MTPC_NONE, 0);
  mtpc_graph_add_debug_type(&g, "struct zeta at m.c:9", b);
  mtpc_graph_add_debug_type(&g, "struct alpha at m.c:1", a);
  mtpc_graph_add_debug_type(&g, "struct zeta at m.c:9", a);
  mtpc_graph_add_debug_type(&g, "struct only_declared at m.c:5", decl);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan plan;
  plan_with(&g, 2, &plan);
  CHECK(plan.nodes[a].owner != plan.nodes[b].owner);
  CHECK_EQ_U(plan.debug_type_count, 2);
  CHECK(!strcmp(plan.debug_types[0].key, "struct alpha at m.c:1"));
  CHECK_EQ_U(mtpc_plan_debug_type_home(&plan, "struct alpha at m.c:1"), plan.nodes[a].owner);
  CHECK_EQ_U(mtpc_plan_debug_type_home(&plan, "struct zeta at m.c:9"), plan.nodes[b].owner);
  CHECK_EQ_U(mtpc_plan_debug_type_home(&plan, "struct only_declared at m.c:5"), MTPC_NONE);
  CHECK_EQ_U(mtpc_plan_debug_type_home(&plan, "struct missing at m.c:2"), MTPC_NONE);
  mtpc_plan_free(&plan);
  plan_with(&g, 1, &plan);
  CHECK_EQ_U(plan.debug_type_count, 0);
  CHECK_EQ_U(mtpc_plan_debug_type_home(&plan, "struct alpha at m.c:1"), MTPC_NONE);
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
}

static void test_promoted_names(void) {
  char *a = mtpc_promoted_name("mod1.bc", "helper");
  char *b = mtpc_promoted_name("mod1.bc", "helper");
  char *c = mtpc_promoted_name("mod2.bc", "helper");
  char *d = mtpc_promoted_name("mod1.bc", "helper2");
  CHECK(!strcmp(a, b));
  CHECK(strcmp(a, c) != 0);
  CHECK(strcmp(a, d) != 0);
  CHECK(!strncmp(a, "helper.llvm.mtpc", 16) && strlen(a) == 16 + 16);
  free(a);
  free(b);
  free(c);
  free(d);
}

/* Up to 32 partitions of 8000 cost; then 16000-cost partitions up to the
 * module's most; then 84% to all of its most, of a target growing by
 * quarter octaves. */
static void test_partition_target(void) {
  const uint64_t per = MTPC_COST_PER_PARTITION, full = MTPC_FULL_PARTITION_COST;
  const uint64_t small = MTPC_SMALL_MODULE_PARTITIONS;
  const uint64_t mosts[2] = {MTPC_MAX_DEFAULT_PARTITIONS, MTPC_MAX_ODR_PARTITIONS};
  CHECK_EQ_U(full, 2 * per);
  for (int m = 0; m < 2; m++) {
    const uint64_t most = mosts[m];
    CHECK_EQ_U(mtpc_partition_target(0, most), per);
    CHECK_EQ_U(mtpc_partition_target(per * small, most), per);
    CHECK_EQ_U(mtpc_partition_target(per * small + 1, most), full);
    CHECK_EQ_U(mtpc_partition_target(full * most, most), full);
    CHECK_EQ_U(mtpc_partition_target(full * most + 1, most), full * 11892 / 10000);
    CHECK_EQ_U(mtpc_partition_target(2 * full * most, most), 2 * full);
    CHECK_EQ_U(mtpc_partition_target(2 * full * most + 1, most), 2 * full * 11892 / 10000);
    for (uint64_t total = full * most; total < UINT64_C(1) << 44; total = total * 9 / 8) {
      uint64_t target = mtpc_partition_target(total, most), count = (total + target - 1) / target;
      CHECK(count >= most * 10000 / 11892 && count <= most);
    }
  }
}

/* A default plan of a module with discardable ODR code (C++) stops at
 * MTPC_MAX_ODR_PARTITIONS targets' worth; the same module without, at
 * MTPC_MAX_DEFAULT_PARTITIONS. */
static uint32_t default_partitions(uint32_t flags) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  for (int i = 0; i < 3000; i++) {
    char name[16];
    snprintf(name, sizeof(name), "f%d", i);
    fn(&g, name, i % 2 ? flags : 0, 1000);
  }
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan_options o;
  mtpc_plan_options_init(&o);
  mtpc_plan plan;
  CHECK(mtpc_plan_build(&g, &o, &plan) == MTPC_OK);
  uint32_t count = plan.partition_count;
  CHECK(ownership_is_total(&g, &plan));
  mtpc_plan_free(&plan);
  mtpc_graph_free(&g);
  return count;
}

static void test_odr_modules_get_fewer_partitions(void) {
  uint32_t plain = default_partitions(0), odr = default_partitions(MTPC_N_DISCARDABLE);
  /* Chunks are cut by content, up to one and a half targets. */
  CHECK(plain > MTPC_MAX_ODR_PARTITIONS * 3 / 2);
  CHECK(odr >= MTPC_MAX_ODR_PARTITIONS / 2 && odr <= MTPC_MAX_ODR_PARTITIONS * 3 / 2);
}

/* A head cost (partition 0's type lists) leads the chunks as one item: when
 * it is heavy, partition 0 holds it and no code. */
static void test_head_cost(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  for (int i = 0; i < 400; i++) {
    char name[16];
    snprintf(name, sizeof(name), "f%d", i);
    fn(&g, name, 0, 1000);
  }
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  mtpc_plan_options o;
  mtpc_plan_options_init(&o);
  mtpc_plan plain, headed;
  CHECK(mtpc_plan_build(&g, &o, &plain) == MTPC_OK);
  o.head_cost = 20000;
  CHECK(mtpc_plan_build(&g, &o, &headed) == MTPC_OK);
  CHECK(plain.partitions[0].functions > 0);
  CHECK_EQ_U(headed.partitions[0].functions, 0);
  CHECK_EQ_U(headed.partitions[0].cost, 20000);
  CHECK_EQ_U(headed.total_cost, plain.total_cost + 20000);
  uint64_t sum = 0;
  for (uint32_t q = 0; q < headed.partition_count; q++)
    sum += headed.partitions[q].cost;
  CHECK_EQ_U(sum, headed.total_cost);
  CHECK(ownership_is_total(&g, &headed));
  mtpc_plan_free(&plain);
  mtpc_plan_free(&headed);
  /* A requested count balances around it too. */
  o.partitions = 4;
  o.head_cost = 100000;
  CHECK(mtpc_plan_build(&g, &o, &headed) == MTPC_OK);
  CHECK_EQ_U(headed.partitions[0].cost, 125000);
  mtpc_plan_free(&headed);
  mtpc_graph_free(&g);
}

int main(void) {
  test_seed_example();
  test_local_callee_joins_its_only_caller();
  test_bonds_and_pins();
  test_local_comdat_member_is_never_exported();
  test_small_odr_groups_are_cloned();
  test_determinism_and_balance();
  test_oversize_scc_is_split();
  test_finest_and_single();
  test_promoted_names();
  test_partition_target();
  test_odr_modules_get_fewer_partitions();
  test_head_cost();
  CHECK_SUMMARY();
}
