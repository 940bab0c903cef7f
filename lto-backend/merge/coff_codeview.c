#include "coff_codeview.h"

#include <stdlib.h>
#include <string.h>

#include "codeview_refs.h"
#include "support/support.h"

/* CodeView's codes (LLVM's CodeViewTypes.def, CodeViewSymbols.def). */
enum {
  CV_SIGNATURE = 4,
  CV_FIRST_TYPE = 0x1000,
  CV_SUBSECTION_IGNORE = 0x80000000u,
  CV_SYMBOLS = 0xF1,
  CV_LINES = 0xF2,
  CV_STRINGS = 0xF3,
  CV_CHECKSUMS = 0xF4,
  CV_FRAME_DATA = 0xF5,
  CV_INLINEE_LINES = 0xF6,
  S_COMPILE = 0x0001,
  S_END = 0x0006,
  S_THUNK32 = 0x1102,
  S_BLOCK32 = 0x1103,
  S_WITH32 = 0x1104,
  S_SEPCODE = 0x1132,
  S_INLINESITE_END = 0x114E,
  S_PROC_ID_END = 0x114F,
  S_LPROC32_DPC = 0x1155,
  S_LPROC32_DPC_ID = 0x1156,
  S_OBJNAME = 0x1101,
  S_CONSTANT = 0x1107,
  S_UDT = 0x1108,
  S_LPROC32 = 0x110F,
  S_GPROC32 = 0x1110,
  S_COMPILE2 = 0x1116,
  S_COMPILE3 = 0x113C,
  S_ENVBLOCK = 0x113D,
  S_LPROC32_ID = 0x1146,
  S_GPROC32_ID = 0x1147,
  S_BUILDINFO = 0x114C,
  S_INLINESITE = 0x114D,
  S_FILESTATIC = 0x1153,
  S_INLINESITE2 = 0x115D,
  PROC_CODE_OFFSET = 32,  /* a procedure record's relocated code offset */
  ANNOTATION_CHANGE_FILE = 5,
  ANNOTATION_LAST = 13
};

/* An offset into one input's table and where it went. */
typedef struct offset_pair {
  uint32_t from, to;
} offset_pair;

typedef struct offset_map {
  offset_pair *pairs;
  size_t count, cap;
} offset_map;

/* Bytes the hash maps' keys point into: blocks that never move. */
typedef struct key_arena {
  uint8_t **blocks;
  size_t count, cap, used, block_size;
} key_arena;

typedef struct input_tables {
  uint32_t *types; /* old index - 0x1000 -> new index */
  uint32_t type_count;
  offset_map strings, checksums;
  int has_strings, has_checksums;
} input_tables;

struct coff_codeview {
  uint32_t inputs;
  input_tables *tables;
  coff_bytes types; /* its room reserved up front, so keys may point into it */
  uint32_t type_count;
  mtpc_strmap type_index; /* record -> index - 0x1000 */
  coff_bytes strings, checksums;
  mtpc_strmap string_offset, checksum_offset, once;
  key_arena keys;
  coff_bytes scratch, key;
  mtpc_cv_refs *refs;
  size_t refs_cap;
};

static uint32_t align4(uint32_t n) { return (n + 3) & ~3u; }

static const uint8_t *arena_copy(key_arena *a, const uint8_t *data, size_t size) {
  if (!a->count || a->used + size > a->block_size) {
    size_t block = size > 65536 ? size : 65536;
    uint8_t *fresh = malloc(block);
    if (!fresh || MTPC_PUSH(a->blocks, a->count, a->cap, fresh)) {
      free(fresh);
      return NULL;
    }
    a->used = 0;
    a->block_size = block;
  }
  uint8_t *at = a->blocks[a->count - 1] + a->used;
  memcpy(at, data, size);
  a->used += size;
  return at;
}

