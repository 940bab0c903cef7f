/* Every allocation the library's C code makes may fail. This test links a
 * copy of the library whose malloc, calloc, realloc and free come here
 * (failing_alloc.h), counts the allocations of one compile, and then runs the
 * compile once per allocation with that one failing. Each run must end with
 * MTPC_ERR_NO_MEMORY and the message "out of memory" and no output, or
 * succeed with the same bytes (a failure the library can work around, as it compiles on the
 * calling thread when it cannot track worker threads). No run may crash or
 * leak what the library allocated.
 *
 * Usage: test_out_of_memory <module.bc> */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "mtpc/mtpc.h"

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

/* The allocations of the library, counted from 1; the one numbered fail_at
 * returns NULL (0: none does). */
static atomic_long allocations;
static atomic_long fail_at;

/* What the library holds: a set of pointers, cleared before each run. */
#define LIVE_SLOTS (1u << 18)
#define TOMBSTONE ((void *)1)
static void *live[LIVE_SLOTS];
static long live_count, live_used;
static int live_overflow;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static size_t slot_of(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 31;
  x *= UINT64_C(0x9e3779b97f4a7c15);
  return (size_t)(x >> 40) & (LIVE_SLOTS - 1);
}

static void track(void *p) {
  pthread_mutex_lock(&live_lock);
  if (live_used * 2 >= LIVE_SLOTS) {
    live_overflow = 1;
  } else {
    size_t i = slot_of(p);
    while (live[i] && live[i] != TOMBSTONE)
      i = (i + 1) & (LIVE_SLOTS - 1);
    if (!live[i])
      live_used++;
    live[i] = p;
    live_count++;
  }
  pthread_mutex_unlock(&live_lock);
}

/* Pointers from LLVM or libc (LLVMDisposeMessage's, vasprintf's) are not in
 * the set: the library frees some of them with free(). */
static void untrack(void *p) {
  pthread_mutex_lock(&live_lock);
  for (size_t i = slot_of(p); live[i]; i = (i + 1) & (LIVE_SLOTS - 1)) {
    if (live[i] == p) {
      live[i] = TOMBSTONE;
      live_count--;
      break;
    }
  }
  pthread_mutex_unlock(&live_lock);
}

static void reset_tracking(void) {
  memset(live, 0, sizeof(live));
  live_count = live_used = 0;
  live_overflow = 0;
}

static int next_fails(void) { return atomic_fetch_add(&allocations, 1) + 1 == atomic_load(&fail_at); }

void *mtpc_test_malloc(size_t size) {
  void *p = next_fails() ? NULL : __libc_malloc(size);
  if (p)
    track(p);
  return p;
}

void *mtpc_test_calloc(size_t count, size_t size) {
  void *p = next_fails() ? NULL : __libc_calloc(count, size);
  if (p)
    track(p);
  return p;
}

void *mtpc_test_realloc(void *ptr, size_t size) {
  void *p = next_fails() ? NULL : __libc_realloc(ptr, size);
  if (p && ptr)
    untrack(ptr);
  if (p)
    track(p);
  return p;
}

void mtpc_test_free(void *ptr) {
  if (ptr)
    untrack(ptr);
  __libc_free(ptr);
}

typedef struct input {
  void *bitcode;
  size_t size;
} input;

static input read_input(const char *path) {
  input in = {NULL, 0};
  FILE *f = fopen(path, "rb");
  if (!f)
    return in;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  in.bitcode = __libc_malloc(size > 0 ? (size_t)size : 1);
  in.size = fread(in.bitcode, 1, (size_t)size, f);
  fclose(f);
  return in;
}

typedef enum mode { COMPILE, COMPILE_UNMERGED, PRINT_PLAN } mode;

/* What one run gave back. */
typedef struct outcome {
  mtpc_status status;
  char *message;
  void *bytes; /* the object, the first unmerged object, or the plan */
  size_t size;
} outcome;

static void free_outcome(outcome *o) {
  __libc_free(o->message);
  __libc_free(o->bytes);
}

static void *copy_of(const void *data, size_t size) {
  void *copy = __libc_malloc(size ? size : 1);
  memcpy(copy, data, size);
  return copy;
}

/* One run. Copies out of the result are made before it is freed, and the
 * set of live library pointers must be empty afterwards. */
