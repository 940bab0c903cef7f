#define _GNU_SOURCE
#include "worker.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/module.h"
#include "lto-backend/cache/cache.h"
#include "lto-backend/cache/cache_masks.h"
#include "lto-backend/codegen/pipeline.h"
#include "lto-backend/codegen/remarks.h"
#include "lto-backend/partition/debug_info.h"
#include "lto-backend/partition/partition.h"
#include "job_account.h"
#include "support/fault.h"
#include "support/support.h"
#include "support/time_trace.h"

typedef struct worker_diag {
  mtpc_reporter *reporter;
  int error;         /* LLVM reported an error */
  char *first_error; /* its text; NULL when memory ran out */
} worker_diag;

/* LLVM's default handler exits the process on an error; record it instead. */
static void on_llvm_diagnostic(LLVMDiagnosticInfoRef info, void *user) {
  worker_diag *d = user;
  LLVMDiagnosticSeverity severity = LLVMGetDiagInfoSeverity(info);
  if (severity != LLVMDSError && severity != LLVMDSWarning)
    return;
  char *text = LLVMGetDiagInfoDescription(info);
  if (severity == LLVMDSError && !d->error) {
    d->error = 1;
    d->first_error = mtpc_strdup(text);
  } else if (severity == LLVMDSWarning)
    mtpc_emit_diag(d->reporter, MTPC_WARNING, "%s", text);
  LLVMDisposeMessage(text);
}

/* These two return non-zero when memory runs out. */
static int emit_partition_ir(const mtpc_codegen_config *config, LLVMModuleRef module,
                             uint32_t partition) {
  const char *dir = config->options->emit_partitions_dir;
  char *path = partition == MTPC_NONE ? mtpc_asprintf("%s/unsplit.ll", dir)
                                      : mtpc_asprintf("%s/part%u.ll", dir, partition);
  if (!path)
    return 1;
  char *error = NULL;
  if (LLVMPrintModuleToFile(module, path, &error)) {
    mtpc_emit_diag(config->reporter, MTPC_WARNING, "cannot write '%s': %s", path, error);
    LLVMDisposeMessage(error);
  }
  free(path);
  return 0;
}

char *mtpc_partition_file_name(const char *base, uint32_t partition) {
  if (partition == 0 || partition == MTPC_NONE)
    return mtpc_strdup(base);
  size_t len = strlen(base);
  if (len >= 4 && strcmp(base + len - 4, ".dwo") == 0)
    return mtpc_asprintf("%.*s.part%u.dwo", (int)(len - 4), base, partition);
  return mtpc_asprintf("%s.part%u", base, partition);
}

/* --save-temps: the partition's module at one stage, as LLVM's LTO saves a
 * whole module's. */
static int save_temp(const mtpc_codegen_config *config, LLVMModuleRef module, uint32_t partition,
                     const char *stage) {
  const char *prefix = config->options->save_temps_prefix;
  if (!prefix)
    return 0;
  char *path = partition == MTPC_NONE ? mtpc_asprintf("%s%s.bc", prefix, stage)
                                      : mtpc_asprintf("%spart%u.%s.bc", prefix, partition, stage);
  if (!path)
    return 1;
  if (LLVMWriteBitcodeToFile(module, path) != 0)
    mtpc_emit_diag(config->reporter, MTPC_WARNING, "cannot write '%s'", path);
  free(path);
  return 0;
}

/* The .dwo name the job's skeleton unit records (NULL: no split DWARF). */
static const char *skeleton_dwo_name(const mtpc_codegen_config *config, const mtpc_job *job) {
  return job->dwo_name ? job->dwo_name : config->dwo_name;
}

