/* The graph read in chunks by several readers, each on a lazily loaded copy
 * in its own context (graph_read.h, as lto-backend/bitcode/read.c reads), equals the
 * graph built from the whole parsed module: every node with its flags, cost,
 * PGO name and debug declaration, every edge with its counts, every bond
 * and debug type in order. So does the graph of lto-backend/bitcode/read.c itself,
 * whose readers read a copy of the bitcode without debug records
 * (plan_bitcode.h); some input must have had one made. Arguments: IR or
 * bitcode files. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/read.h"
#include "partitioner/graph.h"
#include "partitioner/graph_read.h"

static LLVMModuleRef parse_file(LLVMContextRef ctx, const char *path) {
  LLVMMemoryBufferRef buf = NULL;
  char *error = NULL;
  LLVMModuleRef m = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &error) ||
      LLVMParseIRInContext(ctx, buf, &m, &error)) {
    fprintf(stderr, "%s: %s\n", path, error);
    exit(2);
  }
  return m;
}

static int same_string(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_decl(const mtpc_debug_decl *a, const mtpc_debug_decl *b) {
  if (!a || !b)
    return a == b;
  return !strcmp(a->name, b->name) && !strcmp(a->linkage_name, b->linkage_name) &&
         !strcmp(a->file, b->file) && !strcmp(a->directory, b->directory) &&
         a->flags == b->flags;
}

static void check_same_graph(const mtpc_graph *a, const mtpc_graph *b, const char *what) {
  int failures = check_failed;
  CHECK_EQ_U(a->node_count, b->node_count);
  for (uint32_t i = 0; i < a->node_count && i < b->node_count; i++) {
    const mtpc_node *x = &a->nodes[i], *y = &b->nodes[i];
    CHECK(!strcmp(x->name, y->name));
    CHECK_EQ_U(x->flags, y->flags);
    CHECK_EQ_U(x->cost, y->cost);
    CHECK_EQ_U(x->comdat, y->comdat);
    CHECK(same_string(x->pgo_name, y->pgo_name));
    CHECK(same_decl(x->debug_decl, y->debug_decl));
  }
  uint32_t edges = a->edge_offsets[a->node_count];
  CHECK_EQ_U(edges, b->edge_offsets[b->node_count]);
  for (uint32_t i = 0; i <= a->node_count && a->node_count == b->node_count; i++)
    CHECK_EQ_U(a->edge_offsets[i], b->edge_offsets[i]);
  for (uint32_t e = 0; e < edges && edges == b->edge_offsets[b->node_count]; e++) {
    CHECK_EQ_U(a->edge_targets[e], b->edge_targets[e]);
    CHECK_EQ_U(a->edge_weights[e], b->edge_weights[e]);
    CHECK_EQ_U(a->edge_calls[e], b->edge_calls[e]);
    CHECK_EQ_U(a->edge_profile_refs[e], b->edge_profile_refs[e]);
    CHECK_EQ_U(a->edge_counts[e], b->edge_counts[e]);
  }
  CHECK_EQ_U(a->hot_count, b->hot_count);
  CHECK_EQ_U(a->bond_count, b->bond_count);
  for (uint32_t i = 0; i < a->bond_count && a->bond_count == b->bond_count; i++)
    CHECK(a->bonds[i][0] == b->bonds[i][0] && a->bonds[i][1] == b->bonds[i][1]);
  CHECK_EQ_U(a->debug_type_count, b->debug_type_count);
  for (uint32_t i = 0; i < a->debug_type_count && a->debug_type_count == b->debug_type_count; i++)
    CHECK(!strcmp(a->debug_types[i].key, b->debug_types[i].key) &&
          a->debug_types[i].node == b->debug_types[i].node);
  if (check_failed != failures)
    fprintf(stderr, "  (%s)\n", what);
}

typedef struct reader_arg {
  mtpc_graph_reading *reading;
  unsigned index;
  const void *bitcode;
  size_t size;
  int on_demand;
  LLVMContextRef context;
  LLVMModuleRef module;
} reader_arg;

static void *run_reader(void *p) {
  reader_arg *a = p;
  char *message = NULL;
  a->context = LLVMContextCreate();
  if (mtpc_bridge_open_lazily(a->context, a->bitcode, a->size, "input", a->on_demand, &a->module,
                              &message)) {
    fprintf(stderr, "open: %s\n", message);
    exit(2);
  }
  mtpc_graph_read(a->reading, a->index, a->module, mtpc_bridge_materialize);
  return NULL;
}

/* The joined graph once the readers are done; frees the readers' modules. */
static void finish_reading(mtpc_graph_reading *reading, reader_arg *args, unsigned readers,
                           mtpc_graph *g) {
  char *message = NULL;
  CHECK(mtpc_graph_reading_finish(reading, g, &message) == MTPC_OK);
  free(message);
  mtpc_graph_reading_free(reading);
  for (unsigned i = 0; i < readers; i++) {
    LLVMDisposeModule(args[i].module);
    LLVMContextDispose(args[i].context);
  }
}

