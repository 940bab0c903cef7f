/* The front door: a session per compile, which runs the stages in the
 * order of the data flow: read the module (session_read.c), plan it, then
 * compile the partitions and hand over one object (session_objects.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "options.h"
#include "session.h"
#include "split_advice.h"
#include "partitioner/cost.h"
#include "partitioner/graph.h"
#include "support/llvm_options.h"
#include "support/llvm_support.h"
#include "support/support.h"
#include "support/time_trace.h"
#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/tools.h"

static void enter_phase(const mtpc_options *o, const char *phase) {
  if (o->phase)
    o->phase(o->phase_user, phase);
}

static mtpc_status resolve_target(session *s) {
  const char *triple = s->o->triple ? s->o->triple : LLVMGetTarget(s->module);
  char *chosen = NULL;
  if (triple && *triple) {
    chosen = mtpc_strdup(triple);
  } else {
    char *host = LLVMGetDefaultTargetTriple();
    chosen = mtpc_strdup(host);
    LLVMDisposeMessage(host);
  }
  if (!chosen)
    return mtpc_result_out_of_memory(s->r);
  s->triple = chosen;
  LLVMTargetRef target;
  char *error = NULL;
  if (LLVMGetTargetFromTriple(chosen, &target, &error)) {
    char *message = mtpc_asprintf("unknown target triple '%s': %s", chosen, error);
    LLVMDisposeMessage(error);
    return mtpc_result_fail(s->r, MTPC_ERR_TARGET, message);
  }
  s->unsplit_reason = mtpc_target_unsplit_reason(chosen);
  return MTPC_OK;
}

static mtpc_status make_settings(session *s) {
  char *message = NULL;
  s->settings = mtpc_bridge_settings_create(s->o, s->llvm.lto_config, &message);
  /* What the options ask for cannot be had: a file they name is missing. */
  if (!s->settings)
    return mtpc_result_fail(s->r, MTPC_ERR_INVALID_ARGUMENT, message);
  const mtpc_bridge_settings_info *info = mtpc_bridge_settings_describe(s->settings);
  s->dwo_name = info->dwo_name;
  s->dwo_output = info->dwo_output;
  if (info->dwo_dir) {
    if (mtpc_make_directories(info->dwo_dir, &message))
      return mtpc_result_fail(s->r, MTPC_ERR_OUTPUT, message);
    s->dwo_path = mtpc_asprintf("%s/%u.dwo", info->dwo_dir, s->llvm.lto_task);
    if (!s->dwo_path)
      return mtpc_result_out_of_memory(s->r);
    s->dwo_name = s->dwo_output = s->dwo_path;
  }
  /* lld -r cannot merge assembly. */
  if (info->assembly && s->o->merge && !s->unsplit_reason)
    s->unsplit_reason = "assembly output cannot be merged (use merge = 0)";
  return MTPC_OK;
}

/* The partition cache, when cache_dir names one and the options can be
 * keyed (NULL otherwise). */
static mtpc_status open_cache(session *s) {
  int no_memory = 0;
  s->cache = mtpc_cache_open(s->o, s->settings, s->triple, s->faults, &s->reporter,
                             &no_memory);
  return no_memory ? mtpc_result_out_of_memory(s->r) : MTPC_OK;
}

/* Partition 0's reading besides its code (cost.h). */
static uint64_t head_cost(const session *s) {
  LLVMModuleRef module = !s->has_graph ? s->module : s->read.module_count ? s->read.modules[0] : NULL;
  uint64_t module_odr_types = 0;
  int odr_types = 0;
  if (s->partition_bitcode)
    mtpc_partition_bitcode_head(s->partition_bitcode, &module_odr_types, &odr_types);
  return module ? mtpc_head_cost(module, module_odr_types, odr_types) : 0;
}

