/* The partition cache (cache.h).
 *
 * An entry is one file, "llvm-mtpc-<key>" (the "llvm-" prefix lets LLVM's
 * cache pruning, which a linker runs on its --thinlto-cache-dir, prune mtpc's
 * entries with its own), holding a header, the object and the .dwo:
 *
 *   "MTPCC001" | object size | .dwo size | xxh64 of both | object | .dwo
 *
 * with sizes and hash as little-endian 64-bit numbers. An entry whose sizes
 * or hash do not match is a miss and is written again. */
#define _GNU_SOURCE
#include "cache.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "../partitioner/support.h"
#include "fault.h"
#include "llvm_support.h"
#include "mtpc/tools.h"

#define MAGIC "MTPCC001"
#define HEADER_SIZE 32

struct mtpc_cache {
  char *dir;
  char *fingerprint;
  const char *faults;
  mtpc_reporter *reporter;
  atomic_int warned; /* a failed write warns once */
};

mtpc_cache *mtpc_cache_open(const char *dir, const char *fingerprint, const char *faults,
                            mtpc_reporter *reporter, int *out_of_memory) {
  *out_of_memory = 0;
  if (!dir || !fingerprint)
    return NULL;
  char *problem = NULL;
  if (mtpc_make_directories(dir, &problem)) {
    if (problem)
      mtpc_emit_diag(reporter, MTPC_WARNING, "not caching partitions: %s", problem);
    *out_of_memory = !problem;
    free(problem);
    return NULL;
  }
  mtpc_cache *cache = calloc(1, sizeof(*cache));
  if (cache) {
    cache->dir = mtpc_strdup(dir);
    cache->fingerprint = mtpc_strdup(fingerprint);
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

int mtpc_cache_key_of(const mtpc_cache *cache, LLVMModuleRef module, const char *dwo_name,
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
  XXH3_128bits_update(state, LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode));
  LLVMDisposeMemoryBuffer(bitcode);
  XXH128_hash_t hash = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  *key = (mtpc_cache_key){hash.high64, hash.low64};
  return 0;
}

static char *entry_path(const mtpc_cache *cache, const mtpc_cache_key *key) {
  return mtpc_asprintf("%s/llvm-mtpc-%016llx%016llx", cache->dir, (unsigned long long)key->high,
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

/* The entry's parts, when its header says what its bytes are. */
static int valid_entry(const unsigned char *data, size_t size, size_t *object_size,
                       size_t *dwo_size) {
  if (size < HEADER_SIZE || memcmp(data, MAGIC, 8) != 0)
    return 0;
  uint64_t objects = get_u64(data + 8), dwos = get_u64(data + 16);
  if (objects > size - HEADER_SIZE || dwos != size - HEADER_SIZE - objects || objects == 0)
    return 0;
  *object_size = (size_t)objects;
  *dwo_size = (size_t)dwos;
  return get_u64(data + 24) ==
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
  free(path);
  if (unreadable) {
    free(problem);
    return problem ? 0 : -1; /* no entry, or no memory to say why */
  }
  unsigned char *bytes = data;
  int hit = valid_entry(bytes, size, object_size, dwo_size);
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
    put_u64(entry + 8, object_size);
    put_u64(entry + 16, dwo_size);
    put_u64(entry + 24, payload_hash(object, object_size, dwo, dwo_size));
    memcpy(entry + HEADER_SIZE, object, object_size);
    if (dwo_size)
      memcpy(entry + HEADER_SIZE + object_size, dwo, dwo_size);
    const char *faults = mtpc_fault_cache(cache->faults) ? "write" : NULL;
    if (mtpc_write_file_atomic(path, entry, HEADER_SIZE + object_size + dwo_size, faults,
                               &problem))
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

/* A file's contents stand for its path: an edited profile or a rebuilt
 * plugin keys new entries. */
static void append_file(text *t, const char *field, const char *path) {
  if (!path || !*path)
    return;
  void *data = NULL;
  size_t size = 0;
  char *problem = NULL;
  char digest[40];
  if (mtpc_read_file(path, &data, &size, &problem) == 0)
    snprintf(digest, sizeof(digest), "%016llx", (unsigned long long)XXH3_64bits(data, size));
  else
    snprintf(digest, sizeof(digest), "unreadable");
  t->failed |= !data && !problem;
  free(data);
  free(problem);
  append(t, field, path);
  append(t, "  contents", digest);
}

static const char *or_empty(const char *s) { return s ? s : ""; }

int mtpc_cache_fingerprint(const mtpc_options *o, char **fingerprint) {
  *fingerprint = NULL;
  /* A lent Config carries settings the C options do not describe; remarks,
   * saved temporaries and printed passes are outputs a hit would not make. */
  if (o->llvm_lto_config || o->remarks_file || o->save_temps_prefix || o->debug_pass_manager)
    return 0;
  text t = {0};
  append(&t, "mtpc", MTPC_VERSION_STRING);
  append(&t, "llvm", mtpc_bridge_llvm_version());
  append(&t, "triple", or_empty(o->triple));
  append(&t, "cpu", or_empty(o->cpu));
  append(&t, "features", or_empty(o->features));
  append_number(&t, "opt_level", o->opt_level);
  append_number(&t, "codegen_opt_level", o->codegen_opt_level);
  append_number(&t, "reloc_model", o->reloc_model);
  append_number(&t, "code_model", o->code_model);
  append_number(&t, "function_sections", o->function_sections);
  append_number(&t, "data_sections", o->data_sections);
  append_number(&t, "verify", o->verify);
  append_number(&t, "emit_assembly", o->emit_assembly);
  append_number(&t, "emit_llvm", o->emit_llvm);
  append(&t, "split_dwarf_file", or_empty(o->split_dwarf_file));
  append(&t, "split_dwarf_output", or_empty(o->split_dwarf_output));
  append_file(&t, "sample_profile", o->sample_profile);
  append_file(&t, "cs_profile", o->cs_profile_generate ? NULL : o->cs_profile);
  append(&t, "cs_profile_generate", o->cs_profile_generate ? or_empty(o->cs_profile) : "");
  append(&t, "opt_pipeline", or_empty(o->opt_pipeline));
  append(&t, "aa_pipeline", or_empty(o->aa_pipeline));
  for (unsigned i = 0; i < o->pass_plugin_count; i++)
    append_file(&t, "pass_plugin", o->pass_plugins[i]);
  for (unsigned i = 0; i < o->llvm_option_count; i++)
    append(&t, "llvm_option", o->llvm_options[i]);
  if (t.failed) {
    free(t.data);
    return 1;
  }
  *fingerprint = t.data;
  return 0;
}
