#define _GNU_SOURCE
#include "support.h"

#include <dlfcn.h>
#include <malloc.h>
#include <pthread.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

void *mtpc_alloc(size_t count, size_t size) {
  if (size && count > SIZE_MAX / size)
    return NULL;
  size_t bytes = count * size;
  return malloc(bytes ? bytes : 1);
}

void *mtpc_zalloc(size_t count, size_t size) {
  return calloc(count ? count : 1, size ? size : 1);
}

char *mtpc_strndup(const char *s, size_t len) {
  char *p = malloc(len + 1);
  if (!p)
    return NULL;
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *mtpc_strdup(const char *s) { return mtpc_strndup(s, strlen(s)); }

char *mtpc_asprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *s = n < 0 ? NULL : malloc((size_t)n + 1);
  if (!s)
    return NULL;
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

int mtpc_grow(void **items, size_t *cap, size_t need, size_t elem_size) {
  if (need <= *cap)
    return 0;
  size_t new_cap = *cap ? *cap * 2 : 8;
  while (new_cap < need)
    new_cap *= 2;
  if (new_cap > SIZE_MAX / elem_size)
    return -1;
  void *grown = realloc(*items, new_cap * elem_size);
  if (!grown)
    return -1;
  *items = grown;
  *cap = new_cap;
  return 0;
}

int mtpc_bitset_init(mtpc_bitset *set, size_t bits) {
  set->words = mtpc_zalloc((bits + 63) / 64, sizeof(uint64_t));
  set->bits = set->words ? bits : 0;
  return set->words ? 0 : -1;
}

void mtpc_bitset_free(mtpc_bitset *set) {
  free(set->words);
  set->words = NULL;
  set->bits = 0;
}

static size_t table_size(size_t expected) {
  size_t cap = 16;
  while (cap < expected * 2)
    cap *= 2;
  return cap;
}

static size_t hash_ptr(const void *p) {
  uint64_t x = (uint64_t)(uintptr_t)p;
  x ^= x >> 33;
  x *= UINT64_C(0xff51afd7ed558ccd);
  x ^= x >> 33;
  return (size_t)x;
}

int mtpc_ptrmap_init(mtpc_ptrmap *map, size_t expected) {
  size_t cap = table_size(expected);
  map->count = 0;
  map->keys = mtpc_zalloc(cap, sizeof(*map->keys));
  map->values = mtpc_alloc(cap, sizeof(*map->values));
  if (!map->keys || !map->values) {
    mtpc_ptrmap_free(map);
    return -1;
  }
  map->cap = cap;
  return 0;
}

void mtpc_ptrmap_free(mtpc_ptrmap *map) {
  free(map->keys);
  free(map->values);
  memset(map, 0, sizeof(*map));
}

/* Moves the entries to a table twice as large; the map is untouched when
 * that cannot be allocated. */
static int ptrmap_rehash(mtpc_ptrmap *map) {
  mtpc_ptrmap bigger;
  if (mtpc_ptrmap_init(&bigger, map->cap))
    return -1;
  for (size_t i = 0; i < map->cap; i++)
    if (map->keys[i] && mtpc_ptrmap_put(&bigger, map->keys[i], map->values[i])) {
      mtpc_ptrmap_free(&bigger); /* cannot happen: bigger has room for all */
      return -1;
    }
  mtpc_ptrmap_free(map);
  *map = bigger;
  return 0;
}

int mtpc_ptrmap_put(mtpc_ptrmap *map, const void *key, uint32_t value) {
  if ((map->count + 1) * 2 > map->cap && ptrmap_rehash(map))
    return -1;
  size_t mask = map->cap - 1;
  for (size_t i = hash_ptr(key) & mask;; i = (i + 1) & mask) {
    if (map->keys[i] == key) {
      map->values[i] = value;
      return 0;
    }
    if (!map->keys[i]) {
      map->keys[i] = key;
      map->values[i] = value;
      map->count++;
      return 0;
    }
  }
}

int mtpc_ptrmap_get(const mtpc_ptrmap *map, const void *key, uint32_t *value) {
  if (map->cap == 0)
    return 0;
  size_t mask = map->cap - 1;
  for (size_t i = hash_ptr(key) & mask; map->keys[i]; i = (i + 1) & mask) {
    if (map->keys[i] == key) {
      *value = map->values[i];
      return 1;
    }
  }
  return 0;
}

static size_t hash_str(const char *s, size_t len) {
  uint64_t h = UINT64_C(1469598103934665603);
  for (size_t i = 0; i < len; i++)
    h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
  return (size_t)h;
}

int mtpc_strmap_init(mtpc_strmap *map, size_t expected) {
  size_t cap = table_size(expected);
  map->count = 0;
  map->keys = mtpc_zalloc(cap, sizeof(*map->keys));
  map->lens = mtpc_alloc(cap, sizeof(*map->lens));
  map->values = mtpc_alloc(cap, sizeof(*map->values));
  if (!map->keys || !map->lens || !map->values) {
    mtpc_strmap_free(map);
    return -1;
  }
  map->cap = cap;
  return 0;
}

void mtpc_strmap_free(mtpc_strmap *map) {
  free(map->keys);
  free(map->lens);
  free(map->values);
  memset(map, 0, sizeof(*map));
}

static int strmap_rehash(mtpc_strmap *map) {
  mtpc_strmap bigger;
  if (mtpc_strmap_init(&bigger, map->cap))
    return -1;
  for (size_t i = 0; i < map->cap; i++)
    if (map->keys[i] && mtpc_strmap_put(&bigger, map->keys[i], map->lens[i], map->values[i])) {
      mtpc_strmap_free(&bigger); /* cannot happen: bigger has room for all */
      return -1;
    }
  mtpc_strmap_free(map);
  *map = bigger;
  return 0;
}

int mtpc_strmap_put(mtpc_strmap *map, const char *key, size_t len, uint32_t value) {
  if ((map->count + 1) * 2 > map->cap && strmap_rehash(map))
    return -1;
  size_t mask = map->cap - 1;
  for (size_t i = hash_str(key, len) & mask;; i = (i + 1) & mask) {
    if (!map->keys[i]) {
      map->keys[i] = key;
      map->lens[i] = len;
      map->values[i] = value;
      map->count++;
      return 0;
    }
    if (map->lens[i] == len && memcmp(map->keys[i], key, len) == 0) {
      map->values[i] = value;
      return 0;
    }
  }
}

int mtpc_strmap_get(const mtpc_strmap *map, const char *key, size_t len, uint32_t *value) {
  if (map->cap == 0)
    return 0;
  size_t mask = map->cap - 1;
  for (size_t i = hash_str(key, len) & mask; map->keys[i]; i = (i + 1) & mask) {
    if (map->lens[i] == len && memcmp(map->keys[i], key, len) == 0) {
      *value = map->values[i];
      return 1;
    }
  }
  return 0;
}

int mtpc_uf_init(mtpc_unionfind *uf, size_t count) {
  uf->parent = mtpc_alloc(count, sizeof(uint32_t));
  uf->count = uf->parent ? count : 0;
  for (size_t i = 0; i < uf->count; i++)
    uf->parent[i] = (uint32_t)i;
  return uf->parent ? 0 : -1;
}

void mtpc_uf_free(mtpc_unionfind *uf) {
  free(uf->parent);
  uf->parent = NULL;
}

uint32_t mtpc_uf_find(mtpc_unionfind *uf, uint32_t x) {
  while (uf->parent[x] != x) {
    uf->parent[x] = uf->parent[uf->parent[x]];
    x = uf->parent[x];
  }
  return x;
}

void mtpc_uf_union(mtpc_unionfind *uf, uint32_t a, uint32_t b) {
  a = mtpc_uf_find(uf, a);
  b = mtpc_uf_find(uf, b);
  if (a == b)
    return;
  if (a < b)
    uf->parent[b] = a;
  else
    uf->parent[a] = b;
}

int mtpc_compare_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

int mtpc_compare_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

double mtpc_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double mtpc_thread_cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t mtpc_current_rss(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  if (!f)
    return 0;
  unsigned long pages_total = 0, pages_resident = 0;
  int n = fscanf(f, "%lu %lu", &pages_total, &pages_resident);
  fclose(f);
  if (n != 2)
    return 0;
  return (uint64_t)pages_resident * (uint64_t)sysconf(_SC_PAGESIZE);
}

uint64_t mtpc_peak_rss(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_SELF, &ru) != 0)
    return 0;
  return (uint64_t)ru.ru_maxrss * 1024;
}

