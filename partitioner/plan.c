#define _GNU_SOURCE
/* From the reference graph to a plan, top to bottom:
 *
 *  1. atoms:   nodes bonded together (COMDATs, aliases, blockaddress users, ...)
 *  2. units:   strongly connected components of the atom graph
 *  3. groups:  a local or discardable unit whose callers all sit in one group
 *              joins that group, so code only one caller can reach stays
 *              with that caller (and an inline function that caller inlines
 *              disappears, as in a serial compile); with a profile so does a
 *              unit whose calls nearly all come from one group
 *  4. assign:  by default, groups in module order cut into content-defined
 *              chunks (chunks.h), so that an edit moves no group but its
 *              own and its neighbours'; with a requested count, groups
 *              largest first to partitions with room left, preferring the
 *              one they reference most, else the lightest
 *  5. copies:  small callees across a cut get available_externally copies
 *              (hot calls allow larger ones, cold calls none, as ThinLTO's
 *              importer has it); small ODR groups (inline functions, vtables)
 *              are cloned
 *  6. exports: what another partition references; locals among them are
 *              promoted to hidden names unique to the module
 */
#include "plan.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "chunks.h"
#include "scc.h"

void mtpc_plan_options_init(mtpc_plan_options *o) {
  o->partitions = 0;
  o->import_instr_limit = MTPC_LIMIT_BY_MODULE;
  o->head_cost = 0;
}

uint64_t mtpc_partition_target(uint64_t total_cost, uint64_t most) {
  uint64_t target = MTPC_COST_PER_PARTITION;
  while (total_cost > target * MTPC_SMALL_MODULE_PARTITIONS && target < MTPC_FULL_PARTITION_COST)
    target *= 2;
  /* 2^(k/4) in ten-thousandths: the target grows by quarter octaves. */
  static const uint64_t quarter_octave[4] = {10000, 11892, 14142, 16818};
  for (unsigned step = 1; total_cost > target * most; step++)
    target = ((uint64_t)MTPC_FULL_PARTITION_COST << (step / 4)) * quarter_octave[step % 4] / 10000;
  return target;
}

char *mtpc_promoted_name(const char *module_id, const char *base) {
  size_t id_len = strlen(module_id), base_len = strlen(base);
  char *key = mtpc_alloc(id_len + 1 + base_len, 1);
  if (!key)
    return NULL;
  memcpy(key, module_id, id_len);
  key[id_len] = '\0';
  memcpy(key + id_len + 1, base, base_len);
  unsigned long long hash = XXH64(key, id_len + 1 + base_len, 0);
  free(key);
  return mtpc_asprintf("%s.llvm.mtpc%016llx", base, hash);
}

size_t mtpc_promoted_suffix_length(const char *name, size_t length) {
  static const char marker[] = ".llvm.mtpc";
  const size_t marker_length = sizeof(marker) - 1, hex = 16;
  if (length < marker_length + hex || memcmp(name + length - hex - marker_length, marker, marker_length))
    return 0;
  for (size_t i = length - hex; i < length; i++)
    if (!(name[i] >= '0' && name[i] <= '9') && !(name[i] >= 'a' && name[i] <= 'f'))
      return 0;
  return marker_length + hex;
}

/* An undirected or directed weighted graph over small integer ids, in CSR. */
typedef struct wgraph {
  uint32_t count;
  uint32_t *offsets, *targets;
  uint64_t *weights;
} wgraph;

typedef struct wedge {
  uint32_t from, to;
  uint64_t weight;
} wedge;

static int compare_wedges(const void *a, const void *b) {
  const wedge *x = a, *y = b;
  if (x->from != y->from)
    return x->from < y->from ? -1 : 1;
  if (x->to != y->to)
    return x->to < y->to ? -1 : 1;
  return 0;
}

static void wgraph_free(wgraph *w) {
  free(w->offsets);
  free(w->targets);
  free(w->weights);
  memset(w, 0, sizeof(*w));
}

static int wgraph_build(wgraph *w, uint32_t count, wedge *edges, size_t edge_count) {
  qsort(edges, edge_count, sizeof(*edges), compare_wedges);
  w->count = count;
  w->offsets = mtpc_zalloc(count + 1, sizeof(uint32_t));
  w->targets = mtpc_alloc(edge_count, sizeof(uint32_t));
  w->weights = mtpc_alloc(edge_count, sizeof(uint64_t));
  if (!w->offsets || !w->targets || !w->weights) {
    wgraph_free(w);
    return -1;
  }
  uint32_t out = 0;
  for (size_t i = 0; i < edge_count; i++) {
    if (out > 0 && edges[i].from == edges[i - 1].from && edges[i].to == edges[i - 1].to) {
      w->weights[out - 1] += edges[i].weight;
      continue;
    }
    w->targets[out] = edges[i].to;
    w->weights[out] = edges[i].weight;
    w->offsets[edges[i].from + 1]++;
    out++;
  }
  for (uint32_t v = 0; v < count; v++)
    w->offsets[v + 1] += w->offsets[v];
  return 0;
}

typedef struct planner {
  const mtpc_graph *g;
  const mtpc_plan_options *o;
  mtpc_plan *plan;
  uint32_t *node_atom;  /* node -> atom, MTPC_NONE if not ownable */
  uint32_t atom_count;
  uint32_t *atom_members;       /* nodes of atom a: atom_members[atom_start[a] ..] */
  uint32_t *atom_start;
  uint8_t *atom_clonable;
  uint32_t *atom_unit;
  uint32_t unit_count;
  uint64_t most_partitions; /* of a default plan: MTPC_MAX_(DEFAULT|ODR)_PARTITIONS */
  uint64_t group_limit; /* a unit joins a group only while the group stays under this */
  uint32_t *unit_group;
  uint32_t group_count;
  uint64_t *group_cost;
  uint8_t *group_pinned;
  uint32_t *group_leader; /* the group's first node in module order */
  uint32_t *group_partition;
  uint32_t *owned_start;  /* nodes partition q owns: owned_nodes[owned_start[q] ..] */
  uint32_t *owned_nodes;
  uint32_t *present;      /* q + 1 once partition q has a copy or clone of the node */
  uint32_t *clones;      /* of the partition find_copies works on, unsorted */
  size_t clone_count, clones_cap;
} planner;

/* The ids 0..n-1 grouped by key (MTPC_NONE: left out), each group in id
 * order: ids of key k are members[start[k] .. start[k + 1]]. */
static int group_by_key(const uint32_t *key, uint32_t n, uint32_t keys, uint32_t **start,
                        uint32_t **members) {
  *start = mtpc_zalloc((size_t)keys + 1, sizeof(uint32_t));
  *members = mtpc_alloc(n, sizeof(uint32_t));
  uint32_t *fill = mtpc_alloc(keys, sizeof(uint32_t));
  if (!*start || !*members || !fill) {
    free(fill);
    return -1;
  }
  for (uint32_t i = 0; i < n; i++)
    if (key[i] != MTPC_NONE)
      (*start)[key[i] + 1]++;
  for (uint32_t k = 0; k < keys; k++)
    (*start)[k + 1] += (*start)[k];
  memcpy(fill, *start, keys * sizeof(uint32_t));
  for (uint32_t i = 0; i < n; i++)
    if (key[i] != MTPC_NONE)
      (*members)[fill[key[i]]++] = i;
  free(fill);
  return 0;
}