coff_codeview *mtpc_cv_new(uint32_t inputs, size_t type_bytes) {
  coff_codeview *cv = mtpc_zalloc(1, sizeof(*cv));
  if (!cv)
    return NULL;
  cv->inputs = inputs;
  cv->tables = mtpc_zalloc(inputs ? inputs : 1, sizeof(input_tables));
  cv->types.cap = type_bytes + CV_SIGNATURE;
  if (!cv->tables || !(cv->types.data = malloc(cv->types.cap)) ||
      mtpc_strmap_init(&cv->type_index, 1024) || mtpc_strmap_init(&cv->string_offset, 256) ||
      mtpc_strmap_init(&cv->checksum_offset, 64) || mtpc_strmap_init(&cv->once, 256) ||
      !mtpc_coff_reserve(&cv->strings, 1)) { /* offset 0: the empty string */
    mtpc_cv_free(cv);
    return NULL;
  }
  coff_wr32(mtpc_coff_reserve(&cv->types, 4), CV_SIGNATURE);
  return cv;
}

void mtpc_cv_free(coff_codeview *cv) {
  if (!cv)
    return;
  for (uint32_t j = 0; cv->tables && j < cv->inputs; j++) {
    free(cv->tables[j].types);
    free(cv->tables[j].strings.pairs);
    free(cv->tables[j].checksums.pairs);
  }
  for (size_t b = 0; b < cv->keys.count; b++)
    free(cv->keys.blocks[b]);
  free(cv->keys.blocks);
  mtpc_strmap_free(&cv->type_index);
  mtpc_strmap_free(&cv->string_offset);
  mtpc_strmap_free(&cv->checksum_offset);
  mtpc_strmap_free(&cv->once);
  free(cv->tables);
  free(cv->types.data);
  free(cv->strings.data);
  free(cv->checksums.data);
  free(cv->scratch.data);
  free(cv->key.data);
  free(cv->refs);
  free(cv);
}

const uint8_t *mtpc_cv_types(const coff_codeview *cv, size_t *size) {
  *size = cv->types.size;
  return cv->types.data;
}

/* The spans of type indices in a record of the scratch buffer; -1 when
 * the record is not one LLVM knows, -2 when memory runs out. */
static int find_refs(coff_codeview *cv, const uint8_t *record, size_t size, int symbol) {
  for (;;) {
    int n = symbol ? mtpc_cv_symbol_record_refs(record, size, cv->refs, cv->refs_cap)
                   : mtpc_cv_type_record_refs(record, size, cv->refs, cv->refs_cap);
    if (n < 0 || (size_t)n <= cv->refs_cap)
      return n;
    if (mtpc_grow((void **)&cv->refs, &cv->refs_cap, (size_t)n, sizeof(mtpc_cv_refs)))
      return -2;
  }
}

/* Maps the record's type indices (input j's, below `limit`) to the merged
 * stream's, in place. */
static coff_append_status remap_types(coff_codeview *cv, uint32_t j, uint8_t *record,
                                      size_t size, int symbol, uint32_t limit) {
  int n = find_refs(cv, record, size, symbol);
  if (n == -2)
    return COFF_NO_MEMORY;
  if (n < 0)
    return COFF_MALFORMED;
  const input_tables *t = &cv->tables[j];
  for (int r = 0; r < n; r++) {
    const mtpc_cv_refs *span = &cv->refs[r];
    if (span->offset > size || span->count > (size - span->offset) / 4)
      return COFF_MALFORMED;
    for (uint32_t k = 0; k < span->count; k++) {
      uint8_t *at = record + span->offset + 4 * k;
      uint32_t index = coff_rd32(at);
      if (index < CV_FIRST_TYPE)
        continue; /* a simple type, the same in every stream */
      if (index - CV_FIRST_TYPE >= limit) /* LLVM writes a type after what it names */
        return COFF_MALFORMED;
      coff_wr32(at, t->types[index - CV_FIRST_TYPE]);
    }
  }
  return COFF_APPENDED;
}

/* LLVM's record reader reads a name up to its NUL and a number by its
 * leaf, even past a record's end: zeros follow the copy. */
enum { SCRATCH_GUARD = 16 };

static coff_append_status set_scratch(coff_codeview *cv, const uint8_t *data, size_t size) {
  cv->scratch.size = 0;
  uint8_t *at = mtpc_coff_reserve(&cv->scratch, size + SCRATCH_GUARD);
  if (!at)
    return COFF_NO_MEMORY;
  memcpy(at, data, size);
  cv->scratch.size = size;
  return COFF_APPENDED;
}

