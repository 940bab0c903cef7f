#include "merge_ir.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Linker.h>

#include "lto-backend/bitcode/module.h"
#include "support/support.h"

/* The linker reports what it cannot link through the context. */
static void keep_first_error(LLVMDiagnosticInfoRef info, void *user) {
  char **first = user;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || *first)
    return;
  char *text = LLVMGetDiagInfoDescription(info);
  *first = mtpc_strdup(text);
  LLVMDisposeMessage(text);
}

static LLVMModuleRef read_partition(LLVMContextRef context, const mtpc_job *job, uint32_t k,
                                    char **message) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(
      job->object, job->object_size, "partition", /*RequiresNullTerminator=*/0);
  LLVMModuleRef module = NULL;
  if (LLVMParseBitcodeInContext2(context, buffer, &module)) {
    *message = mtpc_asprintf("cannot read partition %u's bitcode", k);
    module = NULL;
  }
  LLVMDisposeMemoryBuffer(buffer);
  return module;
}

static LLVMValueRef named_global(LLVMModuleRef module, const char *name) {
  LLVMValueRef value = LLVMGetNamedFunction(module, name);
  if (!value)
    value = LLVMGetNamedGlobal(module, name);
  if (!value)
    value = LLVMGetNamedGlobalAlias(module, name, strlen(name));
  if (!value)
    value = LLVMGetNamedGlobalIFunc(module, name, strlen(name));
  return value;
}

/* Local linkage also gives back default visibility (GlobalValue::setLinkage). */
static void localize_promoted(const mtpc_plan *plan, LLVMModuleRef module) {
  for (uint32_t i = 0; i < plan->node_count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    LLVMValueRef value = n->promoted_name ? named_global(module, n->promoted_name) : NULL;
    if (!value || LLVMIsDeclaration(value))
      continue;
    LLVMSetLinkage(value, LLVMInternalLinkage);
    if (n->name[0])
      LLVMSetValueName2(value, n->name, strlen(n->name));
  }
}

static int link_partitions(LLVMContextRef context, const mtpc_job *jobs, uint32_t count,
                           LLVMModuleRef *merged, char **message) {
  char *link_error = NULL;
  LLVMContextSetDiagnosticHandler(context, keep_first_error, &link_error);
  int failed = 0;
  for (uint32_t k = 0; k < count && !failed; k++) {
    LLVMModuleRef part = read_partition(context, &jobs[k], k, message);
    failed = !part;
    if (part && !*merged) {
      *merged = part;
    } else if (part && LLVMLinkModules2(*merged, part)) { /* disposes part */
      *message = mtpc_asprintf("cannot link partition %u's module: %s", k,
                                link_error ? link_error : "the IR linker failed");
      failed = 1;
    }
  }
  LLVMContextSetDiagnosticHandler(context, NULL, NULL);
  free(link_error);
  return failed;
}

int mtpc_merge_modules(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       void **bitcode, size_t *bitcode_size, char **message) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef merged = NULL;
  int failed = link_partitions(context, jobs, count, &merged, message);
  if (!failed) {
    localize_promoted(plan, merged);
    *bitcode = mtpc_module_bitcode(merged, bitcode_size);
    failed = !*bitcode;
    if (failed)
      *message = NULL;
  }
  if (merged)
    LLVMDisposeModule(merged);
  LLVMContextDispose(context);
  return failed;
}
