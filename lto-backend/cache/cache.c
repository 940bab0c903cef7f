/* The partition cache (cache.h).
 *
 * An entry is one file, "llvmcache-mtpc-<key>" (LLVM's cache pruning, which
 * a linker runs on its --thinlto-cache-dir, prunes the files whose names
 * begin "llvmcache-", least recently used first: a hit touches its entry),
 * holding a header, the object and the .dwo:
 *
 *   "MTPCC002" | key | object size | .dwo size | xxh64 of both | object | .dwo
 *
 * with the key's two halves, the sizes and the hash as little-endian 64-bit
 * numbers. The entry says which key it holds, so that a file at another
 * key's name (renamed, copied, swapped) is not taken for it. An entry that
 * is not a regular file, or whose key, sizes or hash do not match, is a
 * miss and is written again. */
#define _GNU_SOURCE
#include "cache.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lto-backend/codegen/config_key.h"
#include "lto-backend/codegen/option_files.h"
#include "support/fault.h"
#include "support/llvm_support.h"
#include "support/support.h"
#include "support/files.h"

#define MAGIC "MTPCC002"
#define HEADER_SIZE 48

struct mtpc_cache {
  char *dir;
  int mask_names, mask_checksums; /* cache_masks.h */
  char *fingerprint;
  const char *faults;
  mtpc_reporter *reporter;
  atomic_int warned; /* a failed write warns once */
};

static char *fingerprint_of(const mtpc_options *o, const mtpc_bridge_settings *settings,
                            int mask_names, int *out_of_memory);

/* Names are masked only where the object's names can be restored (an
 * object, not assembly or IR) and nothing in the compile reads them:
 * profiles and a basic block sections list name functions, and so may any
 * LLVM option; a sanitizer's pass writes globals' names into its
 * descriptions (ASan's, which a report prints). Checksums only where the
 * masks can read the line tables: an ELF64 little-endian object. */
static void choose_masks(mtpc_cache *cache, const mtpc_options *o,
                         const mtpc_bridge_settings *settings, const char *triple) {
  int objects = !mtpc_bridge_settings_describe(settings)->assembly && !o->emit_llvm &&
                mtpc_bridge_triple_is_elf64_le(triple);
  cache->mask_checksums = objects;
  cache->mask_names = objects && !o->llvm_option_count && !(o->sanitizers && *o->sanitizers) &&
                      !mtpc_bridge_config_reads_names(settings);
}

mtpc_cache *mtpc_cache_open(const mtpc_options *o, const mtpc_bridge_settings *settings,
                            const char *triple, const char *faults, mtpc_reporter *reporter,
                            int *out_of_memory) {
  *out_of_memory = 0;
  if (!o->cache_dir || o->save_temps_prefix || mtpc_bridge_config_writes_more(settings))
    return NULL;
  char *problem = NULL;
  if (mtpc_make_directories(o->cache_dir, &problem)) {
    if (problem)
      mtpc_emit_diag(reporter, MTPC_WARNING, "not caching partitions: %s", problem);
    *out_of_memory = !problem;
    free(problem);
    return NULL;
  }
  mtpc_cache *cache = calloc(1, sizeof(*cache));
  if (cache) {
    choose_masks(cache, o, settings, triple);
    cache->dir = mtpc_strdup(o->cache_dir);
    cache->fingerprint = fingerprint_of(o, settings, cache->mask_names, out_of_memory);
    cache->faults = faults;
    cache->reporter = reporter;
  }
  if (!cache || !cache->dir || !cache->fingerprint) {
    mtpc_cache_close(cache);
    *out_of_memory = 1;
    return NULL;
  }
  return cache;
}

void mtpc_cache_close(mtpc_cache *cache) {
  if (!cache)
    return;
  free(cache->dir);
  free(cache->fingerprint);
  free(cache);
}

int mtpc_cache_masks_names(const mtpc_cache *cache) { return cache->mask_names; }

