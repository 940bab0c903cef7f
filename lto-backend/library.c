/* What the library offers besides compiling: its version, LLVM's
 * targets, the time trace. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Target.h>

#include "support/llvm_support.h"
#include "support/time_trace.h"
#include "mtpc/mtpc.h"
#include "mtpc/tools.h"

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

mtpc_status mtpc_time_trace_write(const char *path, char **message) {
  void *trace = NULL;
  size_t size = 0;
  int failed = mtpc_time_trace_take(&trace, &size, message) ||
               (trace && mtpc_write_file_atomic(path, trace, size, NULL, message));
  free(trace);
  return failed ? MTPC_ERR_OUTPUT : MTPC_OK;
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