/* The record in the scratch buffer: its index in the merged stream. */
static coff_append_status intern_type(coff_codeview *cv, uint32_t *index) {
  uint32_t found;
  const char *key = (const char *)cv->scratch.data;
  if (mtpc_strmap_get(&cv->type_index, key, cv->scratch.size, &found)) {
    *index = CV_FIRST_TYPE + found;
    return COFF_APPENDED;
  }
  if (cv->types.size + cv->scratch.size > cv->types.cap)
    return COFF_MALFORMED; /* more than every input's stream holds */
  uint8_t *at = cv->types.data + cv->types.size;
  memcpy(at, cv->scratch.data, cv->scratch.size);
  cv->types.size += cv->scratch.size;
  if (mtpc_strmap_put(&cv->type_index, (const char *)at, cv->scratch.size, cv->type_count))
    return COFF_NO_MEMORY;
  *index = CV_FIRST_TYPE + cv->type_count++;
  return COFF_APPENDED;
}

/* Each record: 2 bytes of length (what follows them), 2 of kind. */
static uint32_t count_records(const uint8_t *data, size_t size, size_t from) {
  uint32_t count = 0;
  for (size_t at = from; at + 4 <= size; at += 2 + (size_t)coff_rd16(data + at))
    count++;
  return count;
}

coff_append_status mtpc_cv_add_types(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                     size_t size) {
  input_tables *t = &cv->tables[j];
  if (size < 4 || coff_rd32(data) != CV_SIGNATURE || t->types)
    return COFF_MALFORMED;
  uint32_t count = count_records(data, size, 4);
  if (!(t->types = mtpc_alloc(count ? count : 1, sizeof(uint32_t))))
    return COFF_NO_MEMORY;
  size_t at = 4;
  for (uint32_t k = 0; k < count; k++) {
    size_t length = 2 + (size_t)coff_rd16(data + at);
    if (length < 4 || at + length > size)
      return COFF_MALFORMED;
    coff_append_status status = set_scratch(cv, data + at, length);
    if (status == COFF_APPENDED)
      status = remap_types(cv, j, cv->scratch.data, length, 0, k);
    if (status == COFF_APPENDED)
      status = intern_type(cv, &t->types[k]);
    if (status != COFF_APPENDED)
      return status;
    t->type_count = k + 1;
    at += length;
  }
  return at == size ? COFF_APPENDED : COFF_MALFORMED;
}

static int add_pair(offset_map *map, uint32_t from, uint32_t to) {
  return MTPC_PUSH(map->pairs, map->count, map->cap, ((offset_pair){from, to})) != 0;
}

/* Pairs are added in increasing `from` order, their first field. */
static int map_offset(const offset_map *map, uint32_t from, uint32_t *to) {
  const offset_pair *pair =
      map->count ? bsearch(&from, map->pairs, map->count, sizeof(offset_pair), mtpc_compare_u32)
                 : NULL;
  if (pair)
    *to = pair->to;
  return pair != NULL;
}

/* A string table subsection: each string at its merged offset. */
static coff_append_status add_strings(coff_codeview *cv, input_tables *t, const uint8_t *data,
                                      uint32_t size) {
  for (uint32_t at = 0; at < size;) {
    const uint8_t *end = memchr(data + at, 0, size - at);
    if (!end)
      return COFF_MALFORMED;
    size_t length = (size_t)(end - (data + at));
    uint32_t offset;
    if (!mtpc_strmap_get(&cv->string_offset, (const char *)data + at, length, &offset)) {
      if (cv->strings.size > UINT32_MAX - length - 1)
        return COFF_MALFORMED;
      offset = (uint32_t)cv->strings.size;
      uint8_t *copy = mtpc_coff_reserve(&cv->strings, length + 1);
      if (!copy)
        return COFF_NO_MEMORY;
      memcpy(copy, data + at, length);
      /* keys point into the input, which outlives the merge */
      if (mtpc_strmap_put(&cv->string_offset, (const char *)data + at, length, offset))
        return COFF_NO_MEMORY;
    }
    if (add_pair(&t->strings, at, offset))
      return COFF_NO_MEMORY;
    at += (uint32_t)length + 1;
  }
  return COFF_APPENDED;
}

