/* Walks an LLVM module's IR into its reference graph, with the LLVM-C API.
 *
 * Nodes are numbered in module order: functions, then global variables, then
 * aliases, then ifuncs. A worker that lazily loads the same bitcode in another
 * context enumerates the same values in the same order, so the plan can name
 * values by index. A walker walks the functions it is given, a range at a
 * time (graph_read.c hands out the ranges), so several walkers on copies of
 * one module in their own contexts can share the work. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include "cost.h"
#include "debug_types.h"
#include "graph.h"
#include "graph_walk.h"
#include "support/support.h"

typedef mtpc_graph_walker builder;

static uint32_t linkage_flags(LLVMValueRef gv) {
  switch (LLVMGetLinkage(gv)) {
  case LLVMInternalLinkage:
  case LLVMPrivateLinkage:
    return MTPC_N_LOCAL;
  case LLVMAvailableExternallyLinkage:
    return MTPC_N_AVAILABLE_EXTERNALLY;
  case LLVMLinkOnceODRLinkage:
    return MTPC_N_DISCARDABLE;
  case LLVMLinkOnceAnyLinkage:
    return MTPC_N_DISCARDABLE | MTPC_N_INTERPOSABLE;
  case LLVMWeakAnyLinkage:
  case LLVMCommonLinkage:
  case LLVMExternalWeakLinkage:
    return MTPC_N_INTERPOSABLE;
  case LLVMAppendingLinkage:
    return MTPC_N_APPENDING;
  default:
    return 0;
  }
}

static int has_fn_attribute(LLVMValueRef fn, const char *name) {
  unsigned kind = LLVMGetEnumAttributeKindForName(name, strlen(name));
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

static uint32_t comdat_id(builder *b, LLVMValueRef gv) {
  LLVMComdatRef c = LLVMGetComdat(gv);
  if (!c)
    return MTPC_NONE;
  uint32_t id;
  if (!mtpc_ptrmap_get(&b->comdat_ids, c, &id)) {
    id = (uint32_t)b->comdat_ids.count;
    if (mtpc_ptrmap_put(&b->comdat_ids, c, id))
      b->g->out_of_memory = 1;
  }
  return id;
}

static int is_used_list(const char *name) {
  return strcmp(name, "llvm.used") == 0 || strcmp(name, "llvm.compiler.used") == 0;
}

static void add_value_node(builder *b, LLVMValueRef v, mtpc_node_kind kind) {
  size_t len = 0;
  const char *name = LLVMGetValueName2(v, &len);
  uint32_t flags = linkage_flags(v);
  if (kind == MTPC_ALIAS || kind == MTPC_IFUNC || !LLVMIsDeclaration(v))
    flags |= MTPC_N_DEFINITION;
  else
    flags |= MTPC_N_DECLARATION_ONLY;
  if (len == 0)
    flags |= MTPC_N_UNNAMED;
  uint32_t comdat = MTPC_NONE;
  if (kind == MTPC_FUNCTION || kind == MTPC_VARIABLE) {
    comdat = comdat_id(b, v);
    if (comdat != MTPC_NONE)
      flags |= MTPC_N_IN_COMDAT;
    if (comdat != MTPC_NONE &&
        LLVMGetComdatSelectionKind(LLVMGetComdat(v)) == LLVMNoDeduplicateComdatSelectionKind)
      flags |= MTPC_N_COMDAT_KEEPS_ALL;
  }
  if (kind == MTPC_VARIABLE) {
    if (LLVMIsGlobalConstant(v))
      flags |= MTPC_N_CONSTANT;
    if (LLVMIsThreadLocal(v))
      flags |= MTPC_N_THREAD_LOCAL;
    if (is_used_list(name))
      flags = (flags & ~MTPC_N_APPENDING) | MTPC_N_USED_LIST;
    else if (flags & MTPC_N_APPENDING)
      flags |= MTPC_N_PINNED_PRIMARY;
  }
  if (kind == MTPC_FUNCTION) {
    if (has_fn_attribute(v, "noinline"))
      flags |= MTPC_N_NOINLINE;
    if (has_fn_attribute(v, "alwaysinline"))
      flags |= MTPC_N_ALWAYSINLINE;
  } else if (kind == MTPC_ALIAS) {
    /* The aliasee's linkage decides nothing: the alias is its own symbol. */
  }
  uint32_t id = mtpc_graph_add_node(b->g, kind, name, len, flags, comdat, 0);
  size_t count = id;
  if (id == MTPC_NONE || MTPC_PUSH(b->values, count, b->value_cap, v) ||
      mtpc_ptrmap_put(&b->value_to_node, v, id) ||
      (len && mtpc_strmap_put(&b->name_to_node, b->g->nodes[id].name, len, id)))
    b->g->out_of_memory = 1;
}