static int codegen(const mtpc_codegen_config *config, LLVMModuleRef module,
                   LLVMTargetMachineRef machine, mtpc_job *job) {
  if (mtpc_fault_codegen(config->faults,
                         job->partition == MTPC_NONE ? 0 : job->partition)) {
    job->message = mtpc_strdup("injected fault (MTPC_FAULT)");
    return 1;
  }
  return mtpc_bridge_codegen(config->settings, module, machine,
                             skeleton_dwo_name(config, job),
                             job->dwo_output != NULL, &job->object, &job->object_size,
                             &job->dwo, &job->dwo_size, &job->message);
}

static LLVMModuleRef load_module(const mtpc_codegen_config *config, LLVMContextRef context,
                                 const mtpc_bitcode_view *view, char **message) {
  LLVMModuleRef module = NULL;
  if (view->odr_types)
    mtpc_bridge_unique_odr_types(context);
  if (mtpc_bridge_open_lazily(context, view->data, view->size, config->module_name,
                              view->metadata_on_demand, &module, message))
    return NULL;
  return module;
}

/* `message` NULL: memory ran out (as it does when the message cannot be
 * made), which no unsplit compile would get past. */
static void fail_job(mtpc_job *job, mtpc_job_failure failure, char *message, const char *stage) {
  char *newline = message ? strchr(message, '\n') : NULL; /* one line: drop LLVM's excerpt */
  if (newline)
    *newline = '\0';
  if (!message)
    job->message = NULL;
  else if (job->partition == MTPC_NONE)
    job->message = mtpc_asprintf("%s: %s", stage, message);
  else
    job->message = mtpc_asprintf("partition %u: %s: %s", job->partition, stage, message);
  job->failure = job->message ? failure : MTPC_JOB_NO_MEMORY;
  free(message);
}

static void job_out_of_memory(mtpc_job *job) { fail_job(job, MTPC_JOB_NO_MEMORY, NULL, NULL); }

/* The job's split DWARF names; non-zero when memory runs out. */
/* The job's split DWARF names: the module's when the partitions' .dwo
 * files are merged into one (as their objects are), else its own. */
static int name_dwo(const mtpc_codegen_config *config, mtpc_job *job) {
  if (!config->dwo_name || !config->dwo_output)
    return 0;
  uint32_t partition = config->options->merge ? 0 : job->partition;
  job->dwo_name = mtpc_partition_file_name(config->dwo_name, partition);
  job->dwo_output = mtpc_partition_file_name(config->dwo_output, partition);
  return !job->dwo_name || !job->dwo_output;
}

static int form_module(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *job,
                       LLVMModuleRef module, const mtpc_bitcode_view *view) {
  char *message = NULL;
  if (name_dwo(config, job)) {
    job_out_of_memory(job);
    return 1;
  }
  int failed = plan ? mtpc_make_partition(module, plan, job->partition, config->options->merge,
                                          view, &message)
                    : mtpc_bridge_materialize_all(module, &message);
  if (failed) {
    fail_job(job, plan ? MTPC_JOB_SPLIT_FAILED : MTPC_JOB_FAILED, message, "splitting");
    return 1;
  }
  if (config->options->triple)
    LLVMSetTarget(module, config->options->triple);
  if (config->options->emit_partitions_dir &&
      emit_partition_ir(config, module, job->partition)) {
    job_out_of_memory(job);
    return 1;
  }
  if (config->options->verify && LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
    char *copy = mtpc_strdup(message);
    LLVMDisposeMessage(message);
    fail_job(job, plan ? MTPC_JOB_SPLIT_FAILED : MTPC_JOB_FAILED, copy, "verifier");
    return 1;
  }
  return 0;
}

/* A copy of LLVM's first error, or NULL when memory ran out. */
static char *llvm_error(const worker_diag *diag) {
  return diag->first_error ? mtpc_strdup(diag->first_error) : NULL;
}

/* Between optimization and code generation; non-zero when memory runs out. */
static int finish_optimized(const mtpc_codegen_config *config, LLVMModuleRef module,
                            uint32_t partition) {
  return save_temp(config, module, partition, "4.opt") || mtpc_finish_debug_info(module) ||
         save_temp(config, module, partition, "5.precodegen");
}