/* A checksum entry: the file name's string offset, the checksum's size and
 * kind, the checksum, padded to 4 bytes. */
static coff_append_status add_checksums(coff_codeview *cv, input_tables *t, const uint8_t *data,
                                        uint32_t size) {
  for (uint32_t at = 0; at < size;) {
    if (size - at < 6 || data[at + 4] > size - at - 6)
      return COFF_MALFORMED;
    uint32_t length = 6 + data[at + 4], name;
    if (!map_offset(&t->strings, coff_rd32(data + at), &name))
      return COFF_MALFORMED;
    uint8_t entry[6 + 255 + 3] = {0};
    memcpy(entry, data + at, length);
    coff_wr32(entry, name);
    uint32_t padded = align4(length), offset;
    if (!mtpc_strmap_get(&cv->checksum_offset, (const char *)entry, length, &offset)) {
      const uint8_t *key = arena_copy(&cv->keys, entry, length);
      uint8_t *copy = mtpc_coff_reserve(&cv->checksums, padded);
      if (!key || !copy)
        return COFF_NO_MEMORY;
      memcpy(copy, entry, length);
      offset = (uint32_t)(cv->checksums.size - padded);
      if (mtpc_strmap_put(&cv->checksum_offset, (const char *)key, length, offset))
        return COFF_NO_MEMORY;
    }
    if (add_pair(&t->checksums, at, offset))
      return COFF_NO_MEMORY;
    at += padded > size - at ? size - at : padded;
  }
  return COFF_APPENDED;
}

/* Walks a .debug$S section's subsections: kind, size, contents, padding. */
typedef struct subsection {
  uint32_t kind, size, at; /* `at`: the header's offset */
  const uint8_t *data;
} subsection;

static int next_subsection(const uint8_t *data, size_t size, uint32_t *at, subsection *s) {
  if (*at + 8 > size)
    return 0;
  s->kind = coff_rd32(data + *at);
  s->size = coff_rd32(data + *at + 4);
  s->at = *at;
  if (s->size > size - *at - 8)
    return -1;
  s->data = data + *at + 8;
  uint32_t next = *at + 8 + align4(s->size);
  *at = next > size ? (uint32_t)size : next;
  return 1;
}

coff_append_status mtpc_cv_add_files(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                     size_t size) {
  if (size < 4 || coff_rd32(data) != CV_SIGNATURE || size > UINT32_MAX)
    return COFF_MALFORMED;
  input_tables *t = &cv->tables[j];
  subsection s, checksums = {0};
  int found;
  uint32_t at = 4;
  while ((found = next_subsection(data, size, &at, &s)) > 0) {
    coff_append_status status = COFF_APPENDED;
    if (s.kind == CV_STRINGS) {
      if (t->has_strings++) /* offsets into two tables could not be told apart */
        return COFF_MALFORMED;
      status = add_strings(cv, t, s.data, s.size);
    } else if (s.kind == CV_CHECKSUMS) {
      if (t->has_checksums++)
        return COFF_MALFORMED;
      checksums = s;
    }
    if (status != COFF_APPENDED)
      return status;
  }
  if (found < 0)
    return COFF_MALFORMED;
  return checksums.data ? add_checksums(cv, t, checksums.data, checksums.size) : COFF_APPENDED;
}

uint32_t mtpc_cv_moved(const cv_moves *moves, uint32_t offset) {
  size_t low = 0, high = moves->count;
  while (low < high) { /* the last piece that starts at or before offset */
    size_t middle = low + (high - low) / 2;
    if (moves->pieces[middle].from <= offset)
      low = middle + 1;
    else
      high = middle;
  }
  if (low == 0)
    return UINT32_MAX;
  const cv_piece *p = &moves->pieces[low - 1];
  return offset - p->from < p->size ? p->to + (offset - p->from) : UINT32_MAX;
}

