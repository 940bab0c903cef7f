#define _GNU_SOURCE
#include "partition_bitcode.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "attribute_lists.h"
#include "function_types.h"
#include "global_names.h"
#include "variable_debug.h"
#include "support/support.h"

struct mtpc_partition_bitcode {
  const void *bitcode;
  size_t size;
  int scanned; /* the scan read it: partitions may read metadata on demand */
  mtpc_metadata_scan scan;
  /* Later partitions' bitcode (compile units' lists cut), or NULL: `bitcode`.
   * A shared read-only mapping of `fd` when some partition patches its own
   * copy-on-write mapping of it; else malloc'ed. */
  uint8_t *later;
  int fd;
  uint32_t partitions;
  uint32_t *homed_start; /* partition q's homed types: homed[homed_start[q] .. [q + 1]) */
  const mtpc_odr_record **homed;
  /* The plan, and each attachment's variable node (variable_debug.h), or
   * NULL: the later partitions read every variable's debug info. */
  const mtpc_plan *plan;
  uint32_t *variable_nodes;
  /* The globals' name fields, read when the plan has partitions after the
   * first; cut_names: they match the plan's nodes, and each later partition
   * cuts the names it has no use for. */
  mtpc_global_names names;
  int cut_names;
  /* The attribute lists and who names them, and the graph that says what a
   * partition's code names; cut_lists: they match the plan's nodes. */
  mtpc_attribute_lists lists;
  const mtpc_graph_edges *graph;
  int cut_lists;
  /* The function records' types; cut_types: they match the plan's nodes,
   * and a later partition makes the functions it erases take the fewest
   * parameters, but those a variable or alias names (erase_absent erases
   * functions first, and would find them used). */
  mtpc_function_types types;
  uint8_t *named_by_data;
  int cut_types;
  double scan_seconds, plan_seconds;
};

/* The partition that defines function node i first (it keeps the function's
 * debug info), else the first that copies it; MTPC_NONE when none has it. */
static uint32_t function_home(const mtpc_plan *plan, uint32_t node) {
  uint32_t definer = mtpc_plan_first_definer(plan, node);
  if (definer != MTPC_NONE)
    return definer;
  for (uint32_t q = 0; q < plan->partition_count; q++)
    if (mtpc_plan_has_copy(plan, q, node))
      return q;
  return MTPC_NONE;
}

/* Function body k (in module order) -> its plan node; NULL when the plan
 * does not have as many function definitions as the bitcode has bodies. */
static uint32_t *body_nodes(const mtpc_plan *plan, uint32_t bodies, int *no_memory) {
  uint32_t *nodes = mtpc_alloc(bodies ? bodies : 1, sizeof(uint32_t));
  if (!nodes) {
    *no_memory = 1;
    return NULL;
  }
  uint32_t k = 0;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    if (n->kind != MTPC_FUNCTION || !(n->flags & MTPC_N_DEFINITION))
      continue;
    if (k == bodies)
      break;
    nodes[k++] = i;
  }
  if (k == bodies)
    return nodes;
  free(nodes);
  return NULL;
}

/* Partition homes of the scanned ODR types; non-zero when memory ran out.
 * Bodies that do not match the plan's functions make the scan useless. */
static int assign_homes(mtpc_partition_bitcode *pb, const mtpc_plan *plan) {
  size_t count = pb->scan.odr_count;
  uint32_t *home = mtpc_alloc(count ? count : 1, sizeof(uint32_t));
  pb->homed_start = mtpc_zalloc(plan->partition_count + 1, sizeof(uint32_t));
  pb->homed = mtpc_alloc(count ? count : 1, sizeof(*pb->homed));
  int no_memory = !home || !pb->homed_start || !pb->homed;
  uint32_t *nodes = no_memory ? NULL : body_nodes(plan, pb->scan.function_bodies, &no_memory);
  if (!nodes && !no_memory)
    pb->scanned = 0;
  for (size_t i = 0; nodes && i < count; i++) {
    uint32_t f = pb->scan.odr[i].function;
    home[i] = f == UINT32_MAX ? 0 : function_home(plan, nodes[f]);
    if (home[i] != MTPC_NONE)
      pb->homed_start[home[i] + 1]++;
  }
  for (uint32_t q = 0; nodes && q < plan->partition_count; q++)
    pb->homed_start[q + 1] += pb->homed_start[q];
  uint32_t *filled = nodes ? mtpc_zalloc(plan->partition_count, sizeof(uint32_t)) : NULL;
  no_memory |= nodes && !filled;
  for (size_t i = 0; filled && i < count; i++)
    if (home[i] != MTPC_NONE)
      pb->homed[pb->homed_start[home[i]] + filled[home[i]]++] = &pb->scan.odr[i];
  free(filled);
  free(nodes);
  free(home);
  return no_memory;
}

