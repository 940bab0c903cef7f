/* The partition cache: a partition's object, found by a hash of what makes
 * it (the partition's module as the worker formed it, the settings, LLVM's
 * and mtpc's versions), so that a relink after a small edit compiles only
 * the partitions the edit touched (cache.c). */
#ifndef MTPC_CACHE_H
#define MTPC_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#include "diag.h"
#include "pipeline.h"

typedef struct mtpc_cache mtpc_cache;

/* The cache of one compile in `dir` (created when missing), or NULL when
 * there is none: no dir or fingerprint, or a directory it cannot create (a
 * warning). *out_of_memory is set when that is why. */
mtpc_cache *mtpc_cache_open(const char *dir, const char *fingerprint, const char *faults,
                            mtpc_reporter *reporter, int *out_of_memory);
void mtpc_cache_close(mtpc_cache *cache);

/* What besides a partition's module decides its object: mtpc's and LLVM's
 * versions, the options the Config does not hold, and the Config (lent or
 * built from the options: mtpc_bridge_describe_config). 0 and *fingerprint
 * (malloc'ed; NULL when the compile writes what a hit would not: remarks,
 * saved temporaries, printed passes); non-zero when memory runs out. */
int mtpc_cache_fingerprint(const mtpc_options *options, const mtpc_bridge_settings *settings,
                           char **fingerprint);

/* A partition's key: the cache's fingerprint and the module's bitcode, as
 * `masks` (or NULL) have it (cache_masks.h). */
typedef struct mtpc_cache_key {
  uint64_t high, low;
} mtpc_cache_key;
/* Non-zero when memory runs out. */
struct mtpc_cache_masks;
int mtpc_cache_key_of(const mtpc_cache *cache, LLVMModuleRef module, const char *dwo_name,
                      const struct mtpc_cache_masks *masks, mtpc_cache_key *key);

/* 1 and the entry's object and .dwo (malloc'ed; *dwo NULL without one) on a
 * hit; 0 on a miss, also for a corrupt or truncated entry; -1 when memory
 * runs out. */
int mtpc_cache_lookup(mtpc_cache *cache, const mtpc_cache_key *key, void **object,
                      size_t *object_size, void **dwo, size_t *dwo_size);
/* Stores an entry atomically. A failed write warns once per compile and
 * leaves the compile going. */
void mtpc_cache_store(mtpc_cache *cache, const mtpc_cache_key *key, const void *object,
                      size_t object_size, const void *dwo, size_t dwo_size);

/* Notes whether the compile writes objects, whose names the masks of
 * cache_masks.h can restore (not assembly or IR). */
void mtpc_cache_note_outputs(mtpc_cache *cache, int objects);
int mtpc_cache_maskable(const mtpc_cache *cache);

#endif
