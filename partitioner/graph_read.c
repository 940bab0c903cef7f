#include "graph_read.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "graph_profile.h"
#include "graph_walk.h"
#include "support/support.h"

/* Small enough that two readers end close together on a module of a few
 * thousand functions, large enough that a chunk's functions mostly share
 * their compile unit's debug info. */
#define DEFAULT_CHUNK_FUNCTIONS 128

/* What one chunk added: nodes [first, end) walked, and its ranges of the
 * reader's bonds and debug types. */
typedef struct chunk_record {
  uint32_t chunk, reader;
  uint32_t first, end;
  uint32_t bond_begin, bond_end, type_begin, type_end;
} chunk_record;

typedef struct reader {
  int started;
  mtpc_graph graph;
  mtpc_graph_walker walker;
  chunk_record *chunks;
  size_t chunk_count, chunk_cap;
  uint32_t function_chunks; /* chunks of functions; one more holds the rest */
  uint32_t failed_chunk;    /* MTPC_NONE while it has not failed */
  char *message;         /* that failure's, or NULL when memory ran out */
} reader;

struct mtpc_graph_reading {
  unsigned reader_count;
  uint32_t chunk_functions;
  const uint32_t *debug_records; /* per function body, or NULL */
  uint32_t bodies;
  atomic_uint next_chunk;
  reader *readers;
};

mtpc_graph_reading *mtpc_graph_reading_create(unsigned readers, uint32_t chunk_functions) {
  mtpc_graph_reading *r = calloc(1, sizeof(*r));
  if (!r)
    return NULL;
  r->reader_count = readers ? readers : 1;
  r->chunk_functions = chunk_functions ? chunk_functions : DEFAULT_CHUNK_FUNCTIONS;
  atomic_init(&r->next_chunk, 0);
  r->readers = mtpc_zalloc(r->reader_count, sizeof(reader));
  if (!r->readers) {
    free(r);
    return NULL;
  }
  return r;
}

void mtpc_graph_reading_use_debug_records(mtpc_graph_reading *r, const uint32_t *records,
                                          uint32_t bodies) {
  r->debug_records = records;
  r->bodies = bodies;
}

void mtpc_graph_reading_free(mtpc_graph_reading *r) {
  if (!r)
    return;
  for (unsigned i = 0; i < r->reader_count; i++) {
    reader *rd = &r->readers[i];
    mtpc_walker_free(&rd->walker);
    mtpc_graph_free(&rd->graph);
    free(rd->chunks);
    free(rd->message);
  }
  free(r->readers);
  free(r);
}

static void begin_graph(mtpc_graph *g, LLVMModuleRef module) {
  size_t len = 0;
  const char *id = LLVMGetModuleIdentifier(module, &len);
  char *module_id = mtpc_strndup(id, len);
  mtpc_graph_init(g, module_id ? module_id : "");
  g->out_of_memory |= !module_id;
  free(module_id);
}

static int materialize_range(reader *rd, uint32_t first, uint32_t end,
                             mtpc_materialize_fn *materialize) {
  for (uint32_t id = first; id < end; id++)
    if (materialize(rd->walker.values[id], &rd->message))
      return -1;
  return 0;
}

/* Walks chunk `c` (the last one: the globals that are not functions). */
static int read_chunk(mtpc_graph_reading *r, unsigned index, uint32_t c, uint32_t function_chunks,
                      mtpc_materialize_fn *materialize) {
  reader *rd = &r->readers[index];
  mtpc_graph *g = &rd->graph;
  uint32_t functions = rd->walker.function_count;
  chunk_record rec = {.chunk = c, .reader = index, .bond_begin = g->bond_count,
                      .type_begin = g->debug_type_count};
  if (c < function_chunks) {
    rec.first = c * r->chunk_functions;
    rec.end = functions - rec.first < r->chunk_functions ? functions
                                                         : rec.first + r->chunk_functions;
    if (materialize && materialize_range(rd, rec.first, rec.end, materialize)) {
      rd->failed_chunk = c;
      return -1;
    }
    mtpc_walker_walk_functions(&rd->walker, rec.first, rec.end);
  } else {
    rec.first = functions;
    rec.end = g->node_count;
    mtpc_walker_walk_others(&rd->walker);
  }
  rec.bond_end = g->bond_count;
  rec.type_end = g->debug_type_count;
  if (MTPC_PUSH(rd->chunks, rd->chunk_count, rd->chunk_cap, rec))
    g->out_of_memory = 1;
  return g->out_of_memory ? -1 : 0;
}