static int homed_after_first(const mtpc_partition_bitcode *pb) {
  return pb->homed_start && pb->homed_start[pb->partitions] > pb->homed_start[1];
}

static void cut_unit_lists(const mtpc_partition_bitcode *pb, uint8_t *later) {
  for (size_t i = 0; i < pb->scan.unit_list_count; i++)
    mtpc_clear_field(later, pb->scan.unit_lists[i]);
}

/* The later partitions' bitcode in a memory file, mapped shared, so that a
 * partition that patches it maps a copy-on-write view of its own, and only
 * the pages it patches are copied. Non-zero when there is no memory file to
 * be had (then a malloc'ed copy will do). */
static int share_later(mtpc_partition_bitcode *pb) {
  int fd = memfd_create("mtpc-bitcode", MFD_CLOEXEC);
  if (fd < 0)
    return 1;
  const uint8_t *data = pb->bitcode;
  size_t written = 0;
  while (written < pb->size) {
    ssize_t n = write(fd, data + written, pb->size - written);
    if (n <= 0 && errno != EINTR) {
      close(fd);
      return 1;
    }
    written += n > 0 ? (size_t)n : 0;
  }
  uint8_t *later = mmap(NULL, pb->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (later == MAP_FAILED) {
    close(fd);
    return 1;
  }
  cut_unit_lists(pb, later);
  mprotect(later, pb->size, PROT_READ);
  pb->later = later;
  pb->fd = fd;
  return 0;
}

static uint32_t definitions(const mtpc_plan *plan, uint32_t functions) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < functions; i++)
    count += (plan->nodes[i].flags & MTPC_N_DEFINITION) != 0;
  return count;
}

/* Finds the attribute lists, and whether their users match the plan's
 * nodes. Non-zero when memory ran out. */
static int scan_lists(mtpc_partition_bitcode *pb, const mtpc_plan *plan) {
  mtpc_attribute_lists *lists = &pb->lists;
  mtpc_lists_status status = mtpc_scan_attribute_lists(pb->bitcode, pb->size, lists);
  pb->cut_lists = status == MTPC_LISTS_OK && pb->graph->node_count == plan->node_count &&
                  lists->function_count == pb->names.function_count &&
                  lists->variable_count == pb->names.variable_count &&
                  lists->body_count == definitions(plan, lists->function_count);
  return status == MTPC_LISTS_NO_MEMORY;
}

/* Finds the function records' types, and the functions that a variable
 * or an alias names. Non-zero when memory ran out. */
static int scan_types(mtpc_partition_bitcode *pb, const mtpc_plan *plan) {
  mtpc_types_status status = mtpc_scan_function_types(pb->bitcode, pb->size, &pb->types);
  if (status != MTPC_TYPES_OK)
    return status == MTPC_TYPES_NO_MEMORY;
  if (pb->types.function_count != pb->lists.function_count)
    return 0;
  const mtpc_graph_edges *g = pb->graph;
  pb->named_by_data = mtpc_zalloc(plan->node_count ? plan->node_count : 1, 1);
  if (!pb->named_by_data)
    return 1;
  for (uint32_t i = 0; i < plan->node_count; i++)
    for (uint32_t e = g->offsets[i]; plan->nodes[i].kind != MTPC_FUNCTION && e < g->offsets[i + 1];
         e++)
      pb->named_by_data[g->targets[e]] = 1;
  pb->cut_types = 1;
  return 0;
}

static int make_later(mtpc_partition_bitcode *pb) {
  if (pb->scan.unit_list_count == 0 && !homed_after_first(pb) && !pb->variable_nodes &&
      !pb->cut_names)
    return 0;
  if (share_later(pb) == 0)
    return 0;
  pb->later = malloc(pb->size);
  if (!pb->later)
    return 1;
  memcpy(pb->later, pb->bitcode, pb->size);
  cut_unit_lists(pb, pb->later);
  return 0;
}