static mtpc_status make_plan(session *s) {
  mtpc_graph graph;
  uint64_t head = head_cost(s);
  if (s->has_graph) {
    graph = s->read.graph;
    memset(&s->read.graph, 0, sizeof(s->read.graph));
    s->has_graph = 0;
  } else if (mtpc_graph_build(&graph, s->module) != MTPC_OK) {
    return mtpc_result_out_of_memory(s->r);
  }
  mtpc_plan_options po;
  mtpc_plan_options_init(&po);
  po.partitions = s->o->partitions == MTPC_PARTITIONS_MAX ? MTPC_PLAN_FINEST : s->o->partitions;
  po.import_instr_limit = s->o->import_instr_limit;
  po.whole_program = s->o->full_lto;
  po.head_cost = head;
  if (s->unsplit_reason)
    po.partitions = 1;
  mtpc_status status = mtpc_plan_build(&graph, &po, &s->plan);
  if (status == MTPC_OK)
    mtpc_graph_move_references(&graph, &s->references);
  mtpc_graph_free(&graph);
  if (status != MTPC_OK)
    return mtpc_result_out_of_memory(s->r);
  if (s->plan.unsplit_reason && !s->unsplit_reason)
    s->unsplit_reason = s->plan.unsplit_reason;
  return MTPC_OK;
}

static mtpc_status write_plan_file(session *s) {
  const char *dir = s->o->emit_partitions_dir;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST)
    mtpc_emit_diag(&s->reporter, MTPC_WARNING, "cannot create '%s': %s", dir, strerror(errno));
  char *path = mtpc_asprintf("%s/plan.txt", dir);
  if (!path)
    return mtpc_result_out_of_memory(s->r);
  FILE *f = fopen(path, "w");
  if (f) {
    mtpc_plan_print(&s->plan, f);
    fclose(f);
  } else {
    mtpc_emit_diag(&s->reporter, MTPC_WARNING, "cannot write '%s': %s", path, strerror(errno));
  }
  free(path);
  return MTPC_OK;
}

/* The module's bitcode, written from the module when the caller gave none,
 * and scanned for what partitions load (partition_bitcode.h): the plan's
 * head cost depends on it. */
static mtpc_status prepare_bitcode(session *s) {
  if (!s->bitcode) {
    double write_start = mtpc_now_seconds();
    mtpc_bridge_time_trace_begin("mtpc write bitcode", "");
    s->written = s->use_order ? mtpc_bridge_write_bitcode_in_use_order(s->module)
                              : LLVMWriteBitcodeToMemoryBuffer(s->module);
    mtpc_bridge_time_trace_end();
    s->bitcode = LLVMGetBufferStart(s->written);
    s->bitcode_size = LLVMGetBufferSize(s->written);
    s->r->stats.bitcode_seconds = mtpc_now_seconds() - write_start;
  }
  if (s->scanned)
    return s->partition_bitcode ? MTPC_OK : mtpc_result_out_of_memory(s->r);
  mtpc_bridge_time_trace_begin("mtpc scan bitcode", "");
  int no_memory = mtpc_partition_bitcode_create(s->bitcode, s->bitcode_size, &s->partition_bitcode);
  mtpc_bridge_time_trace_end();
  return no_memory ? mtpc_result_out_of_memory(s->r) : MTPC_OK;
}

/* The passes that run on the whole module before the split: gcov's and
 * the lowering of clang's counters, the per-module pipeline to its IR
 * profile passes (clang's order), then those of the full LTO pipeline that
 * need the whole program. Their time is whole_program_seconds; the
 * workers load the module they leave. */
static mtpc_status run_whole_module_passes(session *s) {
  double start = mtpc_now_seconds();
  char *message = NULL;
  int failed = 0;
  s->use_order = mtpc_instruments_whole_module(s->o) || mtpc_runs_profile_phase(s->o);
  if (mtpc_instruments_whole_module(s->o)) {
    mtpc_bridge_time_trace_begin("mtpc whole-module instrumentation", "");
    mtpc_bridge_instrument_whole_module(s->module, s->o);
    mtpc_bridge_time_trace_end();
  }
  if (mtpc_runs_profile_phase(s->o)) {
    mtpc_bridge_time_trace_begin("mtpc profile phase", "");
    failed = mtpc_bridge_run_profile_phase(s->settings, s->module, &message);
    mtpc_bridge_time_trace_end();
  }
  if (!failed && s->o->full_lto) {
    mtpc_bridge_time_trace_begin("mtpc whole-program passes", "");
    failed = mtpc_bridge_run_full_lto_passes(s->settings, s->llvm.export_summary, s->module,
                                             &message);
    mtpc_bridge_time_trace_end();
  }
  s->r->stats.whole_program_seconds = mtpc_now_seconds() - start;
  s->bitcode = NULL;
  return failed ? mtpc_result_fail(s->r, MTPC_ERR_OUTPUT, message) : MTPC_OK;
}