int mtpc_cache_masks_checksums(const mtpc_cache *cache) { return cache->mask_checksums; }

static void hash_piece(void *state, const void *data, size_t size) {
  XXH3_128bits_update(state, data, size);
}

int mtpc_cache_key_of(const mtpc_cache *cache, LLVMModuleRef module,
                      const mtpc_cache_masks *masks, const char *dwo_name,
                      mtpc_cache_key *key) {
  XXH3_state_t *state = XXH3_createState();
  if (!state)
    return 1;
  XXH3_128bits_reset(state);
  XXH3_128bits_update(state, cache->fingerprint, strlen(cache->fingerprint) + 1);
  /* The skeleton unit records the .dwo's name. */
  const char *dwo = dwo_name ? dwo_name : "";
  XXH3_128bits_update(state, dwo, strlen(dwo) + 1);
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(module);
  mtpc_cache_masks_key_bitcode(masks, LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode),
                               hash_piece, state);
  LLVMDisposeMemoryBuffer(bitcode);
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  *key = (mtpc_cache_key){hash.high64, hash.low64};
  return 0;
}

void mtpc_cache_key_derive(const mtpc_cache_key *key, const char *what, const void *data,
                           size_t size, mtpc_cache_key *derived) {
  unsigned char bytes[16];
  for (int i = 0; i < 8; i++) {
    bytes[i] = (unsigned char)(key->high >> (8 * i));
    bytes[8 + i] = (unsigned char)(key->low >> (8 * i));
  }
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  XXH3_128bits_reset(&state);
  XXH3_128bits_update(&state, bytes, sizeof(bytes));
  XXH3_128bits_update(&state, what, strlen(what) + 1);
  if (size)
    XXH3_128bits_update(&state, data, size);
  XXH128_hash_t hash = XXH3_128bits_digest(&state);
  *derived = (mtpc_cache_key){hash.high64, hash.low64};
}

static char *entry_path(const mtpc_cache *cache, const mtpc_cache_key *key) {
  return mtpc_asprintf("%s/llvmcache-mtpc-%016llx%016llx", cache->dir, (unsigned long long)key->high,
                       (unsigned long long)key->low);
}

static void put_u64(unsigned char *out, uint64_t value) {
  for (int i = 0; i < 8; i++)
    out[i] = (unsigned char)(value >> (8 * i));
}

static uint64_t get_u64(const unsigned char *in) {
  uint64_t value = 0;
  for (int i = 0; i < 8; i++)
    value |= (uint64_t)in[i] << (8 * i);
  return value;
}

static uint64_t payload_hash(const void *object, size_t object_size, const void *dwo,
                             size_t dwo_size) {
  XXH64_state_t state;
  XXH64_reset(&state, 0);
  XXH64_update(&state, object, object_size);
  if (dwo_size)
    XXH64_update(&state, dwo, dwo_size);
  return XXH64_digest(&state);
}

/* The entry's parts, when its header says it holds `key` and what its
 * bytes are. */
static int valid_entry(const unsigned char *data, size_t size, const mtpc_cache_key *key,
                       size_t *object_size, size_t *dwo_size) {
  if (size < HEADER_SIZE || memcmp(data, MAGIC, 8) != 0 || get_u64(data + 8) != key->high ||
      get_u64(data + 16) != key->low)
    return 0;
  uint64_t objects = get_u64(data + 24), dwos = get_u64(data + 32);
  if (objects > size - HEADER_SIZE || dwos != size - HEADER_SIZE - objects || objects == 0)
    return 0;
  *object_size = (size_t)objects;
  *dwo_size = (size_t)dwos;
  return get_u64(data + 40) ==
         payload_hash(data + HEADER_SIZE, *object_size, data + HEADER_SIZE + *object_size, *dwo_size);
}

static void *copy_bytes(const unsigned char *data, size_t size) {
  void *copy = mtpc_alloc(size, 1);
  if (copy)
    memcpy(copy, data, size);
  return copy;
}

