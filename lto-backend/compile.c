/* The library's entry points: module -> graph -> plan -> partition objects ->
 * one merged object. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "options.h"
#include "result.h"
#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/module.h"
#include "lto-backend/bitcode/partition_bitcode.h"
#include "lto-backend/bitcode/read.h"
#include "lto-backend/cache/cache.h"
#include "lto-backend/codegen/pipeline.h"
#include "lto-backend/codegen/remarks.h"
#include "lto-backend/jobs/worker.h"
#include "lto-backend/merge/merge.h"
#include "lto-backend/merge/merge_ir.h"
#include "lto-backend/partition/debug_info.h"
#include "partitioner/cost.h"
#include "partitioner/graph.h"
#include "partitioner/plan.h"
#include "support/diag.h"
#include "support/llvm_options.h"
#include "support/llvm_support.h"
#include "support/support.h"
#include "support/time_trace.h"
#include "mtpc/mtpc.h"
#include "mtpc/tools.h"

static char version_text[64];
static pthread_once_t version_once = PTHREAD_ONCE_INIT;
static void fill_version(void) {
  snprintf(version_text, sizeof(version_text), "mtpc %s (LLVM %s)", MTPC_VERSION_STRING,
           mtpc_bridge_llvm_version());
}

const char *mtpc_version_string(void) {
  pthread_once(&version_once, fill_version);
  return version_text;
}

void mtpc_time_trace_start(unsigned granularity_us) { mtpc_bridge_time_trace_init(granularity_us); }

mtpc_status mtpc_time_trace_write(const char *path, char **message) {
  void *trace = NULL;
  size_t size = 0;
  int failed = mtpc_time_trace_take(&trace, &size, message) ||
               (trace && mtpc_write_file_atomic(path, trace, size, NULL, message));
  free(trace);
  return failed ? MTPC_ERR_OUTPUT : MTPC_OK;
}

int mtpc_time_trace_take(void **data, size_t *size, char **message) {
  return mtpc_bridge_time_trace_take(data, size, message);
}

static void enter_phase(const mtpc_options *o, const char *phase) {
  if (o->phase)
    o->phase(o->phase_user, phase);
}

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;
static void init_llvm(void) {
  LLVMInitializeAllTargetInfos();
  LLVMInitializeAllTargets();
  LLVMInitializeAllTargetMCs();
  LLVMInitializeAllAsmPrinters();
  LLVMInitializeAllAsmParsers();
}

void mtpc_init_llvm(void) { pthread_once(&llvm_once, init_llvm); }

/* Every failure comes with a message; one without ran out of memory
 * making it, or earlier. */
static mtpc_status fail(mtpc_result *r, mtpc_status status, char *message) {
  free(r->message);
  r->message = message;
  r->status = message ? status : MTPC_ERR_NO_MEMORY;
  return r->status;
}

static mtpc_status out_of_memory(mtpc_result *r) { return fail(r, MTPC_ERR_NO_MEMORY, NULL); }

static unsigned hardware_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

/* Everything one compile needs besides its options and result. */
typedef struct session {
  mtpc_options options;   /* the caller's, made whole */
  const mtpc_options *o;  /* &options */
  mtpc_result *r;
  mtpc_reporter reporter;
  int in_option_set;      /* entered the options' LLVM option set */
  LLVMModuleRef module;   /* planned from; released once the plan exists if owned */
  int owns_module;        /* then `read` holds it (and the other readers' copies) */
  mtpc_read read;         /* the module's read, and its graph when `has_graph` */
  int has_graph;
  const void *bitcode;    /* the module's; NULL = write it from module */
  size_t bitcode_size;
  mtpc_partition_bitcode *partition_bitcode; /* what each partition loads */
  int scanned;            /* the read made partition_bitcode (NULL: out of memory) */
  char *name;
  char *triple;
  int slot_given_up;      /* caller_holds_slot: the caller's slot went to the workers */
  mtpc_plan plan;
  const char *unsplit_reason;
  LLVMMemoryBufferRef written; /* bitcode written from module */
  mtpc_bridge_settings *settings;
  const char *dwo_name, *dwo_output; /* the settings', resolved */
  char *dwo_path;                    /* <dwo_dir>/<task>.dwo */
  mtpc_cache *cache;
} session;