static mtpc_status run_session(session *s) {
  mtpc_result *r = s->r;
  double start = mtpc_now_seconds();
  mtpc_status status = resolve_target(s);
  if (status == MTPC_OK)
    status = make_settings(s);
  if (status == MTPC_OK)
    status = open_cache(s);
  if (status != MTPC_OK)
    return status;
  if (s->llvm.import_summary) {
    mtpc_bridge_time_trace_begin("mtpc summary passes", "");
    mtpc_bridge_run_summary_passes(s->llvm.import_summary, s->module);
    mtpc_bridge_time_trace_end();
    s->bitcode = NULL; /* the workers load the lowered module */
  }
  if (mtpc_changes_whole_module(s->o)) {
    status = run_whole_module_passes(s);
    if (status != MTPC_OK)
      return status;
  }
  status = prepare_bitcode(s);
  if (status != MTPC_OK)
    return status;
  double plan_start = mtpc_now_seconds();
  enter_phase(s->o, "plan");
  mtpc_bridge_time_trace_begin("mtpc plan", "");
  status = make_plan(s);
  mtpc_bridge_time_trace_end();
  r->stats.plan_seconds = mtpc_now_seconds() - plan_start;
  if (status == MTPC_OK && s->o->emit_partitions_dir)
    status = write_plan_file(s);
  if (status != MTPC_OK)
    return status;
  if (s->plan.partition_count > 1 && !s->unsplit_reason &&
      mtpc_partition_bitcode_plan(s->partition_bitcode, &s->plan,
                                  &s->references))
    return mtpc_result_out_of_memory(r);
  r->stats.bitcode_seconds += mtpc_partition_bitcode_seconds(s->partition_bitcode, 0);
  if (!s->scanned) /* else the read's, beside its readers */
    r->stats.bitcode_seconds += mtpc_partition_bitcode_seconds(s->partition_bitcode, 1);
  enter_phase(s->o, "compile");
  status = mtpc_session_compile(s);
  r->stats.total_seconds = mtpc_now_seconds() - start + r->stats.read_seconds;
  r->stats.peak_rss_bytes = mtpc_peak_rss();
  return status;
}

static void end_session(session *s) {
  mtpc_session_give_up_slot(s);
  if (s->owns_module)
    mtpc_read_release_modules(&s->read);
  if (s->has_graph)
    mtpc_graph_free(&s->read.graph);
  if (s->written)
    LLVMDisposeMemoryBuffer(s->written);
  mtpc_partition_bitcode_free(s->partition_bitcode);
  mtpc_graph_edges_free(&s->references);
  if (s->in_option_set)
    mtpc_llvm_options_leave();
  mtpc_bridge_settings_free(s->settings);
  mtpc_cache_close(s->cache);
  free(s->dwo_path);
  mtpc_plan_free(&s->plan);
  free(s->name);
  free(s->triple);
  if (s->copy)
    LLVMDisposeModule(s->copy);
  mtpc_reporter_destroy(&s->reporter);
}

/* Sets up the session of one compile: its result, its options and their
 * LLVM option set. On failure the caller's slot is given back. */
static mtpc_status begin(session *s, const mtpc_options *given, const mtpc_llvm_options *llvm,
                         const char *faults, mtpc_result **out) {
  memset(s, 0, sizeof(*s));
  s->o = &s->options;
  s->faults = faults;
  mtpc_reporter_init(&s->reporter, s->o);
  *out = s->r = mtpc_result_new();
  char *problem = NULL;
  mtpc_status status = mtpc_options_import(given, llvm, &s->options, &s->llvm, &problem);
  if (!s->r)
    status = MTPC_ERR_NO_MEMORY;
  mtpc_init_llvm();
  if (status == MTPC_OK) {
    if (mtpc_llvm_options_enter(s->o->llvm_options, s->o->llvm_option_count, &problem))
      status = MTPC_ERR_INVALID_ARGUMENT;
    else
      s->in_option_set = 1;
  }
  if (status == MTPC_OK)
    return MTPC_OK;
  mtpc_session_give_up_slot(s);
  if (s->r)
    return mtpc_result_fail(s->r, status, problem);
  free(problem);
  return status;
}

/* Reads the bitcode the session compiles. */
static mtpc_status read_input(session *s, const void *data, size_t size, const char *name) {
  s->bitcode = data;
  s->bitcode_size = size;
  s->name = mtpc_strdup(name ? name : "<buffer>");
  if (!s->name)
    return mtpc_result_out_of_memory(s->r);
  double start = mtpc_now_seconds();
  enter_phase(s->o, "read");
  mtpc_bridge_time_trace_begin("mtpc read", s->name);
  mtpc_status status = mtpc_session_read(s, data, size);
  mtpc_bridge_time_trace_end();
  s->r->stats.read_seconds = mtpc_now_seconds() - start;
  return status;
}

