/* The CPU account of one job (job_account.h). */
#include "job_account.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>

#include "lto-backend/bitcode/ir_edit.h"
#include "support/support.h"

static int compare_names(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int is_clone(void *context, const char *name, size_t length) {
  const mtpc_job_account *a = context;
  uint32_t low = 0, high = a->clone_count;
  while (low < high) {
    uint32_t mid = low + (high - low) / 2;
    const char *candidate = a->clone_names[mid];
    int order = strncmp(candidate, name, length);
    if (order == 0)
      order = candidate[length] != '\0';
    if (order == 0)
      return 1;
    if (order < 0)
      low = mid + 1;
    else
      high = mid;
  }
  return 0;
}

int mtpc_job_account_begin(mtpc_job_account *a, const mtpc_plan *plan, uint32_t partition) {
  memset(a, 0, sizeof(*a));
  a->work.is_clone = is_clone;
  a->work.clone_context = a;
  if (!plan || partition == MTPC_NONE)
    return 0;
  const mtpc_node_list *clones = &plan->partitions[partition].clones;
  if (!clones->count)
    return 0;
  a->clone_names = mtpc_alloc(clones->count, sizeof(*a->clone_names));
  if (!a->clone_names)
    return 1;
  for (uint32_t i = 0; i < clones->count; i++)
    a->clone_names[i] = plan->nodes[clones->nodes[i]].name;
  a->clone_count = clones->count;
  qsort(a->clone_names, a->clone_count, sizeof(*a->clone_names), compare_names);
  return 0;
}

void mtpc_job_account_end(mtpc_job_account *a) {
  free(a->clone_names);
  a->clone_names = NULL;
  a->clone_count = 0;
}

double mtpc_job_account_codegen_without_clones(const mtpc_job_account *a,
                                               const mtpc_bridge_settings *settings,
                                               LLVMModuleRef module,
                                               LLVMTargetMachineRef machine, double *codegen) {
  double begin = mtpc_thread_cpu_seconds();
  *codegen = -1;
  /* Copies left to the partition that keeps them are declarations already:
   * with none defined here, a second code generation would measure noise. */
  uint32_t defined = 0;
  for (uint32_t i = 0; i < a->clone_count; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(module, a->clone_names[i]);
    defined += f && !LLVMIsDeclaration(f);
  }
  if (!defined)
    return mtpc_thread_cpu_seconds() - begin;
  LLVMModuleRef copy = LLVMCloneModule(module);
  if (!copy)
    return mtpc_thread_cpu_seconds() - begin;
  for (uint32_t i = 0; i < a->clone_count; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(copy, a->clone_names[i]);
    if (f && !LLVMIsDeclaration(f)) {
      mtpc_bridge_delete_body(f);
      LLVMSetComdat(f, NULL);
    }
  }
  void *object = NULL, *dwo = NULL;
  size_t object_size = 0, dwo_size = 0;
  char *message = NULL;
  double start = mtpc_thread_cpu_seconds();
  int failed = mtpc_bridge_codegen(settings, copy, machine, NULL, 0, &object, &object_size,
                                   &dwo, &dwo_size, &message);
  if (!failed)
    *codegen = mtpc_thread_cpu_seconds() - start;
  free(object);
  free(dwo);
  free(message);
  LLVMDisposeModule(copy);
  return mtpc_thread_cpu_seconds() - begin;
}