/* jemalloc's, when the program links it (mtpc and the patched ld.lld do). */
extern int mallctl(const char *name, void *old, size_t *old_size, void *new_value,
                   size_t new_size) __attribute__((weak));

static uint64_t touched_bytes(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0)
    return 0;
  return (uint64_t)ru.ru_minflt * (uint64_t)sysconf(_SC_PAGESIZE);
}

/* Whether the process allocates with glibc's malloc: then, and only then,
 * glibc's malloc_trim knows the heap (under jemalloc its arenas are never
 * set up, and trimming them crashes). */
static int glibc_malloc;
static pthread_once_t glibc_malloc_once = PTHREAD_ONCE_INIT;
static void find_malloc(void) {
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  glibc_malloc = libc && dlsym(libc, "malloc") == (void *)malloc;
  if (libc)
    dlclose(libc);
}

void mtpc_release_free_memory(void) {
  pthread_once(&glibc_malloc_once, find_malloc);
  if (glibc_malloc)
    malloc_trim(0);
}

/* jemalloc's MALLCTL_ARENAS_ALL: every arena. */
#define ALL_ARENAS "4096"

void mtpc_return_free_memory(void) {
  if (!mallctl) {
    mtpc_release_free_memory();
    return;
  }
  mallctl("thread.tcache.flush", NULL, NULL, NULL, 0);
  mallctl("arena." ALL_ARENAS ".purge", NULL, NULL, NULL, 0);
}

uint64_t mtpc_thread_memory_begin(void) {
  if (mallctl && mallctl("thread.peak.reset", NULL, NULL, NULL, 0) == 0)
    return UINT64_MAX;
  return touched_bytes();
}

uint64_t mtpc_thread_memory_used(uint64_t mark) {
  uint64_t peak = 0;
  size_t size = sizeof(peak);
  if (mark == UINT64_MAX)
    return mallctl("thread.peak.read", &peak, &size, NULL, 0) == 0 ? peak : 0;
  return touched_bytes() - mark;
}

size_t mtpc_thin_suffix_length(const char *name, size_t length) {
  size_t digits = 0;
  while (digits < length && name[length - 1 - digits] >= '0' && name[length - 1 - digits] <= '9')
    digits++;
  if (digits == 0 || length - digits < 6 || memcmp(name + length - digits - 6, ".llvm.", 6) != 0)
    return 0;
  return digits + 6;
}

unsigned mtpc_hardware_threads(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (unsigned)n : 1;
}

unsigned mtpc_resolve_jobs(unsigned jobs) { return jobs ? jobs : mtpc_hardware_threads(); }
