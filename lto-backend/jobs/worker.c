/* The pool of worker threads that compile a plan's partitions
 * (worker.h): each partition's front, then its back once the partitions
 * before it that share its surviving clones have had theirs
 * (clone_keepers.h). */
#define _GNU_SOURCE
#include "worker.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "clone_keepers.h"
#include "partition_job.h"
#include "support/support.h"
#include "support/time_trace.h"

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
  /* The phases (under `lock`; `changed` signals a front's end): jobs in
   * `order` up to `next` have had their fronts started; of those, a
   * pending one (runs[i] set) waits for its back. */
  pthread_mutex_t lock;
  pthread_cond_t changed;
  mtpc_clone_keepers *keepers; /* NULL: no plan, or memory ran out */
  mtpc_job_run **runs;
  uint8_t **flags;     /* per job: its candidates' survived[], drop[], then later[] */
  unsigned pending, fronts_running;
  unsigned pending_limit; /* pending runs held before a thread waits instead */
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

static void acquire_slot(pool *p, unsigned i) {
  mtpc_budget *budget = p->config->options->budget;
  if (budget)
    mtpc_budget_acquire_for(budget, p->plan ? partition_cost(p->plan, p->order[i]) : UINT64_MAX);
}

static void release_slot(pool *p) {
  if (p->config->options->budget)
    mtpc_budget_release(p->config->options->budget);
}

static uint32_t candidates_of(const pool *p, unsigned i, const uint32_t **nodes) {
  *nodes = NULL;
  if (!p->keepers || p->jobs[p->order[i]].partition == MTPC_NONE)
    return 0;
  return mtpc_clone_keepers_candidates(p->keepers, p->jobs[p->order[i]].partition, nodes);
}

/* A front, holding a slot of the caller's budget if there is one (the
 * budget serves the costliest waiting partition of all its compiles
 * first); called without the lock, returns with it. */
static void run_front(pool *p, unsigned i) {
  mtpc_job *job = &p->jobs[p->order[i]];
  const uint32_t *candidates;
  uint32_t count = candidates_of(p, i, &candidates);
  p->flags[i] = mtpc_zalloc(count ? 3 * (size_t)count : 1, 1);
  uint8_t *later = count && p->flags[i] ? p->flags[i] + 2 * (size_t)count : NULL;
  if (later)
    mtpc_clone_keepers_later(p->keepers, job->partition, later);
  acquire_slot(p, i);
  mtpc_job_run *run = NULL;
  if (p->flags[i])
    run = mtpc_job_front(p->config, p->plan, job, candidates,
                         count ? mtpc_clone_keepers_by_use(p->keepers, job->partition) : NULL,
                         count, later, p->flags[i]);
  else
    job->failure = MTPC_JOB_NO_MEMORY;
  release_slot(p);
  pthread_mutex_lock(&p->lock);
  if (count)
    mtpc_clone_keepers_record(p->keepers, job->partition, run ? p->flags[i] : NULL);
  p->runs[i] = run;
  p->pending += run != NULL;
  if (!run) { /* no back to free them */
    free(p->flags[i]);
    p->flags[i] = NULL;
  }
  p->fronts_running--;
  pthread_cond_broadcast(&p->changed);
}

/* The first pending run whose drops are known, or -1. */
static int ready_back(const pool *p) {
  for (unsigned i = 0; i < atomic_load(&p->next); i++) {
    if (!p->runs[i])
      continue;
    const uint32_t *candidates;
    if (!candidates_of(p, i, &candidates) ||
        mtpc_clone_keepers_ready(p->keepers, p->jobs[p->order[i]].partition))
      return (int)i;
  }
  return -1;
}

/* Called with the lock, returns with it. */
static void run_back(pool *p, unsigned i) {
  mtpc_job_run *run = p->runs[i];
  const uint32_t *candidates;
  uint32_t count = candidates_of(p, i, &candidates);
  uint8_t *drop = count ? p->flags[i] + count : NULL;
  if (count)
    mtpc_clone_keepers_drops(p->keepers, p->jobs[p->order[i]].partition, drop);
  p->runs[i] = NULL;
  p->pending--;
  pthread_mutex_unlock(&p->lock);
  acquire_slot(p, i);
  mtpc_job_back(run, drop);
  release_slot(p);
  free(p->flags[i]);
  p->flags[i] = NULL;
  pthread_mutex_lock(&p->lock);
}