/* Takes the caller's module as the session's; a copy of it when the
 * whole-module passes (full LTO's, instrprof lowering) would change a
 * module the caller only lent. */
static mtpc_status take_module(session *s, LLVMModuleRef module, int may_change) {
  size_t len = 0;
  const char *id = LLVMGetModuleIdentifier(module, &len);
  s->name = mtpc_strndup(id, len);
  if (!s->name)
    return mtpc_result_out_of_memory(s->r);
  s->module = module;
  if (mtpc_changes_whole_module(s->o) && !may_change)
    s->module = s->copy = LLVMCloneModule(module);
  return MTPC_OK;
}

/* One compile, from bitcode (module NULL) or a module. */
static mtpc_status compile(LLVMModuleRef module, int may_change, const void *data, size_t size,
                           const char *name, const mtpc_options *options,
                           const mtpc_llvm_options *llvm, const char *faults,
                           mtpc_result **result) {
  session s;
  mtpc_status status = begin(&s, options, llvm, faults, result);
  if (status == MTPC_OK)
    status = module ? take_module(&s, module, may_change) : read_input(&s, data, size, name);
  if (status == MTPC_OK)
    status = run_session(&s);
  end_session(&s);
  return status;
}

mtpc_status mtpc_compile_bitcode(const void *data, size_t size, const char *name,
                                 const mtpc_options *options, mtpc_result **result) {
  return compile(NULL, 0, data, size, name, options, NULL, NULL, result);
}

mtpc_status mtpc_compile_module(LLVMModuleRef module, const mtpc_options *options,
                                mtpc_result **result) {
  return compile(module, 0, NULL, 0, NULL, options, NULL, NULL, result);
}

mtpc_status mtpc_llvm_compile_module(LLVMModuleRef module, const mtpc_options *options,
                                     const mtpc_llvm_options *llvm, mtpc_result **result) {
  return compile(module, 1, NULL, 0, NULL, options, llvm, NULL, result);
}

mtpc_status mtpc_compile_with_faults(LLVMModuleRef module, const void *data, size_t size,
                                     const char *name, const mtpc_options *options,
                                     const mtpc_llvm_options *llvm, const char *faults,
                                     mtpc_result **result) {
  return compile(module, 1, data, size, name, options, llvm, faults, result);
}

/* Hands the result to the caller, who may not want it. */
static mtpc_status hand_over(mtpc_status status, mtpc_result *r, mtpc_result **result) {
  if (result)
    *result = r;
  else
    mtpc_result_free(r);
  return status;
}

/* The plan of the session's module, printed to `out`. */
static mtpc_status print_session_plan(session *s, FILE *out) {
  mtpc_status status = resolve_target(s);
  if (status == MTPC_OK)
    status = prepare_bitcode(s);
  if (status == MTPC_OK) {
    enter_phase(s->o, "plan");
    mtpc_bridge_time_trace_begin("mtpc plan", "");
    status = make_plan(s);
    mtpc_bridge_time_trace_end();
  }
  if (status == MTPC_OK)
    mtpc_plan_print(&s->plan, out);
  return status;
}

mtpc_status mtpc_plan_write(LLVMModuleRef module, const mtpc_options *options, FILE *out,
                            mtpc_result **result) {
  session s;
  mtpc_result *r = NULL;
  mtpc_status status = begin(&s, options, NULL, NULL, &r);
  if (status == MTPC_OK)
    status = take_module(&s, module, 1); /* planning never changes it */
  if (status == MTPC_OK)
    status = print_session_plan(&s, out);
  end_session(&s);
  return hand_over(status, r, result);
}

mtpc_status mtpc_plan_write_bitcode(const void *data, size_t size, const char *name,
                                    const mtpc_options *options, FILE *out,
                                    mtpc_result **result) {
  session s;
  mtpc_result *r = NULL;
  mtpc_status status = begin(&s, options, NULL, NULL, &r);
  if (status == MTPC_OK)
    status = read_input(&s, data, size, name);
  if (status == MTPC_OK)
    status = print_session_plan(&s, out);
  end_session(&s);
  return hand_over(status, r, result);
}