/* The state of one section's rewrite. */
typedef struct rewrite {
  coff_codeview *cv;
  uint32_t j;
  unsigned flags;
  const uint8_t *data;
  cv_promoted_at *promoted;
  void *context;
  coff_bytes *out;
  size_t base; /* the section's start in *out */
  cv_moves *moves;
  uint32_t depth; /* of the scopes (procedures, blocks, inline sites) open */
} rewrite;

static coff_append_status moved(rewrite *w, uint32_t from, uint32_t size) {
  cv_moves *m = w->moves;
  cv_piece piece = {from, (uint32_t)(w->out->size - w->base), size};
  return MTPC_PUSH(m->pieces, m->count, m->cap, piece) ? COFF_NO_MEMORY : COFF_APPENDED;
}

static uint8_t *emit(rewrite *w, const uint8_t *bytes, size_t size) {
  uint8_t *at = mtpc_coff_reserve(w->out, size);
  if (at && bytes)
    memcpy(at, bytes, size);
  return at;
}

/* A 4-byte offset into one of the input's tables, to the merged one's. */
static int remap_offset(const offset_map *map, uint8_t *field) {
  uint32_t to;
  if (!map_offset(map, coff_rd32(field), &to))
    return 1;
  coff_wr32(field, to);
  return 0;
}

/* CodeView's compressed unsigned integers: 1, 2 or 4 bytes. */
static size_t read_compressed(const uint8_t *p, size_t room, uint32_t *value) {
  if (room >= 1 && !(p[0] & 0x80)) {
    *value = p[0];
    return 1;
  }
  if (room >= 2 && (p[0] & 0xC0) == 0x80) {
    *value = (uint32_t)(p[0] & 0x3F) << 8 | p[1];
    return 2;
  }
  if (room >= 4 && (p[0] & 0xE0) == 0xC0) {
    *value = (uint32_t)(p[0] & 0x1F) << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return 4;
  }
  return 0;
}

static size_t write_compressed(uint8_t *p, uint32_t value) {
  if (value < 0x80) {
    p[0] = (uint8_t)value;
    return 1;
  }
  if (value < 0x4000) {
    p[0] = (uint8_t)(0x80 | value >> 8);
    p[1] = (uint8_t)value;
    return 2;
  }
  p[0] = (uint8_t)(0xC0 | value >> 24);
  p[1] = (uint8_t)(value >> 16);
  p[2] = (uint8_t)(value >> 8);
  p[3] = (uint8_t)value;
  return 4;
}

/* An inline site's binary annotations, whose file changes name checksum
 * offsets: appended to the scratch buffer, a size that changes when an
 * offset's encoding does. */
static coff_append_status rewrite_annotations(rewrite *w, const uint8_t *a, size_t room) {
  const input_tables *t = &w->cv->tables[w->j];
  size_t at = 0;
  while (at < room) {
    uint32_t op;
    size_t n = read_compressed(a + at, room - at, &op);
    if (!n || op > ANNOTATION_LAST)
      return COFF_MALFORMED;
    if (op == 0)
      break; /* the end; padding follows */
    uint8_t *out = mtpc_coff_reserve(&w->cv->scratch, n);
    if (!out)
      return COFF_NO_MEMORY;
    memcpy(out, a + at, n);
    at += n;
    for (int operand = 0; operand < (op == 12 ? 2 : 1); operand++) {
      uint32_t value, to;
      if (!(n = read_compressed(a + at, room - at, &value)))
        return COFF_MALFORMED;
      if (op == ANNOTATION_CHANGE_FILE && !map_offset(&t->checksums, value, &to))
        return COFF_MALFORMED;
      uint8_t encoded[4];
      size_t length = op == ANNOTATION_CHANGE_FILE ? write_compressed(encoded, to) : n;
      if (!(out = mtpc_coff_reserve(&w->cv->scratch, length)))
        return COFF_NO_MEMORY;
      memcpy(out, op == ANNOTATION_CHANGE_FILE ? encoded : a + at, length);
      at += n;
    }
  }
  size_t size = w->cv->scratch.size;
  if (!mtpc_coff_reserve(&w->cv->scratch, align4((uint32_t)size) - size))
    return COFF_NO_MEMORY;
  return COFF_APPENDED;
}

