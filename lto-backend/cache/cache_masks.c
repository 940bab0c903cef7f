/* Masks of a partition's cache key (cache_masks.h). */
#define _GNU_SOURCE
#include "cache_masks.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Comdat.h>
#include <llvm-c/Core.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/md_strings.h"
#include "lto-backend/elf/elf_object.h"
#include "lto-backend/elf/line_checksums.h"
#include "lto-backend/elf/objects.h"
#include "lto-backend/partition/debug_info.h"
#include "partitioner/plan.h"
#include "support/support.h"

#define STEM_TOKEN ".mtpc.v"
#define SUFFIX_TOKEN ".llvm.mtpc.s"
#define CHECKSUM_HEX 32
#define CHECKSUM_BYTES 16

typedef struct masked_file {
  uint64_t path; /* a hash of its directory and name */
  unsigned char real[CHECKSUM_BYTES], placeholder[CHECKSUM_BYTES];
} masked_file;

struct mtpc_cache_masks {
  char **stems; /* by placeholder index: the real name less its suffix */
  size_t stem_count, stem_cap;
  char **suffixes; /* ".llvm.<...>" */
  size_t suffix_count, suffix_cap;
  masked_file *files;
  size_t file_count, file_cap;
};

void mtpc_cache_masks_free(mtpc_cache_masks *m) {
  if (!m)
    return;
  for (size_t i = 0; i < m->stem_count; i++)
    free(m->stems[i]);
  for (size_t i = 0; i < m->suffix_count; i++)
    free(m->suffixes[i]);
  free(m->stems);
  free(m->suffixes);
  free(m->files);
  free(m);
}

/* ".llvm.<decimal>" (ThinLTO) or ".llvm.mtpc<16 hex>" (plan.h) at the end. */
static size_t suffix_length(const char *name, size_t length) {
  size_t thin = mtpc_thin_suffix_length(name, length);
  return thin ? thin : mtpc_promoted_suffix_length(name, length);
}

size_t mtpc_cache_suffix_placeholder_length(const char *name, size_t length) {
  const size_t token = sizeof(SUFFIX_TOKEN) - 1;
  size_t digits = 0;
  while (digits < length && name[length - 1 - digits] >= '0' && name[length - 1 - digits] <= '9')
    digits++;
  if (!digits || length < digits + token || memcmp(name + length - digits - token, SUFFIX_TOKEN, token))
    return 0;
  return digits + token;
}

/* A name a counter made: clang's private constants (".str", ".str.4",
 * ".compoundliteral.2") and LLVM's "name.N" for a clash. */
static int counted_stem(const char *stem, size_t length) {
  if (length == 0)
    return 0;
  if (stem[0] == '.')
    return 1;
  size_t digits = 0;
  while (digits < length && stem[length - 1 - digits] >= '0' && stem[length - 1 - digits] <= '9')
    digits++;
  return digits > 0 && digits < length && stem[length - 1 - digits] == '.';
}

static const struct {
  LLVMValueRef (*first)(LLVMModuleRef);
  LLVMValueRef (*next)(LLVMValueRef);
} global_lists[] = {{LLVMGetFirstFunction, LLVMGetNextFunction},
                    {LLVMGetFirstGlobal, LLVMGetNextGlobal},
                    {LLVMGetFirstGlobalAlias, LLVMGetNextGlobalAlias}};
#define GLOBAL_LISTS (sizeof(global_lists) / sizeof(global_lists[0]))

/* The index of `suffix` among those noted (in `seen`, by their text),
 * noting it if new; -1: no memory. */
static long suffix_index(mtpc_cache_masks *m, mtpc_strmap *seen, const char *suffix,
                         size_t length) {
  uint32_t index = 0;
  if (mtpc_strmap_get(seen, suffix, length, &index))
    return (long)index;
  char *copy = mtpc_strndup(suffix, length);
  if (!copy || MTPC_PUSH(m->suffixes, m->suffix_count, m->suffix_cap, copy)) {
    free(copy);
    return -1;
  }
  index = (uint32_t)(m->suffix_count - 1);
  return mtpc_strmap_put(seen, copy, length, index) ? -1 : (long)index;
}

/* Whether a variable's counted name may change: not an LLVM-reserved one,
 * not a COMDAT's (its group is named after it), not one module assembly
 * could name. */
