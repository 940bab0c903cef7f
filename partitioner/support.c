#define _GNU_SOURCE
#include "support.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void out_of_memory(void) {
  fputs("mtpc: error: out of memory\n", stderr);
  abort();
}

void *mtpc_xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *mtpc_xcalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

void *mtpc_xrealloc(void *ptr, size_t size) {
  void *p = realloc(ptr, size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

char *mtpc_xstrndup(const char *s, size_t len) {
  char *p = mtpc_xmalloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *mtpc_xstrdup(const char *s) { return mtpc_xstrndup(s, strlen(s)); }

char *mtpc_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0)
    out_of_memory();
  return s;
}

void mtpc_grow(void **items, size_t *cap, size_t need, size_t elem_size) {
  if (need <= *cap)
    return;
  size_t new_cap = *cap ? *cap * 2 : 8;
  while (new_cap < need)
    new_cap *= 2;
  *items = mtpc_xrealloc(*items, new_cap * elem_size);
  *cap = new_cap;
}

void mtpc_bitset_init(mtpc_bitset *set, size_t bits) {
  set->bits = bits;
  set->words = mtpc_xcalloc((bits + 63) / 64, sizeof(uint64_t));
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

void mtpc_ptrmap_init(mtpc_ptrmap *map, size_t expected) {
  map->cap = table_size(expected);
  map->count = 0;
  map->keys = mtpc_xcalloc(map->cap, sizeof(*map->keys));
  map->values = mtpc_xmalloc(map->cap * sizeof(*map->values));
}

void mtpc_ptrmap_free(mtpc_ptrmap *map) {
  free(map->keys);
  free(map->values);
  memset(map, 0, sizeof(*map));
}

static void ptrmap_rehash(mtpc_ptrmap *map) {
  mtpc_ptrmap bigger;
  mtpc_ptrmap_init(&bigger, map->cap);
  for (size_t i = 0; i < map->cap; i++)
    if (map->keys[i])
      mtpc_ptrmap_put(&bigger, map->keys[i], map->values[i]);
  mtpc_ptrmap_free(map);
  *map = bigger;
}

void mtpc_ptrmap_put(mtpc_ptrmap *map, const void *key, uint32_t value) {
  if ((map->count + 1) * 2 > map->cap)
    ptrmap_rehash(map);
  size_t mask = map->cap - 1;
  for (size_t i = hash_ptr(key) & mask;; i = (i + 1) & mask) {
    if (map->keys[i] == key) {
      map->values[i] = value;
      return;
    }
    if (!map->keys[i]) {
      map->keys[i] = key;
      map->values[i] = value;
      map->count++;
      return;
    }
  }
}

int mtpc_ptrmap_get(const mtpc_ptrmap *map, const void *key, uint32_t *value) {
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

void mtpc_strmap_init(mtpc_strmap *map, size_t expected) {
  map->cap = table_size(expected);
  map->count = 0;
  map->keys = mtpc_xcalloc(map->cap, sizeof(*map->keys));
  map->lens = mtpc_xmalloc(map->cap * sizeof(*map->lens));
  map->values = mtpc_xmalloc(map->cap * sizeof(*map->values));
}

void mtpc_strmap_free(mtpc_strmap *map) {
  free(map->keys);
  free(map->lens);
  free(map->values);
  memset(map, 0, sizeof(*map));
}

static void strmap_rehash(mtpc_strmap *map) {
  mtpc_strmap bigger;
  mtpc_strmap_init(&bigger, map->cap);
  for (size_t i = 0; i < map->cap; i++)
    if (map->keys[i])
      mtpc_strmap_put(&bigger, map->keys[i], map->lens[i], map->values[i]);
  mtpc_strmap_free(map);
  *map = bigger;
}

void mtpc_strmap_put(mtpc_strmap *map, const char *key, size_t len, uint32_t value) {
  if ((map->count + 1) * 2 > map->cap)
    strmap_rehash(map);
  size_t mask = map->cap - 1;
  for (size_t i = hash_str(key, len) & mask;; i = (i + 1) & mask) {
    if (!map->keys[i]) {
      map->keys[i] = key;
      map->lens[i] = len;
      map->values[i] = value;
      map->count++;
      return;
    }
    if (map->lens[i] == len && memcmp(map->keys[i], key, len) == 0) {
      map->values[i] = value;
      return;
    }
  }
}

int mtpc_strmap_get(const mtpc_strmap *map, const char *key, size_t len, uint32_t *value) {
  size_t mask = map->cap - 1;
  for (size_t i = hash_str(key, len) & mask; map->keys[i]; i = (i + 1) & mask) {
    if (map->lens[i] == len && memcmp(map->keys[i], key, len) == 0) {
      *value = map->values[i];
      return 1;
    }
  }
  return 0;
}

void mtpc_uf_init(mtpc_unionfind *uf, size_t count) {
  uf->count = count;
  uf->parent = mtpc_xmalloc(count * sizeof(uint32_t));
  for (size_t i = 0; i < count; i++)
    uf->parent[i] = (uint32_t)i;
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

double mtpc_now_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
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
