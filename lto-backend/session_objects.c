/* A session's last stages: the partitions compiled to objects by the
 * workers (worker.h), then handed over merged into one object (merge.h) or
 * apart, with the files beside them (.dwo files, remarks). */
#include <stdlib.h>
#include <string.h>

#include "lto-backend/codegen/remarks.h"
#include "lto-backend/jobs/worker.h"
#include "lto-backend/merge/compress.h"
#include "lto-backend/merge/merge.h"
#include "lto-backend/merge/merge_ir.h"
#include "session.h"
#include "support/files.h"
#include "support/support.h"
#include "support/time_trace.h"
#include "lto-backend/tools.h"

void mtpc_session_give_up_slot(session *s) {
  if (s->o->budget && s->o->caller_holds_slot && !s->slot_given_up) {
    s->slot_given_up = 1;
    mtpc_budget_release(s->o->budget);
  }
}

static void fill_config(session *s, mtpc_codegen_config *c) {
  memset(c, 0, sizeof(*c));
  c->bitcode = s->partition_bitcode;
  c->module_name = s->name;
  c->settings = s->settings;
  c->options = s->o;
  c->faults = s->faults;
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
      return mtpc_result_out_of_memory(s->r);
    st->unsplit_reason = s->r->unsplit_reason;
  }
  st->total_cost = s->plan.total_cost;
  st->duplicated_cost = split ? s->plan.duplicated_cost : 0;
  mtpc_partition_stats *ps = mtpc_zalloc(count, sizeof(mtpc_partition_stats));
  if (!ps)
    return mtpc_result_out_of_memory(s->r);
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
  return mtpc_outputs_add(s->r->files, path, data, size, s->faults, message);
}

/* The compression of the outputs' debug sections: the options', else a
 * lent Config's (whose code generation would have compressed them). */
static const char *compression(session *s) {
  return s->o->compress_debug_sections ? s->o->compress_debug_sections
                                       : mtpc_bridge_settings_describe(s->settings)->compression;
}

/* A .dwo file, its debug sections compressed if the options say so. */
static int add_dwo(session *s, const char *path, const void *dwo, size_t size, char **message) {
  void *packed = NULL;
  size_t packed_size = 0;
  if (mtpc_compress_debug(compression(s), dwo, size, &packed, &packed_size, message))
    return 1;
  int failed = packed ? add_output(s, path, packed, packed_size, message)
                      : add_output(s, path, dwo, size, message);
  free(packed);
  return failed;
}

/* Split DWARF: each job's .dwo, or, merged, the module's one. */
static int add_dwo_files(session *s, const mtpc_job *jobs, uint32_t count, char **message) {
  if (count > 1 && s->o->merge && jobs[0].dwo_output) {
    void *merged = NULL;
    size_t size = 0;
    int failed = mtpc_merge_dwo_files(jobs, count, &merged, &size, message) ||
                 add_dwo(s, jobs[0].dwo_output, merged, size, message);
    free(merged);
    return failed;
  }
  for (uint32_t i = 0; i < count; i++)
    if (jobs[i].dwo_output &&
        add_dwo(s, jobs[i].dwo_output, jobs[i].dwo, jobs[i].dwo_size, message))
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
    return mtpc_result_fail(s->r, MTPC_ERR_OUTPUT, problem);
  return s->o->defer_files ? MTPC_OK : mtpc_result_commit_files(s->r);
}

static mtpc_status gather_objects(session *s, mtpc_job *jobs, uint32_t count, int split) {
  mtpc_result *r = s->r;
  if (!s->o->merge) {
    r->objects = mtpc_zalloc(count, sizeof(mtpc_buffer));
    if (!r->objects)
      return mtpc_result_out_of_memory(r);
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
  int dataflow = mtpc_bridge_settings_describe(s->settings)->names_after_promoted;
  int failed = s->o->emit_llvm
                   ? mtpc_merge_modules(&s->plan, jobs, count, &r->object.data, &r->object.size,
                                        &message)
                   : mtpc_merge_objects(&s->plan, jobs, count, dataflow, s->faults,
                                        &r->object.data, &r->object.size, &r->object_mapped,
                                        &message);
  mtpc_bridge_time_trace_end();
  r->stats.merge_seconds = mtpc_now_seconds() - start;
  return failed ? mtpc_result_fail(r, MTPC_ERR_MERGE, message) : MTPC_OK;
}

/* mtpc_options.compress_debug_sections on an object or .dwo the session
 * owns, replaced by its compressed copy. */
static int compress_owned(session *s, void **data, size_t *size, int *mapped, char **message) {
  void *packed = NULL;
  size_t packed_size = 0;
  if (mtpc_compress_debug(compression(s), *data, *size, &packed, &packed_size, message))
    return 1;
  if (!packed)
    return 0;
  mtpc_release_buffer(*data, *size, mapped && *mapped);
  if (mapped)
    *mapped = 0;
  *data = packed;
  *size = packed_size;
  return 0;
}

/* The objects handed over, their debug sections compressed last. */
static mtpc_status hand_over(session *s, mtpc_job *jobs, uint32_t count, int split) {
  mtpc_status status = gather_objects(s, jobs, count, split);
  if (status != MTPC_OK || s->o->emit_llvm || s->o->emit_assembly ||
      !mtpc_compresses(compression(s)))
    return status;
  mtpc_result *r = s->r;
  char *message = NULL;
  int failed = 0;
  if (s->o->merge)
    failed = compress_owned(s, &r->object.data, &r->object.size, &r->object_mapped, &message);
  for (uint32_t i = 0; !failed && i < r->object_count; i++)
    failed = compress_owned(s, &r->objects[i].data, &r->objects[i].size, NULL, &message);
  return failed ? mtpc_result_fail(r, MTPC_ERR_OUTPUT, message) : MTPC_OK;
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
    return mtpc_result_out_of_memory(s->r);
  uint32_t bad = first_failure(jobs, count, MTPC_JOB_FAILED);
  if (bad == MTPC_NONE)
    bad = first_failure(jobs, count, MTPC_JOB_SPLIT_FAILED);
  if (bad == MTPC_NONE)
    return MTPC_OK;
  mtpc_status status = mtpc_result_fail(s->r, MTPC_ERR_WORKER, jobs[bad].message);
  jobs[bad].message = NULL;
  return status;
}

mtpc_status mtpc_session_compile(session *s) {
  mtpc_codegen_config config;
  fill_config(s, &config);
  int split = s->plan.partition_count > 1 && !s->unsplit_reason;
  /* Below the floor is the plan's choice, which the stats report. */
  if (s->unsplit_reason && s->o->partitions != 1 && !s->plan.below_floor)
    mtpc_emit_diag(&s->reporter, MTPC_WARNING, "%s: compiling unsplit: %s", s->name, s->unsplit_reason);
  unsigned threads = mtpc_resolve_jobs(s->o->jobs);
  if (s->owns_module)
    s->module = NULL; /* one of the read's modules: the workers free them */
  s->r->stats.jobs = threads;
  uint32_t count = split ? s->plan.partition_count : 1;
  double start = mtpc_now_seconds();
  mtpc_session_give_up_slot(s);
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
    return mtpc_result_out_of_memory(s->r);
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
