#include "variable_debug.h"

#include <stdlib.h>

#include "bitstream.h"
#include "support/support.h"

/* A code LLVM gives no metadata record: its readers skip it. */
#define UNKNOWN_CODE 0u

uint32_t *mtpc_variable_debug_nodes(const mtpc_metadata_scan *scan, const mtpc_plan *plan,
                                    int *no_memory) {
  if (scan->attachment_count == 0)
    return NULL;
  /* The bitcode numbers variables first, then functions; the plan has the
   * functions first (graph.h). */
  uint32_t functions = 0, variables = 0;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    functions += plan->nodes[i].kind == MTPC_FUNCTION;
    variables += plan->nodes[i].kind == MTPC_VARIABLE;
  }
  uint32_t *nodes = mtpc_alloc(scan->attachment_count, sizeof(uint32_t));
  if (!nodes) {
    *no_memory = 1;
    return NULL;
  }
  for (size_t a = 0; a < scan->attachment_count; a++) {
    uint32_t value = scan->attachments[a].value;
    nodes[a] = value < variables ? functions + value : MTPC_NONE;
    if (nodes[a] != MTPC_NONE && plan->nodes[nodes[a]].kind != MTPC_VARIABLE) {
      free(nodes);
      return NULL;
    }
  }
  return nodes;
}

static int kept(const mtpc_plan *plan, uint32_t q, uint32_t node) {
  return node == MTPC_NONE || plan->nodes[node].owner == q || mtpc_plan_has_clone(plan, q, node);
}

static int has_id(const uint32_t *ids, size_t count, uint32_t id) {
  return bsearch(&id, ids, count, sizeof(uint32_t), mtpc_compare_u32) != NULL;
}

/* The kept attachments first, then the others, unknown. */
static void reorder_attachments(const mtpc_metadata_scan *scan, const uint32_t *nodes,
                                const mtpc_plan *plan, uint32_t q, const uint8_t *original,
                                uint8_t *copy) {
  uint64_t at = scan->attachments[0].start;
  for (int pass = 0; pass < 2; pass++) {
    for (size_t a = 0; a < scan->attachment_count; a++) {
      const mtpc_md_attachment *r = &scan->attachments[a];
      if (kept(plan, q, nodes[a]) != (pass == 0))
        continue;
      mtpc_bs_copy_bits(copy, at, original, r->start, r->end - r->start);
      if (pass == 1)
        mtpc_bs_write_vbr(copy, at + (r->code_bit - r->start), r->code_width, 6, UNKNOWN_CODE);
      at += r->end - r->start;
    }
  }
}

int mtpc_variable_debug_patch(const mtpc_metadata_scan *scan, const uint32_t *nodes,
                              const mtpc_plan *plan, uint32_t q, const uint8_t *original,
                              uint8_t *copy) {
  uint32_t *named = mtpc_alloc(scan->attached_count ? scan->attached_count : 1, sizeof(uint32_t));
  if (!named)
    return 1;
  size_t named_count = 0;
  for (size_t a = 0; a < scan->attachment_count; a++) {
    const mtpc_md_attachment *r = &scan->attachments[a];
    if (nodes[a] != MTPC_NONE && kept(plan, q, nodes[a]))
      for (uint32_t k = 0; k < r->count; k++)
        named[named_count++] = scan->attached[r->first + k];
  }
  qsort(named, named_count, sizeof(uint32_t), mtpc_compare_u32);
  reorder_attachments(scan, nodes, plan, q, original, copy);
  for (size_t i = 0; i < scan->unit_global_count; i++) {
    const mtpc_md_operand *op = &scan->unit_globals[i];
    if (op->value != 0 && !has_id(named, named_count, (uint32_t)(op->value - 1)))
      mtpc_clear_field(copy, op->field);
  }
  free(named);
  return 0;
}
