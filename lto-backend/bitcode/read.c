#include "read.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "ir_edit.h"
#include "module.h"
#include "plan_bitcode.h"
#include "partitioner/graph_read.h"
#include "support/support.h"
#include "support/time_trace.h"

/* What the readers open, ready once reader 0 has made the copy. */
typedef struct source {
  const void *bitcode;
  size_t size;
  mtpc_plan_bitcode *light;
  pthread_mutex_t lock;
  pthread_cond_t made;
  int ready;
} source;

typedef struct reader {
  source *source;
  const char *name;
  mtpc_graph_reading *reading;
  unsigned index;
  LLVMContextRef context;
  LLVMModuleRef module;
  char *message;    /* why opening failed */
  char *diagnostic; /* the first error LLVM reported to the context */
  int diagnostic_lost; /* one was reported but could not be copied */
  int trace;           /* record an "mtpc reader" event */
  unsigned trace_granularity_us;
  const mtpc_chore *side; /* run by the first reader to start, or NULL */
  atomic_int *side_taken;
} reader;

static void on_diagnostic(LLVMDiagnosticInfoRef info, void *user) {
  reader *rd = user;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || rd->diagnostic || rd->diagnostic_lost)
    return;
  char *text = LLVMGetDiagInfoDescription(info);
  rd->diagnostic = mtpc_strdup(text);
  rd->diagnostic_lost = !rd->diagnostic;
  LLVMDisposeMessage(text);
}

static void wait_for_source(source *src) {
  pthread_mutex_lock(&src->lock);
  while (!src->ready)
    pthread_cond_wait(&src->made, &src->lock);
  pthread_mutex_unlock(&src->lock);
}

/* Reader 0's part before the others open: the copy they read, when the
 * module has debug records to leave out. Without memory for it they read
 * the module's own bitcode. */
static void make_source(reader *rd) {
  source *src = rd->source;
  mtpc_bridge_time_trace_begin("mtpc plan bitcode", "");
  if (mtpc_plan_bitcode_make(src->bitcode, src->size, src->light) == 0 && src->light->data) {
    src->bitcode = src->light->data;
    mtpc_graph_reading_use_debug_records(rd->reading, src->light->debug_records,
                                         src->light->body_count);
  }
  mtpc_bridge_time_trace_end();
  pthread_mutex_lock(&src->lock);
  src->ready = 1;
  pthread_cond_broadcast(&src->made);
  pthread_mutex_unlock(&src->lock);
}

static int open_copy(reader *rd) {
  wait_for_source(rd->source);
  rd->context = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(rd->context, on_diagnostic, rd);
  if (mtpc_bridge_open_lazily(rd->context, rd->source->bitcode, rd->source->size, rd->name,
                              /*metadata_on_demand=*/1, &rd->module, &rd->message) == 0)
    return 0;
  LLVMContextDispose(rd->context);
  rd->context = NULL;
  rd->module = NULL;
  return -1;
}

static void begin_trace(const reader *rd) {
  char detail[32];
  snprintf(detail, sizeof(detail), "reader %u", rd->index);
  mtpc_bridge_time_trace_begin("mtpc reader", detail);
}

/* The side job, on whichever reader comes first: the others read chunks
 * meanwhile. */
static void run_side(reader *rd) {
  if (!rd->side || atomic_exchange(rd->side_taken, 1))
    return;
  mtpc_bridge_time_trace_begin(rd->side->name, "");
  rd->side->run(rd->side->arg);
  mtpc_bridge_time_trace_end();
}

static void *run_reader(void *arg) {
  reader *rd = arg;
  if (rd->trace) {
    mtpc_bridge_time_trace_thread_init(rd->trace_granularity_us);
    begin_trace(rd);
  }
  run_side(rd);
  if (open_copy(rd) == 0)
    mtpc_graph_read(rd->reading, rd->index, rd->module, mtpc_bridge_materialize);
  if (rd->trace) {
    mtpc_bridge_time_trace_end();
    mtpc_bridge_time_trace_thread_finish();
  }
  return NULL;
}

static void release_readers(reader *readers, unsigned count) {
  for (unsigned i = 0; i < count; i++) {
    if (readers[i].context)
      mtpc_release_context(readers[i].context, readers[i].module);
    free(readers[i].message);
    free(readers[i].diagnostic);
  }
  free(readers);
}

/* The first error LLVM reported to a reader's context, as the read's
 * failure; 0 when there was none. */
