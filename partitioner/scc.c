#include "scc.h"

#include <stdlib.h>

#include "support/support.h"

#define UNVISITED UINT32_MAX

typedef struct frame {
  uint32_t node;
  uint32_t next_edge; /* index into targets of the next successor to look at */
} frame;

uint32_t mtpc_scc(const mtpc_csr *g, uint32_t *component) {
  uint32_t n = g->node_count;
  uint32_t *index = mtpc_alloc(n, sizeof(uint32_t));
  uint32_t *lowlink = mtpc_alloc(n, sizeof(uint32_t));
  uint8_t *on_stack = mtpc_zalloc(n, 1);
  uint32_t *stack = mtpc_alloc(n, sizeof(uint32_t));
  frame *calls = mtpc_alloc(n, sizeof(frame));
  uint32_t stack_size = 0, next_index = 0, components = 0;
  if (!index || !lowlink || !on_stack || !stack || !calls) {
    n = 0;
    components = MTPC_SCC_NO_MEMORY;
  }

  for (uint32_t v = 0; v < n; v++)
    index[v] = UNVISITED;

  for (uint32_t root = 0; root < n; root++) {
    if (index[root] != UNVISITED)
      continue;
    uint32_t depth = 0;
    calls[depth++] = (frame){root, g->offsets[root]};
    index[root] = lowlink[root] = next_index++;
    stack[stack_size++] = root;
    on_stack[root] = 1;

    while (depth > 0) {
      frame *f = &calls[depth - 1];
      uint32_t v = f->node;
      if (f->next_edge < g->offsets[v + 1]) {
        uint32_t w = g->targets[f->next_edge++];
        if (index[w] == UNVISITED) {
          index[w] = lowlink[w] = next_index++;
          stack[stack_size++] = w;
          on_stack[w] = 1;
          calls[depth++] = (frame){w, g->offsets[w]};
        } else if (on_stack[w] && index[w] < lowlink[v]) {
          lowlink[v] = index[w];
        }
        continue;
      }
      /* All successors of v are done. */
      if (lowlink[v] == index[v]) {
        uint32_t w;
        do {
          w = stack[--stack_size];
          on_stack[w] = 0;
          component[w] = components;
        } while (w != v);
        components++;
      }
      depth--;
      if (depth > 0) {
        uint32_t parent = calls[depth - 1].node;
        if (lowlink[v] < lowlink[parent])
          lowlink[parent] = lowlink[v];
      }
    }
  }

  free(index);
  free(lowlink);
  free(on_stack);
  free(stack);
  free(calls);
  return components;
}
