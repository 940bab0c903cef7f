#include "graph_profile.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "profile.h"

enum { VALUE_KIND_INDIRECT_CALL_TARGET = 0 }; /* IPVK_IndirectCallTarget */

int mtpc_profile_index_init(mtpc_profile_index *p, mtpc_graph *g, LLVMModuleRef module) {
  memset(p, 0, sizeof(*p));
  p->g = g;
  p->context = LLVMGetModuleContext(module);
  p->prof_kind = LLVMGetMDKindIDInContext(p->context, "prof", 4);
  p->pgo_name_kind = LLVMGetMDKindIDInContext(p->context, "PGOFuncName", 11);
  g->hot_count = mtpc_profile_hot_count(module);
  return 0;
}

void mtpc_profile_index_free(mtpc_profile_index *p) { free(p->block_counts); }

/* Operand `index` of a metadata node, or NULL (also when memory runs out,
 * which the graph records). */
static LLVMValueRef metadata_operand(const mtpc_profile_index *p, LLVMValueRef node,
                                     unsigned index) {
  unsigned count = LLVMGetMDNodeNumOperands(node);
  if (index >= count)
    return NULL;
  LLVMValueRef *ops = mtpc_alloc(count, sizeof(LLVMValueRef));
  if (!ops) {
    p->g->out_of_memory = 1;
    return NULL;
  }
  LLVMGetMDNodeOperands(node, ops);
  LLVMValueRef op = ops[index];
  free(ops);
  return op;
}

/* The string of a function's "PGOFuncName" metadata, or NULL. */
static const char *pgo_name_metadata(const mtpc_profile_index *p, LLVMValueRef function,
                                     size_t *len) {
  size_t count = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(function, &count);
  const char *name = NULL;
  for (size_t i = 0; i < count && !name; i++) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != p->pgo_name_kind)
      continue;
    LLVMValueRef node = LLVMMetadataAsValue(
        p->context, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
    LLVMValueRef op = metadata_operand(p, node, 0);
    unsigned length = 0;
    name = op ? LLVMGetMDString(op, &length) : NULL;
    *len = length;
  }
  if (entries)
    LLVMDisposeValueMetadataEntries(entries);
  return name;
}

/* Non-zero when memory runs out. */
static int map_hash(mtpc_ptrmap *by_hash, const char *name, size_t len, uint32_t node) {
  uint64_t hash = mtpc_profile_name_hash(name, len);
  uint32_t existing;
  return hash && !mtpc_ptrmap_get(by_hash, (const void *)(uintptr_t)hash, &existing) &&
         mtpc_ptrmap_put(by_hash, (const void *)(uintptr_t)hash, node);
}

/* InstrProfSymtab's canonical name: up to the first '.' after any
 * ".__uniq." part, so "f.llvm.123" is found as "f". */
static size_t canonical_length(const char *name, size_t len) {
  static const char uniq[] = ".__uniq.";
  size_t from = 0;
  for (size_t i = 0; i + sizeof(uniq) - 1 <= len; i++)
    if (!memcmp(name + i, uniq, sizeof(uniq) - 1)) {
      from = i + sizeof(uniq) - 1;
      break;
    }
  for (size_t i = from; i < len; i++)
    if (name[i] == '.' && i > 0)
      return i;
  return len;
}

void mtpc_profile_add_function(mtpc_profile_index *p, mtpc_graph *g, uint32_t node,
                               LLVMValueRef function) {
  size_t len = 0;
  const char *name = pgo_name_metadata(p, function, &len);
  if (name)
    mtpc_graph_set_pgo_name(g, node, name, len);
}

/* The hashes a value profile may name a function by: of its PGO name, or
 * else its name, and of that name's canonical part. */
static int map_function(mtpc_ptrmap *by_hash, const mtpc_node *n, uint32_t node) {
  const char *name = n->pgo_name ? n->pgo_name : n->name;
  size_t len = n->pgo_name ? strlen(n->pgo_name) : n->name_len;
  if (!n->pgo_name && len && name[0] == '\1') {
    name++;
    len--;
  }
  if (!len)
    return 0;
  size_t canonical = canonical_length(name, len);
  return map_hash(by_hash, name, len, node) ||
         (canonical != len && map_hash(by_hash, name, canonical, node));
}