/* 1. atoms */
static int find_atoms(planner *p) {
  const mtpc_graph *g = p->g;
  mtpc_unionfind uf;
  int failed = mtpc_uf_init(&uf, g->node_count);
  p->node_atom = mtpc_alloc(g->node_count, sizeof(uint32_t));
  uint32_t *root_atom = mtpc_alloc(g->node_count, sizeof(uint32_t));
  if (failed || !p->node_atom || !root_atom) {
    free(root_atom);
    mtpc_uf_free(&uf);
    return -1;
  }
  for (uint32_t i = 0; i < g->bond_count; i++) {
    uint32_t a = g->bonds[i][0], b = g->bonds[i][1];
    if (mtpc_node_ownable(&g->nodes[a]) && mtpc_node_ownable(&g->nodes[b]))
      mtpc_uf_union(&uf, a, b);
  }
  for (uint32_t i = 0; i < g->node_count; i++)
    root_atom[i] = MTPC_NONE;
  p->atom_count = 0;
  for (uint32_t i = 0; i < g->node_count; i++) {
    p->node_atom[i] = MTPC_NONE;
    if (!mtpc_node_ownable(&g->nodes[i]))
      continue;
    uint32_t root = mtpc_uf_find(&uf, i);
    if (root_atom[root] == MTPC_NONE)
      root_atom[root] = p->atom_count++;
    p->node_atom[i] = root_atom[root];
  }
  free(root_atom);
  mtpc_uf_free(&uf);
  return 0;
}

/* Which edges mapped_edges keeps, and what weighs them: coupling, or with
 * EDGES_COUNTS the profile counts of the calls. */
enum { EDGES_DIRECTED = 0, EDGES_UNDIRECTED = 1, EDGES_CALLS_ONLY = 2, EDGES_COUNTS = 4 };

typedef enum call_heat { CALL_COLD, CALL_WARM, CALL_HOT } call_heat;

/* What the profile says of the calls along edge e of node u: hot from the
 * summary's hot count, or when they are the one path that reaches the
 * callee (nearly all its calls, and not few); cold when u has counts and
 * none reach this callee; warm otherwise (and always without a profile). */
static call_heat edge_heat(const mtpc_graph *g, uint32_t u, uint32_t e) {
  if (!g->hot_count || !g->edge_calls[e])
    return CALL_WARM;
  uint64_t count = g->edge_counts[e], all = g->call_counts_in[g->edge_targets[e]];
  if (count >= g->hot_count ||
      (count >= g->hot_count / 10 && count * 100 >= all * MTPC_DOMINANT_CALLER_PERCENT))
    return CALL_HOT;
  if ((g->nodes[u].flags & MTPC_N_PROFILED) && g->edge_counts[e] == 0)
    return CALL_COLD;
  return CALL_WARM;
}

/* A call couples caller and callee more than any other reference: inlining
 * needs both in one partition; a hot call more still. */
static uint32_t coupling(const mtpc_graph *g, uint32_t u, uint32_t e) {
  return g->edge_weights[e] + 3 * g->edge_calls[e] +
         (edge_heat(g, u, e) == CALL_HOT ? MTPC_HOT_CALL_COUPLING : 0);
}

/* A local whose COMDAT the linker may replace with another module's: it
 * lives and dies with the group, never on its own. */
static int local_in_deduplicated_comdat(const mtpc_node *n) {
  const uint32_t flags = n->flags & (MTPC_N_LOCAL | MTPC_N_IN_COMDAT | MTPC_N_COMDAT_KEEPS_ALL);
  return flags == (MTPC_N_LOCAL | MTPC_N_IN_COMDAT);
}

/* A small group of discardable ODR definitions (an inline function and its
 * COMDAT, a vtable) may be defined in every partition that needs it: the
 * linker keeps one copy, as it does for the same group in many modules.
 * Not a group whose outside-visible member names one of its locals: a
 * partition that inlines that member (or folds a load from it) names its
 * own clone of the local from outside the group, and the merge keeps
 * another partition's group, so the name would point into a discarded
 * section. */
static int clonable_member(const mtpc_node *n) {
  const uint32_t never = MTPC_N_PINNED_PRIMARY | MTPC_N_ASM_NAMES_SYMBOL |
                         MTPC_N_USES_BLOCKADDRESS | MTPC_N_BLOCKADDRESS_TAKEN |
                         MTPC_N_IN_USED_LIST | MTPC_N_APPENDING;
  if (n->flags & never)
    return 0;
  if (n->flags & MTPC_N_LOCAL)
    return local_in_deduplicated_comdat(n);
  return (n->flags & MTPC_N_DISCARDABLE) && !(n->flags & MTPC_N_REFS_LOCAL_COMDAT);
}

static int find_atom_members(planner *p) {
  const mtpc_graph *g = p->g;
  uint32_t n = p->atom_count;
  p->atom_clonable = mtpc_alloc(n, 1);
  uint64_t *size = mtpc_zalloc(n, sizeof(uint64_t));
  uint8_t *discardable = mtpc_zalloc(n, 1);
  int failed = !p->atom_clonable || !size || !discardable ||
               group_by_key(p->node_atom, g->node_count, n, &p->atom_start, &p->atom_members);
  if (failed)
    goto out;
  memset(p->atom_clonable, 1, n);
  for (uint32_t i = 0; i < g->node_count; i++) {
    uint32_t a = p->node_atom[i];
    if (a == MTPC_NONE)
      continue;
    size[a] += g->nodes[i].size;
    if (!clonable_member(&g->nodes[i]))
      p->atom_clonable[a] = 0;
    if (!(g->nodes[i].flags & MTPC_N_LOCAL))
      discardable[a] = 1;
  }
  for (uint32_t a = 0; a < n; a++)
    if (!discardable[a] || size[a] > p->plan->clone_limit)
      p->atom_clonable[a] = 0;
out:
  free(size);
  free(discardable);
  return failed ? -1 : 0;
}

/* Edges between different ids of `map` (node -> id). */
static int mapped_edges(const mtpc_graph *g, const uint32_t *map, uint32_t id_count, int mode,
                        wgraph *out) {
  wedge *edges = NULL;
  size_t count = 0, cap = 0;
  for (uint32_t u = 0; u < g->node_count; u++) {
    if (map[u] == MTPC_NONE)
      continue;
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++) {
      uint32_t v = g->edge_targets[e];
      if (map[v] == MTPC_NONE || map[v] == map[u])
        continue;
      if ((mode & EDGES_CALLS_ONLY) && g->edge_calls[e] == 0)
        continue;
      wedge forward = {map[u], map[v],
                       (mode & EDGES_COUNTS) ? g->edge_counts[e] : coupling(g, u, e)};
      wedge back = {map[v], map[u], forward.weight};
      if (MTPC_PUSH(edges, count, cap, forward) ||
          ((mode & EDGES_UNDIRECTED) && MTPC_PUSH(edges, count, cap, back))) {
        free(edges);
        return -1;
      }
    }
  }
  int failed = wgraph_build(out, id_count, edges, count);
  free(edges);
  return failed;
}

/* The reversed edges of `map`: predecessors of each id. */
static int mapped_predecessors(const mtpc_graph *g, const uint32_t *map, uint32_t id_count,
                               int mode, wgraph *out) {
  wgraph forward;
  if (mapped_edges(g, map, id_count, mode, &forward))
    return -1;
  uint32_t edge_count = forward.offsets[id_count];
  wedge *reverse = mtpc_alloc(edge_count, sizeof(wedge));
  if (!reverse) {
    wgraph_free(&forward);
    return -1;
  }
  for (uint32_t u = 0; u < id_count; u++)
    for (uint32_t e = forward.offsets[u]; e < forward.offsets[u + 1]; e++)
      reverse[e] = (wedge){forward.targets[e], u, forward.weights[e]};
  int failed = wgraph_build(out, id_count, reverse, edge_count);
  free(reverse);
  wgraph_free(&forward);
  return failed;
}

/* Appends the atoms of one strongly connected component in DFS postorder over
 * its internal calls, so that within the cycle callees still tend to come
 * before their callers. */