static void add_nodes(builder *b) {
  for (LLVMValueRef f = LLVMGetFirstFunction(b->module); f && !b->g->out_of_memory;
       f = LLVMGetNextFunction(f))
    add_value_node(b, f, MTPC_FUNCTION);
  b->function_count = b->g->node_count;
  for (LLVMValueRef v = LLVMGetFirstGlobal(b->module); v; v = LLVMGetNextGlobal(v))
    add_value_node(b, v, MTPC_VARIABLE);
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(b->module); a; a = LLVMGetNextGlobalAlias(a))
    add_value_node(b, a, MTPC_ALIAS);
  for (LLVMValueRef i = LLVMGetFirstGlobalIFunc(b->module); i; i = LLVMGetNextGlobalIFunc(i))
    add_value_node(b, i, MTPC_IFUNC);
}

static int is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '.' || c == '$';
}

/* Calls fn(b, node, ctx) for every module symbol named as a token in text. */
static void for_each_named_symbol(builder *b, const char *text, size_t len,
                                  void (*fn)(builder *, uint32_t, void *), void *ctx) {
  size_t i = 0;
  while (i < len) {
    if (!is_ident_char(text[i])) {
      i++;
      continue;
    }
    size_t start = i;
    while (i < len && is_ident_char(text[i]))
      i++;
    uint32_t node;
    if (mtpc_strmap_get(&b->name_to_node, text + start, i - start, &node))
      fn(b, node, ctx);
  }
}

typedef struct walk_ctx {
  uint32_t from;
  int in_used_list;
  LLVMValueRef callee; /* the direct callee of the instruction walked, if any */
  uint64_t count;      /* how often that instruction runs (profile), or 0 */
  int bond;            /* the globals the instruction names share its function's partition */
} walk_ctx;

static void asm_names_in_function(builder *b, uint32_t node, void *ctx) {
  const walk_ctx *w = ctx;
  b->g->nodes[w->from].flags |= MTPC_N_ASM_NAMES_SYMBOL;
  if (b->g->nodes[node].flags & MTPC_N_LOCAL)
    b->named_by_asm[node] = 1;
}

static void visit_global(builder *b, const walk_ctx *w, uint32_t target, mtpc_ref_kind kind) {
  if (kind != MTPC_CALL || w->in_used_list)
    b->g->nodes[target].flags |= MTPC_N_ADDRESS_TAKEN;
  if (w->in_used_list) {
    b->g->nodes[target].flags |= MTPC_N_IN_USED_LIST;
    return;
  }
  mtpc_graph_add_counted_edge(b->g, w->from, target, kind, kind == MTPC_CALL ? w->count : 0);
  b->g->nodes[w->from].flags |= MTPC_N_REFS_GLOBALS;
  if (w->bond)
    mtpc_graph_add_bond(b->g, w->from, target);
}