int mtpc_partition_bitcode_create(const void *bitcode, size_t size, mtpc_partition_bitcode **out) {
  double start = mtpc_now_seconds();
  mtpc_partition_bitcode *pb = mtpc_zalloc(1, sizeof(*pb));
  *out = pb;
  if (!pb)
    return 1;
  pb->bitcode = bitcode;
  pb->size = size;
  pb->fd = -1;
  mtpc_scan_status status = mtpc_scan_metadata(bitcode, size, &pb->scan);
  pb->scanned = status == MTPC_SCAN_OK;
  pb->scan_seconds = mtpc_now_seconds() - start;
  if (status != MTPC_SCAN_NO_MEMORY)
    return 0;
  free(pb);
  *out = NULL;
  return 1;
}

void mtpc_partition_bitcode_head(const mtpc_partition_bitcode *pb, uint64_t *module_odr_types,
                                 int *odr_types) {
  *module_odr_types = 0;
  for (size_t i = 0; pb->scanned && i < pb->scan.odr_count; i++)
    *module_odr_types += pb->scan.odr[i].function == UINT32_MAX;
  *odr_types = pb->scanned && pb->scan.odr_count > 0;
}

/* The plan's nodes start with the module's functions, then its variables,
 * each in module order: one name field each. */
static int names_match_plan(const mtpc_global_names *names, const mtpc_plan *plan) {
  uint32_t functions = names->function_count, variables = names->variable_count;
  if (plan->node_count < functions + variables)
    return 0;
  for (uint32_t i = 0; i < functions + variables; i++)
    if (plan->nodes[i].kind != (i < functions ? MTPC_FUNCTION : MTPC_VARIABLE))
      return 0;
  return plan->node_count == functions + variables ||
         plan->nodes[functions + variables].kind != MTPC_VARIABLE;
}

/* Finds the name fields and whether they can be cut. Non-zero when memory
 * ran out. */
static int scan_names(mtpc_partition_bitcode *pb, const mtpc_plan *plan) {
  mtpc_names_status status = mtpc_scan_global_names(pb->bitcode, pb->size, &pb->names);
  pb->cut_names = status == MTPC_NAMES_OK && names_match_plan(&pb->names, plan);
  return status == MTPC_NAMES_NO_MEMORY;
}

int mtpc_partition_bitcode_plan(mtpc_partition_bitcode *pb, const mtpc_plan *plan,
                                const mtpc_graph_edges *graph) {
  double start = mtpc_now_seconds();
  pb->partitions = plan->partition_count;
  pb->plan = plan;
  pb->graph = graph;
  int failed = pb->scanned ? assign_homes(pb, plan) : 0;
  if (pb->scanned && !failed && plan->partition_count > 1)
    pb->variable_nodes = mtpc_variable_debug_nodes(&pb->scan, plan, &failed);
  if (pb->scanned && !failed && plan->partition_count > 1)
    failed = scan_names(pb, plan);
  if (pb->scanned && !failed && pb->cut_names && graph)
    failed = scan_lists(pb, plan);
  if (pb->scanned && !failed && pb->cut_lists)
    failed = scan_types(pb, plan);
  if (pb->scanned && !failed)
    failed = make_later(pb);
  pb->plan_seconds = mtpc_now_seconds() - start;
  return failed;
}

void mtpc_partition_bitcode_free(mtpc_partition_bitcode *pb) {
  if (!pb)
    return;
  if (pb->fd >= 0) {
    munmap(pb->later, pb->size);
    close(pb->fd);
  } else {
    free(pb->later);
  }
  mtpc_metadata_scan_free(&pb->scan);
  mtpc_global_names_free(&pb->names);
  mtpc_attribute_lists_free(&pb->lists);
  mtpc_function_types_free(&pb->types);
  free(pb->named_by_data);
  free(pb->variable_nodes);
  free(pb->homed_start);
  free(pb->homed);
  free(pb);
}

double mtpc_partition_bitcode_seconds(const mtpc_partition_bitcode *pb, int scan) {
  return !pb ? 0 : scan ? pb->scan_seconds : pb->plan_seconds;
}

