/* A partition's copies of clones that a partition compiled before it keeps
 * (jobs/clone_keepers.h) become declarations after optimization. */
#define _GNU_SOURCE
#include "partition.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "lto-backend/bitcode/ir_edit.h"
#include "support/llvm_support.h"
#include "support/support.h"

typedef struct dropped {
  LLVMComdatRef *comdats; /* sorted by address */
  size_t comdat_count;
  LLVMValueRef *loose;    /* dropped functions without a COMDAT, sorted */
  size_t loose_count;
} dropped;

static int compare_pointers(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
  return x < y ? -1 : x > y;
}

static int has_pointer(void *const *sorted, size_t count, const void *p) {
  return count && bsearch(&p, sorted, count, sizeof(void *), compare_pointers) != NULL;
}

int mtpc_comdat_listed(LLVMComdatRef const *sorted, size_t count, LLVMComdatRef comdat) {
  return has_pointer((void *const *)sorted, count, comdat);
}

static int in_dropped(const dropped *d, LLVMValueRef global) {
  LLVMComdatRef comdat = LLVMGetComdat(global);
  if (comdat)
    return has_pointer((void *const *)d->comdats, d->comdat_count, comdat);
  return has_pointer((void *const *)d->loose, d->loose_count, global);
}

static int is_local(LLVMValueRef global) {
  LLVMLinkage linkage = LLVMGetLinkage(global);
  return linkage == LLVMInternalLinkage || linkage == LLVMPrivateLinkage;
}

int mtpc_comdats_with_locals(LLVMModuleRef module, LLVMComdatRef **out, size_t *count) {
  size_t cap = 0;
  *out = NULL;
  *count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
    if (LLVMGetComdat(f) && is_local(f) && MTPC_PUSH(*out, *count, cap, LLVMGetComdat(f)))
      return 1;
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
    if (LLVMGetComdat(g) && is_local(g) && MTPC_PUSH(*out, *count, cap, LLVMGetComdat(g)))
      return 1;
  if (*count)
    qsort(*out, *count, sizeof(void *), compare_pointers);
  return 0;
}

/* A COMDAT is the linker's unit: its members and the aliases of them go
 * together, as they stay or go together in every partition's optimizer. */
static int collect(LLVMModuleRef module, const char *const *names, size_t count, dropped *d) {
  d->comdats = mtpc_alloc(count ? count : 1, sizeof(LLVMComdatRef));
  d->loose = mtpc_alloc(count ? count : 1, sizeof(LLVMValueRef));
  LLVMComdatRef *local_groups = NULL;
  size_t local_group_count = 0;
  if (!d->comdats || !d->loose || mtpc_comdats_with_locals(module, &local_groups, &local_group_count)) {
    free(local_groups);
    return 1;
  }
  for (size_t i = 0; i < count; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(module, names[i]);
    if (!f || LLVMIsDeclaration(f))
      continue;
    LLVMComdatRef comdat = LLVMGetComdat(f);
    if (comdat && !mtpc_comdat_listed(local_groups, local_group_count, comdat))
      d->comdats[d->comdat_count++] = comdat;
    else if (!comdat)
      d->loose[d->loose_count++] = f;
  }
  free(local_groups);
  qsort(d->comdats, d->comdat_count, sizeof(void *), compare_pointers);
  qsort(d->loose, d->loose_count, sizeof(void *), compare_pointers);
  return 0;
}

static LLVMValueRef alias_base(LLVMValueRef alias) {
  LLVMValueRef target = LLVMAliasGetAliasee(alias);
  while (target && LLVMIsAConstantExpr(target))
    target = LLVMGetOperand(target, 0);
  return target && LLVMIsAGlobalObject(target) ? target : NULL;
}

/* The keeper exports it where it is dllexport; a declaration cannot be. */
static void make_declaration(LLVMValueRef global, int coff) {
  LLVMValueRef declaration = mtpc_bridge_make_declaration(global, coff);
  if (LLVMGetDLLStorageClass(declaration) == LLVMDLLExportStorageClass)
    LLVMSetDLLStorageClass(declaration, LLVMDefaultStorageClass);
}

static void drop_members(LLVMModuleRef module, const dropped *d) {
  int coff = mtpc_bridge_triple_is_coff(LLVMGetTarget(module));
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(module), next; a; a = next) {
    next = LLVMGetNextGlobalAlias(a);
    LLVMValueRef base = alias_base(a);
    if (base && !LLVMIsDeclaration(base) && in_dropped(d, base))
      make_declaration(a, coff);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f) && in_dropped(d, f))
      make_declaration(f, coff);
  for (LLVMValueRef g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g) && LLVMGetComdat(g) && in_dropped(d, g))
      make_declaration(g, coff);
}

/* A dropped copy is described as a declaration, as a copy is, so that the
 * calls left to it keep their call-site entries. */
static void describe_dropped(LLVMValueRef function, LLVMValueRef subprogram) {
  if (LLVMIsAFunction(function) && LLVMIsDeclaration(function) && !LLVMGetSubprogram(function))
    LLVMSetSubprogram(function, LLVMValueAsMetadata(subprogram));
}

int mtpc_drop_clones(LLVMModuleRef module, const char *const *names, size_t count) {
  dropped d = {0};
  int failed = collect(module, names, count, &d);
  if (!failed && (d.comdat_count || d.loose_count)) {
    drop_members(module, &d);
    failed = mtpc_apply_notes(module, MTPC_CLONE_DECL_NOTES, describe_dropped);
  }
  free(d.comdats);
  free(d.loose);
  return failed;
}
