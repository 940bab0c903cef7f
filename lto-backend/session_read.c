/* A session's first stage: the module, read for the plan by several
 * threads (read.h) or whole in one context, and its graph. */
#include <stdlib.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "options.h"
#include "session.h"
#include "support/support.h"

typedef struct parse_diag {
  int error;
  char *message; /* the first error's; NULL when memory ran out */
} parse_diag;

static void on_parse_diagnostic(LLVMDiagnosticInfoRef info, void *user) {
  parse_diag *d = user;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || d->error)
    return;
  d->error = 1;
  char *text = LLVMGetDiagInfoDescription(info);
  d->message = mtpc_strdup(text);
  LLVMDisposeMessage(text);
}

/* Parses the whole module in one context, for passes that need all of it. */
static mtpc_status parse_bitcode(const void *data, size_t size, const char *name,
                                 LLVMModuleRef *module, mtpc_result *r) {
  LLVMContextRef context = LLVMContextCreate();
  parse_diag diag = {0, NULL};
  LLVMContextSetDiagnosticHandler(context, on_parse_diagnostic, &diag);
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(data, size, name, 0);
  int failed = LLVMParseBitcodeInContext2(context, buffer, module);
  LLVMDisposeMemoryBuffer(buffer);
  if (!failed && diag.error)
    failed = 1;
  if (failed) {
    char *message = mtpc_asprintf("%s: invalid bitcode: %s", name,
                                   diag.message ? diag.message : "cannot parse the module");
    free(diag.message);
    if (*module)
      LLVMDisposeModule(*module);
    LLVMContextDispose(context);
    *module = NULL;
    return mtpc_result_fail(r, MTPC_ERR_INPUT, message);
  }
  LLVMContextSetDiagnosticHandler(context, NULL, NULL);
  return MTPC_OK;
}

/* How many threads read the module: as many as will compile it, up to
 * MTPC_MAX_READERS, and with a budget only those it has a free slot for
 * (*slots of them, given back once the read is done). */
static unsigned reader_count(const session *s, unsigned *slots) {
  unsigned wanted = mtpc_resolve_jobs(s->o->jobs);
  if (wanted > MTPC_MAX_READERS)
    wanted = MTPC_MAX_READERS;
  *slots = 0;
  if (!s->o->budget)
    return wanted;
  while (*slots + 1 < wanted && mtpc_budget_try_acquire(s->o->budget))
    (*slots)++;
  return *slots + 1;
}

/* The summary passes need the whole module in one context. */
static mtpc_status read_whole(session *s, const void *data, size_t size) {
  s->read.modules = mtpc_zalloc(1, sizeof(LLVMModuleRef));
  if (!s->read.modules)
    return mtpc_result_out_of_memory(s->r);
  mtpc_status status = parse_bitcode(data, size, s->name, &s->module, s->r);
  if (status == MTPC_OK)
    s->read.modules[s->read.module_count++] = s->module;
  return status;
}

/* The read's side job: the scan of what partitions load. */
static void scan_bitcode(void *arg) {
  session *s = arg;
  mtpc_partition_bitcode_create(s->bitcode, s->bitcode_size, &s->partition_bitcode);
  s->scanned = 1;
}

mtpc_status mtpc_session_read(session *s, const void *data, size_t size) {
  s->owns_module = 1;
  if (s->llvm.import_summary || mtpc_changes_whole_module(s->o))
    return read_whole(s, data, size);
  unsigned slots;
  unsigned readers = reader_count(s, &slots);
  char *message = NULL;
  mtpc_chore scan = {scan_bitcode, s, "mtpc scan bitcode"};
  mtpc_status status = mtpc_read_for_plan(data, size, s->name, readers,
                                          s->o->time_trace_granularity, &scan, &s->read, &message);
  while (slots-- > 0)
    mtpc_budget_release(s->o->budget);
  if (status == MTPC_ERR_INPUT) {
    char *text = mtpc_asprintf("%s: invalid bitcode: %s", s->name, message);
    free(message);
    return mtpc_result_fail(s->r, MTPC_ERR_INPUT, text);
  }
  free(message);
  if (status != MTPC_OK)
    return mtpc_result_out_of_memory(s->r);
  s->module = s->read.modules[0];
  s->has_graph = 1;
  return MTPC_OK;
}
