#include <inttypes.h>

#include "plan.h"

static const char *kind_word(mtpc_node_kind kind) {
  switch (kind) {
  case MTPC_FUNCTION:
    return "function";
  case MTPC_VARIABLE:
    return "variable";
  case MTPC_ALIAS:
    return "alias";
  case MTPC_IFUNC:
    return "ifunc";
  }
  return "?";
}

static double percent(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_node(const mtpc_plan *plan, uint32_t i, const char *role, FILE *out) {
  const mtpc_plan_node *n = &plan->nodes[i];
  fprintf(out, "  %-5s %-8s %s", role, kind_word(n->kind), n->name[0] ? n->name : "<unnamed>");
  if (n->kind == MTPC_FUNCTION)
    fprintf(out, " cost=%" PRIu64, n->cost);
  if (n->group != MTPC_NONE && role[0] == 'd')
    fprintf(out, " group=%u", n->group);
  if (n->exported && role[0] == 'd')
    fputs(" exported", out);
  if (n->promoted_name && role[0] == 'd')
    fprintf(out, " promoted=%s", n->promoted_name);
  fputc('\n', out);
}

void mtpc_plan_print(const mtpc_plan *plan, FILE *out) {
  fprintf(out, "module: %s\n", plan->module_id);
  fprintf(out, "partitions: %u\n", plan->partition_count);
  fprintf(out, "groups: %u\n", plan->group_count);
  fprintf(out, "total cost: %" PRIu64 "\n", plan->total_cost);
  if (plan->head_cost)
    fprintf(out, "head cost: %" PRIu64 " (what partition 0 alone reads: the module's metadata)\n",
            plan->head_cost);
  fprintf(out, "copy limit: %u, clone limit: %u\n", plan->copy_limit, plan->clone_limit);
  fprintf(out, "duplicated cost: %" PRIu64 " (%.1f%%)\n", plan->duplicated_cost,
          percent(plan->duplicated_cost, plan->total_cost));
  if (plan->unsplit_reason)
    fprintf(out, "unsplit: %s\n", plan->unsplit_reason);
  for (uint32_t q = 0; q < plan->partition_count; q++) {
    const mtpc_plan_partition *part = &plan->partitions[q];
    fprintf(out, "\npartition %u: cost=%" PRIu64 " (%.1f%%) imported=%" PRIu64
                 " functions=%u groups=%u\n",
            q, part->cost, percent(part->cost, plan->total_cost), part->imported_cost,
            part->functions, part->groups);
    for (uint32_t i = 0; i < plan->node_count; i++)
      if (plan->nodes[i].owner == q)
        print_node(plan, i, "def", out);
    for (uint32_t m = 0; m < part->clones.count; m++)
      print_node(plan, part->clones.nodes[m], "clone", out);
    for (uint32_t m = 0; m < part->copies.count; m++)
      print_node(plan, part->copies.nodes[m], "copy", out);
  }
  if (plan->debug_type_count)
    fprintf(out, "\ndebug types described once: %u\n", plan->debug_type_count);
  for (uint32_t i = 0; i < plan->debug_type_count; i++)
    fprintf(out, "  %s -> partition %u\n", plan->debug_types[i].key, plan->debug_types[i].home);
}