/* Reads `bitcode` with `readers` threads, `chunk` functions to a chunk. */
static void read_graph(const void *bitcode, size_t size, unsigned readers, uint32_t chunk,
                       int on_demand, mtpc_graph *g) {
  mtpc_graph_reading *reading = mtpc_graph_reading_create(readers, chunk);
  reader_arg args[4];
  pthread_t threads[4];
  for (unsigned i = 0; i < readers; i++) {
    args[i] = (reader_arg){reading, i, bitcode, size, on_demand, NULL, NULL};
    CHECK(pthread_create(&threads[i], NULL, run_reader, &args[i]) == 0);
  }
  for (unsigned i = 0; i < readers; i++)
    pthread_join(threads[i], NULL);
  finish_reading(reading, args, readers, g);
}

/* As read_graph, on this thread, with the readers taking chunks in turn,
 * the last reader first: chunks spread over every reader, whatever the
 * timing, and chunk 0 is not reader 0's. */
static void read_graph_in_turns(const void *bitcode, size_t size, unsigned readers, uint32_t chunk,
                                int on_demand, mtpc_graph *g) {
  mtpc_graph_reading *reading = mtpc_graph_reading_create(readers, chunk);
  reader_arg args[4];
  for (unsigned i = 0; i < readers; i++) {
    args[i] = (reader_arg){reading, i, bitcode, size, on_demand, LLVMContextCreate(), NULL};
    char *message = NULL;
    CHECK(mtpc_bridge_open_lazily(args[i].context, bitcode, size, "input", on_demand,
                                  &args[i].module, &message) == 0);
    free(message);
    CHECK(mtpc_graph_reader_begin(reading, i, args[i].module) == 0);
  }
  for (unsigned turn = 0;; turn++)
    if (!mtpc_graph_read_next(reading, readers - 1 - turn % readers, mtpc_bridge_materialize))
      break;
  finish_reading(reading, args, readers, g);
}

static unsigned light_copies; /* inputs whose plan read a copy without debug records */

/* lto-backend/bitcode/read.c's read, with 1 to 3 readers. */
static void check_read_for_plan(const mtpc_graph *whole, const void *data, size_t size,
                                const char *path) {
  for (unsigned readers = 1; readers <= 3; readers++) {
    mtpc_read read;
    char *message = NULL;
    CHECK(mtpc_read_for_plan(data, size, "input", readers, 0, NULL, &read, &message) == MTPC_OK);
    free(message);
    light_copies += readers == 1 && read.light.data != NULL;
    char what[512];
    snprintf(what, sizeof(what), "%s, read for the plan by %u readers%s", path, readers,
             read.light.data ? " from a copy without debug records" : "");
    check_same_graph(whole, &read.graph, what);
    mtpc_graph_free(&read.graph);
    mtpc_read_release_modules(&read);
  }
}