static void postorder_component(const wgraph *atoms, const uint32_t *scc, const uint32_t *members,
                                uint32_t member_count, uint8_t *visited, uint32_t *stack,
                                uint32_t *next_edge, uint32_t *out, uint32_t *out_count) {
  for (uint32_t m = 0; m < member_count; m++) {
    uint32_t root = members[m];
    if (visited[root])
      continue;
    uint32_t depth = 0;
    stack[depth++] = root;
    visited[root] = 1;
    next_edge[root] = atoms->offsets[root];
    while (depth > 0) {
      uint32_t a = stack[depth - 1];
      if (next_edge[a] < atoms->offsets[a + 1]) {
        uint32_t b = atoms->targets[next_edge[a]++];
        if (scc[b] == scc[a] && !visited[b]) {
          visited[b] = 1;
          next_edge[b] = atoms->offsets[b];
          stack[depth++] = b;
        }
        continue;
      }
      out[(*out_count)++] = a;
      depth--;
    }
  }
}

/* Groups are cut below half a partition's share so that largest-first
 * assignment can balance them; the finest split keeps whole groups. */
static uint64_t group_limit(const mtpc_plan_options *o, uint64_t total_cost, uint64_t most) {
  if (o->partitions == MTPC_PLAN_FINEST || o->partitions == 1)
    return UINT64_MAX;
  /* By default a constant of the target, not of the module's cost, which
   * every edit changes. */
  if (o->partitions == 0)
    return mtpc_partition_target(total_cost, most) / 2;
  uint64_t limit = total_cost / o->partitions / 2;
  return limit ? limit : 1;
}

/* 2. units: strongly connected components of the call graph between atoms.
 * A component heavier than the group limit cannot be balanced; it is split
 * into its atoms (each a unit of its own). */
static int find_units(planner *p) {
  uint32_t n = p->atom_count;
  wgraph atoms = {0};
  uint32_t scc_count = 0;
  uint32_t *scc = mtpc_alloc(n, sizeof(uint32_t));
  int failed = !scc || mapped_edges(p->g, p->node_atom, n, EDGES_CALLS_ONLY, &atoms);
  if (!failed) {
    mtpc_csr csr = {n, atoms.offsets, atoms.targets};
    scc_count = mtpc_scc(&csr, scc);
    failed = scc_count == MTPC_SCC_NO_MEMORY;
  }
  uint64_t *scc_cost = NULL;
  uint32_t *bucket_start = NULL, *members = NULL;
  uint8_t *visited = NULL;
  uint32_t *stack = NULL, *next_edge = NULL, *order = NULL;
  if (!failed) {
    scc_cost = mtpc_zalloc(scc_count, sizeof(uint64_t));
    visited = mtpc_zalloc(n, 1);
    stack = mtpc_alloc(n, sizeof(uint32_t));
    next_edge = mtpc_alloc(n, sizeof(uint32_t));
    order = mtpc_alloc(n, sizeof(uint32_t));
    p->atom_unit = mtpc_alloc(n, sizeof(uint32_t));
    failed = !scc_cost || !visited || !stack || !next_edge || !order || !p->atom_unit ||
             group_by_key(scc, n, scc_count, &bucket_start, &members);
  }
  if (failed)
    goto out;

  for (uint32_t i = 0; i < p->g->node_count; i++)
    if (p->node_atom[i] != MTPC_NONE)
      scc_cost[scc[p->node_atom[i]]] += p->g->nodes[i].cost;

  p->unit_count = 0;
  for (uint32_t c = 0; c < scc_count; c++) {
    uint32_t first = bucket_start[c], size = bucket_start[c + 1] - first;
    if (size == 1 || scc_cost[c] <= p->group_limit) {
      for (uint32_t m = 0; m < size; m++)
        p->atom_unit[members[first + m]] = p->unit_count;
      p->unit_count++;
      continue;
    }
    uint32_t ordered = 0;
    postorder_component(&atoms, scc, members + first, size, visited, stack, next_edge, order,
                        &ordered);
    for (uint32_t m = 0; m < ordered; m++)
      p->atom_unit[order[m]] = p->unit_count++;
  }
out:
  free(visited);
  free(stack);
  free(next_edge);
  free(order);
  free(members);
  free(bucket_start);
  free(scc_cost);
  free(scc);
  wgraph_free(&atoms);
  return failed ? -1 : 0;
}

/* The group every predecessor of unit k belongs to, or MTPC_NONE when they
 * disagree, one is not grouped yet, or there are none. */
static uint32_t common_group(const planner *p, const wgraph *preds, uint32_t k) {
  if (preds->offsets[k] == preds->offsets[k + 1])
    return MTPC_NONE;
  uint32_t group = p->unit_group[preds->targets[preds->offsets[k]]];
  for (uint32_t e = preds->offsets[k] + 1; e < preds->offsets[k + 1] && group != MTPC_NONE; e++)
    if (p->unit_group[preds->targets[e]] != group)
      group = MTPC_NONE;
  return group;
}

/* With a profile: the group whose calls make nearly all of unit k's
 * profiled calls (the one hot path that reaches a callee), or MTPC_NONE. Of
 * the groups, the one of the heaviest caller is the candidate. */
static uint32_t dominant_group(const planner *p, const wgraph *counts, uint32_t k) {
  uint64_t total = 0, heaviest = 0;
  uint32_t group = MTPC_NONE;
  for (uint32_t e = counts->offsets[k]; e < counts->offsets[k + 1]; e++) {
    total += counts->weights[e];
    if (counts->weights[e] > heaviest) {
      heaviest = counts->weights[e];
      group = p->unit_group[counts->targets[e]];
    }
  }
  if (group == MTPC_NONE)
    return MTPC_NONE;
  uint64_t from_group = 0;
  for (uint32_t e = counts->offsets[k]; e < counts->offsets[k + 1]; e++)
    if (p->unit_group[counts->targets[e]] == group)
      from_group += counts->weights[e];
  return from_group * 100 >= total * MTPC_DOMINANT_CALLER_PERCENT ? group : MTPC_NONE;
}

/* 3. groups */
static int group_units(planner *p, const uint32_t *node_unit) {
  const mtpc_graph *g = p->g;
  uint32_t units = p->unit_count;
  uint8_t *unit_local = mtpc_alloc(units, 1);
  uint8_t *unit_pinned = mtpc_zalloc(units, 1);
  uint8_t *unit_code = mtpc_zalloc(units, 1);
  uint64_t *unit_cost = mtpc_zalloc(units, sizeof(uint64_t));
  uint64_t *cost = mtpc_zalloc(units, sizeof(uint64_t));
  p->unit_group = mtpc_alloc(units, sizeof(uint32_t));
  wgraph callers = {0}, users = {0}, call_counts = {0};
  int failed = !unit_local || !unit_pinned || !unit_code || !unit_cost || !cost ||
               !p->unit_group ||
               mapped_predecessors(g, node_unit, units, EDGES_CALLS_ONLY, &callers) ||
               mapped_predecessors(g, node_unit, units, EDGES_DIRECTED, &users) ||
               (g->hot_count && mapped_predecessors(g, node_unit, units,
                                                    EDGES_CALLS_ONLY | EDGES_COUNTS, &call_counts));
  if (failed)
    goto out;
  memset(unit_local, 1, units);
  for (uint32_t i = 0; i < g->node_count; i++) {
    uint32_t k = node_unit[i];
    if (k == MTPC_NONE)
      continue;
    uint32_t f = g->nodes[i].flags;
    if (f & (MTPC_N_IN_USED_LIST | MTPC_N_PINNED_PRIMARY))
      unit_pinned[k] = 1;
    /* A discardable (linkonce) definition, like a local, is dropped where
     * nothing uses it: with its only callers it is inlined and gone. */
    if (!(f & (MTPC_N_LOCAL | MTPC_N_DISCARDABLE)) || unit_pinned[k])
      unit_local[k] = 0;
    if (g->nodes[i].kind == MTPC_FUNCTION)
      unit_code[k] = 1;
    unit_cost[k] += g->nodes[i].cost;
  }

  for (uint32_t k = 0; k < units; k++)
    p->unit_group[k] = MTPC_NONE;
  p->group_count = 0;
  /* Code first: callers have higher unit numbers, so descending order sees
   * every caller of a unit before the unit itself. */
  for (uint32_t k = units; k-- > 0;) {
    if (!unit_code[k])
      continue;
    uint32_t group = unit_local[k] ? common_group(p, &callers, k) : MTPC_NONE;
    int small = unit_cost[k] < p->group_limit / 8 || unit_cost[k] < MTPC_MIN_CUT_COST;
    /* Cutting a small unit off buys no balance and loses its inlining. */
    if (group != MTPC_NONE && cost[group] + unit_cost[k] > p->group_limit && !small)
      group = MTPC_NONE;
    /* A hot path's callees join only while the group has room: many of them
     * may share one caller. */
    if (group == MTPC_NONE && g->hot_count && !unit_pinned[k]) {
      group = dominant_group(p, &call_counts, k);
      if (group != MTPC_NONE && cost[group] + unit_cost[k] > p->group_limit)
        group = MTPC_NONE;
    }
    p->unit_group[k] = group != MTPC_NONE ? group : p->group_count++;
    cost[p->unit_group[k]] += unit_cost[k];
  }
  /* Then data: a local variable joins the group of the code that uses it. */
  for (uint32_t k = 0; k < units; k++) {
    if (unit_code[k])
      continue;
    uint32_t group = unit_local[k] ? common_group(p, &users, k) : MTPC_NONE;
    p->unit_group[k] = group != MTPC_NONE ? group : p->group_count++;
  }
out:
  wgraph_free(&callers);
  wgraph_free(&users);
  wgraph_free(&call_counts);
  free(cost);
  free(unit_cost);
  free(unit_local);
  free(unit_pinned);
  free(unit_code);
  return failed ? -1 : 0;
}

