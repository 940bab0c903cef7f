#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "support.h"

struct mtpc_raw_edge {
  uint32_t from, to;
  mtpc_ref_kind kind;
  uint64_t count;
};

void mtpc_graph_init(mtpc_graph *g, const char *module_id) {
  memset(g, 0, sizeof(*g));
  g->module_id = mtpc_xstrdup(module_id ? module_id : "");
}

uint32_t mtpc_graph_add_node(mtpc_graph *g, mtpc_node_kind kind, const char *name, size_t len,
                             uint32_t flags, uint32_t comdat, uint64_t cost) {
  mtpc_node node = {mtpc_xstrndup(name, len), (uint32_t)len, kind, flags, comdat, cost, NULL, NULL};
  size_t count = g->node_count;
  MTPC_PUSH(g->nodes, count, g->node_cap, node);
  return g->node_count++;
}

void mtpc_graph_add_counted_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind,
                                 uint64_t count) {
  struct mtpc_raw_edge e = {from, to, kind, count};
  MTPC_PUSH(g->raw_edges, g->raw_count, g->raw_cap, e);
}

void mtpc_graph_add_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind) {
  mtpc_graph_add_counted_edge(g, from, to, kind, 0);
}

void mtpc_graph_set_pgo_name(mtpc_graph *g, uint32_t node, const char *name, size_t len) {
  free(g->nodes[node].pgo_name);
  g->nodes[node].pgo_name = mtpc_xstrndup(name, len);
}

mtpc_debug_decl *mtpc_debug_decl_copy(const mtpc_debug_decl *d) {
  if (!d)
    return NULL;
  mtpc_debug_decl *copy = mtpc_xmalloc(sizeof(*copy));
  *copy = (mtpc_debug_decl){mtpc_xstrdup(d->name), mtpc_xstrdup(d->linkage_name),
                            mtpc_xstrdup(d->file), mtpc_xstrdup(d->directory), d->line, d->flags};
  return copy;
}

void mtpc_debug_decl_free(mtpc_debug_decl *d) {
  if (!d)
    return;
  free(d->name);
  free(d->linkage_name);
  free(d->file);
  free(d->directory);
  free(d);
}

void mtpc_graph_add_bond(mtpc_graph *g, uint32_t a, uint32_t b) {
  if (a == b)
    return;
  size_t count = g->bond_count;
  uint32_t pair[2] = {a, b};
  mtpc_grow((void **)&g->bonds, &g->bond_cap, count + 1, sizeof(*g->bonds));
  memcpy(g->bonds[count], pair, sizeof(pair));
  g->bond_count++;
}

void mtpc_graph_add_debug_type(mtpc_graph *g, const char *key, uint32_t node) {
  mtpc_grow((void **)&g->debug_types, &g->debug_type_cap, g->debug_type_count + 1,
            sizeof(*g->debug_types));
  g->debug_types[g->debug_type_count++] = (mtpc_debug_type){mtpc_xstrdup(key), node};
}

static int compare_raw_edges(const void *a, const void *b) {
  const struct mtpc_raw_edge *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return 0;
}

static void build_csr(mtpc_graph *g) {
  qsort(g->raw_edges, g->raw_count, sizeof(*g->raw_edges), compare_raw_edges);
  size_t slots = g->raw_count ? g->raw_count : 1;
  g->edge_offsets = mtpc_xcalloc(g->node_count + 1, sizeof(uint32_t));
  g->edge_targets = mtpc_xmalloc(slots * sizeof(uint32_t));
  g->edge_weights = mtpc_xcalloc(slots, sizeof(uint32_t));
  g->edge_calls = mtpc_xcalloc(slots, sizeof(uint32_t));
  g->edge_profile_refs = mtpc_xcalloc(slots, sizeof(uint32_t));
  g->edge_counts = mtpc_xcalloc(slots, sizeof(uint64_t));
  uint32_t out = 0;
  for (size_t i = 0; i < g->raw_count; i++) {
    const struct mtpc_raw_edge *e = &g->raw_edges[i];
    int repeat = out > 0 && i > 0 && e->from == g->raw_edges[i - 1].from &&
                 e->to == g->raw_edges[i - 1].to;
    if (!repeat) {
      g->edge_targets[out] = e->to;
      g->edge_offsets[e->from + 1]++;
      out++;
    }
    g->edge_weights[out - 1]++;
    g->edge_calls[out - 1] += e->kind != MTPC_REF;
    g->edge_profile_refs[out - 1] += e->kind == MTPC_PROFILE_TARGET;
    g->edge_counts[out - 1] += e->count;
  }
  for (uint32_t v = 0; v < g->node_count; v++)
    g->edge_offsets[v + 1] += g->edge_offsets[v];
  g->call_counts_in = mtpc_xcalloc(g->node_count ? g->node_count : 1, sizeof(uint64_t));
  for (uint32_t e = 0; e < out; e++)
    g->call_counts_in[g->edge_targets[e]] += g->edge_counts[e];
  free(g->raw_edges);
  g->raw_edges = NULL;
  g->raw_count = g->raw_cap = 0;
}

/* A local COMDAT member disappears with its group when the linker keeps
 * another module's copy, so only code in the same partition may name it, and
 * no copy of that code may go elsewhere (a copy would need it exported). */
static void bond_local_comdat_references(mtpc_graph *g) {
  for (uint32_t u = 0; u < g->node_count; u++) {
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++) {
      uint32_t v = g->edge_targets[e];
      const mtpc_node *target = &g->nodes[v];
      if (u == v || !(target->flags & MTPC_N_LOCAL) || target->comdat == MTPC_NONE)
        continue;
      g->nodes[u].flags |= MTPC_N_REFS_LOCAL_COMDAT;
      if (g->nodes[u].comdat != target->comdat)
        mtpc_graph_add_bond(g, u, v);
    }
  }
}

void mtpc_graph_finalize(mtpc_graph *g) {
  build_csr(g);
  bond_local_comdat_references(g);
}

void mtpc_graph_free(mtpc_graph *g) {
  for (uint32_t i = 0; i < g->node_count; i++) {
    free(g->nodes[i].name);
    free(g->nodes[i].pgo_name);
    mtpc_debug_decl_free(g->nodes[i].debug_decl);
  }
  free(g->nodes);
  free(g->edge_offsets);
  free(g->edge_targets);
  free(g->edge_weights);
  free(g->edge_calls);
  free(g->edge_profile_refs);
  free(g->edge_counts);
  free(g->call_counts_in);
  free(g->bonds);
  free(g->raw_edges);
  for (uint32_t i = 0; i < g->debug_type_count; i++)
    free(g->debug_types[i].key);
  free(g->debug_types);
  free(g->module_id);
  memset(g, 0, sizeof(*g));
}
