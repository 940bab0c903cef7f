/* A reader of LLVM's bitstream container, the format bitcode is written in:
 * blocks, abbreviations (from a block or its BLOCKINFO), and records, each
 * operand with the bit position it was read from, so that a caller can
 * rewrite a field in place. It reads what LLVM writes and checks every read
 * against the end of the data; of bitcode it knows only where the module
 * block is, nothing of what records mean (metadata_scan.h and
 * plan_bitcode.h do). */
#ifndef MTPC_BITSTREAM_H
#define MTPC_BITSTREAM_H

#include <stddef.h>
#include <stdint.h>

/* Abbreviation IDs every block has. */
enum {
  MTPC_BS_END_BLOCK = 0,
  MTPC_BS_ENTER_SUBBLOCK = 1,
  MTPC_BS_DEFINE_ABBREV = 2,
  MTPC_BS_UNABBREV_RECORD = 3
};

typedef struct mtpc_bs_abbrev mtpc_bs_abbrev;

/* The abbreviations BLOCKINFO gives a block ID. */
typedef struct mtpc_bs_block_abbrevs {
  uint32_t block_id;
  uint32_t count;
  mtpc_bs_abbrev **abbrevs;
} mtpc_bs_block_abbrevs;

typedef struct mtpc_bs_scope {
  uint32_t block_id;
  unsigned abbrev_width;
  uint64_t end_bit; /* where the block's length says it ends */
  uint32_t abbrev_count;
  uint32_t inherited;       /* the first `inherited` are BLOCKINFO's, not the block's own */
  mtpc_bs_abbrev **abbrevs;
} mtpc_bs_scope;

/* One operand of a record: its value and where it was read from (width 0
 * for literals), and its VBR chunk size (0: not a VBR field). */
typedef struct mtpc_bs_operand {
  uint64_t value;
  uint64_t bit;
  uint32_t width;
  uint32_t chunk;
} mtpc_bs_operand;

typedef struct mtpc_bs_record {
  uint32_t code;
  /* Where the code was read from (an abbreviation's literal code: where
   * the definition holds it), its width, and its VBR chunk size (0: not a
   * VBR field). */
  uint64_t code_bit;
  uint32_t code_width;
  uint32_t code_chunk;
  uint32_t count; /* operands after the code */
  uint32_t capacity;
  mtpc_bs_operand *ops;
  const uint8_t *blob; /* a blob operand's bytes, or NULL */
  uint64_t blob_size;
} mtpc_bs_record;

typedef struct mtpc_bitstream {
  const uint8_t *data;
  uint64_t size_bits;
  uint64_t bit;
  int failed;        /* a read ran past the end or met something LLVM never writes */
  int out_of_memory;
  unsigned depth;
  mtpc_bs_scope scopes[16];
  uint32_t info_count;
  mtpc_bs_block_abbrevs *info;
  mtpc_bs_record scratch; /* what skipped records are read into */
} mtpc_bitstream;

typedef enum mtpc_bs_entry_kind {
  MTPC_BS_ENTRY_RECORD,   /* *abbrev_id: pass it to mtpc_bs_read_record or _skip_record */
  MTPC_BS_ENTRY_SUBBLOCK, /* *id: the block ID; enter or skip it */
  MTPC_BS_ENTRY_END,      /* the current block ended and was left */
  MTPC_BS_ENTRY_ERROR
} mtpc_bs_entry_kind;

/* Starts at the first bit of `data` (the caller checks the magic). */
void mtpc_bs_init(mtpc_bitstream *bs, const void *data, size_t size);
/* Initializes `bs` on LLVM bitcode and enters its first module block, a
 * BLOCKINFO before it read on the way. Non-zero when `data` is not bitcode,
 * has no module or is malformed (bs->out_of_memory says when memory ran
 * out); mtpc_bs_free it either way. */
int mtpc_bs_enter_module(mtpc_bitstream *bs, const void *data, size_t size);
void mtpc_bs_free(mtpc_bitstream *bs);

uint64_t mtpc_bs_fixed(mtpc_bitstream *bs, unsigned width);
uint64_t mtpc_bs_vbr(mtpc_bitstream *bs, unsigned width);

/* The next entry of the current block (at the top level: of the stream),
 * abbreviation definitions read on the way. At the end of the data:
 * MTPC_BS_ENTRY_END with depth 0. */
mtpc_bs_entry_kind mtpc_bs_advance(mtpc_bitstream *bs, uint32_t *id);
/* After MTPC_BS_ENTRY_SUBBLOCK. Non-zero on a malformed header. */
int mtpc_bs_enter(mtpc_bitstream *bs, uint32_t block_id);
int mtpc_bs_skip_block(mtpc_bitstream *bs);
/* Leaves the current block where its length says it ends, unread. */
int mtpc_bs_leave(mtpc_bitstream *bs);
/* A BLOCKINFO block (ID 0), entered: its abbreviations for later blocks. */
int mtpc_bs_read_blockinfo(mtpc_bitstream *bs);
/* After MTPC_BS_ENTRY_RECORD. Non-zero when malformed or out of memory. */
int mtpc_bs_read_record(mtpc_bitstream *bs, uint32_t abbrev_id, mtpc_bs_record *record);
/* Passes over the record, keeping nothing of it. */
int mtpc_bs_skip_record(mtpc_bitstream *bs, uint32_t abbrev_id);
/* Passes over `count` VBR fields of `width` bits a chunk (bs->failed says
 * when one ran past the data). */
void mtpc_bs_skip_vbrs(mtpc_bitstream *bs, unsigned width, uint64_t count);
/* 1 and *code when abbreviation `abbrev_id` of the current block gives its
 * records' code as a literal, without reading anything; else 0 (and
 * bs->failed when there is no such abbreviation). */
int mtpc_bs_literal_code(mtpc_bitstream *bs, uint32_t abbrev_id, uint32_t *code);
void mtpc_bs_record_free(mtpc_bs_record *record);

/* A walk of the block just entered, to its end: each record is read into
 * `record` and handed to `on_record`; each subblock to `on_block` (NULL:
 * none), which enters and reads it or skips it and returns 0, or returns
 * MTPC_BS_NOT_MINE to have the walk skip it (reading a BLOCKINFO block on
 * the way). A callback's other non-zero results stop the walk, which
 * returns them; 1 when the bitstream is malformed. */
enum { MTPC_BS_NOT_MINE = -1 };
typedef int mtpc_bs_record_fn(void *arg, const mtpc_bs_record *record);
typedef int mtpc_bs_block_fn(void *arg, mtpc_bitstream *bs, uint32_t block_id);
int mtpc_bs_walk_block(mtpc_bitstream *bs, mtpc_bs_record *record, mtpc_bs_record_fn *on_record,
                       mtpc_bs_block_fn *on_block, void *arg);
/* An on_block for a block LLVM writes without subblocks (a PARAMATTR
 * block, the type table): a subblock there stops the walk as malformed. */
int mtpc_bs_no_subblock(void *arg, mtpc_bitstream *bs, uint32_t block_id);

/* Writes `value` over the VBR field of `width` bits at `bit`, in chunks of
 * `chunk` bits as it was read, without changing its length. Non-zero when
 * the value needs more chunks than the field has. */
int mtpc_bs_write_vbr(uint8_t *data, uint64_t bit, uint32_t width, unsigned chunk, uint64_t value);
/* Copies `count` bits of `from`, from `from_bit` on, to `to` at `to_bit`
 * (the two may not overlap). */
void mtpc_bs_copy_bits(uint8_t *to, uint64_t to_bit, const uint8_t *from, uint64_t from_bit,
                       uint64_t count);

#endif
