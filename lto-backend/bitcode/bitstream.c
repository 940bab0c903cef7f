#include "bitstream.h"

#include <stdlib.h>
#include <string.h>

#include "support/support.h"

enum { OP_LITERAL, OP_FIXED, OP_VBR, OP_ARRAY, OP_CHAR6, OP_BLOB };

struct mtpc_bs_abbrev {
  uint32_t count;
  struct {
    uint8_t kind;
    uint8_t width;  /* a literal's field: its width in bits */
    uint64_t value; /* the literal, or a fixed or VBR width */
    uint64_t bit;   /* a literal's field: where the definition holds it */
  } ops[];
};

enum { BLOCKINFO_ID = 0, BLOCKINFO_SETBID = 1, TOP_ABBREV_WIDTH = 2, MODULE_BLOCK_ID = 8 };

void mtpc_bs_init(mtpc_bitstream *bs, const void *data, size_t size) {
  memset(bs, 0, sizeof(*bs));
  bs->data = data;
  bs->size_bits = (uint64_t)size * 8;
}

static void free_abbrevs(mtpc_bs_abbrev **abbrevs, uint32_t from, uint32_t to) {
  for (uint32_t i = from; i < to; i++)
    free(abbrevs[i]);
}

/* A scope's abbreviations from BLOCKINFO come first and are not its own. */
static uint32_t inherited_count(const mtpc_bitstream *bs, uint32_t block_id) {
  for (uint32_t i = 0; i < bs->info_count; i++)
    if (bs->info[i].block_id == block_id)
      return bs->info[i].count;
  return 0;
}

static void pop_scope(mtpc_bitstream *bs) {
  mtpc_bs_scope *s = &bs->scopes[--bs->depth];
  free_abbrevs(s->abbrevs, s->inherited, s->abbrev_count);
  free(s->abbrevs);
}

void mtpc_bs_free(mtpc_bitstream *bs) {
  while (bs->depth > 0)
    pop_scope(bs);
  for (uint32_t i = 0; i < bs->info_count; i++) {
    free_abbrevs(bs->info[i].abbrevs, 0, bs->info[i].count);
    free(bs->info[i].abbrevs);
  }
  free(bs->info);
  bs->info = NULL;
  bs->info_count = 0;
  mtpc_bs_record_free(&bs->scratch);
}

uint64_t mtpc_bs_fixed(mtpc_bitstream *bs, unsigned width) {
  if (width > 64 || bs->bit + width > bs->size_bits) {
    bs->failed = 1;
    return 0;
  }
  if (width <= 56 && bs->bit + 64 <= bs->size_bits) {
    /* Eight bytes hold any field of up to 56 bits at any offset. */
    uint64_t window;
    memcpy(&window, bs->data + bs->bit / 8, sizeof(window));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    window = __builtin_bswap64(window); /* the stream is little-endian */
#endif
    uint64_t value = (window >> (bs->bit & 7)) & ((UINT64_C(1) << width) - 1);
    bs->bit += width;
    return value;
  }
  uint64_t value = 0;
  for (unsigned got = 0; got < width;) {
    unsigned shift = bs->bit & 7, take = 8 - shift;
    if (take > width - got)
      take = width - got;
    uint64_t bits = (uint64_t)(bs->data[bs->bit >> 3] >> shift) & ((1u << take) - 1);
    value |= bits << got;
    got += take;
    bs->bit += take;
  }
  return value;
}

uint64_t mtpc_bs_vbr(mtpc_bitstream *bs, unsigned width) {
  if (width < 2 || width > 32) {
    bs->failed = 1;
    return 0;
  }
  uint64_t more = 1ull << (width - 1), value = 0;
  for (unsigned shift = 0; !bs->failed; shift += width - 1) {
    uint64_t chunk = mtpc_bs_fixed(bs, width);
    if (shift < 64)
      value |= (chunk & (more - 1)) << shift;
    if (!(chunk & more))
      return value;
    if (shift > 70) /* longer than any 64-bit value */
      bs->failed = 1;
  }
  return 0;
}

static void align32(mtpc_bitstream *bs) {
  bs->bit = (bs->bit + 31) & ~(uint64_t)31;
  if (bs->bit > bs->size_bits)
    bs->failed = 1;
}

