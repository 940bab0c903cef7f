/* What the library offers besides compiling: its version, LLVM's
 * targets, the time trace. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Target.h>

#include "result.h"
#include "support/budget.h"
#include "support/llvm_support.h"
#include "support/time_trace.h"
#include "mtpc/mtpc.h"
#include "lto-backend/tools.h"

static char version_text[64];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static void fill_version(void) {
  snprintf(version_text, sizeof(version_text), "mtpc %s (LLVM %s)", MTPC_VERSION_STRING,
           mtpc_bridge_llvm_version());
}

const char *mtpc_version_string(void) {
  pthread_once(&version_once, fill_version);
  return version_text;
}

void mtpc_time_trace_start(unsigned granularity_us) { mtpc_bridge_time_trace_init(granularity_us); }

mtpc_status mtpc_time_trace_save(const char *path, mtpc_result **result) {
  void *trace = NULL;
  size_t size = 0;
  char *message = NULL;
  int failed = mtpc_time_trace_take(&trace, &size, &message) ||
               (trace && mtpc_write_file_atomic(path, trace, size, NULL, &message));
  free(trace);
  return mtpc_result_report(failed ? MTPC_ERR_OUTPUT : MTPC_OK, message, result);
}

mtpc_status mtpc_budget_new_jobserver(unsigned max_slots, mtpc_budget **budget,
                                      mtpc_result **result) {
  char *problem = NULL;
  int no_memory = 0;
  *budget = mtpc_budget_join_jobserver(max_slots, &problem, &no_memory);
  mtpc_status status = no_memory ? MTPC_ERR_NO_MEMORY : problem ? MTPC_ERR_INPUT : MTPC_OK;
  return mtpc_result_report(status, problem, result);
}

int mtpc_time_trace_take(void **data, size_t *size, char **message) {
  return mtpc_bridge_time_trace_take(data, size, message);
}

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static void init_llvm(void) {
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  LLVMInitializeAllAsmParsers();
}

void mtpc_init_llvm(void) { pthread_once(&llvm_once, init_llvm); }
