/* The linkage rules, applied to one partition (docs/design.rst has the table).
 *
 * Order matters. Bodies nobody here needs are dropped before materializing, so
 * they are never parsed; aliases and ifuncs are only replaced after
 * materializing, because the bitcode reader still refers to them. */
#include "partition.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "debug_info.h"
#include "lto-backend/bitcode/ir_edit.h"
#include "support/llvm_support.h"
#include "support/support.h"

typedef struct partition_ctx {
  LLVMModuleRef module;
  const mtpc_plan *plan;
  uint32_t q;
  LLVMValueRef *values; /* plan node -> value in this module */
  mtpc_ptrmap value_node;
  unsigned pgo_name_kind; /* "PGOFuncName" metadata */
  LLVMDIBuilderRef debug_info; /* declarations' subprograms; NULL without debug info */
  int branch_tracking; /* the module asks for indirect-branch landing pads (cf-protection) */
  int coff;            /* the target's objects are COFF */
  const uint8_t *records_cut; /* the view's */
} partition_ctx;

static int collect_values(partition_ctx *c, char **message) {
  uint32_t n = 0, count = c->plan->node_count;
  c->values = mtpc_zalloc(count, sizeof(LLVMValueRef));
  if (!c->values || mtpc_ptrmap_init(&c->value_node, count)) {
    *message = NULL;
    return 1;
  }
  LLVMValueRef v;
#define TAKE(first, next)                                                                \
  for (v = first(c->module); v; v = next(v)) {                                           \
    if (n == count)                                                                      \
      break;                                                                             \
    c->values[n++] = v;                                                                  \
  }
  TAKE(LLVMGetFirstFunction, LLVMGetNextFunction)
  TAKE(LLVMGetFirstGlobal, LLVMGetNextGlobal)
  TAKE(LLVMGetFirstGlobalAlias, LLVMGetNextGlobalAlias)
  TAKE(LLVMGetFirstGlobalIFunc, LLVMGetNextGlobalIFunc)
#undef TAKE
  if (n != count) {
    *message = mtpc_asprintf("the module has %u global values where the plan has %u", n, count);
    return 1;
  }
  for (uint32_t i = 0; i < count; i++) {
    size_t len = 0;
    const char *name = LLVMGetValueName2(c->values[i], &len);
    int cut = len == 0 && mtpc_plan_name_unneeded(c->plan, c->q, i);
    if (!cut &&
        (len != strlen(c->plan->nodes[i].name) || memcmp(name, c->plan->nodes[i].name, len))) {
      *message = mtpc_asprintf("global value %u is '%.*s' where the plan has '%s'", i, (int)len,
                                name, c->plan->nodes[i].name);
      return 1;
    }
    if (mtpc_ptrmap_put(&c->value_node, c->values[i], i)) {
      *message = NULL;
      return 1;
    }
  }
  return 0;
}

static int owned(const partition_ctx *c, uint32_t i) { return c->plan->nodes[i].owner == c->q; }

static int cloned(const partition_ctx *c, uint32_t i) {
  return mtpc_plan_has_clone(c->plan, c->q, i);
}

static int present(const partition_ctx *c, uint32_t i) { return mtpc_plan_holds(c->plan, c->q, i); }

/* Bodies that nobody here needs are dropped unparsed. A function whose
 * blockaddress a global initializer takes must be parsed first: the reader
 * resolves that blockaddress when it materializes. */
static void drop_unneeded_bodies(partition_ctx *c) {
  for (uint32_t i = 0; i < c->plan->node_count; i++) {
    const mtpc_plan_node *n = &c->plan->nodes[i];
    if (n->kind != MTPC_FUNCTION || !(n->flags & MTPC_N_DEFINITION) || present(c, i))
      continue;
    if (n->flags & MTPC_N_BLOCKADDRESS_TAKEN)
      continue;
    mtpc_bridge_delete_body(c->values[i]);
  }
}

static void promote(LLVMValueRef v, const mtpc_plan_node *n) {
  LLVMSetValueName2(v, n->promoted_name, strlen(n->promoted_name));
  LLVMSetLinkage(v, LLVMExternalLinkage);
  LLVMSetVisibility(v, LLVMHiddenVisibility);
}