static int find_groups(planner *p) {
  const mtpc_graph *g = p->g;
  uint32_t *node_unit = mtpc_alloc(g->node_count, sizeof(uint32_t));
  if (!node_unit)
    return -1;
  for (uint32_t i = 0; i < g->node_count; i++)
    node_unit[i] = p->node_atom[i] == MTPC_NONE ? MTPC_NONE : p->atom_unit[p->node_atom[i]];
  int failed = group_units(p, node_unit);
  free(node_unit);
  if (failed)
    return -1;

  p->group_cost = mtpc_zalloc(p->group_count, sizeof(uint64_t));
  p->group_pinned = mtpc_zalloc(p->group_count, 1);
  p->group_leader = mtpc_alloc(p->group_count, sizeof(uint32_t));
  if (!p->group_cost || !p->group_pinned || !p->group_leader)
    return -1;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    p->group_leader[grp] = MTPC_NONE;
  for (uint32_t i = 0; i < g->node_count; i++) {
    uint32_t grp = p->plan->nodes[i].group =
        p->node_atom[i] == MTPC_NONE ? MTPC_NONE : p->unit_group[p->atom_unit[p->node_atom[i]]];
    if (grp == MTPC_NONE)
      continue;
    if (p->group_leader[grp] == MTPC_NONE)
      p->group_leader[grp] = i;
    p->group_cost[grp] += g->nodes[i].cost;
    if (g->nodes[i].flags & MTPC_N_PINNED_PRIMARY)
      p->group_pinned[grp] = 1;
  }
  return 0;
}

static int compare_groups_by_cost(const void *a, const void *b, void *costs) {
  const uint64_t *cost = costs;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  if (cost[x] != cost[y])
    return cost[x] > cost[y] ? -1 : 1;
  return x < y ? -1 : (x > y);
}

/* What sorting n items counts as work: a visit per item and level, n log n. */
static uint64_t sort_work(size_t n) {
  uint64_t work = 0;
  for (size_t level = n; level > 1; level >>= 1)
    work += n;
  return work;
}

/* The groups in the order `compare` gives them by `keys`; NULL when memory
 * runs out. */
static uint32_t *sorted_groups(planner *p,
                               int (*compare)(const void *, const void *, void *), void *keys) {
  uint32_t *order = mtpc_alloc(p->group_count, sizeof(uint32_t));
  if (!order)
    return NULL;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    order[grp] = grp;
  qsort_r(order, p->group_count, sizeof(uint32_t), compare, keys);
  p->plan->work += sort_work(p->group_count);
  return order;
}

/* Group grp's references to the partitions already holding its neighbours,
 * added into affinity[] (all zero before), and those partitions in
 * touched[]: how many. */
static uint32_t gather_affinity(planner *p, const wgraph *adjacency, uint32_t grp,
                                uint64_t *affinity, uint32_t *touched) {
  uint32_t touched_count = 0;
  for (uint32_t e = adjacency->offsets[grp]; e < adjacency->offsets[grp + 1]; e++) {
    uint32_t q = p->group_partition[adjacency->targets[e]];
    if (q == MTPC_NONE)
      continue;
    if (affinity[q] == 0)
      touched[touched_count++] = q;
    affinity[q] += adjacency->weights[e];
  }
  p->plan->work += 1 + 2 * (uint64_t)(adjacency->offsets[grp + 1] - adjacency->offsets[grp]);
  return touched_count;
}

/* Zeroes affinity[] again, for the next group. */
static void clear_affinity(uint64_t *affinity, const uint32_t *touched, uint32_t touched_count) {
  for (uint32_t t = 0; t < touched_count; t++)
    affinity[touched[t]] = 0;
}

/* Partitions by load, the lightest (then the lowest numbered) on top. */
typedef struct load_heap {
  uint32_t *heap, *position;
  const uint64_t *load;
  uint32_t count;
} load_heap;

static int lighter(const load_heap *h, uint32_t a, uint32_t b) {
  return h->load[a] < h->load[b] || (h->load[a] == h->load[b] && a < b);
}

/* Restores the order below slot i after its partition's load grew. */
static void sift_down(load_heap *h, uint32_t i) {
  for (;;) {
    uint32_t least = i, left = 2 * i + 1, right = left + 1;
    if (left < h->count && lighter(h, h->heap[left], h->heap[least]))
      least = left;
    if (right < h->count && lighter(h, h->heap[right], h->heap[least]))
      least = right;
    if (least == i)
      return;
    uint32_t q = h->heap[i];
    h->heap[i] = h->heap[least];
    h->heap[least] = q;
    h->position[h->heap[i]] = i;
    h->position[q] = least;
    i = least;
  }
}

static int load_heap_init(load_heap *h, const uint64_t *load, uint32_t k) {
  h->heap = mtpc_alloc(k, sizeof(uint32_t));
  h->position = mtpc_alloc(k, sizeof(uint32_t));
  h->load = load;
  h->count = k;
  if (!h->heap || !h->position)
    return -1;
  for (uint32_t q = 0; q < k; q++)
    h->heap[q] = h->position[q] = q;
  for (uint32_t i = k / 2; i-- > 0;)
    sift_down(h, i);
  return 0;
}

/* Of the partitions the group references (`touched`, with their affinity),
 * the one with most affinity that has room for `cost`, preferring the
 * lighter, then the lower numbered; without one, the lightest of all. */
static uint32_t choose_partition(const load_heap *h, const uint64_t *affinity,
                                 const uint32_t *touched, uint32_t touched_count, uint64_t cost,
                                 uint64_t capacity) {
  const uint64_t *load = h->load;
  uint32_t best = MTPC_NONE;
  for (uint32_t t = 0; t < touched_count; t++) {
    uint32_t q = touched[t];
    if (load[q] + cost > capacity)
      continue;
    if (best == MTPC_NONE || affinity[q] > affinity[best] ||
        (affinity[q] == affinity[best] && lighter(h, q, best)))
      best = q;
  }
  return best != MTPC_NONE ? best : h->heap[0];
}