static mtpc_bs_abbrev *read_abbrev(mtpc_bitstream *bs) {
  uint64_t count = mtpc_bs_vbr(bs, 5);
  if (bs->failed || count == 0 || count > 1024) {
    bs->failed = 1;
    return NULL;
  }
  mtpc_bs_abbrev *a = malloc(sizeof(*a) + count * sizeof(a->ops[0]));
  if (!a) {
    bs->out_of_memory = 1;
    return NULL;
  }
  a->count = (uint32_t)count;
  for (uint32_t i = 0; i < a->count && !bs->failed; i++) {
    int literal = (int)mtpc_bs_fixed(bs, 1);
    a->ops[i].kind = literal ? OP_LITERAL : (uint8_t)mtpc_bs_fixed(bs, 3);
    a->ops[i].value = 0;
    a->ops[i].bit = bs->bit;
    a->ops[i].width = 0;
    if (literal) {
      a->ops[i].value = mtpc_bs_vbr(bs, 8);
      a->ops[i].width = (uint8_t)(bs->bit - a->ops[i].bit);
    }
    else if (a->ops[i].kind == OP_FIXED || a->ops[i].kind == OP_VBR)
      a->ops[i].value = mtpc_bs_vbr(bs, 5);
    else if (a->ops[i].kind < OP_ARRAY || a->ops[i].kind > OP_BLOB)
      bs->failed = 1;
  }
  if (bs->failed) {
    free(a);
    return NULL;
  }
  return a;
}

static int append_abbrev(mtpc_bs_abbrev ***list, uint32_t *count, mtpc_bs_abbrev *a) {
  mtpc_bs_abbrev **grown = realloc(*list, (*count + 1) * sizeof(**list));
  if (!grown) {
    free(a);
    return 1;
  }
  grown[(*count)++] = a;
  *list = grown;
  return 0;
}

static int define_abbrev(mtpc_bitstream *bs) {
  mtpc_bs_abbrev *a = read_abbrev(bs);
  if (!a)
    return 1;
  mtpc_bs_scope *s = &bs->scopes[bs->depth - 1];
  if (append_abbrev(&s->abbrevs, &s->abbrev_count, a)) {
    bs->out_of_memory = 1;
    return 1;
  }
  return 0;
}

mtpc_bs_entry_kind mtpc_bs_advance(mtpc_bitstream *bs, uint32_t *id) {
  for (;;) {
    if (bs->failed || bs->out_of_memory)
      return MTPC_BS_ENTRY_ERROR;
    if (bs->depth == 0 && bs->bit + 32 > bs->size_bits)
      return MTPC_BS_ENTRY_END; /* at most the padding after the last block */
    unsigned width = bs->depth ? bs->scopes[bs->depth - 1].abbrev_width : TOP_ABBREV_WIDTH;
    uint32_t abbrev = (uint32_t)mtpc_bs_fixed(bs, width);
    if (bs->failed)
      return MTPC_BS_ENTRY_ERROR;
    switch (abbrev) {
    case MTPC_BS_END_BLOCK:
      if (bs->depth == 0)
        return MTPC_BS_ENTRY_ERROR;
      align32(bs);
      pop_scope(bs);
      return bs->failed ? MTPC_BS_ENTRY_ERROR : MTPC_BS_ENTRY_END;
    case MTPC_BS_ENTER_SUBBLOCK:
      *id = (uint32_t)mtpc_bs_vbr(bs, 8);
      return bs->failed ? MTPC_BS_ENTRY_ERROR : MTPC_BS_ENTRY_SUBBLOCK;
    case MTPC_BS_DEFINE_ABBREV:
      if (bs->depth == 0 || define_abbrev(bs))
        return MTPC_BS_ENTRY_ERROR;
      continue;
    default:
      if (bs->depth == 0)
        return MTPC_BS_ENTRY_ERROR;
      *id = abbrev;
      return MTPC_BS_ENTRY_RECORD;
    }
  }
}

/* The header after ENTER_SUBBLOCK's ID: the abbreviation width and the
 * length in 32-bit words. */
static uint64_t read_block_header(mtpc_bitstream *bs, unsigned *width) {
  *width = (unsigned)mtpc_bs_vbr(bs, 4);
  align32(bs);
  uint64_t words = mtpc_bs_fixed(bs, 32);
  uint64_t end = bs->bit + words * 32;
  if (bs->failed || *width < 1 || *width > 32 || end > bs->size_bits)
    bs->failed = 1;
  return end;
}