/* Optimization and code generation of a formed partition; non-zero when
 * the job failed. *optimized: when optimization ended. */
static int generate(const mtpc_codegen_config *config, mtpc_job *job,
                    LLVMModuleRef module, LLVMContextRef context, worker_diag *d,
                    const char *detail, mtpc_job_account *account, double *optimized) {
  char *message = NULL;
  double cpu = mtpc_thread_cpu_seconds();
  LLVMTargetMachineRef machine =
      mtpc_bridge_create_target_machine(config->settings, module, &message);
  job->stats.target_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
  if (!machine) {
    fail_job(job, MTPC_JOB_FAILED, message, "target");
    return 1;
  }
  int failed = 0;
  mtpc_bridge_remarks *remarks = mtpc_bridge_remarks_begin(config->settings, context, &message);
  if (message) {
    fail_job(job, MTPC_JOB_FAILED, message, "remarks");
    failed = 1;
  }
  if (!failed && save_temp(config, module, job->partition, "3.import")) {
    job_out_of_memory(job);
    failed = 1;
  }
  if (!failed) {
    mtpc_bridge_time_trace_begin("mtpc optimize", detail);
    failed = mtpc_bridge_optimize(config->settings, module, machine,
                                  account ? &account->work : NULL, &message) ||
             d->error;
    mtpc_bridge_time_trace_end();
    if (failed)
      fail_job(job, MTPC_JOB_FAILED, message ? message : llvm_error(d), "optimizing");
  }
  *optimized = mtpc_now_seconds();
  if (!failed && finish_optimized(config, module, job->partition)) {
    job_out_of_memory(job);
    failed = 1;
  }
  /* The account's: the same code generation without the clones, first. */
  double without_clones = -1;
  if (!failed && account && account->clone_count && !config->options->emit_llvm)
    account->own_cpu_seconds = mtpc_job_account_codegen_without_clones(
        account, config->settings, module, machine, &without_clones);
  if (!failed) {
    mtpc_bridge_time_trace_begin("mtpc codegen", detail);
    cpu = mtpc_thread_cpu_seconds();
    if (config->options->emit_llvm) /* the optimized IR stands for the object */
      failed = !(job->object = mtpc_module_bitcode(module, &job->object_size));
    else
      failed = codegen(config, module, machine, job);
    job->stats.codegen_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
    if (without_clones >= 0)
      job->stats.codegen_clone_cpu_seconds = job->stats.codegen_cpu_seconds - without_clones;
    mtpc_bridge_time_trace_end();
    if (!failed && d->error) {
      failed = 1;
      fail_job(job, MTPC_JOB_FAILED, llvm_error(d), "code generation");
    } else if (failed) {
      fail_job(job, MTPC_JOB_FAILED, job->message, "code generation");
    }
  }
  if (remarks && mtpc_bridge_remarks_end(remarks, &job->remarks, &job->remarks_size) &&
      !failed) {
    job_out_of_memory(job);
    failed = 1;
  }
  LLVMDisposeTargetMachine(machine);
  return failed;
}

/* 1 and the job's object on a hit, 0 on a miss (*key then says where its
 * object goes), -1 when memory ran out. */
static int look_up(const mtpc_codegen_config *config, LLVMModuleRef module, mtpc_job *job,
                   mtpc_cache_key *key) {
  int hit = mtpc_cache_key_of(config->cache, module, skeleton_dwo_name(config, job), key)
                ? -1
                : mtpc_cache_lookup(config->cache, key, &job->object, &job->object_size,
                                    &job->dwo, &job->dwo_size);
  if (hit < 0)
    job_out_of_memory(job);
  job->stats.cache_hit = hit > 0;
  return hit;
}