/* A requested count, at most one partition per group that costs anything. */
static uint32_t partition_count(planner *p) {
  uint32_t costly_groups = 0;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    costly_groups += p->group_cost[grp] > 0;
  uint32_t k = p->o->partitions;
  if (k > costly_groups)
    k = costly_groups;
  return k ? k : 1;
}

/* Pinned groups can leave a partition without any group; renumber the rest,
 * keeping partition 0 (the primary) where it is. */
static int drop_empty_partitions(planner *p) {
  uint32_t k = p->plan->partition_count;
  uint32_t *renumber = mtpc_zalloc(k, sizeof(uint32_t));
  if (!renumber)
    return -1;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    renumber[p->group_partition[grp]] = 1;
  renumber[0] = 1;
  uint32_t used = 0;
  for (uint32_t q = 0; q < k; q++)
    renumber[q] = renumber[q] ? used++ : MTPC_NONE;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    p->group_partition[grp] = renumber[p->group_partition[grp]];
  p->plan->partition_count = used;
  p->plan->work += 2 * (uint64_t)p->group_count + k;
  free(renumber);
  return 0;
}

/* 4. assign */
/* Each group's neighbours, weighted by coupling. */
static int group_adjacency(planner *p, wgraph *adjacency) {
  uint32_t *group_node = mtpc_alloc(p->g->node_count, sizeof(uint32_t));
  if (!group_node)
    return -1;
  for (uint32_t i = 0; i < p->g->node_count; i++)
    group_node[i] = p->plan->nodes[i].group;
  int failed = mapped_edges(p->g, group_node, p->group_count, EDGES_UNDIRECTED, adjacency);
  free(group_node);
  return failed;
}

static int assign_groups_by_cost(planner *p, uint64_t total_cost) {
  uint32_t k = p->plan->partition_count = partition_count(p);
  int finest = p->o->partitions == MTPC_PLAN_FINEST;
  uint32_t groups = p->group_count;
  wgraph adjacency = {0};
  uint32_t *order = sorted_groups(p, compare_groups_by_cost, p->group_cost);
  uint64_t *load = mtpc_zalloc(k, sizeof(uint64_t));
  uint64_t *affinity = mtpc_zalloc(k, sizeof(uint64_t));
  p->group_partition = mtpc_alloc(groups, sizeof(uint32_t));
  int failed = !order || !load || !affinity || !p->group_partition ||
               group_adjacency(p, &adjacency);
  if (failed)
    goto out;

  for (uint32_t grp = 0; grp < groups; grp++)
    p->group_partition[grp] = p->group_pinned[grp] ? 0 : MTPC_NONE;
  load[0] = p->plan->head_cost;
  for (uint32_t grp = 0; grp < groups; grp++)
    if (p->group_pinned[grp])
      load[0] += p->group_cost[grp];
  uint64_t capacity = (total_cost + k - 1) / k;
  uint32_t next_fresh = load[0] > 0 ? 1 : 0;

  load_heap heap = {0};
  uint32_t *touched = mtpc_alloc(k, sizeof(uint32_t));
  failed = !touched || load_heap_init(&heap, load, k);
  for (uint32_t i = 0; i < groups && !failed; i++) {
    uint32_t grp = order[i];
    if (p->group_partition[grp] != MTPC_NONE)
      continue;
    uint32_t touched_count = gather_affinity(p, &adjacency, grp, affinity, touched);
    uint32_t q;
    if (finest && p->group_cost[grp] > 0 && next_fresh < k)
      q = next_fresh++;
    else if (finest)
      q = choose_partition(&heap, affinity, touched, touched_count, 0, UINT64_MAX);
    else
      q = choose_partition(&heap, affinity, touched, touched_count, p->group_cost[grp], capacity);
    p->group_partition[grp] = q;
    load[q] += p->group_cost[grp];
    sift_down(&heap, heap.position[q]);
    clear_affinity(affinity, touched, touched_count);
  }
  free(touched);
  free(heap.heap);
  free(heap.position);
out:
  free(load);
  free(affinity);
  free(order);
  wgraph_free(&adjacency);
  return failed || drop_empty_partitions(p) ? -1 : 0;
}

static int compare_groups_by_leader(const void *a, const void *b, void *leaders) {
  const uint32_t *leader = leaders;
  uint32_t x = leader[*(const uint32_t *)a], y = leader[*(const uint32_t *)b];
  return (x > y) - (x < y);
}

/* The partition a group without cost goes to: the one it references most
 * (of equal ones, the first), else the one of the costly group before it in
 * module order. */
static uint32_t place_costless(planner *p, const wgraph *adjacency, uint32_t grp,
                               uint64_t *affinity, uint32_t *touched, uint32_t fallback) {
  uint32_t touched_count = gather_affinity(p, adjacency, grp, affinity, touched);
  /* Most affinity, then the lowest numbered. */
  uint32_t best = MTPC_NONE;
  for (uint32_t t = 0; t < touched_count; t++) {
    uint32_t q = touched[t];
    if (best == MTPC_NONE || affinity[q] > affinity[best] ||
        (affinity[q] == affinity[best] && q < best))
      best = q;
  }
  clear_affinity(affinity, touched, touched_count);
  return best != MTPC_NONE ? best : fallback;
}

/* A name's hash without the suffix ThinLTO gives the locals it promotes
 * (".llvm.<module hash>"), which changes with every edit of the module. */
static uint64_t identity_hash(const char *name) {
  size_t length = strlen(name);
  return XXH64(name, length - mtpc_thin_suffix_length(name, length), 0);
}

/* By default: the costly groups in module order (of their first nodes), cut
 * into content-defined chunks keyed by the first node's name, one partition
 * each. The pinned groups join partition 0; groups without cost follow the
 * code that references them. With a head cost, partition 0's own work leads
 * the sequence as one item (the pinned groups' cost with it), so the first
 * chunk takes less code. */
static int assign_groups_stably(planner *p, uint64_t total_cost) {
  uint32_t groups = p->group_count;
  uint64_t target = mtpc_partition_target(total_cost, p->most_partitions);
  wgraph adjacency = {0};
  uint32_t *order = sorted_groups(p, compare_groups_by_leader, p->group_leader);
  uint64_t *cost = mtpc_alloc(groups + 1, sizeof(uint64_t));
  uint64_t *hash = mtpc_alloc(groups + 1, sizeof(uint64_t));
  uint32_t *chunk = mtpc_alloc(groups + 1, sizeof(uint32_t));
  p->group_partition = mtpc_alloc(groups, sizeof(uint32_t));
  uint64_t *affinity = NULL;
  uint32_t *touched = NULL;
  int failed = !order || !cost || !hash || !chunk || !p->group_partition ||
               group_adjacency(p, &adjacency);
  if (failed)
    goto out;

  uint32_t head = p->plan->head_cost > 0, costly = head;
  if (head) {
    cost[0] = p->plan->head_cost;
    hash[0] = 0; /* ends its chunk unless that is light */
  }
  for (uint32_t i = 0; i < groups; i++) {
    uint32_t grp = order[i];
    if (head && p->group_pinned[grp])
      cost[0] += p->group_cost[grp];
    if (p->group_pinned[grp] || p->group_cost[grp] == 0)
      continue;
    cost[costly] = p->group_cost[grp];
    hash[costly++] = identity_hash(p->plan->nodes[p->group_leader[grp]].name);
  }
  uint32_t k = 1;
  if (total_cost > target)
    k = mtpc_chunk_sequence(cost, hash, costly, target, chunk);
  else
    memset(chunk, 0, costly * sizeof(uint32_t));
  k = k ? k : 1;
  affinity = mtpc_zalloc(k, sizeof(uint64_t));
  touched = mtpc_alloc(k, sizeof(uint32_t));
  if ((failed = !affinity || !touched))
    goto out;
  p->plan->partition_count = k;

  costly = head;
  for (uint32_t i = 0; i < groups; i++) {
    uint32_t grp = order[i];
    int placed = !p->group_pinned[grp] && p->group_cost[grp] > 0;
    p->group_partition[grp] = p->group_pinned[grp] ? 0 : placed ? chunk[costly++] : MTPC_NONE;
  }
  uint32_t previous = 0;
  for (uint32_t i = 0; i < groups; i++) {
    uint32_t grp = order[i];
    if (p->group_partition[grp] == MTPC_NONE)
      p->group_partition[grp] = place_costless(p, &adjacency, grp, affinity, touched, previous);
    else if (p->group_cost[grp] > 0)
      previous = p->group_partition[grp];
  }
out:
  free(affinity);
  free(touched);
  free(order);
  free(cost);
  free(hash);
  free(chunk);
  wgraph_free(&adjacency);
  return failed || drop_empty_partitions(p) ? -1 : 0;
}