static void keep_owned(LLVMValueRef v, const mtpc_plan_node *n) {
  if (n->promoted_name) {
    promote(v, n);
    return;
  }
  /* Another partition calls it: the owner must not drop it once its own
   * callers have inlined it. */
  if (n->exported && LLVMGetLinkage(v) == LLVMLinkOnceODRLinkage)
    LLVMSetLinkage(v, LLVMWeakODRLinkage);
  else if (n->exported && LLVMGetLinkage(v) == LLVMLinkOnceAnyLinkage)
    LLVMSetLinkage(v, LLVMWeakAnyLinkage);
}

static void make_copy(LLVMValueRef v, const mtpc_plan_node *n) {
  if (n->owner == MTPC_NONE)
    return; /* the module's own available_externally definition */
  if (n->promoted_name)
    promote(v, n);
  LLVMSetLinkage(v, LLVMAvailableExternallyLinkage);
  LLVMSetComdat(v, NULL);
}

/* A body's metadata goes with it; profiles find a local by its PGO name. */
static void restore_pgo_name(partition_ctx *c, LLVMValueRef fn, const char *pgo_name) {
  LLVMContextRef ctx = LLVMGetModuleContext(c->module);
  LLVMMetadataRef name = LLVMMDStringInContext2(ctx, pgo_name, strlen(pgo_name));
  LLVMGlobalSetMetadata(fn, c->pgo_name_kind, LLVMMDNodeInContext2(ctx, &name, 1));
}

/* A declaration of a function defined elsewhere gets a subprogram, as clang
 * gives one to a function it calls but does not define: a call to it then
 * keeps its call-site entry, whose DW_AT_call_origin names the callee. It
 * has no line: debuggers take that from the definition, and with one, a line
 * inserted above the callee would change every partition that calls it. */
static LLVMMetadataRef declaration_subprogram(LLVMDIBuilderRef builder,
                                              const mtpc_debug_decl *d) {
  LLVMMetadataRef file = LLVMDIBuilderCreateFile(builder, d->file, strlen(d->file),
                                                 d->directory, strlen(d->directory));
  return LLVMDIBuilderCreateFunction(builder, file, d->name, strlen(d->name), d->linkage_name,
                                     strlen(d->linkage_name), file, /*LineNo=*/0, NULL, 0,
                                     /*IsDefinition=*/0, 0, (LLVMDIFlags)d->flags,
                                     /*IsOptimized=*/1);
}

/* What another partition defines becomes a declaration here, bare: most of
 * them are unused once the bodies are gone and are erased before anything
 * describes them (describe_declarations). */
static LLVMValueRef make_declaration(const partition_ctx *c, LLVMValueRef v,
                                     const mtpc_plan_node *n) {
  if (n->flags & MTPC_N_DEFINITION)
    v = mtpc_bridge_make_declaration(v, c->coff);
  return v;
}

/* Neither defined nor copied here, nor a list or a declaration the module
 * keeps as it is: what this partition declares. */
static int declares(const partition_ctx *c, uint32_t i) {
  uint32_t flags = c->plan->nodes[i].flags;
  return !(flags & (MTPC_N_USED_LIST | MTPC_N_DECLARATION_ONLY | MTPC_N_APPENDING)) &&
         !present(c, i);
}

/* With -fcf-protection, code generation gives every function that is not
 * local a landing pad (endbr64): a promoted local would get one that the
 * serial compile's does not, and become a target for indirect branches.
 * One whose address nothing takes is only ever called directly, so it is
 * marked as clang marks a function that needs none (nocf_check). */
static int module_flag_set(LLVMModuleRef module, const char *name) {
  LLVMMetadataRef flag = LLVMGetModuleFlag(module, name, strlen(name));
  if (!flag)
    return 0;
  /* LLVM-C unwraps a constant only as an operand of a node. */
  LLVMContextRef ctx = LLVMGetModuleContext(module);
  LLVMValueRef node = LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, &flag, 1));
  LLVMValueRef value = NULL;
  LLVMGetMDNodeOperands(node, &value);
  return value && LLVMIsAConstantInt(value) && LLVMConstIntGetZExtValue(value) != 0;
}

static void no_landing_pad(LLVMValueRef function) {
  LLVMContextRef ctx = LLVMGetTypeContext(LLVMTypeOf(function));
  unsigned kind = LLVMGetEnumAttributeKindForName("nocf_check", strlen("nocf_check"));
  LLVMAddAttributeAtIndex(function, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(ctx, kind, 0));
}