static int renamable_stem(LLVMValueRef v, const char *name, size_t stem, int module_asm) {
  return LLVMIsAGlobalVariable(v) && !module_asm && !LLVMGetComdat(v) &&
         strncmp(name, "llvm.", 5) != 0 && counted_stem(name, stem);
}

static int mask_name(mtpc_cache_masks *m, mtpc_strmap *suffixes, LLVMValueRef v,
                     int module_asm) {
  size_t length = 0;
  const char *name = LLVMGetValueName2(v, &length);
  if (LLVMIsAFunction(v) && LLVMGetIntrinsicID(v))
    return 0;
  size_t suffix = suffix_length(name, length), stem = length - suffix;
  int new_stem = renamable_stem(v, name, stem, module_asm);
  if (!suffix && !new_stem)
    return 0;
  char *stem_name = NULL;
  if (new_stem) {
    char *real = mtpc_strndup(name, stem);
    if (!real || MTPC_PUSH(m->stems, m->stem_count, m->stem_cap, real)) {
      free(real);
      return 1;
    }
    stem_name = mtpc_asprintf(STEM_TOKEN "%zu", m->stem_count - 1);
  } else {
    stem_name = mtpc_strndup(name, stem);
  }
  long j = suffix ? suffix_index(m, suffixes, name + stem, suffix) : 0;
  char *placeholder = !stem_name || j < 0 ? NULL
                      : suffix            ? mtpc_asprintf("%s" SUFFIX_TOKEN "%ld", stem_name, j)
                                          : mtpc_strdup(stem_name);
  free(stem_name);
  if (!placeholder)
    return 1;
  LLVMSetValueName2(v, placeholder, strlen(placeholder));
  free(placeholder);
  return 0;
}

static int mask_names(mtpc_cache_masks *m, LLVMModuleRef module) {
  static const char *const tokens[] = {STEM_TOKEN, SUFFIX_TOKEN};
  if (mtpc_bridge_module_mentions(module, tokens, 2))
    return 0; /* a restore could not tell a user's text from a placeholder */
  size_t asm_length = 0;
  LLVMGetModuleInlineAsm(module, &asm_length);
  mtpc_strmap suffixes;
  if (mtpc_strmap_init(&suffixes, 64))
    return 1;
  int failed = 0;
  for (size_t l = 0; l < GLOBAL_LISTS && !failed; l++)
    for (LLVMValueRef v = global_lists[l].first(module); v && !failed; v = global_lists[l].next(v))
      failed = mask_name(m, &suffixes, v, asm_length > 0);
  mtpc_strmap_free(&suffixes);
  return failed;
}

static int hex_value(char c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void to_hex(const unsigned char *bytes, char *hex) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 0; i < CHECKSUM_BYTES; i++) {
    hex[2 * i] = digits[bytes[i] >> 4];
    hex[2 * i + 1] = digits[bytes[i] & 15];
  }
}

/* 32 hex digits as bytes; -1 when they are not. */
static int from_hex(const char *hex, unsigned char bytes[CHECKSUM_BYTES]) {
  for (int i = 0; i < CHECKSUM_BYTES; i++) {
    int high = hex_value(hex[2 * i]), low = hex_value(hex[2 * i + 1]);
    if (high < 0 || low < 0)
      return -1;
    bytes[i] = (unsigned char)(high << 4 | low);
  }
  return 0;
}

/* A file's placeholder: a hash of its directory and name, which no edit of
 * its contents changes, and of how many files before it had both (a header
 * that two imported modules saw with different contents). Two files with
 * the same contents share one. A checksum not as clang writes it is left
 * as it is. -1 when memory runs out. */