static int assign_groups(planner *p, uint64_t total_cost) {
  if (p->o->partitions == 0)
    return assign_groups_stably(p, total_cost);
  return assign_groups_by_cost(p, total_cost);
}

static int importable_function(const mtpc_node *n) {
  const uint32_t never = MTPC_N_INTERPOSABLE | MTPC_N_NOINLINE | MTPC_N_USES_BLOCKADDRESS |
                         MTPC_N_BLOCKADDRESS_TAKEN | MTPC_N_ASM_NAMES_SYMBOL |
                         MTPC_N_REFS_LOCAL_COMDAT | MTPC_N_PINNED_PRIMARY;
  if (n->kind != MTPC_FUNCTION || !mtpc_node_ownable(n) || (n->flags & never))
    return 0;
  return !local_in_deduplicated_comdat(n);
}

static int importable_variable(const mtpc_node *n) {
  const uint32_t never = MTPC_N_INTERPOSABLE | MTPC_N_THREAD_LOCAL | MTPC_N_REFS_GLOBALS |
                         MTPC_N_APPENDING | MTPC_N_PINNED_PRIMARY;
  if (n->kind != MTPC_VARIABLE || !mtpc_node_ownable(n) || !(n->flags & MTPC_N_CONSTANT) ||
      (n->flags & never))
    return 0;
  return !local_in_deduplicated_comdat(n);
}

typedef struct import_item {
  uint32_t node;
  uint32_t budget;
} import_item;

static int clone_atom(planner *p, uint32_t q, uint32_t atom, import_item **stack, size_t *depth,
                      size_t *cap) {
  mtpc_plan *plan = p->plan;
  for (uint32_t m = p->atom_start[atom]; m < p->atom_start[atom + 1]; m++) {
    uint32_t v = p->atom_members[m];
    p->present[v] = q + 1;
    if (MTPC_PUSH(p->clones, p->clone_count, p->clones_cap, v))
      return -1;
    plan->partitions[q].imported_cost += plan->nodes[v].cost;
    plan->duplicated_cost += plan->nodes[v].cost;
    if (MTPC_PUSH(*stack, *depth, *cap, ((import_item){v, p->plan->copy_limit})))
      return -1;
  }
  return 0;
}

/* A sorted list without repeats of `count` node indices (copied). */
static int to_node_list(mtpc_node_list *list, const uint32_t *nodes, size_t count,
                        uint64_t *work) {
  list->count = 0;
  list->nodes = count ? mtpc_alloc(count, sizeof(uint32_t)) : NULL;
  if (count && !list->nodes)
    return -1;
  memcpy(list->nodes, nodes, count * sizeof(uint32_t));
  qsort(list->nodes, count, sizeof(uint32_t), mtpc_compare_u32);
  for (size_t i = 0; i < count; i++)
    if (i == 0 || list->nodes[i] != list->nodes[list->count - 1])
      list->nodes[list->count++] = list->nodes[i];
  *work += sort_work(count);
  return 0;
}

/* 5. copies: what partition q needs a body of, besides what it owns: clones
 * of small ODR groups it references, available_externally copies of what its
 * code calls or takes the address of. Like ThinLTO's importer, each call away
 * from owned code shrinks the budget for copies. */
static int find_copies(planner *p, uint32_t q, import_item **stack, size_t *cap) {
  const mtpc_graph *g = p->g;
  mtpc_plan *plan = p->plan;
  size_t depth = 0;
  uint32_t *copies = NULL;
  size_t copy_count = 0, copies_cap = 0;
  p->clone_count = 0;
  for (uint32_t m = p->owned_start[q]; m < p->owned_start[q + 1]; m++)
    if (MTPC_PUSH(*stack, depth, *cap, ((import_item){p->owned_nodes[m], p->plan->copy_limit})))
      goto fail;
  while (depth > 0) {
    import_item item = (*stack)[--depth];
    int from_code = g->nodes[item.node].kind == MTPC_FUNCTION;
    plan->work++;
    for (uint32_t e = g->edge_offsets[item.node]; e < g->edge_offsets[item.node + 1]; e++) {
      uint32_t v = g->edge_targets[e];
      const mtpc_node *n = &g->nodes[v];
      plan->work++;
      if (plan->nodes[v].owner == q || p->present[v] == q + 1)
        continue;
      uint32_t atom = p->node_atom[v];
      if (atom != MTPC_NONE && p->atom_clonable[atom]) {
        if (clone_atom(p, q, atom, stack, &depth, cap))
          goto fail;
        continue;
      }
      if (!from_code)
        continue; /* data only takes addresses: nothing to inline or fold */
      /* A function whose address code takes is copied as a callee is: once
       * the call it is passed to is inlined, the indirect call through it is
       * a call, and the inliner's cost of that call weighs its body (without
       * it, cppcheck's valueFlowForwardLifetime inlined list::remove_if with
       * its predicate where the serial compile does not). */
      int input_copy = (n->flags & MTPC_N_AVAILABLE_EXTERNALLY) && (n->flags & MTPC_N_DEFINITION);
      call_heat heat = edge_heat(g, item.node, e);
      uint64_t limit = heat == CALL_HOT ? (uint64_t)item.budget * MTPC_HOT_COPY_FACTOR
                       : heat == CALL_COLD ? 0 : item.budget;
      int take = input_copy || importable_variable(n) ||
                 (importable_function(n) &&
                  (n->size <= limit || (n->flags & MTPC_N_ALWAYSINLINE)));
      if (!take)
        continue;
      p->present[v] = q + 1;
      if (MTPC_PUSH(copies, copy_count, copies_cap, v))
        goto fail;
      /* A copy of a variable is folded from, never emitted. */
      if (!input_copy && n->kind == MTPC_FUNCTION) {
        plan->partitions[q].imported_cost += n->cost;
        plan->duplicated_cost += n->cost;
      }
      /* Chains of hot calls keep their budget, so they can inline whole. */
      uint32_t next = input_copy || heat == CALL_HOT ? item.budget : item.budget * 7 / 10;
      if (n->kind == MTPC_FUNCTION && MTPC_PUSH(*stack, depth, *cap, ((import_item){v, next})))
        goto fail;
    }
  }
  if (to_node_list(&plan->partitions[q].copies, copies, copy_count, &plan->work) ||
      to_node_list(&plan->partitions[q].clones, p->clones, p->clone_count, &plan->work))
    goto fail;
  free(copies);
  return 0;
fail:
  free(copies);
  return -1;
}

/* What partition q references from node u, which it has a body of (a copy
 * when `copy`). */