int mtpc_profile_resolve_targets(mtpc_graph *g) {
  if (g->profile_target_count == 0)
    return 0;
  mtpc_ptrmap by_hash;
  int failed = mtpc_ptrmap_init(&by_hash, 1024);
  for (uint32_t i = 0; i < g->node_count && !failed; i++)
    if (g->nodes[i].kind == MTPC_FUNCTION)
      failed = map_function(&by_hash, &g->nodes[i], i);
  for (size_t i = 0; i < g->profile_target_count && !failed; i++) {
    const mtpc_profile_target *t = &g->profile_targets[i];
    uint32_t target;
    if (mtpc_ptrmap_get(&by_hash, (const void *)(uintptr_t)t->hash, &target))
      mtpc_graph_add_counted_edge(g, t->from, target, MTPC_PROFILE_TARGET, t->count);
  }
  mtpc_ptrmap_free(&by_hash);
  return failed || g->out_of_memory;
}

const uint64_t *mtpc_profile_function_counts(mtpc_profile_index *p, mtpc_graph *g,
                                             uint32_t node, LLVMValueRef function) {
  if (!g->hot_count || LLVMIsDeclaration(function))
    return NULL;
  unsigned blocks = LLVMCountBasicBlocks(function);
  if (mtpc_grow((void **)&p->block_counts, &p->block_cap, blocks ? blocks : 1,
                sizeof(uint64_t))) {
    g->out_of_memory = 1;
    return NULL;
  }
  if (!mtpc_profile_block_counts(function, p->block_counts))
    return NULL;
  g->nodes[node].flags |= MTPC_N_PROFILED;
  return p->block_counts;
}

/* The operands of a call's !prof node whose first operand is `tag`
 * ("branch_weights", "VP"), malloc'ed; NULL when it has none. */
static LLVMValueRef *prof_operands(const mtpc_profile_index *p, LLVMValueRef call, const char *tag,
                                   unsigned *count) {
  LLVMValueRef prof = LLVMGetMetadata(call, p->prof_kind);
  *count = prof ? LLVMGetMDNodeNumOperands(prof) : 0;
  if (*count < 2)
    return NULL;
  LLVMValueRef *ops = mtpc_alloc(*count, sizeof(LLVMValueRef));
  if (!ops) {
    p->g->out_of_memory = 1;
    return NULL;
  }
  LLVMGetMDNodeOperands(prof, ops);
  unsigned len = 0;
  const char *text = LLVMGetMDString(ops[0], &len);
  if (text && len == strlen(tag) && !memcmp(text, tag, len))
    return ops;
  free(ops);
  return NULL;
}

uint64_t mtpc_profile_call_count(const mtpc_profile_index *p, LLVMValueRef call,
                                 uint64_t block_count) {
  unsigned count;
  LLVMValueRef *weights = prof_operands(p, call, "branch_weights", &count);
  if (!weights)
    return block_count;
  uint64_t total = 0;
  for (unsigned i = 1; i < count; i++)
    if (LLVMIsAConstantInt(weights[i]))
      total += LLVMConstIntGetZExtValue(weights[i]);
  free(weights);
  return total;
}

void mtpc_profile_add_call_targets(mtpc_profile_index *p, mtpc_graph *g, uint32_t from,
                                   LLVMValueRef call) {
  unsigned count;
  LLVMValueRef *ops = prof_operands(p, call, "VP", &count);
  if (!ops)
    return;
  int indirect_targets = count >= 5 && LLVMIsAConstantInt(ops[1]) &&
                         LLVMConstIntGetZExtValue(ops[1]) == VALUE_KIND_INDIRECT_CALL_TARGET;
  for (unsigned i = 3; indirect_targets && i + 1 < count; i += 2) {
    if (!LLVMIsAConstantInt(ops[i]) || !LLVMIsAConstantInt(ops[i + 1]))
      break;
    mtpc_graph_add_profile_target(g, from, LLVMConstIntGetZExtValue(ops[i]),
                                  LLVMConstIntGetZExtValue(ops[i + 1]));
  }
  free(ops);
}