int mtpc_graph_reader_begin(mtpc_graph_reading *r, unsigned index, LLVMModuleRef module) {
  reader *rd = &r->readers[index];
  rd->started = 1;
  rd->failed_chunk = MTPC_NONE;
  begin_graph(&rd->graph, module);
  if (rd->graph.out_of_memory || mtpc_walker_init(&rd->walker, &rd->graph, module) ||
      (r->debug_records &&
       mtpc_walker_use_debug_records(&rd->walker, r->debug_records, r->bodies))) {
    rd->graph.out_of_memory = 1;
    return -1;
  }
  uint32_t functions = rd->walker.function_count;
  rd->function_chunks = (uint32_t)(((uint64_t)functions + r->chunk_functions - 1) /
                                   r->chunk_functions);
  return 0;
}

int mtpc_graph_read_next(mtpc_graph_reading *r, unsigned index, mtpc_materialize_fn *materialize) {
  reader *rd = &r->readers[index];
  uint32_t c = atomic_fetch_add(&r->next_chunk, 1);
  return c <= rd->function_chunks && read_chunk(r, index, c, rd->function_chunks, materialize) == 0;
}

void mtpc_graph_read(mtpc_graph_reading *r, unsigned index, LLVMModuleRef module,
                     mtpc_materialize_fn *materialize) {
  if (mtpc_graph_reader_begin(r, index, module) == 0)
    while (mtpc_graph_read_next(r, index, materialize))
      ;
}

static int compare_chunks(const void *a, const void *b) {
  const chunk_record *x = a, *y = b;
  return (x->chunk > y->chunk) - (x->chunk < y->chunk);
}

/* Every reader's chunk records, in chunk order; NULL when memory runs out. */
static chunk_record *chunks_in_order(const mtpc_graph_reading *r, size_t *count) {
  size_t total = 0;
  for (unsigned i = 0; i < r->reader_count; i++)
    total += r->readers[i].chunk_count;
  chunk_record *all = mtpc_alloc(total ? total : 1, sizeof(*all));
  if (!all)
    return NULL;
  size_t n = 0;
  for (unsigned i = 0; i < r->reader_count; i++) {
    memcpy(all + n, r->readers[i].chunks, r->readers[i].chunk_count * sizeof(*all));
    n += r->readers[i].chunk_count;
  }
  qsort(all, n, sizeof(*all), compare_chunks);
  *count = n;
  return all;
}

/* A node's flags are the union of what every reader saw; its cost and
 * debug declaration come from the reader that walked it. */
static void join_nodes(mtpc_graph_reading *r, mtpc_graph *g, const chunk_record *chunks,
                       size_t count) {
  mtpc_graph_walker *base = &r->readers[0].walker;
  for (unsigned i = 1; i < r->reader_count; i++) {
    reader *rd = &r->readers[i];
    if (!rd->started)
      continue;
    for (uint32_t n = 0; n < g->node_count; n++) {
      g->nodes[n].flags |= rd->graph.nodes[n].flags;
      base->asm_sensitive[n] |= rd->walker.asm_sensitive[n];
      base->named_by_asm[n] |= rd->walker.named_by_asm[n];
    }
    mtpc_graph_take_edges(g, &rd->graph);
  }
  for (size_t c = 0; c < count; c++) {
    if (chunks[c].reader == 0)
      continue;
    mtpc_node *from = r->readers[chunks[c].reader].graph.nodes;
    for (uint32_t n = chunks[c].first; n < chunks[c].end; n++) {
      g->nodes[n].cost = from[n].cost;
      g->nodes[n].size = from[n].size;
      g->nodes[n].debug_decl = from[n].debug_decl;
      g->nodes[n].pgo_name = from[n].pgo_name;
      from[n].debug_decl = NULL;
      from[n].pgo_name = NULL;
    }
  }
}

static const mtpc_graph *chunk_graph(const mtpc_graph_reading *r, const mtpc_graph *g,
                                     const chunk_record *c) {
  return c->reader == 0 ? g : &r->readers[c->reader].graph;
}

/* Bonds and debug types in chunk order, that is in module order; of a type
 * several readers found, the first in module order counts, as in one walk. */