/* The caller's slot goes to the workers once, whatever path the compile takes. */
static void give_up_caller_slot(session *s) {
  if (s->o->budget && s->o->caller_holds_slot && !s->slot_given_up) {
    s->slot_given_up = 1;
    mtpc_budget_release(s->o->budget);
  }
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
    return out_of_memory(s->r);
  s->triple = chosen;
  LLVMTargetRef target;
  char *error = NULL;
  if (LLVMGetTargetFromTriple(chosen, &target, &error)) {
    char *message = mtpc_asprintf("unknown target triple '%s': %s", chosen, error);
    LLVMDisposeMessage(error);
    return fail(s->r, MTPC_ERR_TARGET, message);
  }
  if (!mtpc_bridge_triple_is_elf(chosen))
    s->unsplit_reason = "the target's object format is not ELF";
  return MTPC_OK;
}

static mtpc_status make_settings(session *s) {
  char *message = NULL;
  s->settings = mtpc_bridge_settings_create(s->o, &message);
  if (!s->settings)
    return fail(s->r, MTPC_ERR_OUTPUT, message);
  const mtpc_bridge_settings_info *info = mtpc_bridge_settings_describe(s->settings);
  s->dwo_name = info->dwo_name;
  s->dwo_output = info->dwo_output;
  if (info->dwo_dir) {
    if (mtpc_make_directories(info->dwo_dir, &message))
      return fail(s->r, MTPC_ERR_OUTPUT, message);
    s->dwo_path = mtpc_asprintf("%s/%u.dwo", info->dwo_dir, s->o->llvm_lto_task);
    if (!s->dwo_path)
      return out_of_memory(s->r);
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
  s->cache = mtpc_cache_open(s->o, s->settings, s->triple, &s->reporter, &no_memory);
  return no_memory ? out_of_memory(s->r) : MTPC_OK;
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
    return out_of_memory(s->r);
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
  mtpc_graph_free(&graph);
  if (status != MTPC_OK)
    return out_of_memory(s->r);
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
    return out_of_memory(s->r);
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

static void fill_config(session *s, mtpc_codegen_config *c) {
  memset(c, 0, sizeof(*c));
  c->bitcode = s->partition_bitcode;
  c->module_name = s->name;
  c->settings = s->settings;
  c->options = s->o;
  c->reporter = &s->reporter;
  c->dwo_name = s->dwo_name;
  c->dwo_output = s->dwo_output;
  c->cache = s->cache;
}

static void free_jobs(mtpc_job *jobs, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    free(jobs[i].message);
    free(jobs[i].object);
    free(jobs[i].dwo_name);
    free(jobs[i].dwo_output);
    free(jobs[i].dwo);
    free(jobs[i].remarks);
  }
  free(jobs);
}

/* NULL when memory runs out. */
static mtpc_job *new_jobs(const session *s, uint32_t count, int split) {
  mtpc_job *jobs = mtpc_zalloc(count, sizeof(mtpc_job));
  for (uint32_t i = 0; jobs && i < count; i++) {
    jobs[i].partition = split ? i : MTPC_NONE;
    const mtpc_plan_partition *part = split ? &s->plan.partitions[i] : NULL;
    jobs[i].memory_estimate = part ? mtpc_job_memory_estimate(part->cost, part->imported_cost)
                                   : mtpc_job_memory_estimate(s->plan.total_cost, 0);
  }
  return jobs;
}

static uint32_t first_failure(const mtpc_job *jobs, uint32_t count, mtpc_job_failure kind) {
  for (uint32_t i = 0; i < count; i++)
    if (jobs[i].failure == kind)
      return i;
  return MTPC_NONE;
}

static mtpc_status record_partition_stats(session *s, const mtpc_job *jobs, uint32_t count,
                                          int split) {
  mtpc_stats *st = &s->r->stats;
  st->split = split;
  if (!split && s->unsplit_reason) {
    if (!(s->r->unsplit_reason = mtpc_strdup(s->unsplit_reason)))
      return out_of_memory(s->r);
    st->unsplit_reason = s->r->unsplit_reason;
  }
  st->total_cost = s->plan.total_cost;
  st->duplicated_cost = split ? s->plan.duplicated_cost : 0;
  mtpc_partition_stats *ps = mtpc_zalloc(count, sizeof(mtpc_partition_stats));
  if (!ps)
    return out_of_memory(s->r);
  s->r->partition = ps;
  st->partitions = count;
  for (uint32_t i = 0; i < count; i++) {
    ps[i] = jobs[i].stats;
    if (s->cache && jobs[i].failure == MTPC_JOB_OK) {
      st->cache_hits += ps[i].cache_hit;
      st->cache_misses += !ps[i].cache_hit;
    }
    if (split) {
      ps[i].cost = s->plan.partitions[i].cost;
      ps[i].imported_cost = s->plan.partitions[i].imported_cost;
      ps[i].functions = s->plan.partitions[i].functions;
    } else {
      ps[i].cost = s->plan.total_cost;
      for (uint32_t q = 0; q < s->plan.partition_count; q++)
        ps[i].functions += s->plan.partitions[q].functions;
    }
  }
  return MTPC_OK;
}

/* Adds a file to the result's outputs; non-zero with *message (NULL: out
 * of memory) when it cannot be written. */
static int add_output(session *s, const char *path, const void *data, size_t size,
                      char **message) {
  if (!s->r->files && !(s->r->files = mtpc_outputs_new())) {
    *message = NULL;
    return 1;
  }
  return mtpc_outputs_add(s->r->files, path, data, size, s->o->fault_injection, message);
}

/* Split DWARF: each job's .dwo, or, merged, the module's one. */
static int add_dwo_files(session *s, const mtpc_job *jobs, uint32_t count, char **message) {
  if (count > 1 && s->o->merge && jobs[0].dwo_output) {
    void *merged = NULL;
    size_t size = 0;
    int failed = mtpc_merge_dwo_files(jobs, count, &merged, &size, message) ||
                 add_output(s, jobs[0].dwo_output, merged, size, message);
    free(merged);
    return failed;
  }
  for (uint32_t i = 0; i < count; i++)
    if (jobs[i].dwo_output &&
        add_output(s, jobs[i].dwo_output, jobs[i].dwo, jobs[i].dwo_size, message))
      return 1;
  return 0;
}

/* The partitions' remarks, in partition order, where the module's go. */
static int add_remarks(session *s, const mtpc_job *jobs, uint32_t count, char **message) {
  if (!jobs[0].remarks)
    return 0;
  const void **texts = mtpc_zalloc(count, sizeof(void *));
  size_t *sizes = mtpc_zalloc(count, sizeof(size_t));
  if (!texts || !sizes) {
    free(texts);
    free(sizes);
    *message = NULL;
    return 1;
  }
  for (uint32_t i = 0; i < count; i++) {
    texts[i] = jobs[i].remarks;
    sizes[i] = jobs[i].remarks_size;
  }
  void *file = NULL;
  size_t file_size = 0;
  const char *path = NULL;
  int failed = mtpc_bridge_remarks_merge(s->settings, s->module, texts, sizes, count, &file,
                                         &file_size, &path, message);
  if (!failed && file)
    failed = add_output(s, path, file, file_size, message);
  free(file);
  free(texts);
  free(sizes);
  return failed;
}

/* The files besides the object, written under temporary names; in place
 * unless the caller commits them (defer_files). */
static mtpc_status write_files(session *s, const mtpc_job *jobs, uint32_t count) {
  char *problem = NULL;
  if (add_dwo_files(s, jobs, count, &problem) || add_remarks(s, jobs, count, &problem))
    return fail(s->r, MTPC_ERR_OUTPUT, problem);
  return s->o->defer_files ? MTPC_OK : mtpc_result_commit_files(s->r);
}

static mtpc_status hand_over(session *s, mtpc_job *jobs, uint32_t count, int split) {
  mtpc_result *r = s->r;
  if (!s->o->merge) {
    r->objects = mtpc_zalloc(count, sizeof(mtpc_buffer));
    if (!r->objects)
      return out_of_memory(r);
    r->object_count = count;
    for (uint32_t i = 0; i < count; i++) {
      r->objects[i] = (mtpc_buffer){jobs[i].object, jobs[i].object_size};
      jobs[i].object = NULL;
    }
    return MTPC_OK;
  }
  if (!split) {
    r->object = (mtpc_buffer){jobs[0].object, jobs[0].object_size};
    jobs[0].object = NULL;
    return MTPC_OK;
  }
  double start = mtpc_now_seconds();
  mtpc_bridge_time_trace_begin("mtpc merge", "");
  char *message = NULL;
  int failed = s->o->emit_llvm
                   ? mtpc_merge_modules(&s->plan, jobs, count, &r->object.data, &r->object.size,
                                        &message)
                   : mtpc_merge_objects(&s->plan, jobs, count, s->o->fault_injection,
                                        &r->object.data, &r->object.size, &r->object_mapped,
                                        &message);
  mtpc_bridge_time_trace_end();
  r->stats.merge_seconds = mtpc_now_seconds() - start;
  return failed ? fail(r, MTPC_ERR_MERGE, message) : MTPC_OK;
}

static void release_read(void *read) { mtpc_read_release_modules(read); }

/* `count` jobs, compiled; NULL when memory runs out (then nothing ran). The
 * module the plan was made from (each reader's copy) is freed by the first
 * worker, before its first job. */
static mtpc_job *run_new_jobs(session *s, const mtpc_codegen_config *config, uint32_t count,
                              int split, unsigned threads) {
  mtpc_job *jobs = new_jobs(s, count, split);
  mtpc_chore release = {release_read, &s->read, "mtpc release input"};
  if (jobs && mtpc_run_jobs(config, split ? &s->plan : NULL, jobs, count, threads,
                            s->owns_module ? &release : NULL, &s->r->stats.memory_waits)) {
    free_jobs(jobs, count);
    return NULL;
  }
  return jobs;
}

/* Out of memory first: it is no reason to compile unsplit, and an unsplit
 * compile would not get past it either. */
static mtpc_status jobs_status(session *s, mtpc_job *jobs, uint32_t count) {
  if (first_failure(jobs, count, MTPC_JOB_NO_MEMORY) != MTPC_NONE)
    return out_of_memory(s->r);
  uint32_t bad = first_failure(jobs, count, MTPC_JOB_FAILED);
  if (bad == MTPC_NONE)
    bad = first_failure(jobs, count, MTPC_JOB_SPLIT_FAILED);
  if (bad == MTPC_NONE)
    return MTPC_OK;
  mtpc_status status = fail(s->r, MTPC_ERR_WORKER, jobs[bad].message);
  jobs[bad].message = NULL;
  return status;
}

static mtpc_status compile_jobs(session *s) {
  mtpc_codegen_config config;
  fill_config(s, &config);
  int split = s->plan.partition_count > 1 && !s->unsplit_reason;
  /* Below the floor is the plan's choice, which the stats report. */
  if (s->unsplit_reason && s->o->partitions != 1 && !s->plan.below_floor)
    mtpc_emit_diag(&s->reporter, MTPC_WARNING, "%s: compiling unsplit: %s", s->name, s->unsplit_reason);
  unsigned threads = s->o->jobs ? s->o->jobs : hardware_threads();
  if (s->owns_module)
    s->module = NULL; /* one of the read's modules: the workers free them */
  s->r->stats.jobs = threads;
  uint32_t count = split ? s->plan.partition_count : 1;
  double start = mtpc_now_seconds();
  give_up_caller_slot(s);
  mtpc_job *jobs = run_new_jobs(s, &config, count, split, threads);
  uint32_t bad = jobs ? first_failure(jobs, count, MTPC_JOB_SPLIT_FAILED) : MTPC_NONE;
  if (split && bad != MTPC_NONE && first_failure(jobs, count, MTPC_JOB_NO_MEMORY) == MTPC_NONE) {
    mtpc_emit_diag(&s->reporter, MTPC_WARNING, "%s: compiling unsplit: %s", s->name, jobs[bad].message);
    free_jobs(jobs, count);
    split = 0;
    count = 1;
    jobs = run_new_jobs(s, &config, count, split, threads);
  }
  if (!jobs)
    return out_of_memory(s->r);
  s->r->stats.parallel_seconds = mtpc_now_seconds() - start;
  mtpc_status status = record_partition_stats(s, jobs, count, split);
  if (status == MTPC_OK)
    status = jobs_status(s, jobs, count);
  if (status == MTPC_OK)
    status = hand_over(s, jobs, count, split);
  if (status == MTPC_OK)
    status = write_files(s, jobs, count);
  free_jobs(jobs, count);
  return status;
}

/* The module's bitcode, written from the module when the caller gave none,
 * and scanned for what partitions load (partition_bitcode.h): the plan's
 * head cost depends on it. */
static mtpc_status prepare_bitcode(session *s) {
  if (!s->bitcode) {
    double write_start = mtpc_now_seconds();
    mtpc_bridge_time_trace_begin("mtpc write bitcode", "");
    s->written = LLVMWriteBitcodeToMemoryBuffer(s->module);
    mtpc_bridge_time_trace_end();
    s->bitcode = LLVMGetBufferStart(s->written);
    s->bitcode_size = LLVMGetBufferSize(s->written);
    s->r->stats.bitcode_seconds = mtpc_now_seconds() - write_start;
  }
  if (s->scanned)
    return s->partition_bitcode ? MTPC_OK : out_of_memory(s->r);
  mtpc_bridge_time_trace_begin("mtpc scan bitcode", "");
  int no_memory = mtpc_partition_bitcode_create(s->bitcode, s->bitcode_size, &s->partition_bitcode);
  mtpc_bridge_time_trace_end();
  return no_memory ? out_of_memory(s->r) : MTPC_OK;
}

/* The passes of the full LTO pipeline that need the whole program, on the
 * whole module; the workers load the module they leave. */
static mtpc_status run_full_lto_passes(session *s) {
  double start = mtpc_now_seconds();
  char *message = NULL;
  mtpc_bridge_time_trace_begin("mtpc whole-program passes", "");
  int failed = mtpc_bridge_run_full_lto_passes(s->settings, s->o->llvm_export_summary, s->module,
                                               &message);
  mtpc_bridge_time_trace_end();
  s->r->stats.whole_program_seconds = mtpc_now_seconds() - start;
  s->bitcode = NULL;
  return failed ? fail(s->r, MTPC_ERR_OUTPUT, message) : MTPC_OK;
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
  if (s->o->llvm_import_summary) {
    mtpc_bridge_time_trace_begin("mtpc summary passes", "");
    mtpc_bridge_run_summary_passes(s->o, s->module);
    mtpc_bridge_time_trace_end();
    s->bitcode = NULL; /* the workers load the lowered module */
  }
  if (s->o->full_lto) {
    status = run_full_lto_passes(s);
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
      mtpc_partition_bitcode_plan(s->partition_bitcode, &s->plan))
    return out_of_memory(r);
  r->stats.bitcode_seconds += mtpc_partition_bitcode_seconds(s->partition_bitcode, 0);
  if (!s->scanned) /* else the read's, beside its readers */
    r->stats.bitcode_seconds += mtpc_partition_bitcode_seconds(s->partition_bitcode, 1);
  enter_phase(s->o, "compile");
  status = compile_jobs(s);
  r->stats.total_seconds = mtpc_now_seconds() - start + r->stats.read_seconds;
  r->stats.peak_rss_bytes = mtpc_peak_rss();
  return status;
}

static void end_session(session *s) {
  give_up_caller_slot(s);
  if (s->owns_module)
    mtpc_read_release_modules(&s->read);
  if (s->has_graph)
    mtpc_graph_free(&s->read.graph);
  if (s->written)
    LLVMDisposeMemoryBuffer(s->written);
  mtpc_partition_bitcode_free(s->partition_bitcode);
  if (s->in_option_set)
    mtpc_llvm_options_leave();
  mtpc_bridge_settings_free(s->settings);
  mtpc_cache_close(s->cache);
  free(s->dwo_path);
  mtpc_plan_free(&s->plan);
  free(s->name);
  free(s->triple);
  mtpc_reporter_destroy(&s->reporter);
}

/* Sets up the session of one compile: its result, its options and their
 * LLVM option set. On failure the caller's slot is given back. */
static mtpc_status begin(session *s, const mtpc_options *given, mtpc_result **out) {
  memset(s, 0, sizeof(*s));
  s->o = &s->options;
  mtpc_reporter_init(&s->reporter, s->o);
  *out = s->r = mtpc_result_new();
  char *problem = NULL;
  mtpc_status status = mtpc_options_import(given, &s->options, &problem);
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
  give_up_caller_slot(s);
  if (s->r)
    return fail(s->r, status, problem);
  free(problem);
  return status;
}

typedef struct parse_diag {
  int error;
  char *message; /* the first error's; NULL when memory ran out */
} parse_diag;

static void on_parse_diagnostic(LLVMDiagnosticInfoRef info, void *user) {
  parse_diag *d = user;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError || d->error)
    return;
  d->error = 1;
  char *text = LLVMGetDiagInfoDescription(info);
  d->message = mtpc_strdup(text);
  LLVMDisposeMessage(text);
}

