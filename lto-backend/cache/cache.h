/* The partition cache: a partition's object, found by a hash of what makes
 * it (the partition's module as the worker formed it, the settings, LLVM's
 * and mtpc's versions), so that a relink after a small edit compiles only
 * the partitions the edit touched (cache.c). */
#ifndef MTPC_CACHE_H
#define MTPC_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "cache_masks.h"
#include "lto-backend/codegen/pipeline.h"
#include "support/diag.h"

typedef struct mtpc_cache mtpc_cache;

/* The cache of one compile in options->cache_dir (created when missing),
 * or NULL when there is none: no directory, a compile that writes what a
 * hit would not (remarks, saved temporaries, printed passes), or a
 * directory it cannot create (a warning). `triple`: the target's.
 * *out_of_memory is set when memory ran out. */
mtpc_cache *mtpc_cache_open(const mtpc_options *options, const mtpc_bridge_settings *settings,
                            const char *triple, const char *faults, mtpc_reporter *reporter,
                            int *out_of_memory);
void mtpc_cache_close(mtpc_cache *cache);

/* A partition's key: the cache's fingerprint and the module's bitcode (as
 * mtpc_cache_mask_module has left it, read through its `masks`, NULL for
 * none: cache_masks.h). */
typedef struct mtpc_cache_key {
  uint64_t high, low;
} mtpc_cache_key;
/* Non-zero when memory runs out. */
int mtpc_cache_key_of(const mtpc_cache *cache, LLVMModuleRef module,
                      const mtpc_cache_masks *masks, const char *dwo_name,
                      mtpc_cache_key *key);

/* The key of something else made from the partition a key names: `what`
 * (its kind) and `size` bytes of `data` (what else it depends on). */
void mtpc_cache_key_derive(const mtpc_cache_key *key, const char *what, const void *data,
                           size_t size, mtpc_cache_key *derived);

/* 1 and the entry's object and .dwo (malloc'ed; *dwo NULL without one) on a
 * hit; 0 on a miss, also for a corrupt or truncated entry; -1 when memory
 * runs out. */
int mtpc_cache_lookup(mtpc_cache *cache, const mtpc_cache_key *key, void **object,
                      size_t *object_size, void **dwo, size_t *dwo_size);
/* Stores an entry atomically. A failed write warns once per compile and
 * leaves the compile going. */
void mtpc_cache_store(mtpc_cache *cache, const mtpc_cache_key *key, const void *object,
                      size_t object_size, const void *dwo, size_t dwo_size);

/* Which masks (cache_masks.h) the partitions of this compile are keyed and
 * compiled with. */
int mtpc_cache_masks_names(const mtpc_cache *cache);
int mtpc_cache_masks_checksums(const mtpc_cache *cache);

#endif
