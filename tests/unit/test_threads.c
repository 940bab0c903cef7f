/* Compiles from several threads at once, and LLVM options per compile. Also
 * built with ThreadSanitizer (MTPC_SANITIZE=thread, ctest label tsan). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Support.h>

#include "check.h"
#include "support/budget.h"
#include "mtpc/mtpc.h"

/* `functions` functions, each with a loop of a constant trip count (which
 * -unroll-threshold decides to unroll or not) and a call to the next one. */
static char *module_text(unsigned functions, unsigned seed) {
  size_t cap = 4096 + functions * 1024;
  char *text = malloc(cap);
  size_t n = (size_t)snprintf(text, cap, "target triple = \"x86_64-pc-linux-gnu\"\n");
  for (unsigned f = 0; f < functions; f++) {
    n += (size_t)snprintf(
        text + n, cap - n,
        "define i32 @f%u(ptr %%a, i32 %%x) {\n"
        "entry:\n  br label %%loop\n"
        "loop:\n"
        "  %%i = phi i32 [ 0, %%entry ], [ %%next, %%loop ]\n"
        "  %%acc = phi i32 [ %%x, %%entry ], [ %%sum, %%loop ]\n"
        "  %%p = getelementptr i32, ptr %%a, i32 %%i\n"
        "  %%v = load i32, ptr %%p\n"
        "  %%m = mul i32 %%v, %u\n"
        "  %%sum = add i32 %%acc, %%m\n"
        "  %%next = add i32 %%i, 1\n"
        "  %%done = icmp eq i32 %%next, %u\n"
        "  br i1 %%done, label %%exit, label %%loop\n"
        "exit:\n",
        f, seed * 7 + f + 3, 24 + (seed + f) % 16);
    if (f + 1 < functions)
      n += (size_t)snprintf(text + n, cap - n,
                            "  %%r = call i32 @f%u(ptr %%a, i32 %%sum)\n  ret i32 %%r\n}\n", f + 1);
    else
      n += (size_t)snprintf(text + n, cap - n, "  ret i32 %%sum\n}\n");
  }
  return text;
}

typedef struct compile_job {
  unsigned functions, seed;
  const char *const *llvm_options;
  unsigned llvm_option_count;
  mtpc_status status;
  void *object;
  size_t size;
  char message[256];
} compile_job;

static void compile(compile_job *job) {
  LLVMContextRef ctx = LLVMContextCreate();
  char *text = module_text(job->functions, job->seed);
  LLVMMemoryBufferRef buffer =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(text, strlen(text), "threads.ll");
  free(text);
  LLVMModuleRef m = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(ctx, buffer, &m, &error)) {
    snprintf(job->message, sizeof job->message, "parse: %s", error);
    job->status = MTPC_ERR_INPUT;
    LLVMDisposeMessage(error);
    LLVMContextDispose(ctx);
    return;
  }
  mtpc_options o;
  mtpc_options_init(&o);
  o.jobs = 2;
  o.partitions = 3;
  o.llvm_options = job->llvm_options;
  o.llvm_option_count = job->llvm_option_count;
  mtpc_result *r = NULL;
  job->status = mtpc_compile_module(m, &o, &r);
  snprintf(job->message, sizeof job->message, "%s", mtpc_result_message(r));
  job->object = mtpc_result_take_object(r, &job->size);
  mtpc_result_free(r);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void *compile_thread(void *arg) {
  compile(arg);
  return NULL;
}

static int same_object(const compile_job *a, const compile_job *b) {
  return a->object && b->object && a->size == b->size && !memcmp(a->object, b->object, a->size);
}

static void run_at_once(compile_job *jobs, unsigned count) {
  pthread_t *threads = calloc(count, sizeof(pthread_t));
  for (unsigned i = 0; i < count; i++)
    pthread_create(&threads[i], NULL, compile_thread, &jobs[i]);
  for (unsigned i = 0; i < count; i++)
    pthread_join(threads[i], NULL);
  free(threads);
}

static void free_jobs(compile_job *jobs, unsigned count) {
  for (unsigned i = 0; i < count; i++)
    free(jobs[i].object);
}

/* Eight threads, eight different modules: each object is its serial one. */
static void test_eight_threads(void) {
  enum { N = 8 };
  compile_job serial[N], parallel[N];
  memset(serial, 0, sizeof serial);
  for (unsigned i = 0; i < N; i++) {
    serial[i].functions = 6 + i;
    serial[i].seed = i;
    compile(&serial[i]);
    CHECK_EQ_U(serial[i].status, MTPC_OK);
  }
  memcpy(parallel, serial, sizeof serial);
  for (unsigned i = 0; i < N; i++)
    parallel[i].object = NULL;
  run_at_once(parallel, N);
  for (unsigned i = 0; i < N; i++) {
    CHECK_EQ_U(parallel[i].status, MTPC_OK);
    CHECK(same_object(&serial[i], &parallel[i]));
  }
  free_jobs(serial, N);
  free_jobs(parallel, N);
}

static const char *const unroll_none[] = {"-unroll-threshold=0"};
static const char *const unroll_much[] = {"-unroll-threshold=5000", "-unroll-count=8"};

/* Two threads, one module, different -unroll-threshold: each object is the
 * one the same compile gives alone; the options matter (the objects differ);
 * giving an option again in a later compile works. */