int mtpc_cache_lookup(mtpc_cache *cache, const mtpc_cache_key *key, void **object,
                      size_t *object_size, void **dwo, size_t *dwo_size) {
  char *path = entry_path(cache, key);
  if (!path)
    return -1;
  void *data = NULL;
  size_t size = 0;
  char *problem = NULL;
  int unreadable = mtpc_read_file(path, &data, &size, &problem);
  if (!unreadable)
    utimes(path, NULL); /* recently used, whatever the file system's atime */
  free(path);
  if (unreadable) {
    free(problem);
    return problem ? 0 : -1; /* no entry, or no memory to say why */
  }
  unsigned char *bytes = data;
  int hit = valid_entry(bytes, size, key, object_size, dwo_size);
  *object = *dwo = NULL;
  if (hit && *dwo_size && !(*dwo = copy_bytes(bytes + HEADER_SIZE + *object_size, *dwo_size)))
    hit = -1;
  if (hit > 0) { /* the object moves to the front of the buffer read */
    memmove(bytes, bytes + HEADER_SIZE, *object_size);
    *object = bytes;
    bytes = NULL;
  }
  free(bytes);
  return hit;
}

static void warn_once(mtpc_cache *cache, const char *problem) {
  if (atomic_exchange(&cache->warned, 1) == 0)
    mtpc_emit_diag(cache->reporter, MTPC_WARNING, "cannot write to the partition cache: %s",
                   problem ? problem : "out of memory");
}

void mtpc_cache_store(mtpc_cache *cache, const mtpc_cache_key *key, const void *object,
                      size_t object_size, const void *dwo, size_t dwo_size) {
  char *path = entry_path(cache, key);
  unsigned char *entry = mtpc_alloc(HEADER_SIZE + object_size + dwo_size, 1);
  char *problem = NULL;
  if (path && entry) {
    memcpy(entry, MAGIC, 8);
    put_u64(entry + 8, key->high);
    put_u64(entry + 16, key->low);
    put_u64(entry + 24, object_size);
    put_u64(entry + 32, dwo_size);
    put_u64(entry + 40, payload_hash(object, object_size, dwo, dwo_size));
    memcpy(entry + HEADER_SIZE, object, object_size);
    if (dwo_size)
      memcpy(entry + HEADER_SIZE + object_size, dwo, dwo_size);
    const char *faults = mtpc_fault_cache(cache->faults) ? "write" : NULL;
    if (mtpc_replace_file(path, entry, HEADER_SIZE + object_size + dwo_size, faults, &problem))
      warn_once(cache, problem);
  } else {
    warn_once(cache, NULL);
  }
  free(problem);
  free(entry);
  free(path);
}

/* A growing text; `failed` once an append ran out of memory. */
typedef struct text {
  char *data;
  size_t length, cap;
  int failed;
} text;

static void append(text *t, const char *field, const char *value) {
  size_t add = strlen(field) + strlen(value) + 2;
  if (t->failed || mtpc_grow((void **)&t->data, &t->cap, t->length + add + 1, 1)) {
    t->failed = 1;
    return;
  }
  t->length += (size_t)sprintf(t->data + t->length, "%s=%s\n", field, value);
}