/* Records every global value reachable from `root` through constants. */
static void walk_operand(builder *b, const walk_ctx *w, LLVMValueRef root) {
  b->stack_count = 0;
  if (MTPC_PUSH(b->stack, b->stack_count, b->stack_cap, root))
    b->g->out_of_memory = 1;
  while (b->stack_count > 0 && !b->g->out_of_memory) {
    LLVMValueRef v = b->stack[--b->stack_count];
    if (!v)
      continue;
    uint32_t node;
    if (mtpc_ptrmap_get(&b->value_to_node, v, &node)) {
      visit_global(b, w, node, v == root && v == w->callee ? MTPC_CALL : MTPC_REF);
      continue;
    }
    if (LLVMIsAInlineAsm(v)) {
      size_t len = 0;
      const char *text = LLVMGetInlineAsmAsmString(v, &len);
      for_each_named_symbol(b, text, len, asm_names_in_function, (void *)w);
      continue;
    }
    if (!LLVMIsAConstant(v) || LLVMIsAGlobalValue(v))
      continue;
    if (LLVMIsABlockAddress(v)) {
      LLVMValueRef fn = LLVMGetBlockAddressFunction(v);
      uint32_t target;
      if (mtpc_ptrmap_get(&b->value_to_node, fn, &target)) {
        b->g->nodes[target].flags |= MTPC_N_BLOCKADDRESS_TAKEN;
        b->g->nodes[w->from].flags |= MTPC_N_USES_BLOCKADDRESS;
        mtpc_graph_add_bond(b->g, w->from, target);
        visit_global(b, w, target, MTPC_REF);
      }
      continue;
    }
    int operands = LLVMGetNumOperands(v);
    if (operands <= 0)
      continue;
    uint32_t seen;
    if (mtpc_ptrmap_get(&b->seen_constants, v, &seen) && seen == b->generation)
      continue;
    if (mtpc_ptrmap_put(&b->seen_constants, v, b->generation))
      b->g->out_of_memory = 1;
    for (int i = 0; i < operands && !b->g->out_of_memory; i++)
      if (MTPC_PUSH(b->stack, b->stack_count, b->stack_cap, LLVMGetOperand(v, (unsigned)i)))
        b->g->out_of_memory = 1;
  }
}

static void walk_user_operands(builder *b, const walk_ctx *w, LLVMValueRef user) {
  int operands = LLVMGetNumOperands(user);
  for (int i = 0; i < operands; i++)
    walk_operand(b, w, LLVMGetOperand(user, (unsigned)i));
}

static LLVMValueRef direct_callee(LLVMValueRef inst) {
  if (!LLVMIsACallInst(inst) && !LLVMIsAInvokeInst(inst) && !LLVMIsACallBrInst(inst))
    return NULL;
  return LLVMGetCalledValue(inst);
}

/* A branch funnel (whole-program devirtualization's, with type tests
 * lowered for the whole program) compares its callee's vtable pointer with
 * addresses inside one combined global; code generation must see that its
 * operands are that global's aliases, so they stay in its partition. */
static int is_branch_funnel(LLVMValueRef callee) {
  static const char funnel[] = "llvm.icall.branch.funnel";
  size_t length = 0;
  const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &length) : NULL;
  return name && length == sizeof(funnel) - 1 && memcmp(name, funnel, length) == 0;
}

/* The funnel's arguments: the vtable pointer, then pairs of an address in
 * the combined global and the function to call for it. The addresses are
 * bonded; the functions may be anywhere. */
static void walk_branch_funnel(builder *b, walk_ctx *w, LLVMValueRef call) {
  int arguments = LLVMGetNumArgOperands(call);
  for (int i = 0; i < arguments; i++) {
    w->bond = i % 2 == 1;
    walk_operand(b, w, LLVMGetOperand(call, (unsigned)i));
  }
  w->bond = 0;
  walk_operand(b, w, LLVMGetCalledValue(call));
}