int mtpc_bs_enter(mtpc_bitstream *bs, uint32_t block_id) {
  unsigned width;
  uint64_t end = read_block_header(bs, &width);
  if (bs->failed || bs->depth == sizeof(bs->scopes) / sizeof(bs->scopes[0])) {
    bs->failed = 1;
    return 1;
  }
  mtpc_bs_scope *s = &bs->scopes[bs->depth];
  *s = (mtpc_bs_scope){.block_id = block_id, .abbrev_width = width, .end_bit = end};
  uint32_t inherited = inherited_count(bs, block_id);
  if (inherited) {
    s->abbrevs = malloc(inherited * sizeof(*s->abbrevs));
    if (!s->abbrevs) {
      bs->out_of_memory = 1;
      return 1;
    }
    for (uint32_t i = 0; i < bs->info_count; i++)
      if (bs->info[i].block_id == block_id)
        memcpy(s->abbrevs, bs->info[i].abbrevs, inherited * sizeof(*s->abbrevs));
    s->abbrev_count = s->inherited = inherited;
  }
  bs->depth++;
  return 0;
}

int mtpc_bs_skip_block(mtpc_bitstream *bs) {
  unsigned width;
  uint64_t end = read_block_header(bs, &width);
  if (bs->failed)
    return 1;
  bs->bit = end;
  return 0;
}

int mtpc_bs_leave(mtpc_bitstream *bs) {
  if (bs->depth == 0) {
    bs->failed = 1;
    return 1;
  }
  bs->bit = bs->scopes[bs->depth - 1].end_bit;
  pop_scope(bs);
  return 0;
}

static mtpc_bs_block_abbrevs *info_for(mtpc_bitstream *bs, uint32_t block_id) {
  for (uint32_t i = 0; i < bs->info_count; i++)
    if (bs->info[i].block_id == block_id)
      return &bs->info[i];
  mtpc_bs_block_abbrevs *grown = realloc(bs->info, (bs->info_count + 1) * sizeof(*grown));
  if (!grown) {
    bs->out_of_memory = 1;
    return NULL;
  }
  bs->info = grown;
  bs->info[bs->info_count] = (mtpc_bs_block_abbrevs){.block_id = block_id};
  return &bs->info[bs->info_count++];
}

int mtpc_bs_read_blockinfo(mtpc_bitstream *bs) {
  mtpc_bs_block_abbrevs *target = NULL;
  mtpc_bs_record record = {0};
  int failed = 1;
  for (;;) {
    unsigned width = bs->scopes[bs->depth - 1].abbrev_width;
    uint32_t abbrev = (uint32_t)mtpc_bs_fixed(bs, width);
    if (bs->failed)
      break;
    if (abbrev == MTPC_BS_END_BLOCK) {
      align32(bs);
      pop_scope(bs);
      failed = bs->failed;
      break;
    }
    if (abbrev == MTPC_BS_DEFINE_ABBREV) {
      mtpc_bs_abbrev *a = target ? read_abbrev(bs) : NULL;
      if (!a || append_abbrev(&target->abbrevs, &target->count, a))
        break;
    } else if (abbrev == MTPC_BS_ENTER_SUBBLOCK || mtpc_bs_read_record(bs, abbrev, &record)) {
      break;
    } else if (record.code == BLOCKINFO_SETBID) {
      if (record.count < 1 || !(target = info_for(bs, (uint32_t)record.ops[0].value)))
        break;
    }
  }
  mtpc_bs_record_free(&record);
  if (failed && !bs->out_of_memory)
    bs->failed = 1;
  return failed;
}

static int push_operand(mtpc_bitstream *bs, mtpc_bs_record *r, uint64_t value, uint64_t bit,
                        uint32_t width, uint32_t chunk) {
  if (r->count == r->capacity) {
    uint32_t capacity = r->capacity ? r->capacity * 2 : 32;
    mtpc_bs_operand *grown = realloc(r->ops, capacity * sizeof(*grown));
    if (!grown) {
      bs->out_of_memory = 1;
      return 1;
    }
    r->ops = grown;
    r->capacity = capacity;
  }
  r->ops[r->count++] = (mtpc_bs_operand){value, bit, width, chunk};
  return 0;
}