static void compile_job(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *job) {
  char detail[32];
  snprintf(detail, sizeof(detail), "partition %d", job->partition == MTPC_NONE ? -1 : (int)job->partition);
  mtpc_bridge_time_trace_begin("mtpc partition", detail);
  worker_diag diag = {config->reporter, 0, NULL};
  LLVMContextRef context = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(context, on_llvm_diagnostic, &diag);
  /* Names stay for IR that people read (--emit-partitions, --save-temps). */
  LLVMContextSetDiscardValueNames(context, mtpc_bridge_settings_describe(config->settings)->discard_names &&
                                               !config->options->emit_partitions_dir);
  char *message = NULL;
  double start = mtpc_now_seconds(), cpu_start = mtpc_thread_cpu_seconds();
  uint64_t memory_mark = mtpc_thread_memory_begin();

  mtpc_bridge_time_trace_begin("mtpc load", detail);
  mtpc_bitcode_view view;
  LLVMModuleRef module = NULL;
  int failed = mtpc_bitcode_view_open(config->bitcode, job->partition, &view, &message);
  if (!failed)
    failed = !(module = load_module(config, context, &view, &message));
  if (failed)
    fail_job(job, MTPC_JOB_FAILED, message, "loading");
  else
    failed = form_module(config, plan, job, module, &view);
  mtpc_bridge_time_trace_end();
  double loaded = mtpc_now_seconds();
  job->stats.load_cpu_seconds = mtpc_thread_cpu_seconds() - cpu_start;

  mtpc_cache_key key;
  mtpc_cache_masks *masks = NULL;
  int hit = 0;
  if (!failed && config->cache) {
    /* Renamed back, an object is ObjCopy's; a merged or linked one is laid
     * out again, but an unsplit object is the output as it is. */
    int names = mtpc_cache_masks_names(config->cache) &&
                !(job->partition == MTPC_NONE && config->options->merge);
    if (mtpc_cache_mask_module(module, names, mtpc_cache_masks_checksums(config->cache),
                               &masks)) {
      job_out_of_memory(job);
      hit = -1;
    } else {
      hit = look_up(config, module, job, &key);
    }
    failed = hit < 0;
  }
  double optimized = loaded;
  mtpc_job_account account_of_job, *account = NULL;
  double account_cpu_seconds = 0; /* the account's own work, not the job's */
  if (!failed && !hit && config->options->collect_stats == MTPC_STATS_ACCOUNT) {
    if (mtpc_job_account_begin(&account_of_job, plan, job->partition)) {
      job_out_of_memory(job);
      failed = 1;
    } else {
      account = &account_of_job;
    }
  }
  if (!failed && !hit)
    failed = generate(config, job, module, context, &diag, detail, account, &optimized);
  if (account) {
    job->stats.opt_own_cpu_seconds = account->work.own;
    job->stats.opt_copy_cpu_seconds = account->work.copies;
    job->stats.opt_clone_cpu_seconds = account->work.clones;
    job->stats.opt_module_cpu_seconds = account->work.module;
    account_cpu_seconds = account->own_cpu_seconds;
    mtpc_job_account_end(account);
  }
  if (!failed && !hit && config->cache) /* stored as compiled, with the placeholders */
    mtpc_cache_store(config->cache, &key, job->object, job->object_size, job->dwo,
                     job->dwo_size);
  if (!failed && mtpc_cache_unmask_object(masks, &job->object, &job->object_size, job->dwo,
                                          job->dwo_size, &message)) {
    failed = 1;
    if (message)
      fail_job(job, MTPC_JOB_FAILED, message, "renaming");
    else
      job_out_of_memory(job);
  }
  mtpc_cache_masks_free(masks);
  double done = mtpc_now_seconds();
  job->stats.rss_bytes = mtpc_current_rss();
  job->stats.load_seconds = loaded - start;
  job->stats.opt_seconds = optimized - loaded;
  job->stats.codegen_seconds = done - optimized;
  job->stats.object_bytes = job->object_size;
  job->stats.memory_bytes = mtpc_thread_memory_used(memory_mark);

  mtpc_bridge_time_trace_begin("mtpc release", detail);
  double cpu_release = mtpc_thread_cpu_seconds();
  mtpc_release_context(context, module);
  mtpc_bitcode_view_close(&view);
  job->stats.release_cpu_seconds = mtpc_thread_cpu_seconds() - cpu_release;
  mtpc_bridge_time_trace_end();
  job->stats.release_seconds = mtpc_now_seconds() - done;
  job->stats.cpu_seconds = mtpc_thread_cpu_seconds() - cpu_start - account_cpu_seconds;
  free(diag.first_error);
  mtpc_bridge_time_trace_end();
}