static int mask_checksum(void *arg, const char *hex, const char *directory, const char *name) {
  mtpc_cache_masks *m = arg;
  masked_file f;
  if (from_hex(hex, f.real))
    return 0;
  /* The path as "directory\0name\0". */
  XXH3_state_t state;
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, directory, strlen(directory) + 1);
  XXH3_64bits_update(&state, name, strlen(name) + 1);
  f.path = XXH3_64bits_digest(&state);
  uint64_t same_path = 0;
  for (size_t k = 0; k < m->file_count; k++) {
    if (memcmp(m->files[k].real, f.real, CHECKSUM_BYTES) == 0)
      return 0;
    same_path += m->files[k].path == f.path;
  }
  XXH3_128bits_reset_withSeed(&state, same_path);
  XXH3_128bits_update(&state, directory, strlen(directory) + 1);
  XXH3_128bits_update(&state, name, strlen(name) + 1);
  XXH128_hash_t hash = XXH3_128bits_digest(&state);
  XXH128_canonical_t canonical;
  XXH128_canonicalFromHash(&canonical, hash);
  memcpy(f.placeholder, canonical.digest, CHECKSUM_BYTES);
  return MTPC_PUSH(m->files, m->file_count, m->file_cap, f) ? -1 : 0;
}

int mtpc_cache_mask_module(LLVMModuleRef module, int names, int checksums,
                           mtpc_cache_masks **masks) {
  mtpc_cache_masks *m = calloc(1, sizeof(*m));
  *masks = NULL;
  if (!m || (names && mask_names(m, module)) ||
      (checksums && mtpc_bridge_file_checksums(module, mask_checksum, m))) {
    mtpc_cache_masks_free(m);
    return 1;
  }
  /* Where checksums are masked the output is an object, which no atom
   * group's number reaches: nothing to restore. */
  if (checksums)
    mtpc_bridge_renumber_atom_groups(module);
  if (!m->stem_count && !m->suffix_count && !m->file_count)
    mtpc_cache_masks_free(m);
  else
    *masks = m;
  return 0;
}

/* The masked file whose real checksum (or placeholder) this is, or NULL. */
static const masked_file *file_of(const mtpc_cache_masks *m, const uint8_t checksum[CHECKSUM_BYTES],
                                  int placeholder) {
  for (size_t k = 0; k < m->file_count; k++)
    if (memcmp(checksum, placeholder ? m->files[k].placeholder : m->files[k].real,
               CHECKSUM_BYTES) == 0)
      return &m->files[k];
  return NULL;
}

/* A line table's checksum that is one of the masked files' real ones (or
 * placeholders) becomes that file's placeholder (or real one). */
static void swap_checksum(const mtpc_cache_masks *m, uint8_t checksum[CHECKSUM_BYTES],
                          int to_placeholder) {
  const masked_file *f = file_of(m, checksum, !to_placeholder);
  if (f)
    memcpy(checksum, to_placeholder ? f->placeholder : f->real, CHECKSUM_BYTES);
}

/* Where the bitcode holds a masked file's checksum text. */
typedef struct checksum_text {
  size_t offset;
  const masked_file *file;
} checksum_text;

typedef struct checksum_texts {
  const mtpc_cache_masks *masks;
  const char *bitcode;
  checksum_text *found;
  size_t count, cap;
} checksum_texts;

/* The module's checksums are clang's lowercase hex, which from_hex alone
 * reads: a string it reads as a masked file's real checksum is that
 * checksum's text. */
static int note_checksum_text(void *arg, const char *text, uint32_t length) {
  checksum_texts *t = arg;
  unsigned char bytes[CHECKSUM_BYTES];
  const masked_file *file;
  if (length != CHECKSUM_HEX || from_hex(text, bytes) || !(file = file_of(t->masks, bytes, 0)))
    return 0;
  checksum_text found = {(size_t)(text - t->bitcode), file};
  return MTPC_PUSH(t->found, t->count, t->cap, found) ? 1 : 0;
}

void mtpc_cache_masks_key_bitcode(const mtpc_cache_masks *m, const void *bitcode, size_t size,
                                  mtpc_cache_piece *piece, void *arg) {
  checksum_texts t = {.masks = m, .bitcode = bitcode};
  /* Bitcode this cannot walk is keyed as it is: a miss, never a wrong hit. */
  if (!m || !m->file_count || mtpc_md_strings_each(bitcode, size, note_checksum_text, &t))
    t.count = 0;
  size_t done = 0;
  for (size_t i = 0; i < t.count; i++) {
    char placeholder_hex[CHECKSUM_HEX];
    to_hex(t.found[i].file->placeholder, placeholder_hex);
    piece(arg, t.bitcode + done, t.found[i].offset - done);
    piece(arg, placeholder_hex, CHECKSUM_HEX);
    done = t.found[i].offset + CHECKSUM_HEX;
  }
  piece(arg, t.bitcode + done, size - done);
  free(t.found);
}