static void test_options_per_compile(void) {
  compile_job alone[3] = {{.functions = 8, .seed = 1},
                          {.functions = 8, .seed = 1, .llvm_options = unroll_none, .llvm_option_count = 1},
                          {.functions = 8, .seed = 1, .llvm_options = unroll_much, .llvm_option_count = 2}};
  for (unsigned i = 0; i < 3; i++) {
    compile(&alone[i]);
    CHECK_EQ_U(alone[i].status, MTPC_OK);
  }
  CHECK(!same_object(&alone[1], &alone[2]));
  CHECK(!same_object(&alone[0], &alone[2]));
  for (unsigned round = 0; round < 3; round++) {
    compile_job together[4] = {alone[1], alone[2], alone[1], alone[0]};
    for (unsigned i = 0; i < 4; i++)
      together[i].object = NULL;
    run_at_once(together, 4);
    CHECK(same_object(&together[0], &alone[1]));
    CHECK(same_object(&together[1], &alone[2]));
    CHECK(same_object(&together[2], &alone[1]));
    CHECK(same_object(&together[3], &alone[0]));
    free_jobs(together, 4);
  }
  /* Afterwards a compile without options is the process's again. */
  compile_job after = {.functions = 8, .seed = 1};
  compile(&after);
  CHECK(same_object(&after, &alone[0]));
  free(after.object);

  static const char *const bad[] = {"-no-such-llvm-option=1"};
  compile_job unknown = {.functions = 2, .llvm_options = bad, .llvm_option_count = 1};
  compile(&unknown);
  CHECK_EQ_U(unknown.status, MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(unknown.message, "unknown LLVM option '-no-such-llvm-option=1'") != NULL);
  static const char *const help[] = {"-help"};
  compile_job ends_process = {.functions = 2, .llvm_options = help, .llvm_option_count = 1};
  compile(&ends_process);
  CHECK_EQ_U(ends_process.status, MTPC_ERR_INVALID_ARGUMENT);
  free_jobs(alone, 3);
}

/* An option the process set itself stays its own: a compile may not change
 * it, other options of a compile do not disturb it, and compiles without
 * options keep seeing it. (Last: it changes the process for good.) */
static void test_process_options_kept(void) {
  compile_job before = {.functions = 8, .seed = 1};
  compile(&before);
  const char *argv[] = {"test_threads", "-unroll-threshold=5000", "-unroll-count=8"};
  LLVMParseCommandLineOptions(3, argv, "");
  compile_job process = {.functions = 8, .seed = 1};
  compile(&process);
  CHECK(!same_object(&before, &process));
  compile_job refused = {.functions = 8, .seed = 1, .llvm_options = unroll_none, .llvm_option_count = 1};
  compile(&refused);
  CHECK_EQ_U(refused.status, MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(refused.message, "'-unroll-threshold' is set for the whole process") != NULL);
  static const char *const other[] = {"-inline-threshold=-1000"};
  compile_job own = {.functions = 8, .seed = 1, .llvm_options = other, .llvm_option_count = 1};
  compile(&own);
  CHECK_EQ_U(own.status, MTPC_OK);
  CHECK(!same_object(&own, &process)); /* it applied */
  compile_job after = {.functions = 8, .seed = 1};
  compile(&after);
  CHECK(same_object(&after, &process));
  free(before.object);
  free(process.object);
  free(own.object);
  free(after.object);
}

typedef struct budget_waiter {
  mtpc_budget *budget;
  uint64_t cost;
  unsigned index;
  unsigned *served; /* the waiters' indexes, in the order the budget served them */
  unsigned *served_count;
  pthread_mutex_t *lock;
} budget_waiter;

static void *wait_for_slot(void *arg) {
  budget_waiter *w = arg;
  mtpc_budget_acquire_for(w->budget, w->cost);
  pthread_mutex_lock(w->lock);
  w->served[(*w->served_count)++] = w->index;
  pthread_mutex_unlock(w->lock);
  mtpc_budget_release(w->budget);
  return NULL;
}

/* Threads queued for the one slot of a budget, in the order of `costs`, are
 * served costliest first, and in the order they came among equal costs. */
static void test_budget_serves_costliest_first(void) {
  static const unsigned costs[] = {3, 9, 0, 9, 5, 1};
  enum { N = sizeof(costs) / sizeof(costs[0]) };
  mtpc_budget *budget = NULL;
  mtpc_budget_new(1, &budget);
  CHECK(budget != NULL);
  mtpc_budget_acquire(budget);
  unsigned served[N], served_count = 0;
  pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
  budget_waiter waiters[N];
  pthread_t threads[N];
  for (unsigned i = 0; i < N; i++) {
    waiters[i] = (budget_waiter){budget, costs[i], i, served, &served_count, &lock};
    pthread_create(&threads[i], NULL, wait_for_slot, &waiters[i]);
    while (mtpc_budget_waiting(budget) != i + 1)
      sched_yield();
  }
  CHECK(!mtpc_budget_try_acquire(budget));
  mtpc_budget_release(budget);
  for (unsigned i = 0; i < N; i++)
    pthread_join(threads[i], NULL);
  static const unsigned expected[] = {1, 3, 4, 0, 5, 2}; /* costs 9 9 5 3 1 0 */
  CHECK(served_count == N);
  CHECK(memcmp(served, expected, sizeof(expected)) == 0);
  CHECK(mtpc_budget_waiting(budget) == 0);
  CHECK(mtpc_budget_try_acquire(budget));
  mtpc_budget_release(budget);
  mtpc_budget_destroy(budget);
}

int main(void) {
  test_budget_serves_costliest_first();
  test_eight_threads();
  test_options_per_compile();
  test_process_options_kept();
  CHECK_SUMMARY();
}