static const char char6[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._";

/* One scalar operand of an abbreviation. */
static uint64_t read_scalar(mtpc_bitstream *bs, uint8_t kind, uint64_t width) {
  switch (kind) {
  case OP_FIXED:
    return mtpc_bs_fixed(bs, (unsigned)width);
  case OP_VBR:
    return mtpc_bs_vbr(bs, (unsigned)width);
  case OP_CHAR6:
    return (uint64_t)(unsigned char)char6[mtpc_bs_fixed(bs, 6) & 63];
  default:
    bs->failed = 1;
    return 0;
  }
}

static uint32_t vbr_chunk(uint8_t kind, uint64_t width) {
  return kind == OP_VBR ? (uint32_t)width : 0;
}

static int read_unabbreviated(mtpc_bitstream *bs, mtpc_bs_record *r) {
  r->code_bit = bs->bit;
  r->code = (uint32_t)mtpc_bs_vbr(bs, 6);
  r->code_width = (uint32_t)(bs->bit - r->code_bit);
  r->code_chunk = 6;
  uint64_t count = mtpc_bs_vbr(bs, 6);
  for (uint64_t i = 0; i < count && !bs->failed; i++) {
    uint64_t at = bs->bit;
    uint64_t value = mtpc_bs_vbr(bs, 6);
    if (!bs->failed && push_operand(bs, r, value, at, (uint32_t)(bs->bit - at), 6))
      return 1;
  }
  return bs->failed;
}

static int read_abbreviated(mtpc_bitstream *bs, const mtpc_bs_abbrev *a, mtpc_bs_record *r) {
  int have_code = 0;
  for (uint32_t i = 0; i < a->count && !bs->failed; i++) {
    uint8_t kind = a->ops[i].kind;
    uint64_t at = bs->bit, value;
    if (kind == OP_ARRAY) {
      if (i + 2 != a->count) {
        bs->failed = 1;
        break;
      }
      uint64_t length = mtpc_bs_vbr(bs, 6);
      const uint8_t element = a->ops[i + 1].kind;
      for (uint64_t e = 0; e < length && !bs->failed; e++) {
        at = bs->bit;
        value = read_scalar(bs, element, a->ops[i + 1].value);
        if (push_operand(bs, r, value, at, (uint32_t)(bs->bit - at),
                         vbr_chunk(element, a->ops[i + 1].value)))
          return 1;
      }
      break;
    }
    if (kind == OP_BLOB) {
      uint64_t length = mtpc_bs_vbr(bs, 6);
      align32(bs);
      if (bs->failed || bs->bit + length * 8 > bs->size_bits) {
        bs->failed = 1;
        break;
      }
      r->blob = bs->data + bs->bit / 8;
      r->blob_size = length;
      bs->bit += length * 8;
      align32(bs);
      continue;
    }
    value = kind == OP_LITERAL ? a->ops[i].value : read_scalar(bs, kind, a->ops[i].value);
    uint32_t width = kind == OP_LITERAL ? 0 : (uint32_t)(bs->bit - at);
    if (!have_code) {
      r->code = (uint32_t)value;
      r->code_bit = kind == OP_LITERAL ? a->ops[i].bit : at;
      r->code_width = kind == OP_LITERAL ? a->ops[i].width : width;
      r->code_chunk = kind == OP_LITERAL ? 8 : vbr_chunk(kind, a->ops[i].value);
      have_code = 1;
    } else if (push_operand(bs, r, value, at, width, vbr_chunk(kind, a->ops[i].value))) {
      return 1;
    }
  }
  return bs->failed;
}

int mtpc_bs_read_record(mtpc_bitstream *bs, uint32_t abbrev_id, mtpc_bs_record *record) {
  record->count = 0;
  record->code = 0;
  record->blob = NULL;
  record->blob_size = 0;
  if (abbrev_id == MTPC_BS_UNABBREV_RECORD)
    return read_unabbreviated(bs, record) || bs->out_of_memory;
  const mtpc_bs_scope *s = bs->depth ? &bs->scopes[bs->depth - 1] : NULL;
  if (!s || abbrev_id < 4 || abbrev_id - 4 >= s->abbrev_count) {
    bs->failed = 1;
    return 1;
  }
  return read_abbreviated(bs, s->abbrevs[abbrev_id - 4], record) || bs->out_of_memory;
}

/* Whether a field with `run` chunks that say more follows is longer than
 * any 64-bit value, as mtpc_bs_vbr judges it. */
static int overlong(unsigned run, unsigned width) {
  return run > 1 && (run - 1) * (width - 1) > 70;
}

void mtpc_bs_skip_vbrs(mtpc_bitstream *bs, unsigned width, uint64_t count) {
  if (width < 2 || width > 32) {
    bs->failed = 1;
    return;
  }
  const uint64_t more = 1ull << (width - 1);
  unsigned run = 0; /* chunks of the field being passed over that say more follows */
  while (count > 0 && !bs->failed) {
    if (bs->bit + 64 > bs->size_bits) { /* near the end: a chunk at a time */
      uint64_t chunk = mtpc_bs_fixed(bs, width);
      count -= !(chunk & more);
      run = chunk & more ? run + 1 : 0;
      bs->failed |= overlong(run, width);
      continue;
    }
    /* Eight bytes hold 56 bits from any offset: their whole chunks. */
    uint64_t window;
    memcpy(&window, bs->data + bs->bit / 8, sizeof(window));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    window = __builtin_bswap64(window);
#endif
    window >>= bs->bit & 7;
    unsigned used = 0;
    for (; used + width <= 56 && count > 0; used += width) {
      if (!((window >> used) & more)) {
        count--;
        run = 0;
      } else if (overlong(++run, width)) {
        bs->failed = 1;
        return;
      }
    }
    bs->bit += used;
  }
}

/* One scalar operand of an abbreviation, passed over. */
static void skip_scalar(mtpc_bitstream *bs, uint8_t kind, uint64_t width) {
  if (kind == OP_FIXED && width <= 64)
    bs->bit += width;
  else if (kind == OP_VBR)
    mtpc_bs_skip_vbrs(bs, (unsigned)width, 1);
  else if (kind == OP_CHAR6)
    bs->bit += 6;
  else
    bs->failed = 1;
}

static void skip_abbreviated(mtpc_bitstream *bs, const mtpc_bs_abbrev *a) {
  for (uint32_t i = 0; i < a->count && !bs->failed; i++) {
    uint8_t kind = a->ops[i].kind;
    if (kind == OP_LITERAL)
      continue;
    if (kind == OP_ARRAY) {
      if (i + 2 != a->count) {
        bs->failed = 1;
        return;
      }
      uint64_t length = mtpc_bs_vbr(bs, 6);
      uint8_t element = a->ops[i + 1].kind;
      uint64_t width = a->ops[i + 1].value;
      if (element == OP_FIXED || element == OP_CHAR6)
        bs->bit += length * (element == OP_CHAR6 ? 6 : width);
      else
        for (uint64_t e = 0; e < length && !bs->failed; e++)
          skip_scalar(bs, element, width);
      break;
    }
    if (kind == OP_BLOB) {
      uint64_t length = mtpc_bs_vbr(bs, 6);
      align32(bs);
      bs->bit += length * 8;
      align32(bs);
      continue;
    }
    skip_scalar(bs, kind, a->ops[i].value);
  }
  if (bs->bit > bs->size_bits)
    bs->failed = 1;
}

static const mtpc_bs_abbrev *abbrev_of(mtpc_bitstream *bs, uint32_t abbrev_id) {
  const mtpc_bs_scope *s = bs->depth ? &bs->scopes[bs->depth - 1] : NULL;
  if (!s || abbrev_id < 4 || abbrev_id - 4 >= s->abbrev_count) {
    bs->failed = 1;
    return NULL;
  }
  return s->abbrevs[abbrev_id - 4];
}

int mtpc_bs_skip_record(mtpc_bitstream *bs, uint32_t abbrev_id) {
  if (abbrev_id == MTPC_BS_UNABBREV_RECORD) {
    mtpc_bs_skip_vbrs(bs, 6, 1);
    mtpc_bs_skip_vbrs(bs, 6, mtpc_bs_vbr(bs, 6));
    return bs->failed;
  }
  const mtpc_bs_abbrev *a = abbrev_of(bs, abbrev_id);
  if (a)
    skip_abbreviated(bs, a);
  return bs->failed;
}

int mtpc_bs_literal_code(mtpc_bitstream *bs, uint32_t abbrev_id, uint32_t *code) {
  const mtpc_bs_abbrev *a = abbrev_of(bs, abbrev_id);
  if (!a || a->count == 0 || a->ops[0].kind != OP_LITERAL)
    return 0;
  *code = (uint32_t)a->ops[0].value;
  return 1;
}

int mtpc_bs_enter_module(mtpc_bitstream *bs, const void *data, size_t size) {
  static const uint8_t magic[4] = {'B', 'C', 0xc0, 0xde};
  mtpc_bs_init(bs, data, size);
  if (size < 8 || memcmp(data, magic, sizeof(magic)) != 0)
    return 1;
  bs->bit = 32;
  for (;;) {
    uint32_t id;
    if (mtpc_bs_advance(bs, &id) != MTPC_BS_ENTRY_SUBBLOCK)
      return 1;
    if (id == MODULE_BLOCK_ID)
      return mtpc_bs_enter(bs, id);
    int failed = id == BLOCKINFO_ID ? mtpc_bs_enter(bs, id) || mtpc_bs_read_blockinfo(bs)
                                    : mtpc_bs_skip_block(bs);
    if (failed)
      return 1;
  }
}

static int walk_subblock(mtpc_bitstream *bs, uint32_t id, mtpc_bs_block_fn *on_block,
                         void *arg) {
  int result = on_block ? on_block(arg, bs, id) : MTPC_BS_NOT_MINE;
  if (result != MTPC_BS_NOT_MINE)
    return result;
  if (id == BLOCKINFO_ID)
    return mtpc_bs_enter(bs, id) || mtpc_bs_read_blockinfo(bs);
  return mtpc_bs_skip_block(bs);
}

int mtpc_bs_walk_block(mtpc_bitstream *bs, mtpc_bs_record *record, mtpc_bs_record_fn *on_record,
                       mtpc_bs_block_fn *on_block, void *arg) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(bs, &id);
    if (kind == MTPC_BS_ENTRY_END || kind == MTPC_BS_ENTRY_ERROR)
      return kind == MTPC_BS_ENTRY_ERROR;
    int result = kind == MTPC_BS_ENTRY_SUBBLOCK ? walk_subblock(bs, id, on_block, arg)
                 : mtpc_bs_read_record(bs, id, record) ? 1
                                                       : on_record(arg, record);
    if (result)
      return result;
  }
}