static void mask_line_checksum(void *arg, uint8_t checksum[CHECKSUM_BYTES]) {
  swap_checksum(arg, checksum, 1);
}

static void restore_checksum(void *arg, uint8_t checksum[CHECKSUM_BYTES]) {
  swap_checksum(arg, checksum, 0);
}

/* `change` on every checksum of an object's or a .dwo's line tables; -1
 * when it is not an object this reads. */
static int edit_line_tables(const mtpc_cache_masks *m, void *object, size_t size,
                            mtpc_line_checksum_fn *change) {
  static const char *const line_tables[] = {".debug_line", ".debug_line.dwo"};
  for (size_t t = 0; object && t < sizeof(line_tables) / sizeof(line_tables[0]); t++) {
    size_t offset = 0, length = 0;
    int found = mtpc_elf_find_section(object, size, line_tables[t], &offset, &length);
    if (found < 0 ||
        (found && mtpc_line_checksums((uint8_t *)object + offset, length, change, (void *)m)))
      return -1;
  }
  return 0;
}

int mtpc_cache_mask_object(const mtpc_cache_masks *m, void *object, size_t object_size,
                           void *dwo, size_t dwo_size) {
  if (!m || !m->file_count)
    return 0;
  return edit_line_tables(m, object, object_size, mask_line_checksum) ||
         edit_line_tables(m, dwo, dwo_size, mask_line_checksum);
}

/* `*at` starts with token<index> for an index below count: the real text
 * it stands for, *at moved past it. */
static const char *token_at(const char **at, const char *token, char *const *real,
                            size_t count) {
  size_t token_length = strlen(token);
  if (strncmp(*at, token, token_length) != 0)
    return NULL;
  const char *digits = *at + token_length;
  size_t index = 0, used = 0;
  while (digits[used] >= '0' && digits[used] <= '9' && used < 19)
    index = index * 10 + (size_t)(digits[used++] - '0');
  if (!used || index >= count)
    return NULL;
  *at = digits + used;
  return real[index];
}

/* The last name unmasked_name made, which it keeps until the next. */
typedef struct unmasking {
  const mtpc_cache_masks *masks;
  char *name;
  size_t cap;
} unmasking;

static const char *unmasked_name(void *arg, const char *name, int *out_of_memory) {
  unmasking *u = arg;
  const mtpc_cache_masks *m = u->masks;
  if (!strstr(name, STEM_TOKEN) && !strstr(name, SUFFIX_TOKEN))
    return NULL;
  size_t length = 0;
  for (const char *at = name; *at;) {
    const char *real = token_at(&at, SUFFIX_TOKEN, m->suffixes, m->suffix_count);
    if (!real)
      real = token_at(&at, STEM_TOKEN, m->stems, m->stem_count);
    size_t add = real ? strlen(real) : 1;
    if (mtpc_grow((void **)&u->name, &u->cap, length + add + 1, 1)) {
      *out_of_memory = 1;
      return NULL;
    }
    memcpy(u->name + length, real ? real : at++, add);
    length += add;
  }
  u->name[length] = '\0';
  return u->name;
}

int mtpc_cache_unmask_object(const mtpc_cache_masks *m, void **object, size_t *object_size,
                             void *dwo, size_t dwo_size, char **message) {
  *message = NULL;
  if (!m)
    return 0;
  if (m->file_count && (edit_line_tables(m, *object, *object_size, restore_checksum) ||
                        edit_line_tables(m, dwo, dwo_size, restore_checksum))) {
    *message = mtpc_strdup("cannot read the line tables to restore their checksums");
    return 1;
  }
  if (!m->stem_count && !m->suffix_count)
    return 0;
  void *renamed = NULL;
  size_t renamed_size = 0;
  unmasking u = {m, NULL, 0};
  int failed = mtpc_bridge_rename_in_names(*object, *object_size, unmasked_name, &u, &renamed,
                                           &renamed_size, message);
  free(u.name);
  if (failed)
    return 1;
  free(*object);
  *object = renamed;
  *object_size = renamed_size;
  return 0;
}