/* The functions and variables partition q has no use for: it erases them. */
static uint8_t *unneeded_globals(const mtpc_partition_bitcode *pb, uint32_t q) {
  uint32_t globals = pb->names.function_count + pb->names.variable_count;
  uint8_t *unneeded = mtpc_alloc(globals ? globals : 1, 1);
  for (uint32_t i = 0; unneeded && i < globals; i++)
    unneeded[i] = (uint8_t)mtpc_plan_name_unneeded(pb->plan, q, i);
  return unneeded;
}

/* The names of the functions and variables partition q has no use for. */
static void cut_names(const mtpc_partition_bitcode *pb, const uint8_t *unneeded, uint8_t *copy) {
  uint32_t functions = pb->names.function_count;
  for (uint32_t i = 0; i < functions + pb->names.variable_count; i++)
    if (unneeded[i])
      mtpc_cut_name(copy, i < functions ? pb->names.functions[i]
                                        : pb->names.variables[i - functions]);
}

/* What partition q parses (per node: what it keeps, and a body the reader
 * parses for its blockaddress, mtpc_make_partition), and what that names. */
static void parsed_and_named(const mtpc_partition_bitcode *pb, uint32_t q, uint8_t *parsed,
                             uint8_t *named) {
  const mtpc_plan *plan = pb->plan;
  const mtpc_graph_edges *g = pb->graph;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    uint32_t flags = plan->nodes[i].flags;
    parsed[i] = mtpc_plan_holds(plan, q, i) ||
                (plan->nodes[i].kind == MTPC_FUNCTION && (flags & MTPC_N_DEFINITION) &&
                 (flags & MTPC_N_BLOCKADDRESS_TAKEN));
    for (uint32_t e = g->offsets[i]; parsed[i] && e < g->offsets[i + 1]; e++)
      named[g->targets[e]] = 1;
  }
}

/* Sets keep[l] for each list partition q reads: those of the functions it
 * keeps or its code names (the others are the ones it erases), of every
 * variable, and of the calls of the bodies it parses. Non-zero when a body
 * cannot be read or memory ran out (then it keeps every list). */
static int lists_to_keep(const mtpc_partition_bitcode *pb, const uint8_t *unneeded,
                         const uint8_t *parsed, const uint8_t *named, uint8_t *keep) {
  const mtpc_attribute_lists *lists = &pb->lists;
  uint8_t *parsed_body = mtpc_zalloc(lists->body_count ? lists->body_count : 1, 1);
  if (!parsed_body)
    return 1;
  for (uint32_t i = 0, k = 0; i < lists->function_count; i++) {
    if (pb->plan->nodes[i].flags & MTPC_N_DEFINITION)
      parsed_body[k++] = parsed[i];
    if (named[i] || !unneeded[i])
      keep[lists->function_lists[i]] = 1;
  }
  for (uint32_t v = 0; v < lists->variable_count; v++)
    keep[lists->variable_lists[v]] = 1;
  int failed = mtpc_attribute_lists_mark_calls(pb->bitcode, pb->size, lists, parsed_body, keep);
  free(parsed_body);
  return failed;
}

/* Makes the functions partition q erases, whose bodies it does not parse
 * (a body's arguments are its type's) and that neither its code nor a
 * variable or alias names, take the fewest parameters; notes them in cut. */
static void cut_types(const mtpc_partition_bitcode *pb, const uint8_t *unneeded,
                      const uint8_t *parsed, const uint8_t *named, uint8_t *copy,
                      uint8_t *cut) {
  for (uint32_t i = 0; i < pb->types.function_count; i++)
    if (unneeded[i] && !parsed[i] && !named[i] && !pb->named_by_data[i] &&
        mtpc_cut_function_type(copy, &pb->types, i) == 0)
      cut[i] = 1;
}

/* Empties the attribute lists partition q has no use for and cuts the
 * types of the functions it erases, noting the functions whose records
 * changed. Non-zero when memory ran out. */