static int opens_scope(uint32_t kind) {
  return kind == S_GPROC32 || kind == S_LPROC32 || kind == S_GPROC32_ID ||
         kind == S_LPROC32_ID || kind == S_LPROC32_DPC || kind == S_LPROC32_DPC_ID ||
         kind == S_BLOCK32 || kind == S_THUNK32 || kind == S_WITH32 || kind == S_SEPCODE ||
         kind == S_INLINESITE || kind == S_INLINESITE2;
}

static int closes_scope(uint32_t kind) {
  return kind == S_END || kind == S_PROC_ID_END || kind == S_INLINESITE_END;
}

static int is_object_record(uint32_t kind) {
  return kind == S_OBJNAME || kind == S_COMPILE || kind == S_COMPILE2 || kind == S_COMPILE3 ||
         kind == S_ENVBLOCK || kind == S_BUILDINFO;
}

/* Whether equal bytes were kept already from another input (the global
 * type names and constants, and the inlinee lines, that each partition
 * writes for what it used). `kind` keeps a subsection's entries apart from
 * symbol records. */
static coff_append_status seen_before(coff_codeview *cv, uint32_t j, uint32_t kind,
                                      const uint8_t *bytes, size_t size, int *seen) {
  cv->key.size = 0;
  uint8_t *key = mtpc_coff_reserve(&cv->key, size + 4);
  if (!key)
    return COFF_NO_MEMORY;
  coff_wr32(key, kind);
  memcpy(key + 4, bytes, size);
  uint32_t input;
  if (mtpc_strmap_get(&cv->once, (const char *)key, size + 4, &input)) {
    *seen = input != j; /* the serial compile's own repeats stay */
    return COFF_APPENDED;
  }
  *seen = 0;
  const uint8_t *kept = arena_copy(&cv->keys, key, size + 4);
  if (!kept || mtpc_strmap_put(&cv->once, (const char *)kept, size + 4, j))
    return COFF_NO_MEMORY;
  return COFF_APPENDED;
}

/* One symbol record, at section offset `from`, into the scratch buffer:
 * *keep 0 when it is left out. */
static coff_append_status rewrite_record(rewrite *w, uint32_t from, size_t length, int *keep) {
  coff_codeview *cv = w->cv;
  const uint8_t *record = w->data + from;
  uint32_t kind = coff_rd16(record + 2);
  *keep = !(is_object_record(kind) && !(w->flags & CV_REWRITE_OBJECT_RECORDS));
  if (!*keep)
    return COFF_APPENDED;
  int inline_site = kind == S_INLINESITE || kind == S_INLINESITE2;
  size_t fixed = inline_site ? (kind == S_INLINESITE ? 16 : 20) : length;
  if (fixed > length)
    return COFF_MALFORMED;
  coff_append_status status = set_scratch(cv, record, fixed);
  if (status == COFF_APPENDED)
    status = remap_types(cv, w->j, cv->scratch.data, fixed, 1, cv->tables[w->j].type_count);
  if (status == COFF_APPENDED && inline_site)
    status = rewrite_annotations(w, record + fixed, length - fixed);
  if (status != COFF_APPENDED)
    return status;
  uint8_t *s = cv->scratch.data;
  coff_wr16(s, (uint32_t)cv->scratch.size - 2);
  if ((kind == S_GPROC32 || kind == S_GPROC32_ID) && length >= PROC_CODE_OFFSET + 4 &&
      w->promoted(w->context, from + PROC_CODE_OFFSET))
    coff_wr16(s + 2, kind == S_GPROC32 ? S_LPROC32 : S_LPROC32_ID);
  if (kind == S_FILESTATIC && (length < 12 || remap_offset(&cv->tables[w->j].strings, s + 8)))
    return COFF_MALFORMED;
  int global = w->depth == 0;
  w->depth += opens_scope(kind);
  w->depth -= closes_scope(kind) && w->depth > 0;
  if ((kind == S_UDT || kind == S_CONSTANT) && global && (w->flags & CV_REWRITE_ONCE)) {
    int seen;
    status = seen_before(cv, w->j, CV_SYMBOLS, cv->scratch.data, cv->scratch.size, &seen);
    *keep = !seen;
  }
  return status;
}

