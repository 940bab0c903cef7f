/* Small containers shared by the partitioner and the backend: allocation,
 * growable arrays, a bit set, two hash maps and a union-find. Every
 * function that allocates returns 0, or non-zero when memory runs out; the
 * free functions accept what a failed init left (zeroed). */
#ifndef MTPC_SUPPORT_H
#define MTPC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/* Allocation in the library never ends the process: each of these returns
 * NULL (or non-zero) when memory runs out, and the caller hands
 * MTPC_ERR_NO_MEMORY up. A size of 0 allocates 1 byte, so NULL always means
 * failure. */
#define MTPC_CHECKED __attribute__((warn_unused_result))
MTPC_CHECKED void *mtpc_alloc(size_t count, size_t size);  /* malloc, overflow checked */
MTPC_CHECKED void *mtpc_zalloc(size_t count, size_t size); /* calloc */
MTPC_CHECKED char *mtpc_strndup(const char *s, size_t len);
MTPC_CHECKED char *mtpc_strdup(const char *s);
/* malloc'ed, printf-formatted string. */
MTPC_CHECKED char *mtpc_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grows *items (of *cap elements of elem_size) to hold at least `need`;
 * non-zero (and *items untouched) when memory runs out. */
MTPC_CHECKED int mtpc_grow(void **items, size_t *cap, size_t need, size_t elem_size);
/* Appends `value`; an expression, non-zero when memory runs out. */
#define MTPC_PUSH(items, count, cap, value)                                          \
  (mtpc_grow((void **)&(items), &(cap), (count) + 1, sizeof(*(items)))               \
       ? -1                                                                          \
       : ((items)[(count)++] = (value), 0))

typedef struct mtpc_bitset {
  uint64_t *words;
  size_t bits;
} mtpc_bitset;

MTPC_CHECKED int mtpc_bitset_init(mtpc_bitset *set, size_t bits);
void mtpc_bitset_free(mtpc_bitset *set);
static inline void mtpc_bitset_set(mtpc_bitset *set, size_t i) {
  set->words[i / 64] |= UINT64_C(1) << (i % 64);
}
static inline int mtpc_bitset_test(const mtpc_bitset *set, size_t i) {
  return (int)((set->words[i / 64] >> (i % 64)) & 1);
}

/* Pointer -> uint32 map (open addressing); keys are never NULL. */
typedef struct mtpc_ptrmap {
  const void **keys;
  uint32_t *values;
  size_t cap, count;
} mtpc_ptrmap;

MTPC_CHECKED int mtpc_ptrmap_init(mtpc_ptrmap *map, size_t expected);
void mtpc_ptrmap_free(mtpc_ptrmap *map);
MTPC_CHECKED int mtpc_ptrmap_put(mtpc_ptrmap *map, const void *key, uint32_t value);
/* Returns 1 and sets *value when found. */
int mtpc_ptrmap_get(const mtpc_ptrmap *map, const void *key, uint32_t *value);

/* String (not owned, must outlive the map) -> uint32 map. */
typedef struct mtpc_strmap {
  const char **keys;
  size_t *lens;
  uint32_t *values;
  size_t cap, count;
} mtpc_strmap;

MTPC_CHECKED int mtpc_strmap_init(mtpc_strmap *map, size_t expected);
void mtpc_strmap_free(mtpc_strmap *map);
MTPC_CHECKED int mtpc_strmap_put(mtpc_strmap *map, const char *key, size_t len,
                                 uint32_t value);
int mtpc_strmap_get(const mtpc_strmap *map, const char *key, size_t len, uint32_t *value);

/* Union-find over 0..n-1 with path halving; the smaller index becomes the
 * root so results do not depend on the order of unions. */
typedef struct mtpc_unionfind {
  uint32_t *parent;
  size_t count;
} mtpc_unionfind;

MTPC_CHECKED int mtpc_uf_init(mtpc_unionfind *uf, size_t count);
void mtpc_uf_free(mtpc_unionfind *uf);
uint32_t mtpc_uf_find(mtpc_unionfind *uf, uint32_t x);
void mtpc_uf_union(mtpc_unionfind *uf, uint32_t a, uint32_t b);

/* qsort and bsearch comparisons of unsigned integers. */
int mtpc_compare_u32(const void *a, const void *b);
int mtpc_compare_u64(const void *a, const void *b);

double mtpc_now_seconds(void);
/* CPU time the calling thread has used. */
double mtpc_thread_cpu_seconds(void);
/* The processors online (at least 1): what "0 jobs" means. */
unsigned mtpc_hardware_threads(void);
/* Current and peak resident set size of this process, in bytes. */
uint64_t mtpc_current_rss(void);
uint64_t mtpc_peak_rss(void);
/* The memory the calling thread uses from a mark on: with jemalloc (which
 * the mtpc and ld.lld programs link), the peak of the bytes it has
 * allocated less those it has freed; else the memory it brought in from the
 * system (minor page faults times the page size), where pages it reuses
 * after freeing them do not count. */
uint64_t mtpc_thread_memory_begin(void);
uint64_t mtpc_thread_memory_used(uint64_t mark);
/* Hands freed memory back to the system (malloc_trim) where the process
 * allocates with glibc's malloc; other allocators keep their own policy. */
void mtpc_release_free_memory(void);
/* Hands back, whatever the allocator, the memory the process has freed:
 * also jemalloc's dirty pages, which it otherwise returns seconds later.
 * For a memory limit, which counts the process's resident memory. */
void mtpc_return_free_memory(void);

/* The length of the suffix ThinLTO gives the locals it promotes,
 * ".llvm.<module hash>" in decimal, at the end of name; 0 when there is none. */
size_t mtpc_thin_suffix_length(const char *name, size_t length);

#endif
