/* Strongly connected components by Tarjan's algorithm, iterative (no
 * recursion: real call chains are deeper than a thread's stack allows). */
#ifndef MTPC_SCC_H
#define MTPC_SCC_H

#include <stdint.h>

/* A directed graph in compressed sparse row form: the successors of node v
 * are targets[offsets[v] .. offsets[v + 1]). */
typedef struct mtpc_csr {
  uint32_t node_count;
  const uint32_t *offsets; /* node_count + 1 entries */
  const uint32_t *targets;
} mtpc_csr;

/* Fills component[v] for every node and returns the number of components,
 * or MTPC_SCC_NO_MEMORY.
 * Components are numbered in the order Tarjan completes them: every edge
 * u -> v between different components has component[u] > component[v], so
 * ascending numbers visit callees before callers. Nodes are started in index
 * order, which makes the numbering a function of the graph alone. */
#define MTPC_SCC_NO_MEMORY UINT32_MAX
uint32_t mtpc_scc(const mtpc_csr *graph, uint32_t *component);

#endif