static void test_file(const char *path) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse_file(ctx, path);
  mtpc_graph whole;
  CHECK(mtpc_graph_build(&whole, m) == MTPC_OK);
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  const void *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  static const struct {
    unsigned readers;
    uint32_t chunk;
  } ways[] = {{1, 0}, {2, 1}, {3, 2}, {4, 3}};
  for (size_t w = 0; w < sizeof(ways) / sizeof(ways[0]); w++) {
    for (int on_demand = 0; on_demand <= 1; on_demand++) {
      mtpc_graph read;
      read_graph(data, size, ways[w].readers, ways[w].chunk, on_demand, &read);
      char what[512];
      snprintf(what, sizeof(what), "%s, %u readers, chunks of %u, metadata on demand %d", path,
               ways[w].readers, ways[w].chunk, on_demand);
      check_same_graph(&whole, &read, what);
      mtpc_graph_free(&read);
      read_graph_in_turns(data, size, ways[w].readers, ways[w].chunk, on_demand, &read);
      strncat(what, ", in turns", sizeof(what) - strlen(what) - 1);
      check_same_graph(&whole, &read, what);
      mtpc_graph_free(&read);
    }
  }
  check_read_for_plan(&whole, data, size, path);
  mtpc_graph_free(&whole);
  LLVMDisposeMemoryBuffer(bitcode);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* A reader that cannot materialize a chunk stops; the read fails with the
 * message of the first failing chunk in module order, whichever reader took
 * it and however the readers ran. Here every function from the third on
 * fails. */
static int fail_from_third(LLVMValueRef function, char **message) {
  LLVMModuleRef m = LLVMGetGlobalParent(function);
  int index = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f != function; f = LLVMGetNextFunction(f))
    index++;
  if (index < 2)
    return mtpc_bridge_materialize(function, message);
  size_t len = 0;
  const char *name = LLVMGetValueName2(function, &len);
  *message = malloc(len + 16);
  snprintf(*message, len + 16, "cannot read %s", name);
  return 1;
}

static void *run_failing_reader(void *p) {
  reader_arg *a = p;
  mtpc_graph_read(a->reading, a->index, a->module, fail_from_third);
  return NULL;
}

static void test_first_failure_wins(const char *path) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse_file(ctx, path);
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  const char *third = LLVMGetValueName(LLVMGetNextFunction(LLVMGetNextFunction(LLVMGetFirstFunction(m))));
  char expected[256];
  snprintf(expected, sizeof(expected), "cannot read %s", third);
  for (int round = 0; round < 20; round++) {
    mtpc_graph_reading *reading = mtpc_graph_reading_create(3, 1);
    reader_arg args[3];
    pthread_t threads[3];
    for (unsigned i = 0; i < 3; i++) {
      args[i] = (reader_arg){reading, i, LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode),
                             0, LLVMContextCreate(), NULL};
      char *message = NULL;
      CHECK(mtpc_bridge_open_lazily(args[i].context, args[i].bitcode, args[i].size, "input", 0,
                                    &args[i].module, &message) == 0);
      free(message);
      CHECK(pthread_create(&threads[i], NULL, run_failing_reader, &args[i]) == 0);
    }
    for (unsigned i = 0; i < 3; i++)
      pthread_join(threads[i], NULL);
    mtpc_graph g;
    char *message = NULL;
    CHECK(mtpc_graph_reading_finish(reading, &g, &message) == MTPC_ERR_INPUT);
    CHECK(message && !strcmp(message, expected));
    CHECK(g.node_count == 0 && g.nodes == NULL);
    free(message);
    mtpc_graph_reading_free(reading);
    for (unsigned i = 0; i < 3; i++) {
      LLVMDisposeModule(args[i].module);
      LLVMContextDispose(args[i].context);
    }
  }
  LLVMDisposeMemoryBuffer(bitcode);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_graph_read FILE.ll...\n");
    return 2;
  }
  for (int i = 1; i < argc; i++)
    test_file(argv[i]);
  test_first_failure_wins(argv[argc - 1]);
  CHECK(light_copies > 0);
  CHECK_SUMMARY();
}