static outcome run(const input *in, const mtpc_options *options, mode m) {
  outcome out = {MTPC_OK, NULL, NULL, 0};
  if (m == PRINT_PLAN) {
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    mtpc_result *r = NULL;
    out.status = mtpc_plan_write_bitcode(in->bitcode, in->size, "oom.bc", options, f, &r);
    fclose(f);
    out.bytes = text; /* open_memstream's: libc's */
    out.size = size;
    out.message = strdup(mtpc_result_message(r));
    mtpc_result_free(r);
    return out;
  }
  mtpc_result *r = NULL;
  out.status = mtpc_compile_bitcode(in->bitcode, in->size, "oom.bc", options, &r);
  out.message = strdup(mtpc_result_message(r));
  const void *object = m == COMPILE ? mtpc_result_object(r, &out.size)
                                    : mtpc_result_object_at(r, 0, &out.size);
  if (object)
    out.bytes = copy_of(object, out.size);
  mtpc_result_free(r);
  return out;
}

typedef struct sweep {
  const char *name;
  mode m;
  unsigned jobs, partitions, emit_llvm;
  unsigned every; /* fail every allocation (1) or every n-th */
  const char *cache_dir; /* warmed before the sweep */
} sweep;

static void run_sweep(const input *in, const sweep *sw) {
  mtpc_options options;
  mtpc_options_init(&options);
  options.jobs = sw->jobs;
  options.partitions = sw->partitions;
  options.merge = sw->m != COMPILE_UNMERGED;
  options.emit_llvm = sw->emit_llvm;
  options.cache_dir = sw->cache_dir;
  if (sw->cache_dir) {
    outcome warming = run(in, &options, sw->m);
    free_outcome(&warming);
  }

  reset_tracking();
  atomic_store(&fail_at, 0);
  atomic_store(&allocations, 0);
  outcome reference = run(in, &options, sw->m);
  long total = atomic_load(&allocations);
  CHECK_EQ_U(reference.status, MTPC_OK);
  CHECK(reference.bytes && reference.size > 0);
  CHECK_EQ_U(live_count, 0);
  CHECK(!live_overflow);
  CHECK(total > 100); /* the hooks see the library's allocations */

  unsigned no_memory = 0, recovered = 0, wrong = 0;
  for (long n = 1; n <= total; n += sw->every) {
    reset_tracking();
    atomic_store(&allocations, 0);
    atomic_store(&fail_at, n);
    outcome o = run(in, &options, sw->m);
    int same = o.bytes && o.size == reference.size && !memcmp(o.bytes, reference.bytes, o.size);
    int message_ok = o.message && !strcmp(o.message, "out of memory");
    if (o.status == MTPC_ERR_NO_MEMORY && message_ok && (sw->m == PRINT_PLAN ? !o.size : !o.bytes)) {
      no_memory++;
    } else if (o.status == MTPC_OK && same) {
      recovered++;
    } else {
      wrong++;
      fprintf(stderr, "%s: allocation %ld of %ld failed: status %d (%s), %s output\n", sw->name,
              n, total, (int)o.status, o.message ? o.message : "no message",
              same ? "same" : "different");
    }
    if (live_count != 0 || live_overflow)
      fprintf(stderr, "%s: allocation %ld failed: %ld library allocations leaked\n", sw->name, n,
              live_count);
    CHECK_EQ_U(live_count, 0);
    free_outcome(&o);
  }
  atomic_store(&fail_at, 0);
  printf("%s: %ld allocations; failing each: %u out of memory, %u recovered, %u wrong\n",
         sw->name, total, no_memory, recovered, wrong);
  CHECK_EQ_U(wrong, 0);
  CHECK(no_memory > recovered);
  free_outcome(&reference);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <module.bc>\n", argv[0]);
    return 2;
  }
  input in = read_input(argv[1]);
  CHECK(in.bitcode && in.size > 0);
  if (!in.bitcode)
    return 1;
  char cache_dir[] = "/tmp/mtpc-oom-cache.XXXXXX";
  CHECK(mkdtemp(cache_dir) != NULL);
  const sweep sweeps[] = {
      {"compile, 3 partitions, merged", COMPILE, 1, 3, 0, 1, NULL},
      {"compile, 3 partitions, unmerged", COMPILE_UNMERGED, 1, 3, 0, 1, NULL},
      {"compile, 3 partitions, merged IR", COMPILE, 1, 3, 1, 1, NULL},
      {"compile, 2 threads", COMPILE, 2, 3, 0, 3, NULL},
      {"compile, warm partition cache", COMPILE, 1, 3, 0, 1, cache_dir},
      {"print plan", PRINT_PLAN, 1, 3, 0, 1, NULL},
  };
  for (size_t i = 0; i < sizeof(sweeps) / sizeof(sweeps[0]); i++)
    run_sweep(&in, &sweeps[i]);
  __libc_free(in.bitcode);
  char command[64];
  snprintf(command, sizeof(command), "rm -rf %s", cache_dir);
  CHECK(system(command) == 0);
  CHECK_SUMMARY();
}