/* Parses the whole module in one context, for passes that need all of it. */
static mtpc_status parse_bitcode(const void *data, size_t size, const char *name,
                                 LLVMModuleRef *module, mtpc_result *r) {
  LLVMContextRef context = LLVMContextCreate();
  parse_diag diag = {0, NULL};
  LLVMContextSetDiagnosticHandler(context, on_parse_diagnostic, &diag);
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(data, size, name, 0);
  int failed = LLVMParseBitcodeInContext2(context, buffer, module);
  LLVMDisposeMemoryBuffer(buffer);
  if (!failed && diag.error)
    failed = 1;
  if (failed) {
    char *message = mtpc_asprintf("%s: invalid bitcode: %s", name,
                                   diag.message ? diag.message : "cannot parse the module");
    free(diag.message);
    if (*module)
      LLVMDisposeModule(*module);
    LLVMContextDispose(context);
    *module = NULL;
    return fail(r, MTPC_ERR_INPUT, message);
  }
  LLVMContextSetDiagnosticHandler(context, NULL, NULL);
  return MTPC_OK;
}

/* How many threads read the module: as many as will compile it, up to
 * MTPC_MAX_READERS, and with a budget only those it has a free slot for
 * (*slots of them, given back once the read is done). */
static unsigned reader_count(const session *s, unsigned *slots) {
  unsigned wanted = s->o->jobs ? s->o->jobs : hardware_threads();
  if (wanted > MTPC_MAX_READERS)
    wanted = MTPC_MAX_READERS;
  *slots = 0;
  if (!s->o->budget)
    return wanted;
  while (*slots + 1 < wanted && mtpc_budget_try_acquire(s->o->budget))
    (*slots)++;
  return *slots + 1;
}