/* Backs first, as soon as they are ready, so that few partitions wait with
 * their contexts held; a thread that can neither start a back nor a front
 * (the limit of pending runs reached) waits for a front to end. Some front
 * is then running, so that the pool never stalls. */
static void take_jobs(pool *p) {
  pthread_mutex_lock(&p->lock);
  for (;;) {
    int back = ready_back(p);
    if (back >= 0) {
      run_back(p, (unsigned)back);
      continue;
    }
    unsigned next = atomic_load(&p->next);
    if (next < p->count && (p->pending < p->pending_limit || p->fronts_running == 0)) {
      atomic_store(&p->next, next + 1);
      p->fronts_running++;
      pthread_mutex_unlock(&p->lock);
      run_front(p, next);
      continue;
    }
    if (next >= p->count && p->pending == 0)
      break;
    pthread_cond_wait(&p->changed, &p->lock);
  }
  pthread_mutex_unlock(&p->lock);
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
  take_jobs(p);
  if (p->trace)
    mtpc_bridge_time_trace_thread_finish();
  if (limited)
    retire_thread(p, estimate);
  return NULL;
}

static int compile_order(const void *a, const void *b, void *plan) {
  return mtpc_plan_partition_order(plan, *(const uint32_t *)a, *(const uint32_t *)b);
}

static void free_pool(pool *p) {
  pthread_mutex_destroy(&p->memory_lock);
  pthread_cond_destroy(&p->memory_freed);
  pthread_mutex_destroy(&p->lock);
  pthread_cond_destroy(&p->changed);
  mtpc_clone_keepers_free(p->keepers);
  free(p->runs);
  free(p->flags);
  free(p->order);
}

/* Every partition of the plan is a job here: clones can be left to the
 * partition that keeps them. */
static int set_up_keepers(pool *p) {
  if (!p->plan || p->count != p->plan->partition_count)
    return 0;
  p->keepers = mtpc_clone_keepers_new(p->plan);
  return p->keepers == NULL;
}

int mtpc_run_jobs(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *jobs,
                  uint32_t job_count, unsigned threads, const mtpc_chore *chore,
                  uint64_t *memory_waits) {
  pool p = {.trace = mtpc_bridge_time_trace_active(), .config = config, .plan = plan,
            .jobs = jobs, .order = mtpc_alloc(job_count, sizeof(uint32_t)), .count = job_count,
            .chore = chore, .runs = mtpc_zalloc(job_count, sizeof(mtpc_job_run *)),
            .flags = mtpc_zalloc(job_count, sizeof(uint8_t *))};
  pthread_mutex_init(&p.memory_lock, NULL);
  pthread_cond_init(&p.memory_freed, NULL);
  pthread_mutex_init(&p.lock, NULL);
  pthread_cond_init(&p.changed, NULL);
  if (!p.order || !p.runs || !p.flags || set_up_keepers(&p)) {
    free_pool(&p);
    return -1;
  }
  if (config->options->memory_limit) {
    mtpc_return_free_memory();
    p.base_memory = mtpc_current_rss();
  }
  for (uint32_t i = 0; i < job_count; i++)
    p.order[i] = i;
  if (plan)
    qsort_r(p.order, job_count, sizeof(uint32_t), compile_order, (void *)plan);
  /* LLVM prints passes to one process-wide stream: one partition at a time
   * keeps each partition's log whole (in the plan's order, each one's back
   * is ready when its front ends). */
  int print_passes = mtpc_bridge_settings_describe(config->settings)->debug_passes;
  if (print_passes || threads > job_count)
    threads = print_passes ? 1 : job_count;
  p.pending_limit = threads > 1 ? threads : 1;
  if (threads <= 1) {
    run_chore(&p);
    take_jobs(&p);
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
  *memory_waits += p.memory_waits;
  free_pool(&p);
  return 0;
}