static int reported_error(const reader *readers, unsigned count, mtpc_status *status,
                          char **message) {
  for (unsigned i = 0; i < count; i++) {
    if (!readers[i].diagnostic && !readers[i].diagnostic_lost)
      continue;
    *message = readers[i].diagnostic ? mtpc_strdup(readers[i].diagnostic) : NULL;
    *status = *message ? MTPC_ERR_INPUT : MTPC_ERR_NO_MEMORY;
    return 1;
  }
  return 0;
}

/* Moves the readers' modules to `read`; non-zero when memory runs out. */
static int keep_modules(reader *readers, unsigned count, mtpc_read *read) {
  read->modules = mtpc_zalloc(count, sizeof(LLVMModuleRef));
  if (!read->modules)
    return -1;
  for (unsigned i = 0; i < count; i++) {
    if (!readers[i].context)
      continue;
    LLVMContextSetDiagnosticHandler(readers[i].context, NULL, NULL);
    read->modules[read->module_count++] = readers[i].module;
    readers[i].context = NULL;
  }
  return 0;
}

static mtpc_status read_in_threads(reader *readers, unsigned count, mtpc_graph_reading *reading,
                                   mtpc_read *read, char **message) {
  pthread_t *threads = mtpc_zalloc(count, sizeof(pthread_t));
  int *started = mtpc_zalloc(count, sizeof(int));
  for (unsigned i = 1; threads && started && i < count; i++) {
    readers[i] = readers[0];
    readers[i].index = i;
    readers[i].context = NULL;
    readers[i].module = NULL;
    readers[i].diagnostic = NULL;
    readers[i].diagnostic_lost = 0;
    started[i] = pthread_create(&threads[i], NULL, run_reader, &readers[i]) == 0;
  }
  /* Reader 0 makes what they all open while another takes the side job,
   * then opens its copy beside the others. Without threads it walks every
   * chunk alone. */
  if (readers[0].trace)
    begin_trace(&readers[0]);
  make_source(&readers[0]);
  run_side(&readers[0]);
  int opened = open_copy(&readers[0]) == 0;
  if (opened)
    mtpc_graph_read(reading, 0, readers[0].module, mtpc_bridge_materialize);
  if (readers[0].trace)
    mtpc_bridge_time_trace_end();
  for (unsigned i = 1; threads && started && i < count; i++)
    if (started[i])
      pthread_join(threads[i], NULL);
  free(threads);
  free(started);
  mtpc_status status = MTPC_OK;
  if (!opened) { /* the others, which read the same bitcode, failed too */
    *message = readers[0].message;
    readers[0].message = NULL;
    return *message ? MTPC_ERR_INPUT : MTPC_ERR_NO_MEMORY;
  }
  if (reported_error(readers, count, &status, message))
    return status;
  status = mtpc_graph_reading_finish(reading, &read->graph, message);
  if (status == MTPC_OK && keep_modules(readers, count, read)) {
    mtpc_graph_free(&read->graph);
    status = MTPC_ERR_NO_MEMORY;
  }
  return status;
}

mtpc_status mtpc_read_for_plan(const void *bitcode, size_t size, const char *name,
                               unsigned readers, unsigned trace_granularity_us,
                               const mtpc_chore *side, mtpc_read *read, char **message) {
  atomic_int side_taken = 0;
  memset(read, 0, sizeof(*read));
  source src = {.bitcode = bitcode, .size = size, .light = &read->light,
                .lock = PTHREAD_MUTEX_INITIALIZER, .made = PTHREAD_COND_INITIALIZER};
  *message = NULL;
  unsigned count = readers < 1 ? 1 : readers > MTPC_MAX_READERS ? MTPC_MAX_READERS : readers;
  reader *all = mtpc_zalloc(count, sizeof(reader));
  mtpc_graph_reading *reading = mtpc_graph_reading_create(count, 0);
  if (!all || !reading) {
    free(all);
    mtpc_graph_reading_free(reading);
    return MTPC_ERR_NO_MEMORY;
  }
  all[0] = (reader){.source = &src, .name = name, .side = side,
                    .side_taken = &side_taken,
                    .reading = reading, .trace = mtpc_bridge_time_trace_active(),
                    .trace_granularity_us = trace_granularity_us};
  mtpc_status status = read_in_threads(all, count, reading, read, message);
  release_readers(all, count);
  mtpc_graph_reading_free(reading);
  if (status != MTPC_OK)
    mtpc_plan_bitcode_free(&read->light);
  return status;
}

void mtpc_read_release_modules(mtpc_read *read) {
  for (unsigned i = 0; i < read->module_count; i++)
    mtpc_release_context(LLVMGetModuleContext(read->modules[i]), read->modules[i]);
  free(read->modules);
  read->modules = NULL;
  read->module_count = 0;
  mtpc_plan_bitcode_free(&read->light);
}
