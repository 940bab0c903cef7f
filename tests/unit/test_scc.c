/* Iterative Tarjan: components, their order, and depth without recursion. */
#include <stdlib.h>

#include "check.h"
#include "partitioner/scc.h"
#include "support/support.h"

typedef struct edge_list {
  uint32_t from, to;
} edge_list;

/* Builds CSR arrays for n nodes from edges (sorted by source). */
static mtpc_csr make_csr(uint32_t n, const edge_list *edges, uint32_t count, uint32_t **offsets,
                         uint32_t **targets) {
  *offsets = calloc(n + 1, sizeof(uint32_t));
  *targets = malloc((count ? count : 1) * sizeof(uint32_t));
  for (uint32_t i = 0; i < count; i++)
    (*offsets)[edges[i].from + 1]++;
  for (uint32_t v = 0; v < n; v++)
    (*offsets)[v + 1] += (*offsets)[v];
  uint32_t *fill = malloc((n ? n : 1) * sizeof(uint32_t));
  for (uint32_t v = 0; v < n; v++)
    fill[v] = (*offsets)[v];
  for (uint32_t i = 0; i < count; i++)
    (*targets)[fill[edges[i].from]++] = edges[i].to;
  free(fill);
  return (mtpc_csr){n, *offsets, *targets};
}

static uint32_t run(uint32_t n, const edge_list *edges, uint32_t count, uint32_t *component) {
  uint32_t *offsets, *targets;
  mtpc_csr g = make_csr(n, edges, count, &offsets, &targets);
  uint32_t components = mtpc_scc(&g, component);
  free(offsets);
  free(targets);
  return components;
}

static void test_empty(void) {
  uint32_t component[1];
  CHECK_EQ_U(run(0, NULL, 0, component), 0);
}

static void test_chain_orders_callees_first(void) {
  edge_list edges[] = {{0, 1}, {1, 2}};
  uint32_t c[3];
  CHECK_EQ_U(run(3, edges, 2, c), 3);
  CHECK(c[2] < c[1]);
  CHECK(c[1] < c[0]);
}

static void test_cycles(void) {
  /* 0 <-> 1 -> 2 -> 3 -> 2, 4 alone with a self loop */
  edge_list edges[] = {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {3, 2}, {4, 4}};
  uint32_t c[5];
  CHECK_EQ_U(run(5, edges, 6, c), 3);
  CHECK_EQ_U(c[0], c[1]);
  CHECK_EQ_U(c[2], c[3]);
  CHECK(c[0] != c[2]);
  CHECK(c[2] < c[0]);
  CHECK(c[4] != c[0] && c[4] != c[2]);
}

static void test_every_edge_goes_down(void) {
  /* A pseudo-random graph: every edge between different components must go
   * from a higher component number to a lower one. */
  enum { N = 3000, E = 9000 };
  edge_list *edges = malloc(E * sizeof(edge_list));
  uint32_t seed = 12345;
  for (uint32_t i = 0; i < E; i++) {
    seed = seed * 1103515245u + 12345u;
    uint32_t a = (seed >> 8) % N;
    seed = seed * 1103515245u + 12345u;
    uint32_t b = (seed >> 8) % N;
    edges[i] = (edge_list){a, b};
  }
  /* make_csr needs them grouped by source */
  for (uint32_t i = 1; i < E; i++)
    for (uint32_t j = i; j > 0 && edges[j - 1].from > edges[j].from; j--) {
      edge_list t = edges[j];
      edges[j] = edges[j - 1];
      edges[j - 1] = t;
    }
  uint32_t *c = malloc(N * sizeof(uint32_t));
  run(N, edges, E, c);
  int ok = 1;
  for (uint32_t i = 0; i < E; i++)
    if (c[edges[i].from] != c[edges[i].to] && c[edges[i].from] < c[edges[i].to])
      ok = 0;
  CHECK(ok);
  free(c);
  free(edges);
}

static void test_deep_chain_does_not_recurse(void) {
  /* A million-deep call chain closed into one cycle would overflow any
   * recursive implementation. */
  enum { N = 1000000 };
  edge_list *edges = malloc(N * sizeof(edge_list));
  for (uint32_t i = 0; i < N; i++)
    edges[i] = (edge_list){i, (i + 1) % N};
  uint32_t *c = malloc(N * sizeof(uint32_t));
  CHECK_EQ_U(run(N, edges, N, c), 1);
  CHECK_EQ_U(c[0], c[N - 1]);
  edges[N - 1].to = N - 1; /* open the cycle: now N components */
  CHECK_EQ_U(run(N, edges, N, c), N);
  CHECK(c[N - 1] < c[0]);
  free(c);
  free(edges);
}

int main(void) {
  test_empty();
  test_chain_orders_callees_first();
  test_cycles();
  test_every_edge_goes_down();
  test_deep_chain_does_not_recurse();
  CHECK_SUMMARY();
}