static void rewrite_globals(partition_ctx *c) {
  for (uint32_t i = 0; i < c->plan->node_count; i++) {
    const mtpc_plan_node *n = &c->plan->nodes[i];
    if (n->flags & (MTPC_N_USED_LIST | MTPC_N_DECLARATION_ONLY))
      continue;
    if (owned(c, i)) {
      keep_owned(c->values[i], n);
      if (c->branch_tracking && n->promoted_name && n->kind == MTPC_FUNCTION &&
          !(n->flags & MTPC_N_ADDRESS_TAKEN) && !LLVMIsDeclaration(c->values[i]))
        no_landing_pad(c->values[i]);
    } else if (cloned(c, i))
      continue; /* defined here as in the module: the linker keeps one copy */
    else if (mtpc_plan_has_copy(c->plan, c->q, i))
      make_copy(c->values[i], n);
    else if (declares(c, i))
      c->values[i] = make_declaration(c, c->values[i], n);
  }
}

/* The declarations left after erase_absent take their promoted names, PGO
 * names and subprograms. */
static void describe_declarations(partition_ctx *c) {
  for (uint32_t i = 0; i < c->plan->node_count; i++) {
    if (!c->values[i] /* erased */ || !declares(c, i))
      continue;
    const mtpc_plan_node *n = &c->plan->nodes[i];
    LLVMValueRef v = c->values[i];
    if (n->promoted_name)
      promote(v, n);
    if (n->kind == MTPC_FUNCTION && n->pgo_name)
      restore_pgo_name(c, v, n->pgo_name);
    if (n->kind == MTPC_FUNCTION && n->debug_decl && c->debug_info)
      LLVMSetSubprogram(v, declaration_subprogram(c->debug_info, n->debug_decl));
  }
}

/* llvm.used and llvm.compiler.used keep the entries of what this partition
 * owns. Non-zero when memory runs out. */
static int rebuild_used_list(partition_ctx *c, const char *name) {
  LLVMValueRef list = LLVMGetNamedGlobal(c->module, name);
  if (!list)
    return 0;
  LLVMValueRef init = LLVMGetInitializer(list);
  int count = init ? LLVMGetNumOperands(init) : 0;
  LLVMValueRef *kept = mtpc_alloc((size_t)(count > 0 ? count : 0), sizeof(LLVMValueRef));
  if (!kept)
    return 1;
  unsigned kept_count = 0;
  for (int i = 0; i < count; i++) {
    LLVMValueRef entry = LLVMGetOperand(init, (unsigned)i);
    LLVMValueRef target = entry;
    while (target && LLVMIsAConstantExpr(target))
      target = LLVMGetOperand(target, 0);
    uint32_t node;
    if (target && mtpc_ptrmap_get(&c->value_node, target, &node) && owned(c, node))
      kept[kept_count++] = entry;
  }
  if (kept_count == (unsigned)count) {
    free(kept);
    return 0;
  }
  LLVMTypeRef entry_type = LLVMGetElementType(LLVMTypeOf(init));
  char *section = mtpc_strdup(LLVMGetSection(list) ? LLVMGetSection(list) : "llvm.metadata");
  if (!section) {
    free(kept);
    return 1;
  }
  LLVMSetValueName2(list, "", 0);
  if (kept_count > 0) {
    LLVMValueRef array = LLVMConstArray2(entry_type, kept, kept_count);
    LLVMValueRef fresh = LLVMAddGlobal(c->module, LLVMTypeOf(array), name);
    LLVMSetLinkage(fresh, LLVMAppendingLinkage);
    LLVMSetSection(fresh, section);
    LLVMSetInitializer(fresh, array);
  }
  LLVMDeleteGlobal(list);
  free(section);
  free(kept);
  return 0;
}

/* A global whose name the partition's bitcode cut (mtpc_plan_name_unneeded)
 * and that its code still names. */
static void take_name_back(LLVMValueRef v, const mtpc_plan_node *n) {
  size_t length = 0;
  LLVMGetValueName2(v, &length);
  if (length == 0 && n->name[0])
    LLVMSetValueName2(v, n->name, strlen(n->name));
}

/* What this partition neither owns nor references goes. A local that is still
 * used here was not exported by the plan: that is a planning error; one
 * whose record the view changed asks for a reload. The
 * module's declarations go when nothing here uses them, so that a partition
 * does not change with a declaration only other code needs. */