typedef struct pool {
  int trace; /* the calling thread records a time trace */
  const mtpc_codegen_config *config;
  const mtpc_plan *plan;
  mtpc_job *jobs;
  uint32_t *order;
  uint32_t count;
  atomic_uint next;
  const mtpc_chore *chore;
  atomic_int chore_taken;
  /* The memory limit: what the process held when the jobs began, and the
   * estimates of the admitted threads. */
  pthread_mutex_t memory_lock;
  pthread_cond_t memory_freed;
  uint64_t base_memory;
  uint64_t running_memory;
  unsigned running;
  unsigned memory_waits; /* threads that waited to be admitted */
} pool;

/* What a partition adds to the process's RSS while a worker thread of its
 * own compiles it (its malloc arena, context, target machine and module):
 * a fixed part and a part per IR instruction, each rounded up from what
 * bench/memory.sh measures (docs/api.rst has the figures). */
#define MEMORY_PER_INSTRUCTION 2000u
#define MEMORY_PER_JOB (8u << 20)

uint64_t mtpc_job_memory_estimate(uint64_t cost, uint64_t imported_cost) {
  return (cost + imported_cost) * MEMORY_PER_INSTRUCTION + MEMORY_PER_JOB;
}

/* A worker thread keeps what its malloc arena grew to for its first (and
 * largest, since jobs go largest first) job until it exits, and a thread
 * started later reuses an exited one's arena. So the limit admits threads,
 * not jobs: a thread starts taking jobs only while the memory at the start
 * plus the estimates of the admitted threads' first jobs stays under it, or
 * when no other thread is admitted. 0 when no job is left for it. */
static int admit_thread(pool *p, uint64_t *estimate) {
  uint64_t limit = p->config->options->memory_limit;
  pthread_mutex_lock(&p->memory_lock);
  int waited = 0;
  for (;;) {
    unsigned next = atomic_load(&p->next);
    if (next >= p->count) {
      p->memory_waits += waited;
      pthread_mutex_unlock(&p->memory_lock);
      return 0;
    }
    *estimate = p->jobs[p->order[next]].memory_estimate;
    if (p->running == 0 || p->base_memory + p->running_memory + *estimate <= limit)
      break;
    waited = 1;
    pthread_cond_wait(&p->memory_freed, &p->memory_lock);
  }
  p->running++;
  p->running_memory += *estimate;
  p->memory_waits += waited;
  pthread_mutex_unlock(&p->memory_lock);
  return 1;
}

static void retire_thread(pool *p, uint64_t estimate) {
  mtpc_return_free_memory();
  pthread_mutex_lock(&p->memory_lock);
  p->running--;
  p->running_memory -= estimate;
  pthread_cond_broadcast(&p->memory_freed);
  pthread_mutex_unlock(&p->memory_lock);
}

static uint64_t partition_cost(const mtpc_plan *plan, uint32_t partition) {
  return plan->partitions[partition].cost + plan->partitions[partition].imported_cost;
}

/* One partition, holding a slot of the caller's budget if there is one; the
 * budget serves the costliest waiting partition of all its compiles first. */
static void run_job(pool *p, unsigned i) {
  mtpc_budget *budget = p->config->options->budget;
  if (budget)
    mtpc_budget_acquire_for(budget, p->plan ? partition_cost(p->plan, p->order[i]) : UINT64_MAX);
  compile_job(p->config, p->plan, &p->jobs[p->order[i]]);
  if (budget)
    mtpc_budget_release(budget);
}

