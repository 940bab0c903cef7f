#include "graph.h"

#include <stdlib.h>
#include <string.h>

#include "support/support.h"

struct mtpc_raw_edge {
  uint32_t from, to;
  mtpc_ref_kind kind;
  uint64_t count;
};

void mtpc_graph_init(mtpc_graph *g, const char *module_id) {
  memset(g, 0, sizeof(*g));
  g->module_id = mtpc_strdup(module_id ? module_id : "");
  g->out_of_memory = !g->module_id;
}

uint32_t mtpc_graph_add_node(mtpc_graph *g, mtpc_node_kind kind, const char *name, size_t len,
                             uint32_t flags, uint32_t comdat, uint64_t cost) {
  mtpc_node node = {mtpc_strndup(name, len), (uint32_t)len, kind, flags, comdat, cost, cost, NULL,
                    NULL};
  size_t count = g->node_count;
  if (g->out_of_memory || !node.name || MTPC_PUSH(g->nodes, count, g->node_cap, node)) {
    free(node.name);
    g->out_of_memory = 1;
    return MTPC_NONE;
  }
  return g->node_count++;
}

void mtpc_graph_add_counted_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind,
                                 uint64_t count) {
  struct mtpc_raw_edge e = {from, to, kind, count};
  if (MTPC_PUSH(g->raw_edges, g->raw_count, g->raw_cap, e))
    g->out_of_memory = 1;
}

void mtpc_graph_add_profile_target(mtpc_graph *g, uint32_t from, uint64_t hash, uint64_t count) {
  mtpc_profile_target t = {from, hash, count};
  if (MTPC_PUSH(g->profile_targets, g->profile_target_count, g->profile_target_cap, t))
    g->out_of_memory = 1;
}

/* Appends items [0, from_count) of *from to *to; non-zero when memory runs out. */
static int append(void **to, size_t *to_count, size_t *to_cap, const void *from,
                  size_t from_count, size_t size) {
  if (mtpc_grow(to, to_cap, *to_count + from_count, size))
    return -1;
  if (from_count)
    memcpy((char *)*to + *to_count * size, from, from_count * size);
  *to_count += from_count;
  return 0;
}

void mtpc_graph_take_edges(mtpc_graph *g, mtpc_graph *from) {
  if (append((void **)&g->raw_edges, &g->raw_count, &g->raw_cap, from->raw_edges,
             from->raw_count, sizeof(*g->raw_edges)) ||
      append((void **)&g->profile_targets, &g->profile_target_count, &g->profile_target_cap,
             from->profile_targets, from->profile_target_count, sizeof(*g->profile_targets)))
    g->out_of_memory = 1;
  free(from->raw_edges);
  free(from->profile_targets);
  from->raw_edges = NULL;
  from->profile_targets = NULL;
  from->raw_count = from->raw_cap = from->profile_target_count = from->profile_target_cap = 0;
}

void mtpc_graph_add_edge(mtpc_graph *g, uint32_t from, uint32_t to, mtpc_ref_kind kind) {
  mtpc_graph_add_counted_edge(g, from, to, kind, 0);
}

void mtpc_graph_set_pgo_name(mtpc_graph *g, uint32_t node, const char *name, size_t len) {
  free(g->nodes[node].pgo_name);
  g->nodes[node].pgo_name = mtpc_strndup(name, len);
  if (!g->nodes[node].pgo_name)
    g->out_of_memory = 1;
}

mtpc_debug_decl *mtpc_debug_decl_new(const char *name, size_t name_len, const char *linkage_name,
                                     size_t linkage_len, const char *file, size_t file_len,
                                     const char *directory, size_t directory_len,
                                     uint32_t flags) {
  mtpc_debug_decl *d = calloc(1, sizeof(*d));
  if (!d)
    return NULL;
  *d = (mtpc_debug_decl){mtpc_strndup(name, name_len), mtpc_strndup(linkage_name, linkage_len),
                         mtpc_strndup(file, file_len), mtpc_strndup(directory, directory_len),
                         flags};
  if (!d->name || !d->linkage_name || !d->file || !d->directory) {
    mtpc_debug_decl_free(d);
    return NULL;
  }
  return d;
}