static int erase_absent(partition_ctx *c, char **message) {
  for (int pass = 0; pass < 2; pass++) {
    for (uint32_t i = 0; i < c->plan->node_count; i++) {
      const mtpc_plan_node *n = &c->plan->nodes[i];
      int appending = (n->flags & MTPC_N_APPENDING) != 0;
      if (appending != (pass == 0) || (n->flags & MTPC_N_USED_LIST))
        continue;
      if (n->flags & MTPC_N_DECLARATION_ONLY) {
        if (!mtpc_plan_has_declaration(c->plan, c->q, i))
          mtpc_bridge_erase_if_unused(c->values[i]);
        continue;
      }
      if (present(c, i) || mtpc_plan_has_declaration(c->plan, c->q, i))
        continue;
      if (mtpc_bridge_erase_if_unused(c->values[i])) {
        c->values[i] = NULL;
        continue;
      }
      if (c->records_cut && c->records_cut[i])
        return MTPC_PARTITION_RELOAD;
      take_name_back(c->values[i], n);
      if ((n->flags & MTPC_N_LOCAL) && !n->promoted_name) {
        *message = mtpc_asprintf("local '%s' is used in partition %u but owned by partition %u",
                                  n->name, c->q, n->owner);
        return 1;
      }
      if (appending) {
        *message = mtpc_asprintf("'%s' is still used in partition %u", n->name, c->q);
        return 1;
      }
    }
  }
  return 0;
}

/* Named metadata of !{function, what}: what mtpc_finish_debug_info does to
 * the function's debug info after optimization. */
#define DEBUG_NOTES "mtpc.debug"
#define LATER_CLONE_BARE "bare"   /* keep a subprogram with nothing inside */
#define LATER_CLONE_NONE "strip"  /* keep no debug info */

static void note_debug(partition_ctx *c, LLVMValueRef function, LLVMMetadataRef what) {
  LLVMContextRef ctx = LLVMGetModuleContext(c->module);
  LLVMMetadataRef operands[2] = {LLVMValueAsMetadata(function), what};
  LLVMMetadataRef note = LLVMMDNodeInContext2(ctx, operands, 2);
  LLVMAddNamedMetadataOperand(c->module, DEBUG_NOTES, LLVMMetadataAsValue(ctx, note));
}

static void note_clone_declaration(partition_ctx *c, LLVMValueRef function,
                                   LLVMMetadataRef subprogram) {
  LLVMContextRef ctx = LLVMGetModuleContext(c->module);
  LLVMMetadataRef operands[2] = {LLVMValueAsMetadata(function), subprogram};
  LLVMMetadataRef note = LLVMMDNodeInContext2(ctx, operands, 2);
  LLVMAddNamedMetadataOperand(c->module, MTPC_CLONE_DECL_NOTES, LLVMMetadataAsValue(ctx, note));
}

/* Which partition describes a clone, and which declarations a copy leaves
 * behind, depend on the plan, not on this partition's IR: noted in it. */
static int cloned_anywhere(const partition_ctx *c, uint32_t i) {
  for (uint32_t q = 0; q < c->plan->partition_count; q++)
    if (mtpc_plan_has_clone(c->plan, q, i))
      return 1;
  return 0;
}

/* Of a clone's copies, the one the first partition (the plan's order) to
 * keep it keeps code-generates, with its debug info; every other surviving
 * copy becomes a declaration (mtpc_drop_clones), described as one. A group
 * with a local member keeps every copy, the linker one: only the first
 * copy then keeps its debug info. Non-zero when memory runs out. */
static int note_debug_decisions(partition_ctx *c, int merged) {
  LLVMContextRef ctx = LLVMGetModuleContext(c->module);
  const char *later = merged ? LATER_CLONE_BARE : LATER_CLONE_NONE;
  LLVMComdatRef *local_groups = NULL;
  size_t local_group_count = 0;
  if (mtpc_comdats_with_locals(c->module, &local_groups, &local_group_count))
    return 1;
  for (uint32_t i = 0; i < c->plan->node_count; i++) {
    const mtpc_plan_node *n = &c->plan->nodes[i];
    LLVMValueRef f = c->values[i];
    if (n->kind != MTPC_FUNCTION || !f || LLVMIsDeclaration(f))
      continue;
    int held = owned(c, i) || cloned(c, i);
    if (held && (cloned(c, i) || cloned_anywhere(c, i))) {
      LLVMComdatRef group = LLVMGetComdat(f);
      if (mtpc_plan_first_definer(c->plan, i) != c->q && group &&
          mtpc_comdat_listed(local_groups, local_group_count, group))
        note_debug(c, f, LLVMMDStringInContext2(ctx, later, strlen(later)));
      else if (n->debug_decl)
        note_clone_declaration(c, f, declaration_subprogram(c->debug_info, n->debug_decl));
    } else if (n->debug_decl && mtpc_plan_has_copy(c->plan, c->q, i)) {
      note_debug(c, f, declaration_subprogram(c->debug_info, n->debug_decl));
    }
  }
  free(local_groups);
  return 0;
}