static void walk_function(builder *b, uint32_t id, LLVMValueRef fn) {
  walk_ctx w = {id, 0, NULL, 0, 0};
  uint64_t instructions = 0;
  mtpc_profile_add_function(&b->profile, b->g, id, fn);
  const uint64_t *block_counts = mtpc_profile_function_counts(&b->profile, b->g, id, fn);
  /* Personality, prefix and prologue data are the function's own operands. */
  walk_user_operands(b, &w, fn);
  size_t block = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    w.count = block_counts ? block_counts[block++] : 0;
    for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
         inst = LLVMGetNextInstruction(inst)) {
      instructions++;
      w.callee = direct_callee(inst);
      uint64_t block_count = w.count;
      if (block_counts && w.callee)
        w.count = mtpc_profile_call_count(&b->profile, inst, block_count);
      if (is_branch_funnel(w.callee))
        walk_branch_funnel(b, &w, inst);
      else
        walk_user_operands(b, &w, inst);
      if (block_counts && w.callee && !LLVMIsAFunction(w.callee))
        mtpc_profile_add_call_targets(&b->profile, b->g, id, inst);
      w.count = block_count;
    }
  }
  uint64_t records = b->debug_records ? b->debug_records[id] : mtpc_debug_record_count(fn);
  b->g->nodes[id].cost = mtpc_function_cost(instructions, records);
  b->g->nodes[id].size = instructions + 1;
}

static void associated_bond(builder *b, uint32_t id, LLVMValueRef gv, unsigned associated_kind) {
  size_t count = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(gv, &count);
  LLVMContextRef ctx = LLVMGetModuleContext(b->module);
  for (size_t i = 0; i < count; i++) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != associated_kind)
      continue;
    LLVMValueRef md = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
    unsigned operands = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef ops[4] = {0};
    if (operands == 0 || operands > 4)
      continue;
    LLVMGetMDNodeOperands(md, ops);
    uint32_t target;
    if (ops[0] && mtpc_ptrmap_get(&b->value_to_node, ops[0], &target))
      mtpc_graph_add_bond(b->g, id, target);
  }
  if (entries)
    LLVMDisposeValueMetadataEntries(entries);
}

static void pin_module_asm_name(builder *b, uint32_t node, void *ctx) {
  (void)ctx;
  mtpc_node *n = &b->g->nodes[node];
  if (mtpc_node_ownable(n))
    n->flags |= MTPC_N_PINNED_PRIMARY;
  if ((n->flags & MTPC_N_LOCAL) || (n->flags & MTPC_N_DECLARATION_ONLY))
    b->asm_sensitive[node] = 1;
}

/* Module asm is emitted once, in partition 0, and may name any symbol: what it
 * names is pinned there, and so is every user of a local or declared symbol it
 * names (the asm may define that symbol locally). */
static void pin_module_asm(builder *b) {
  size_t len = 0;
  const char *text = LLVMGetModuleInlineAsm(b->module, &len);
  if (!text || len == 0)
    return;
  for_each_named_symbol(b, text, len, pin_module_asm_name, NULL);
  mtpc_graph *g = b->g;
  for (uint32_t u = 0; u < g->node_count; u++)
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++)
      if (b->asm_sensitive[g->edge_targets[e]] && mtpc_node_ownable(&g->nodes[u]))
        g->nodes[u].flags |= MTPC_N_PINNED_PRIMARY;
}

/* Asm text names a local by its original name, so that local can never be
 * renamed: everything that references it shares its partition. */
static void bond_asm_named_locals(builder *b) {
  mtpc_graph *g = b->g;
  for (uint32_t u = 0; u < g->node_count; u++)
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++)
      if (b->named_by_asm[g->edge_targets[e]]) {
        g->nodes[u].flags |= MTPC_N_ASM_NAMES_SYMBOL; /* a copy would need the local renamed */
        mtpc_graph_add_bond(g, u, g->edge_targets[e]);
      }
}