/* The summary passes need the whole module in one context. */
static mtpc_status read_whole(session *s, const void *data, size_t size) {
  s->read.modules = mtpc_zalloc(1, sizeof(LLVMModuleRef));
  if (!s->read.modules)
    return out_of_memory(s->r);
  mtpc_status status = parse_bitcode(data, size, s->name, &s->module, s->r);
  if (status == MTPC_OK)
    s->read.modules[s->read.module_count++] = s->module;
  return status;
}

/* The read's side job: the scan of what partitions load. */
static void scan_bitcode(void *arg) {
  session *s = arg;
  mtpc_partition_bitcode_create(s->bitcode, s->bitcode_size, &s->partition_bitcode);
  s->scanned = 1;
}

/* Reads the module the plan is made from (read.h), and its graph; one of
 * the readers scans the bitcode meanwhile. */
static mtpc_status read_module(session *s, const void *data, size_t size) {
  s->owns_module = 1;
  if (s->o->llvm_import_summary || s->o->full_lto)
    return read_whole(s, data, size);
  unsigned slots;
  unsigned readers = reader_count(s, &slots);
  char *message = NULL;
  mtpc_chore scan = {scan_bitcode, s, "mtpc scan bitcode"};
  mtpc_status status = mtpc_read_for_plan(data, size, s->name, readers,
                                          s->o->time_trace_granularity, &scan, &s->read, &message);
  while (slots-- > 0)
    mtpc_budget_release(s->o->budget);
  if (status == MTPC_ERR_INPUT) {
    char *text = mtpc_asprintf("%s: invalid bitcode: %s", s->name, message);
    free(message);
    return fail(s->r, MTPC_ERR_INPUT, text);
  }
  free(message);
  if (status != MTPC_OK)
    return out_of_memory(s->r);
  s->module = s->read.modules[0];
  s->has_graph = 1;
  return MTPC_OK;
}