static int join_lists(mtpc_graph_reading *r, mtpc_graph *g, const chunk_record *chunks,
                      size_t count) {
  size_t bonds = 0, types = 0;
  for (size_t c = 0; c < count; c++) {
    bonds += chunks[c].bond_end - chunks[c].bond_begin;
    types += chunks[c].type_end - chunks[c].type_begin;
  }
  uint32_t(*bond_list)[2] = mtpc_alloc(bonds ? bonds : 1, sizeof(*bond_list));
  mtpc_debug_type *type_list = mtpc_alloc(types ? types : 1, sizeof(*type_list));
  mtpc_strmap seen = {0};
  int failed = !bond_list || !type_list || mtpc_strmap_init(&seen, types);
  uint32_t bond_count = 0, type_count = 0;
  for (size_t c = 0; c < count && !failed; c++) {
    const mtpc_graph *from = chunk_graph(r, g, &chunks[c]);
    for (uint32_t b = chunks[c].bond_begin; b < chunks[c].bond_end; b++, bond_count++)
      memcpy(bond_list[bond_count], from->bonds[b], sizeof(*bond_list));
    for (uint32_t t = chunks[c].type_begin; t < chunks[c].type_end && !failed; t++) {
      mtpc_debug_type *type = &from->debug_types[t];
      uint32_t ignored;
      if (mtpc_strmap_get(&seen, type->key, strlen(type->key), &ignored))
        continue;
      failed = mtpc_strmap_put(&seen, type->key, strlen(type->key), 0);
      type_list[type_count++] = *type;
      type->key = NULL; /* moved */
    }
  }
  if (!failed) {
    free(g->bonds);
    for (uint32_t t = 0; t < g->debug_type_count; t++)
      free(g->debug_types[t].key);
    free(g->debug_types);
    g->bonds = bond_list;
    g->bond_count = bond_count;
    g->bond_cap = bonds ? bonds : 1;
    g->debug_types = type_list;
    g->debug_type_count = type_count;
    g->debug_type_cap = types ? types : 1;
  } else {
    for (uint32_t t = 0; t < type_count; t++)
      free(type_list[t].key);
    free(bond_list);
    free(type_list);
  }
  mtpc_strmap_free(&seen);
  return failed ? -1 : 0;
}

/* The failure of the first chunk that failed, if any. */
static const reader *first_failure(const mtpc_graph_reading *r) {
  const reader *first = NULL;
  for (unsigned i = 0; i < r->reader_count; i++) {
    const reader *rd = &r->readers[i];
    if (rd->started && rd->failed_chunk != MTPC_NONE &&
        (!first || rd->failed_chunk < first->failed_chunk))
      first = rd;
  }
  return first;
}

static int out_of_memory(const mtpc_graph_reading *r) {
  for (unsigned i = 0; i < r->reader_count; i++)
    if (r->readers[i].started && r->readers[i].graph.out_of_memory)
      return 1;
  return 0;
}

static mtpc_status join(mtpc_graph_reading *r, mtpc_graph *g) {
  size_t count = 0;
  chunk_record *chunks = chunks_in_order(r, &count);
  if (!chunks)
    return MTPC_ERR_NO_MEMORY;
  *g = r->readers[0].graph;
  memset(&r->readers[0].graph, 0, sizeof(r->readers[0].graph));
  join_nodes(r, g, chunks, count);
  int failed = g->out_of_memory || join_lists(r, g, chunks, count) ||
               mtpc_profile_resolve_targets(g);
  free(chunks);
  if (failed)
    return MTPC_ERR_NO_MEMORY;
  mtpc_status status = mtpc_graph_finalize(g);
  if (status == MTPC_OK) {
    mtpc_walker_apply_module_rules(&r->readers[0].walker, g);
    status = g->out_of_memory ? MTPC_ERR_NO_MEMORY : MTPC_OK;
  }
  return status;
}

mtpc_status mtpc_graph_reading_finish(mtpc_graph_reading *r, mtpc_graph *g, char **message) {
  memset(g, 0, sizeof(*g));
  *message = NULL;
  const reader *failed = first_failure(r);
  if (failed) {
    *message = failed->message ? mtpc_strdup(failed->message) : NULL;
    return *message ? MTPC_ERR_INPUT : MTPC_ERR_NO_MEMORY;
  }
  if (!r->readers[0].started || out_of_memory(r))
    return MTPC_ERR_NO_MEMORY;
  mtpc_status status = join(r, g);
  if (status != MTPC_OK)
    mtpc_graph_free(g);
  return status;
}

mtpc_status mtpc_graph_build(mtpc_graph *g, LLVMModuleRef module) {
  mtpc_graph_reading *r = mtpc_graph_reading_create(1, 0);
  if (!r) {
    memset(g, 0, sizeof(*g));
    return MTPC_ERR_NO_MEMORY;
  }
  mtpc_graph_read(r, 0, module, NULL);
  char *message = NULL;
  mtpc_status status = mtpc_graph_reading_finish(r, g, &message);
  free(message);
  mtpc_graph_reading_free(r);
  return status;
}