static int export_references(planner *p, uint32_t q, uint32_t u, int copy, uint32_t **declared,
                             size_t *count, size_t *cap) {
  const mtpc_graph *g = p->g;
  mtpc_plan *plan = p->plan;
  if (copy && plan->nodes[u].owner != MTPC_NONE)
    plan->nodes[u].exported = 1;
  for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++) {
    uint32_t v = g->edge_targets[e];
    uint32_t owner = plan->nodes[v].owner;
    plan->work++;
    if (owner == MTPC_NONE && g->edge_profile_refs[e] &&
        (g->nodes[v].flags & MTPC_N_DECLARATION_ONLY) && MTPC_PUSH(*declared, *count, *cap, v))
      return -1;
    if (owner == MTPC_NONE || owner == q || mtpc_plan_has_clone(plan, q, v))
      continue;
    plan->nodes[v].exported = 1;
    if (!mtpc_plan_has_copy(plan, q, v))
      plan->nodes[v].declared_elsewhere = 1;
    if (g->edge_profile_refs[e] && !mtpc_plan_has_copy(plan, q, v) &&
        MTPC_PUSH(*declared, *count, *cap, v))
      return -1;
  }
  return 0;
}

/* 6. exports: what a partition other than the owner names, through its own
 * code or a copy (a clone carries its own definition), or only through a
 * value profile (then the partition keeps a declaration of it, as it keeps
 * the module's own declarations that a value profile names). */
static int find_exports(planner *p) {
  const mtpc_graph *g = p->g;
  mtpc_plan *plan = p->plan;
  uint32_t *declared = NULL;
  size_t cap = 0;
  int failed = 0;
  for (uint32_t q = 0; q < plan->partition_count && !failed; q++) {
    const mtpc_plan_partition *part = &plan->partitions[q];
    size_t count = 0;
    for (uint32_t m = p->owned_start[q]; m < p->owned_start[q + 1] && !failed; m++)
      failed = export_references(p, q, p->owned_nodes[m], 0, &declared, &count, &cap);
    for (uint32_t m = 0; m < part->copies.count && !failed; m++)
      failed = export_references(p, q, part->copies.nodes[m], 1, &declared, &count, &cap);
    for (uint32_t m = 0; m < part->clones.count && !failed; m++)
      failed = export_references(p, q, part->clones.nodes[m], 0, &declared, &count, &cap);
    failed = failed ||
             to_node_list(&plan->partitions[q].declarations, declared, count, &plan->work);
  }
  free(declared);
  if (failed)
    return -1;
  for (uint32_t i = 0; i < g->node_count; i++) {
    mtpc_plan_node *n = &plan->nodes[i];
    if (!n->exported || !(n->flags & MTPC_N_LOCAL))
      continue;
    char *anonymous = NULL;
    if ((n->flags & MTPC_N_UNNAMED) && !(anonymous = mtpc_asprintf("__mtpc_unnamed.%u", i)))
      return -1;
    n->promoted_name = mtpc_promoted_name(plan->module_id, anonymous ? anonymous : n->name);
    free(anonymous);
    if (!n->promoted_name)
      return -1;
  }
  return 0;
}

static int init_plan_nodes(const mtpc_graph *g, mtpc_plan *plan) {
  plan->module_id = mtpc_strdup(g->module_id);
  plan->nodes = mtpc_zalloc(g->node_count, sizeof(mtpc_plan_node));
  if (!plan->module_id || !plan->nodes)
    return -1;
  plan->node_count = g->node_count;
  for (uint32_t i = 0; i < g->node_count; i++) {
    const mtpc_node *n = &g->nodes[i];
    mtpc_plan_node *copy = &plan->nodes[i];
    *copy = (mtpc_plan_node){mtpc_strndup(n->name, n->name_len), NULL, n->kind, n->flags,
                             MTPC_NONE, MTPC_NONE, n->cost, 0,
                             n->pgo_name ? mtpc_strdup(n->pgo_name) : NULL,
                             n->debug_decl ? mtpc_debug_decl_copy(n->debug_decl) : NULL, 0};
    if (!copy->name || (n->pgo_name && !copy->pgo_name) || (n->debug_decl && !copy->debug_decl))
      return -1;
    if (mtpc_node_ownable(n))
      plan->total_cost += n->cost;
  }
  return 0;
}

static int finish_partitions(planner *p) {
  mtpc_plan *plan = p->plan;
  uint32_t k = plan->partition_count;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    mtpc_plan_node *n = &plan->nodes[i];
    if (n->group == MTPC_NONE)
      continue;
    n->owner = p->group_partition[n->group];
    plan->partitions[n->owner].cost += n->cost;
    plan->partitions[n->owner].functions += n->kind == MTPC_FUNCTION;
  }
  plan->partitions[0].cost += plan->head_cost;
  for (uint32_t grp = 0; grp < p->group_count; grp++)
    plan->partitions[p->group_partition[grp]].groups++;
  /* The nodes each partition owns, in module order. */
  uint32_t *owner = mtpc_alloc(plan->node_count, sizeof(uint32_t));
  p->present = mtpc_zalloc(plan->node_count, sizeof(uint32_t));
  if (!owner || !p->present) {
    free(owner);
    return -1;
  }
  for (uint32_t i = 0; i < plan->node_count; i++)
    owner[i] = plan->nodes[i].owner;
  int grouped = group_by_key(owner, plan->node_count, k, &p->owned_start, &p->owned_nodes);
  free(owner);
  if (grouped)
    return -1;
  plan->work += 3 * (uint64_t)plan->node_count + k;
  import_item *stack = NULL;
  size_t cap = 0;
  int failed = 0;
  for (uint32_t q = 0; q < k && !failed; q++)
    failed = find_copies(p, q, &stack, &cap);
  free(stack);
  return failed || find_exports(p) ? -1 : 0;
}

/* A default plan whose cap cannot pay for the split keeps the module whole. */
static int check_floor(const mtpc_plan_options *o, mtpc_plan *plan) {
  if (o->partitions != 0 || plan->partition_count < 2 || plan->unsplit_reason)
    return 0;
  uint64_t heaviest = 0;
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    uint64_t load = plan->partitions[q].cost + plan->partitions[q].imported_cost;
    heaviest = load > heaviest ? load : heaviest;
  }
  if (heaviest == 0 || plan->total_cost * 100 >= heaviest * MTPC_SPLIT_FLOOR_PERCENT)
    return 0;
  plan->below_floor = 1;
  plan->unsplit_reason = mtpc_asprintf(
      "one partition holds %.1f%% of the cost: at most %.2fx on any number of cores, below %.2fx",
      100.0 * (double)heaviest / (double)plan->total_cost,
      (double)plan->total_cost / (double)heaviest, MTPC_SPLIT_FLOOR_PERCENT / 100.0);
  return plan->unsplit_reason ? 0 : -1;
}

static int check_promoted_names(mtpc_plan *plan) {
  mtpc_strmap names;
  if (mtpc_strmap_init(&names, plan->node_count))
    return -1;
  int failed = 0;
  for (uint32_t i = 0; i < plan->node_count && !failed; i++)
    failed = mtpc_strmap_put(&names, plan->nodes[i].name, strlen(plan->nodes[i].name), i);
  for (uint32_t i = 0; i < plan->node_count && !failed && !plan->unsplit_reason; i++) {
    const char *promoted = plan->nodes[i].promoted_name;
    uint32_t other;
    if (promoted && mtpc_strmap_get(&names, promoted, strlen(promoted), &other)) {
      plan->unsplit_reason = mtpc_asprintf("the promoted name '%s' is already taken", promoted);
      failed = !plan->unsplit_reason;
    }
  }
  mtpc_strmap_free(&names);
  return failed ? -1 : 0;
}

/* A type's home is the owner of the first definition describing it, which
 * therefore has it in its partition. Of equal keys the first one found counts. */
typedef struct debug_type_entry {
  const mtpc_debug_type *type;
  uint32_t index;
} debug_type_entry;

static int compare_debug_types(const void *a, const void *b) {
  const debug_type_entry *x = a, *y = b;
  int order = strcmp(x->type->key, y->type->key);
  return order ? order : (x->index > y->index) - (x->index < y->index);
}