mtpc_status mtpc_compile_bitcode(const void *data, size_t size, const char *name,
                                 const mtpc_options *options, mtpc_result **result) {
  session s;
  mtpc_status status = begin(&s, options, result);
  mtpc_result *r = s.r;
  if (status != MTPC_OK) {
    end_session(&s);
    return status;
  }
  s.bitcode = data;
  s.bitcode_size = size;
  s.name = mtpc_strdup(name ? name : "<buffer>");
  if (!s.name) {
    status = out_of_memory(r);
    end_session(&s);
    return status;
  }
  double start = mtpc_now_seconds();
  enter_phase(s.o, "read");
  mtpc_bridge_time_trace_begin("mtpc read", s.name);
  status = read_module(&s, data, size);
  mtpc_bridge_time_trace_end();
  r->stats.read_seconds = mtpc_now_seconds() - start;
  if (status == MTPC_OK)
    status = run_session(&s);
  end_session(&s);
  return status;
}

mtpc_status mtpc_compile_module(LLVMModuleRef module, const mtpc_options *options,
                                mtpc_result **result) {
  session s;
  mtpc_status status = begin(&s, options, result);
  if (status != MTPC_OK) {
    end_session(&s);
    return status;
  }
  size_t len = 0;
  const char *id = LLVMGetModuleIdentifier(module, &len);
  s.module = module;
  s.name = mtpc_strndup(id, len);
  status = s.name ? run_session(&s) : out_of_memory(s.r);
  end_session(&s);
  return status;
}