static coff_append_status subsection_header(rewrite *w, const subsection *s, size_t *header) {
  *header = w->out->size;
  uint8_t *h = emit(w, NULL, 8);
  if (!h)
    return COFF_NO_MEMORY;
  coff_wr32(h, s->kind);
  return moved(w, s->at, 8);
}

/* Ends a subsection whose header is at `header`: its size, its padding;
 * none at all when it kept no entry. */
static coff_append_status end_subsection(rewrite *w, size_t header, size_t kept) {
  if (!kept) {
    w->out->size = header;
    w->moves->count--; /* its header's */
    return COFF_APPENDED;
  }
  size_t size = w->out->size - header - 8;
  coff_wr32(w->out->data + header + 4, (uint32_t)size);
  return emit(w, NULL, align4((uint32_t)size) - size) ? COFF_APPENDED : COFF_NO_MEMORY;
}

static coff_append_status rewrite_symbols(rewrite *w, const subsection *s) {
  size_t header, kept = 0;
  coff_append_status status = subsection_header(w, s, &header);
  for (uint32_t at = 0; status == COFF_APPENDED && at + 4 <= s->size;) {
    size_t length = 2 + (size_t)coff_rd16(s->data + at);
    if (length < 4 || length > s->size - at)
      return COFF_MALFORMED;
    uint32_t from = s->at + 8 + at;
    int keep;
    status = rewrite_record(w, from, length, &keep);
    if (status == COFF_APPENDED && keep) {
      int same_size = w->cv->scratch.size == length;
      status = moved(w, from, same_size ? (uint32_t)length : 0);
      if (status == COFF_APPENDED && !emit(w, w->cv->scratch.data, w->cv->scratch.size))
        status = COFF_NO_MEMORY;
      kept++;
    }
    at += (uint32_t)length;
  }
  return status == COFF_APPENDED ? end_subsection(w, header, kept) : status;
}

/* Lines: a header (12 bytes), then blocks of a file's lines, each headed
 * by its checksum offset, line count and size. */
static int patch_lines(const input_tables *t, uint8_t *d, uint32_t size) {
  for (uint32_t at = 12; at + 12 <= size;) {
    uint32_t block = coff_rd32(d + at + 8);
    if (block < 12 || block > size - at || remap_offset(&t->checksums, d + at))
      return 1;
    at += block;
  }
  return 0;
}

/* Inlinee lines: a signature (1: each entry lists extra files), then the
 * inlinee's function id, its file's checksum offset and its line. Each
 * partition lists the functions it inlined; one entry per inlinee is kept
 * outside COMDATs. */
static coff_append_status remap_inlinee(rewrite *w, uint8_t *entry, uint32_t files) {
  const input_tables *t = &w->cv->tables[w->j];
  uint32_t id = coff_rd32(entry);
  if (id >= CV_FIRST_TYPE) {
    if (id - CV_FIRST_TYPE >= t->type_count)
      return COFF_MALFORMED;
    coff_wr32(entry, t->types[id - CV_FIRST_TYPE]);
  }
  if (remap_offset(&t->checksums, entry + 4))
    return COFF_MALFORMED;
  for (uint32_t f = 0; f < files; f++)
    if (remap_offset(&t->checksums, entry + 16 + 4 * f))
      return COFF_MALFORMED;
  return COFF_APPENDED;
}

static coff_append_status rewrite_inlinee_lines(rewrite *w, const subsection *s) {
  const uint8_t *d = s->data;
  if (s->size < 4)
    return COFF_MALFORMED;
  int extra = coff_rd32(d) == 1;
  size_t header, kept = 0;
  coff_append_status status = subsection_header(w, s, &header);
  if (status == COFF_APPENDED && !emit(w, d, 4))
    status = COFF_NO_MEMORY;
  for (uint32_t at = 4; status == COFF_APPENDED && at < s->size;) {
    if (s->size - at < (extra ? 16u : 12u))
      return COFF_MALFORMED;
    uint32_t files = extra ? coff_rd32(d + at + 12) : 0;
    uint32_t size = extra ? 16 : 12;
    if (files > (s->size - at - size) / 4)
      return COFF_MALFORMED;
    size += 4 * files;
    int seen = 0;
    status = set_scratch(w->cv, d + at, size);
    if (status == COFF_APPENDED)
      status = remap_inlinee(w, w->cv->scratch.data, files);
    if (status == COFF_APPENDED && (w->flags & CV_REWRITE_ONCE))
      status = seen_before(w->cv, w->j, CV_INLINEE_LINES, w->cv->scratch.data, size, &seen);
    if (status == COFF_APPENDED && !seen && !emit(w, w->cv->scratch.data, size))
      status = COFF_NO_MEMORY;
    kept += !seen;
    at += size;
  }
  return status == COFF_APPENDED ? end_subsection(w, header, kept) : status;
}