int mtpc_bs_no_subblock(void *arg, mtpc_bitstream *bs, uint32_t block_id) {
  (void)arg, (void)bs, (void)block_id;
  return 1;
}

void mtpc_bs_record_free(mtpc_bs_record *record) {
  free(record->ops);
  record->ops = NULL;
  record->count = record->capacity = 0;
}

/* Writes the low `count` bits of `bits` at `at`, a byte at a time. */
static void write_bits(uint8_t *data, uint64_t at, unsigned count, uint64_t bits) {
  while (count > 0) {
    unsigned shift = (unsigned)(at % 8), n = 8 - shift < count ? 8 - shift : count;
    uint8_t mask = (uint8_t)(((1u << n) - 1) << shift);
    data[at / 8] = (uint8_t)((data[at / 8] & ~mask) | ((bits << shift) & mask));
    bits >>= n;
    at += n;
    count -= n;
  }
}

int mtpc_bs_write_vbr(uint8_t *data, uint64_t bit, uint32_t width, unsigned chunk, uint64_t value) {
  if (chunk < 2 || chunk > 32 || width == 0 || width % chunk != 0)
    return 1;
  uint32_t chunks = width / chunk;
  unsigned payload = chunk - 1;
  if (payload * chunks < 64 && value >> (payload * chunks) != 0)
    return 1;
  /* A continuation bit over an empty payload reads as nothing more, so a
   * small value fills a long field. */
  uint64_t field = 0; /* up to 64 bits of the field at a time */
  unsigned filled = 0;
  for (uint32_t c = 0; c < chunks; c++) {
    unsigned from = c * payload;
    uint64_t part = from < 64 ? (value >> from) & ((UINT64_C(1) << payload) - 1) : 0;
    if (c + 1 < chunks)
      part |= UINT64_C(1) << payload;
    if (filled + chunk > 64) {
      write_bits(data, bit, filled, field);
      bit += filled;
      field = 0;
      filled = 0;
    }
    field |= part << filled;
    filled += chunk;
  }
  write_bits(data, bit, filled, field);
  return 0;
}

void mtpc_bs_copy_bits(uint8_t *to, uint64_t to_bit, const uint8_t *from, uint64_t from_bit,
                       uint64_t count) {
  while (count > 0) {
    unsigned n = count < 32 ? (unsigned)count : 32;
    uint64_t bits = 0;
    uint64_t byte = from_bit / 8;
    unsigned shift = (unsigned)(from_bit % 8), bytes = (shift + n + 7) / 8;
    for (unsigned i = 0; i < bytes; i++)
      bits |= (uint64_t)from[byte + i] << (8 * i);
    bits >>= shift;
    write_bits(to, to_bit, n, bits);
    to_bit += n;
    from_bit += n;
    count -= n;
  }
}