int mtpc_module_can_split(LLVMModuleRef module, const mtpc_options *o, char **reason) {
  mtpc_init_llvm();
  const char *triple = o && o->triple ? o->triple : LLVMGetTarget(module);
  int can = !(triple && *triple && !mtpc_bridge_triple_is_elf(triple));
  if (reason)
    *reason = can ? NULL : mtpc_strdup("the target's object format is not ELF");
  return can;
}

/* Hands the result's message to the caller (free()). */
static mtpc_status take_message(mtpc_status status, mtpc_result *r, char **message) {
  if (message)
    *message = status == MTPC_OK || !r ? NULL : r->message;
  else if (r)
    free(r->message);
  if (r)
    r->message = NULL;
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

mtpc_status mtpc_print_plan(LLVMModuleRef module, const mtpc_options *options, FILE *out,
                            char **message) {
  session s;
  mtpc_result *r = NULL;
  mtpc_status status = begin(&s, options, &r);
  if (status == MTPC_OK) {
    size_t len = 0;
    const char *id = LLVMGetModuleIdentifier(module, &len);
    s.module = module;
    s.name = mtpc_strndup(id, len);
    status = s.name ? print_session_plan(&s, out) : out_of_memory(s.r);
  }
  end_session(&s);
  return take_message(status, r, message);
}

mtpc_status mtpc_print_plan_bitcode(const void *data, size_t size, const char *name,
                                    const mtpc_options *options, FILE *out, char **message) {
  session s;
  mtpc_result *r = NULL;
  mtpc_status status = begin(&s, options, &r);
  if (status == MTPC_OK) {
    s.bitcode = data;
    s.bitcode_size = size;
    s.name = mtpc_strdup(name ? name : "<buffer>");
    enter_phase(s.o, "read");
    mtpc_bridge_time_trace_begin("mtpc read", s.name ? s.name : "");
    status = s.name ? read_module(&s, data, size) : out_of_memory(r);
    mtpc_bridge_time_trace_end();
  }
  if (status == MTPC_OK)
    status = print_session_plan(&s, out);
  end_session(&s);
  return take_message(status, r, message);
}