/* Frame data (32-bit x86): a relocated address, then 32-byte entries
 * whose program string is a string offset. */
static int patch_frame_data(const input_tables *t, uint8_t *d, uint32_t size) {
  if (size < 4 || (size - 4) % 32)
    return 1;
  for (uint32_t at = 4; at < size; at += 32)
    if (remap_offset(&t->strings, d + at + 20))
      return 1;
  return 0;
}

/* A subsection copied whole, its offsets patched in place. */
static coff_append_status copy_subsection(rewrite *w, const subsection *s) {
  coff_append_status status = moved(w, s->at, 8 + align4(s->size));
  uint8_t *h = status == COFF_APPENDED ? emit(w, w->data + s->at, 8 + align4(s->size)) : NULL;
  if (!h)
    return status == COFF_APPENDED ? COFF_NO_MEMORY : status;
  uint8_t *d = h + 8;
  const input_tables *t = &w->cv->tables[w->j];
  int bad = 0;
  if (s->kind == CV_LINES)
    bad = patch_lines(t, d, s->size);
  else if (s->kind == CV_FRAME_DATA)
    bad = patch_frame_data(t, d, s->size);
  return bad ? COFF_MALFORMED : COFF_APPENDED;
}

static coff_append_status append_table(rewrite *w, uint32_t kind, const coff_bytes *table) {
  uint8_t *h = emit(w, NULL, 8);
  if (!h)
    return COFF_NO_MEMORY;
  coff_wr32(h, kind);
  coff_wr32(h + 4, (uint32_t)table->size);
  if (table->size && !emit(w, table->data, table->size))
    return COFF_NO_MEMORY;
  size_t pad = align4((uint32_t)table->size) - table->size;
  return emit(w, NULL, pad) ? COFF_APPENDED : COFF_NO_MEMORY;
}

coff_append_status mtpc_cv_rewrite_symbols(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                           size_t size, unsigned flags,
                                           cv_promoted_at *promoted, void *context,
                                           coff_bytes *out, cv_moves *moves) {
  if (size < 4 || coff_rd32(data) != CV_SIGNATURE || size > UINT32_MAX)
    return COFF_MALFORMED;
  rewrite w = {cv, j, flags, data, promoted, context, out, out->size, moves, 0};
  coff_append_status status = moved(&w, 0, 4);
  if (status != COFF_APPENDED || !emit(&w, data, 4))
    return status == COFF_APPENDED ? COFF_NO_MEMORY : status;
  subsection s;
  int found = 0;
  uint32_t at = 4;
  while (status == COFF_APPENDED && (found = next_subsection(data, size, &at, &s)) > 0) {
    if (s.kind == CV_STRINGS || s.kind == CV_CHECKSUMS)
      continue; /* the merged tables stand for them */
    if (s.kind == CV_SYMBOLS)
      status = rewrite_symbols(&w, &s);
    else if (s.kind == CV_INLINEE_LINES)
      status = rewrite_inlinee_lines(&w, &s);
    else
      status = copy_subsection(&w, &s);
  }
  if (status == COFF_APPENDED && found < 0)
    status = COFF_MALFORMED;
  if (status == COFF_APPENDED && (flags & CV_REWRITE_TABLES))
    status = append_table(&w, CV_CHECKSUMS, &cv->checksums);
  if (status == COFF_APPENDED && (flags & CV_REWRITE_TABLES))
    status = append_table(&w, CV_STRINGS, &cv->strings);
  return status;
}