static int plan_debug_types(const mtpc_graph *g, mtpc_plan *plan) {
  if (plan->partition_count < 2 || g->debug_type_count == 0)
    return 0;
  debug_type_entry *entries = mtpc_zalloc(g->debug_type_count, sizeof(*entries));
  if (!entries)
    return -1;
  uint32_t count = 0;
  for (uint32_t i = 0; i < g->debug_type_count; i++)
    if (plan->nodes[g->debug_types[i].node].owner != MTPC_NONE)
      entries[count++] = (debug_type_entry){&g->debug_types[i], i};
  qsort(entries, count, sizeof(*entries), compare_debug_types);
  plan->debug_types = mtpc_zalloc(count, sizeof(*plan->debug_types));
  int failed = !plan->debug_types;
  for (uint32_t i = 0; i < count && !failed; i++) {
    const mtpc_debug_type *type = entries[i].type;
    if (i > 0 && strcmp(entries[i - 1].type->key, type->key) == 0)
      continue;
    char *key = mtpc_strdup(type->key);
    failed = !key;
    if (key)
      plan->debug_types[plan->debug_type_count++] =
          (mtpc_plan_debug_type){key, plan->nodes[type->node].owner};
  }
  free(entries);
  return failed ? -1 : 0;
}

static uint64_t partition_load(const mtpc_plan *plan, uint32_t q) {
  return plan->partitions[q].cost + plan->partitions[q].imported_cost;
}

int mtpc_plan_partition_order(const mtpc_plan *plan, uint32_t a, uint32_t b) {
  uint64_t la = partition_load(plan, a), lb = partition_load(plan, b);
  if (la != lb)
    return la > lb ? -1 : 1;
  return a < b ? -1 : (a > b);
}

uint32_t mtpc_plan_first_definer(const mtpc_plan *plan, uint32_t node) {
  uint32_t first = plan->nodes[node].owner;
  for (uint32_t q = 0; q < plan->partition_count && q < first; q++)
    if (mtpc_plan_has_clone(plan, q, node))
      return q;
  return first;
}

int mtpc_plan_name_unneeded(const mtpc_plan *plan, uint32_t partition, uint32_t node) {
  const mtpc_plan_node *n = &plan->nodes[node];
  const uint32_t kept = MTPC_N_USED_LIST | MTPC_N_APPENDING | MTPC_N_UNNAMED;
  if ((n->kind != MTPC_FUNCTION && n->kind != MTPC_VARIABLE) ||
      !(n->flags & MTPC_N_DEFINITION) || (n->flags & kept) || !strncmp(n->name, "llvm.", 5))
    return 0;
  return n->owner != partition && !mtpc_plan_has_clone(plan, partition, node) &&
         !mtpc_plan_has_copy(plan, partition, node) &&
         !mtpc_plan_has_declaration(plan, partition, node);
}

static int compare_key(const void *key, const void *item) {
  return strcmp(key, ((const mtpc_plan_debug_type *)item)->key);
}

uint32_t mtpc_plan_debug_type_home(const mtpc_plan *plan, const char *key) {
  const mtpc_plan_debug_type *found =
      plan->debug_type_count ? bsearch(key, plan->debug_types, plan->debug_type_count,
                                       sizeof(*plan->debug_types), compare_key)
                             : NULL;
  return found ? found->home : MTPC_NONE;
}

/* The copy and clone limits: the options', else by the module. C++'s
 * inline functions and templates (discardable ODR definitions) call small
 * functions everywhere that a serial compile inlines, such as cppcheck's
 * Token::simpleMatch (called with a constant pattern): only at ThinLTO's
 * import limit does cppcheck run as many instructions as unsplit. For C,
 * larger copies cost the split compile CPU and gain the program nothing
 * (docs/design.rst, step 5, has both). Clones may be larger: a discardable
 * group cloned into every partition that calls it disappears where each
 * inlines it, as in a serial compile, where a copy would need its owner to
 * export it. */
static void choose_limits(planner *p) {
  const mtpc_graph *g = p->g;
  const mtpc_plan_options *o = p->o;
  mtpc_plan *plan = p->plan;
  int odr_code = 0;
  for (uint32_t i = 0; i < g->node_count && !odr_code; i++)
    odr_code = g->nodes[i].kind == MTPC_FUNCTION && (g->nodes[i].flags & MTPC_N_DISCARDABLE) &&
               (g->nodes[i].flags & MTPC_N_DEFINITION);
  p->most_partitions = odr_code ? MTPC_MAX_ODR_PARTITIONS : MTPC_MAX_DEFAULT_PARTITIONS;
  plan->copy_limit = o->import_instr_limit != MTPC_LIMIT_BY_MODULE ? o->import_instr_limit
                     : odr_code        ? MTPC_ODR_IMPORT_LIMIT
                     : o->whole_program ? MTPC_FULL_LTO_IMPORT_LIMIT
                                        : MTPC_DEFAULT_IMPORT_LIMIT;
  plan->clone_limit = odr_code ? plan->copy_limit * MTPC_CLONE_FACTOR : plan->copy_limit;
}

static int plan_steps(planner *p) {
  mtpc_plan *plan = p->plan;
  if (init_plan_nodes(p->g, plan))
    return -1;
  choose_limits(p);
  plan->head_cost = p->o->head_cost;
  plan->total_cost += plan->head_cost;
  p->group_limit = group_limit(p->o, plan->total_cost, p->most_partitions);
  if (find_atoms(p) || find_atom_members(p) || find_units(p) || find_groups(p))
    return -1;
  /* Each of those steps visits every node and edge a few times. */
  uint64_t edges = p->g->edge_offsets[p->g->node_count];
  plan->work += 4 * ((uint64_t)p->g->node_count + edges);
  plan->group_count = p->group_count;
  if (assign_groups(p, plan->total_cost))
    return -1;
  plan->partitions = mtpc_zalloc(plan->partition_count, sizeof(mtpc_plan_partition));
  if (!plan->partitions || finish_partitions(p) || check_promoted_names(plan) ||
      check_floor(p->o, plan) || plan_debug_types(p->g, plan))
    return -1;
  return 0;
}

mtpc_status mtpc_plan_build(const mtpc_graph *g, const mtpc_plan_options *o, mtpc_plan *plan) {
  memset(plan, 0, sizeof(*plan));
  planner p = {.g = g, .o = o, .plan = plan};
  int failed = plan_steps(&p);
  if (failed)
    mtpc_plan_free(plan);

  free(p.node_atom);
  free(p.atom_members);
  free(p.atom_start);
  free(p.atom_clonable);
  free(p.atom_unit);
  free(p.unit_group);
  free(p.group_cost);
  free(p.group_pinned);
  free(p.group_leader);
  free(p.group_partition);
  free(p.owned_start);
  free(p.owned_nodes);
  free(p.present);
  free(p.clones);
  return failed ? MTPC_ERR_NO_MEMORY : MTPC_OK;
}

void mtpc_plan_free(mtpc_plan *plan) {
  for (uint32_t i = 0; i < plan->node_count; i++) {
    free(plan->nodes[i].name);
    free(plan->nodes[i].promoted_name);
    free(plan->nodes[i].pgo_name);
    mtpc_debug_decl_free(plan->nodes[i].debug_decl);
  }
  free(plan->nodes);
  for (uint32_t q = 0; plan->partitions && q < plan->partition_count; q++) {
    free(plan->partitions[q].copies.nodes);
    free(plan->partitions[q].clones.nodes);
    free(plan->partitions[q].declarations.nodes);
  }
  free(plan->partitions);
  free(plan->module_id);
  free(plan->unsplit_reason);
  for (uint32_t i = 0; i < plan->debug_type_count; i++)
    free(plan->debug_types[i].key);
  free(plan->debug_types);
  memset(plan, 0, sizeof(*plan));
}