static void bond_aliases_and_ifuncs(mtpc_graph *g) {
  for (uint32_t u = 0; u < g->node_count; u++) {
    if (g->nodes[u].kind != MTPC_ALIAS && g->nodes[u].kind != MTPC_IFUNC)
      continue;
    for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++)
      mtpc_graph_add_bond(g, u, g->edge_targets[e]);
  }
}

static void bond_comdats(mtpc_graph *g) {
  uint32_t comdats = 0;
  for (uint32_t i = 0; i < g->node_count; i++)
    if (g->nodes[i].comdat != MTPC_NONE && g->nodes[i].comdat + 1 > comdats)
      comdats = g->nodes[i].comdat + 1;
  uint32_t *first = mtpc_alloc(comdats, sizeof(uint32_t));
  if (!first) {
    g->out_of_memory = 1;
    return;
  }
  for (uint32_t c = 0; c < comdats; c++)
    first[c] = MTPC_NONE;
  for (uint32_t i = 0; i < g->node_count; i++) {
    uint32_t c = g->nodes[i].comdat;
    if (c == MTPC_NONE)
      continue;
    if (first[c] == MTPC_NONE)
      first[c] = i;
    else
      mtpc_graph_add_bond(g, first[c], i);
  }
  free(first);
}

typedef struct type_site {
  mtpc_graph *g;
  uint32_t node;
} type_site;

static void add_debug_type(void *arg, const char *key) {
  type_site *site = arg;
  mtpc_graph_add_debug_type(site->g, key, site->node);
}

/* Only definitions some partition will own may be a type's first describer. */
static void walk_debug_types(builder *b, LLVMValueRef v) {
  uint32_t id = MTPC_NONE;
  mtpc_ptrmap_get(&b->value_to_node, v, &id);
  if (!b->types || id == MTPC_NONE || !mtpc_node_ownable(&b->g->nodes[id]))
    return;
  type_site site = {b->g, id};
  mtpc_walk_debug_types(b->types, v, add_debug_type, &site);
}

/* What a declaration of defined function `id` needs to describe it. */
static void record_debug_decl(builder *b, uint32_t id, LLVMValueRef f) {
  const char *name, *linkage;
  size_t name_len, linkage_len;
  unsigned flags;
  LLVMMetadataRef sp = LLVMGetSubprogram(f);
  if (!sp || !mtpc_subprogram_names(f, &name, &name_len, &linkage, &linkage_len, &flags))
    return;
  LLVMMetadataRef file = LLVMDIScopeGetFile(sp);
  unsigned file_len = 0, dir_len = 0;
  const char *file_name = file ? LLVMDIFileGetFilename(file, &file_len) : "";
  const char *dir = file ? LLVMDIFileGetDirectory(file, &dir_len) : "";
  b->g->nodes[id].debug_decl =
      mtpc_debug_decl_new(name, name_len, linkage, linkage_len, file_name, file_len, dir, dir_len,
                          flags);
  if (!b->g->nodes[id].debug_decl)
    b->g->out_of_memory = 1;
}

/* A variable's initializer and associated bond, an alias's aliasee, an
 * ifunc's resolver: an alias lives with its aliasee, an ifunc with its
 * resolver. */
void mtpc_walker_walk_others(builder *b) {
  unsigned associated_kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(b->module),
                                                      "associated", 10);
  for (uint32_t id = b->function_count; id < b->g->node_count && !b->g->out_of_memory; id++) {
    LLVMValueRef v = b->values[id];
    mtpc_node_kind kind = b->g->nodes[id].kind;
    b->generation = id + 1;
    walk_ctx w = {id, (b->g->nodes[id].flags & MTPC_N_USED_LIST) != 0, NULL, 0, 0};
    if (kind == MTPC_VARIABLE) {
      LLVMValueRef init = LLVMIsDeclaration(v) ? NULL : LLVMGetInitializer(v);
      if (init)
        walk_operand(b, &w, init);
      b->g->nodes[id].cost = mtpc_variable_cost(v);
      associated_bond(b, id, v, associated_kind);
    } else {
      walk_operand(b, &w, kind == MTPC_ALIAS ? LLVMAliasGetAliasee(v)
                                             : LLVMGetGlobalIFuncResolver(v));
    }
  }
  for (uint32_t id = b->function_count; id < b->g->node_count; id++)
    if (b->g->nodes[id].kind == MTPC_VARIABLE)
      walk_debug_types(b, b->values[id]);
}