mtpc_debug_decl *mtpc_debug_decl_copy(const mtpc_debug_decl *d) {
  return mtpc_debug_decl_new(d->name, strlen(d->name), d->linkage_name, strlen(d->linkage_name),
                             d->file, strlen(d->file), d->directory, strlen(d->directory),
                             d->flags);
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
  if (mtpc_grow((void **)&g->bonds, &g->bond_cap, count + 1, sizeof(*g->bonds))) {
    g->out_of_memory = 1;
    return;
  }
  memcpy(g->bonds[count], pair, sizeof(pair));
  g->bond_count++;
}

void mtpc_graph_add_debug_type(mtpc_graph *g, const char *key, uint32_t node) {
  char *copy = mtpc_strdup(key);
  if (!copy || mtpc_grow((void **)&g->debug_types, &g->debug_type_cap, g->debug_type_count + 1,
                         sizeof(*g->debug_types))) {
    free(copy);
    g->out_of_memory = 1;
    return;
  }
  g->debug_types[g->debug_type_count++] = (mtpc_debug_type){copy, node};
}

static int compare_raw_edges(const void *a, const void *b) {
  const struct mtpc_raw_edge *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return 0;
}

static int build_csr(mtpc_graph *g) {
  qsort(g->raw_edges, g->raw_count, sizeof(*g->raw_edges), compare_raw_edges);
  size_t slots = g->raw_count;
  g->edge_offsets = mtpc_zalloc(g->node_count + 1, sizeof(uint32_t));
  g->edge_targets = mtpc_alloc(slots, sizeof(uint32_t));
  g->edge_weights = mtpc_zalloc(slots, sizeof(uint32_t));
  g->edge_calls = mtpc_zalloc(slots, sizeof(uint32_t));
  g->edge_profile_refs = mtpc_zalloc(slots, sizeof(uint32_t));
  g->edge_counts = mtpc_zalloc(slots, sizeof(uint64_t));
  g->call_counts_in = mtpc_zalloc(g->node_count, sizeof(uint64_t));
  if (!g->edge_offsets || !g->edge_targets || !g->edge_weights || !g->edge_calls ||
      !g->edge_profile_refs || !g->edge_counts || !g->call_counts_in)
    return -1;
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
  for (uint32_t e = 0; e < out; e++)
    g->call_counts_in[g->edge_targets[e]] += g->edge_counts[e];
  free(g->raw_edges);
  free(g->profile_targets);
  g->raw_edges = NULL;
  g->profile_targets = NULL;
  g->raw_count = g->raw_cap = g->profile_target_count = g->profile_target_cap = 0;
  return 0;
}

/* A local COMDAT member disappears with its group when the linker keeps
 * another module's copy, so only code in the same partition may name it, and
 * no copy of that code may go elsewhere (a copy would need it exported). A
 * nodeduplicate group (profile counters beside their data) is never
 * replaced: its members are locals like any other. */
static void bond_local_comdat_references(mtpc_graph *g) {
  for (uint32_t u = 0; u < g->node_count; u++) {
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++) {
      uint32_t v = g->edge_targets[e];
      const mtpc_node *target = &g->nodes[v];
      if (u == v || !(target->flags & MTPC_N_LOCAL) || target->comdat == MTPC_NONE ||
          (target->flags & MTPC_N_COMDAT_KEEPS_ALL))
        continue;
      g->nodes[u].flags |= MTPC_N_REFS_LOCAL_COMDAT;
      if (g->nodes[u].comdat != target->comdat)
        mtpc_graph_add_bond(g, u, v);
    }
  }
}

mtpc_status mtpc_graph_finalize(mtpc_graph *g) {
  if (g->out_of_memory || build_csr(g)) {
    g->out_of_memory = 1;
    return MTPC_ERR_NO_MEMORY;
  }
  bond_local_comdat_references(g);
  return g->out_of_memory ? MTPC_ERR_NO_MEMORY : MTPC_OK;
}

void mtpc_graph_move_references(mtpc_graph *g, mtpc_graph_edges *edges) {
  *edges = (mtpc_graph_edges){g->node_count, g->edge_offsets, g->edge_targets};
  g->edge_offsets = NULL;
  g->edge_targets = NULL;
}

void mtpc_graph_edges_free(mtpc_graph_edges *edges) {
  free(edges->offsets);
  free(edges->targets);
  memset(edges, 0, sizeof(*edges));
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
  free(g->profile_targets);
  for (uint32_t i = 0; i < g->debug_type_count; i++)
    free(g->debug_types[i].key);
  free(g->debug_types);
  free(g->module_id);
  memset(g, 0, sizeof(*g));
}