static void append_number(text *t, const char *field, long long value) {
  char number[24];
  snprintf(number, sizeof(number), "%lld", value);
  append(t, field, number);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

/* An option is its text, and the contents of a file its value names (as
 * the Config's LLVM options are described: config_key.cpp); so is a list
 * of mtpc_options' that names a file. */
static void append_with_file(text *t, const char *field, const char *arg) {
  append(t, field, arg);
  uint64_t digest = 0;
  char hex[17];
  switch (mtpc_option_file_digest(arg, &digest)) {
  case MTPC_OPTION_NAMES_FILE:
    snprintf(hex, sizeof(hex), "%llx", (unsigned long long)digest);
    append(t, "  contents", hex);
    break;
  case MTPC_OPTION_FILE_UNREADABLE:
    append(t, "  contents", "unreadable");
    break;
  case MTPC_OPTION_NAMES_NO_FILE:
    break;
  }
}

static void append_llvm_option(text *t, const char *arg) { append_with_file(t, "llvm_option", arg); }

/* SanitizerCoverage's settings and the contents of its lists. */
static void append_coverage(text *t, const mtpc_options *o) {
  if (!o->sanitizer_coverage || !*o->sanitizer_coverage)
    return;
  append(t, "sanitizer_coverage", o->sanitizer_coverage);
  if (o->sanitizer_coverage_allowlist)
    append_with_file(t, "sanitizer_coverage_allowlist", o->sanitizer_coverage_allowlist);
  if (o->sanitizer_coverage_ignorelist)
    append_with_file(t, "sanitizer_coverage_ignorelist", o->sanitizer_coverage_ignorelist);
}

/* What besides a partition's module decides its object: mtpc's and LLVM's
 * versions, the options the Config does not hold, the masks, and the
 * Config (lent or built from the options: mtpc_bridge_describe_config).
 * NULL when memory runs out. */
static char *fingerprint_of(const mtpc_options *o, const mtpc_bridge_settings *settings,
                            int mask_names, int *out_of_memory) {
  const mtpc_bridge_settings_info *info = mtpc_bridge_settings_describe(settings);
  char *config = mtpc_bridge_describe_config(settings);
  if (!config)
    return NULL;
  text t = {0};
  append(&t, "mtpc", MTPC_VERSION_STRING);
  /* Keys before the checksums' texts were masked in the bitcode (2) read a
   * module whose files the metadata mapper had replaced; before 3, a
   * partition's clones ran the late pipeline with the rest of it; before 4,
   * every copy was simplified, the ones the inliner then declined too. */
  append_number(&t, "key_format", 4);
  append(&t, "llvm", mtpc_bridge_llvm_version());
  append(&t, "triple", or_empty(o->triple));
  append_number(&t, "emit_llvm", o->emit_llvm);
  /* The partitions' pipeline. */
  append_number(&t, "full_lto", o->full_lto);
  if (o->sanitizers && *o->sanitizers) /* passes the Config does not hold */
    append(&t, "sanitizers", o->sanitizers);
  for (unsigned i = 0; i < o->dfsan_abilist_count; i++)
    append_with_file(&t, "dfsan_abilist", o->dfsan_abilists[i]);
  append_coverage(&t, o);
  if (o->assignment_tracking)
    append_number(&t, "assignment_tracking", o->assignment_tracking);
  if (o->debug_info_for_profiling)
    append_number(&t, "debug_info_for_profiling", o->debug_info_for_profiling);
  /* The partitions' pipeline starts after the profile passes, with clang's
   * PGO options (profile_phase.h). */
  if (o->ir_profile_generate) {
    append(&t, "ir_profile_generate", or_empty(o->instrprof_output));
    append_number(&t, "instrprof_atomic", o->instrprof_atomic);
  }
  if (o->ir_profile_use && *o->ir_profile_use)
    append(&t, "ir_profile_use", o->ir_profile_use);
  /* Merged, a clone keeps a bare subprogram in the partitions that do not
   * describe it (partition.h). */
  append_number(&t, "merge", o->merge);
  append_number(&t, "mask_names", mask_names);
  /* Where a .dwo goes does not matter, only whether it leaves the object
   * (the name the skeleton records is part of each key). */
  append_number(&t, "separate_dwo", info->dwo_output || info->dwo_dir);
  for (unsigned i = 0; i < o->llvm_option_count; i++)
    append_llvm_option(&t, o->llvm_options[i]);
  append(&t, "config", config);
  free(config);
  if (t.failed) {
    free(t.data);
    *out_of_memory = 1;
    return NULL;
  }
  return t.data;
}