static void run_chore(pool *p) {
  if (!p->chore || atomic_exchange(&p->chore_taken, 1))
    return;
  mtpc_budget *budget = p->config->options->budget;
  /* It frees memory, and is short: it goes before every partition. */
  if (budget)
    mtpc_budget_acquire_for(budget, UINT64_MAX);
  mtpc_bridge_time_trace_begin(p->chore->name, "");
  p->chore->run(p->chore->arg);
  mtpc_bridge_time_trace_end();
  if (budget)
    mtpc_budget_release(budget);
}

static void *pool_thread(void *arg) {
  pool *p = arg;
  int limited = p->config->options->memory_limit != 0;
  uint64_t estimate = 0;
  if (limited && !admit_thread(p, &estimate))
    return NULL;
  if (p->trace)
    mtpc_bridge_time_trace_thread_init(p->config->options->time_trace_granularity);
  run_chore(p);
  for (;;) {
    unsigned i = atomic_fetch_add(&p->next, 1);
    if (i >= p->count)
      break;
    run_job(p, i);
  }
  if (p->trace)
    mtpc_bridge_time_trace_thread_finish();
  if (limited)
    retire_thread(p, estimate);
  return NULL;
}

static int larger_partition_first(const void *a, const void *b, void *arg) {
  const mtpc_plan *plan = arg;
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  uint64_t cx = partition_cost(plan, x), cy = partition_cost(plan, y);
  if (cx != cy)
    return cx > cy ? -1 : 1;
  return x < y ? -1 : (x > y);
}

int mtpc_run_jobs(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *jobs,
                  uint32_t job_count, unsigned threads, const mtpc_chore *chore,
                  uint64_t *memory_waits) {
  pool p = {.trace = mtpc_bridge_time_trace_active(), .config = config, .plan = plan,
            .jobs = jobs, .order = mtpc_alloc(job_count, sizeof(uint32_t)), .count = job_count,
            .chore = chore};
  if (!p.order)
    return -1;
  pthread_mutex_init(&p.memory_lock, NULL);
  pthread_cond_init(&p.memory_freed, NULL);
  if (config->options->memory_limit) {
    mtpc_return_free_memory();
    p.base_memory = mtpc_current_rss();
  }
  for (uint32_t i = 0; i < job_count; i++)
    p.order[i] = i;
  /* LLVM prints passes to one process-wide stream: one partition at a time,
   * in order, keeps each partition's log whole. */
  int print_passes = mtpc_bridge_settings_describe(config->settings)->debug_passes;
  if (plan && !print_passes)
    qsort_r(p.order, job_count, sizeof(uint32_t), larger_partition_first, (void *)plan);
  if (print_passes || threads > job_count)
    threads = print_passes ? 1 : job_count;
  if (threads <= 1) {
    run_chore(&p);
    for (uint32_t i = 0; i < job_count; i++)
      run_job(&p, i);
    goto done;
  }
  pthread_t *tids = mtpc_alloc(threads, sizeof(pthread_t));
  if (!tids)
    threads = 0; /* the calling thread compiles them all, as when no thread starts */
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  /* LLVM's passes recurse; give workers the stack a main thread would have. */
  pthread_attr_setstacksize(&attr, 8u << 20);
  unsigned started = 0;
  for (; started < threads; started++)
    if (pthread_create(&tids[started], &attr, pool_thread, &p) != 0)
      break;
  pthread_attr_destroy(&attr);
  if (started == 0) {
    p.trace = 0;
    pool_thread(&p);
  }
  for (unsigned t = 0; t < started; t++)
    pthread_join(tids[t], NULL);
  run_chore(&p); /* when the memory limit admitted no thread before the jobs ran out */
  free(tids);
done:
  pthread_mutex_destroy(&p.memory_lock);
  pthread_cond_destroy(&p.memory_freed);
  free(p.order);
  *memory_waits += p.memory_waits;
  return 0;
}