static void apply_debug_note(LLVMValueRef function, LLVMValueRef what) {
  if (!LLVMIsAMDString(what)) { /* a copy's declaration */
    if (LLVMIsDeclaration(function) && !LLVMGetSubprogram(function))
      LLVMSetSubprogram(function, LLVMValueAsMetadata(what));
    return;
  }
  unsigned length = 0;
  const char *later = LLVMGetMDString(what, &length);
  if (LLVMIsDeclaration(function))
    return;
  if (length == strlen(LATER_CLONE_BARE) && !memcmp(later, LATER_CLONE_BARE, length))
    mtpc_bridge_keep_subprogram_only(function);
  else
    mtpc_bridge_strip_debug_info(function);
}

int mtpc_apply_notes(LLVMModuleRef module, const char *name,
                     void (*apply)(LLVMValueRef function, LLVMValueRef what)) {
  unsigned count = LLVMGetNamedMetadataNumOperands(module, name);
  if (count == 0)
    return 0;
  LLVMValueRef *notes = mtpc_alloc(count, sizeof(LLVMValueRef));
  if (!notes)
    return 1;
  LLVMGetNamedMetadataOperands(module, name, notes);
  for (unsigned k = 0; k < count; k++) {
    LLVMValueRef operands[2];
    LLVMGetMDNodeOperands(notes[k], operands);
    if (operands[0]) /* NULL: the optimizer deleted the function */
      apply(operands[0], operands[1]);
  }
  free(notes);
  return 0;
}

int mtpc_finish_debug_info(LLVMModuleRef module) {
  if (mtpc_apply_notes(module, DEBUG_NOTES, apply_debug_note))
    return 1;
  mtpc_bridge_erase_named_metadata(module, DEBUG_NOTES);
  mtpc_bridge_erase_named_metadata(module, MTPC_CLONE_DECL_NOTES);
  return 0;
}

static uint32_t debug_type_home(void *plan, const char *key) {
  return mtpc_plan_debug_type_home(plan, key);
}

int mtpc_make_partition(LLVMModuleRef module, const mtpc_plan *plan, uint32_t q, int merged,
                        const mtpc_bitcode_view *view, char **message) {
  partition_ctx c = {.module = module, .plan = plan, .q = q,
                     .branch_tracking = module_flag_set(module, "cf-protection-branch"),
                     .coff = mtpc_bridge_triple_is_coff(LLVMGetTarget(module)),
                     .records_cut = view->records_cut};
  c.pgo_name_kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(module), "PGOFuncName", 11);
  int failed = collect_values(&c, message);
  if (!failed) {
    drop_unneeded_bodies(&c);
    failed = mtpc_bridge_materialize_bodies(module, message);
  }
  if (!failed && view->homed_count)
    mtpc_bridge_home_odr_types(module, view->homed, view->homed_count);
  if (!failed && (rebuild_used_list(&c, "llvm.used") ||
                  rebuild_used_list(&c, "llvm.compiler.used"))) {
    *message = NULL;
    failed = 1;
  }
  if (!failed) {
    rewrite_globals(&c);
    if (q != 0)
      LLVMSetModuleInlineAsm2(module, "", 0); /* module asm belongs to partition 0 */
    failed = erase_absent(&c, message);
    if (!failed) {
      if (LLVMGetNamedMetadataNumOperands(module, "llvm.dbg.cu") > 0)
        c.debug_info = LLVMCreateDIBuilderDisallowUnresolved(module);
      describe_declarations(&c);
      if (c.debug_info) {
        if (note_debug_decisions(&c, merged)) {
          *message = NULL;
          failed = 1;
        }
        LLVMDIBuilderFinalize(c.debug_info);
        LLVMDisposeDIBuilder(c.debug_info);
      }
      mtpc_bridge_trim_debug_info(module, q == 0);
      if (plan->debug_type_count)
        mtpc_bridge_share_debug_types(module, q, debug_type_home, (void *)plan);
    }
  }
  free(c.values);
  mtpc_ptrmap_free(&c.value_node);
  return failed;
}