static int cut_records(const mtpc_partition_bitcode *pb, uint32_t q, const uint8_t *unneeded,
                       mtpc_bitcode_view *view, uint8_t *copy) {
  const mtpc_attribute_lists *lists = &pb->lists;
  uint32_t nodes = pb->plan->node_count;
  uint8_t *parsed = mtpc_zalloc(nodes ? nodes : 1, 1);
  uint8_t *named = mtpc_zalloc(nodes ? nodes : 1, 1);
  uint8_t *keep = mtpc_zalloc(lists->list_count + 1, 1);
  uint8_t *cut = mtpc_zalloc(nodes ? nodes : 1, 1);
  int failed = !parsed || !named || !keep || !cut;
  if (!failed) {
    keep[0] = 1; /* no list */
    parsed_and_named(pb, q, parsed, named);
    /* A body that cannot be read keeps every list. */
    if (lists_to_keep(pb, unneeded, parsed, named, keep) == 0) {
      for (uint32_t i = 0; i < lists->function_count; i++)
        cut[i] = !keep[lists->function_lists[i]];
      mtpc_attribute_lists_cut(copy, lists, keep);
    }
    if (pb->cut_types)
      cut_types(pb, unneeded, parsed, named, copy, cut);
    view->records_cut = cut;
    cut = NULL;
  }
  free(parsed);
  free(named);
  free(keep);
  free(cut);
  return failed;
}

/* Partition q's own copy of the later bitcode: its homed types' names cut
 * off, only its variables' debug info, no names it has no use for, and,
 * unless `keep_records`, no attribute lists it has no use for and the
 * fewest parameters for functions it erases. */
static int patch_own_copy(const mtpc_partition_bitcode *pb, uint32_t q, int keep_records,
                          mtpc_bitcode_view *view, char **message) {
  uint8_t *copy;
  if (pb->fd >= 0) {
    copy = mmap(NULL, pb->size, PROT_READ | PROT_WRITE, MAP_PRIVATE, pb->fd, 0);
    if (copy == MAP_FAILED) {
      *message = mtpc_asprintf("cannot map the module's bitcode: %s", strerror(errno));
      return 1;
    }
  } else {
    copy = mtpc_alloc(pb->size, 1);
    if (!copy) {
      *message = NULL;
      return 1;
    }
    memcpy(copy, pb->later, pb->size);
  }
  view->mapping = copy;
  view->data = copy;
  for (uint32_t i = 0; i < view->homed_count; i++)
    mtpc_clear_field(copy, view->homed[i]->name);
  uint8_t *unneeded = NULL;
  if (pb->cut_names) {
    unneeded = unneeded_globals(pb, q);
    if (!unneeded) {
      *message = NULL;
      return 1;
    }
    cut_names(pb, unneeded, copy);
  }
  int failed = pb->cut_lists && !keep_records && cut_records(pb, q, unneeded, view, copy);
  free(unneeded);
  if (failed) {
    *message = NULL;
    return 1;
  }
  if (pb->variable_nodes &&
      mtpc_variable_debug_patch(&pb->scan, pb->variable_nodes, pb->plan, q, pb->later, copy)) {
    *message = NULL;
    return 1;
  }
  return 0;
}

int mtpc_bitcode_view_open(const mtpc_partition_bitcode *pb, uint32_t q, int keep_records,
                           mtpc_bitcode_view *view, char **message) {
  memset(view, 0, sizeof(*view));
  view->data = pb->bitcode;
  view->size = pb->size;
  if (q == MTPC_NONE || !pb->scanned || !pb->homed_start)
    return 0;
  view->metadata_on_demand = 1;
  view->odr_types = pb->scan.odr_count > 0;
  view->homed = pb->homed + pb->homed_start[q];
  view->homed_count = pb->homed_start[q + 1] - pb->homed_start[q];
  view->mapping = NULL;
  if (q == 0) {
    /* Home to the module block's ODR types, it reads that block whole. */
    view->metadata_on_demand = !view->odr_types;
    return 0;
  }
  if (pb->later)
    view->data = pb->later;
  if (view->homed_count == 0 && !pb->variable_nodes && !pb->cut_names)
    return 0;
  view->fd_mapped = pb->fd >= 0;
  if (patch_own_copy(pb, q, keep_records, view, message) == 0)
    return 0;
  mtpc_bitcode_view_close(view);
  return 1;
}

void mtpc_bitcode_view_close(mtpc_bitcode_view *view) {
  free(view->records_cut);
  view->records_cut = NULL;
  if (!view->mapping)
    return;
  if (view->fd_mapped)
    munmap(view->mapping, view->size);
  else
    free(view->mapping);
  view->mapping = NULL;
}