void mtpc_walker_walk_functions(builder *b, uint32_t first, uint32_t end) {
  for (uint32_t id = first; id < end && !b->g->out_of_memory; id++) {
    b->generation = id + 1;
    walk_function(b, id, b->values[id]);
  }
  for (uint32_t id = first; id < end && b->types && !b->g->out_of_memory; id++) {
    walk_debug_types(b, b->values[id]);
    if (mtpc_node_ownable(&b->g->nodes[id]))
      record_debug_decl(b, id, b->values[id]);
  }
}

int mtpc_walker_init(builder *b, mtpc_graph *g, LLVMModuleRef module) {
  memset(b, 0, sizeof(*b));
  b->g = g;
  b->module = module;
  if (mtpc_ptrmap_init(&b->value_to_node, 1024) || mtpc_strmap_init(&b->name_to_node, 1024) ||
      mtpc_ptrmap_init(&b->comdat_ids, 64) || mtpc_ptrmap_init(&b->seen_constants, 4096) ||
      mtpc_profile_index_init(&b->profile, g, module))
    return -1;
  add_nodes(b);
  if (g->out_of_memory)
    return -1;
  b->asm_sensitive = mtpc_zalloc(g->node_count, 1);
  b->named_by_asm = mtpc_zalloc(g->node_count, 1);
  if (!b->asm_sensitive || !b->named_by_asm)
    return -1;
  if (LLVMGetNamedMetadataNumOperands(module, "llvm.dbg.cu") > 0 &&
      !(b->types = mtpc_type_walk_create()))
    return -1;
  return 0;
}

void mtpc_walker_apply_module_rules(builder *b, mtpc_graph *g) {
  b->g = g;
  bond_asm_named_locals(b);
  bond_aliases_and_ifuncs(g);
  bond_comdats(g);
  pin_module_asm(b);
}

int mtpc_walker_use_debug_records(builder *b, const uint32_t *records, uint32_t bodies) {
  uint32_t definitions = 0;
  for (uint32_t id = 0; id < b->function_count; id++) {
    /* Bitcode of the intrinsics' days: LLVM turns their calls into records
     * as it reads them, so the IR counts them. */
    if (strncmp(b->g->nodes[id].name, "llvm.dbg.", 9) == 0)
      return 0;
    definitions += (b->g->nodes[id].flags & MTPC_N_DEFINITION) != 0;
  }
  if (definitions != bodies)
    return 0;
  b->debug_records = mtpc_zalloc(b->function_count ? b->function_count : 1, sizeof(uint32_t));
  if (!b->debug_records)
    return -1;
  uint32_t body = 0;
  for (uint32_t id = 0; id < b->function_count; id++)
    if (b->g->nodes[id].flags & MTPC_N_DEFINITION)
      b->debug_records[id] = records[body++];
  return 0;
}

void mtpc_walker_free(builder *b) {
  free(b->debug_records);
  free(b->values);
  free(b->asm_sensitive);
  free(b->named_by_asm);
  free(b->stack);
  mtpc_ptrmap_free(&b->value_to_node);
  mtpc_strmap_free(&b->name_to_node);
  mtpc_ptrmap_free(&b->comdat_ids);
  mtpc_ptrmap_free(&b->seen_constants);
  mtpc_profile_index_free(&b->profile);
  if (b->types)
    mtpc_type_walk_free(b->types);
  memset(b, 0, sizeof(*b));
}
