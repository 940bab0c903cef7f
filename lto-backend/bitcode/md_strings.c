/* Every metadata string of a bitcode (md_strings.h). */
#include "md_strings.h"

/* LLVMBitCodes.h: the same in LLVM 19 and 22. */
enum {
  BLOCKINFO_BLOCK = 0,
  FUNCTION_BLOCK = 12,
  METADATA_BLOCK = 15,
  FUNC_CODE_DECLAREBLOCKS = 1,
  METADATA_STRINGS = 35,
};
#define NO_BLOCK UINT32_MAX

typedef struct walk {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  mtpc_md_string_visit *visit;
  void *arg;
  int stopped; /* the strings record's result, when not 0 */
} walk;

/* A METADATA_STRINGS record: [count, offset] and a blob of VBR6 lengths,
 * then the characters. */
int mtpc_md_strings_of_record(const mtpc_bs_record *r, mtpc_md_string_visit *visit, void *arg) {
  if (r->count < 2 || !r->blob || r->ops[1].value > r->blob_size)
    return -1;
  mtpc_bitstream lengths;
  mtpc_bs_init(&lengths, r->blob, (size_t)r->ops[1].value);
  const char *chars = (const char *)r->blob + r->ops[1].value;
  const char *end = (const char *)r->blob + r->blob_size;
  for (uint64_t i = 0; i < r->ops[0].value; i++) {
    uint64_t length = mtpc_bs_vbr(&lengths, 6);
    if (lengths.failed || length > (uint64_t)(end - chars))
      return -1;
    int stop = visit(arg, chars, (uint32_t)length);
    if (stop)
      return stop;
    chars += length;
  }
  return 0;
}

static int visit_strings(walk *w) {
  w->stopped = mtpc_md_strings_of_record(&w->record, w->visit, w->arg);
  return w->stopped ? -1 : 0;
}

/* The current block's next record or subblock, subblocks other than
 * `wanted` jumped over. */
static mtpc_bs_entry_kind next_entry(walk *w, uint32_t wanted, uint32_t *id) {
  for (;;) {
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&w->bs, id);
    if (kind != MTPC_BS_ENTRY_SUBBLOCK || *id == wanted)
      return kind;
    if (mtpc_bs_skip_block(&w->bs))
      return MTPC_BS_ENTRY_ERROR;
  }
}

/* An entered metadata block. The writer gives a block at most one strings
 * record, before its nodes; the rest is left unread. */
static int metadata_block(walk *w) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = next_entry(w, NO_BLOCK, &id);
    if (kind != MTPC_BS_ENTRY_RECORD)
      return kind == MTPC_BS_ENTRY_END ? 0 : -1;
    if (mtpc_bs_read_record(&w->bs, id, &w->record))
      return -1;
    if (w->record.code == METADATA_STRINGS)
      return visit_strings(w) || mtpc_bs_leave(&w->bs) ? -1 : 0;
  }
}

/* An entered function block: its metadata block comes before its
 * instructions, which are jumped over. */
static int function_block(walk *w) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = next_entry(w, METADATA_BLOCK, &id);
    if (kind == MTPC_BS_ENTRY_SUBBLOCK)
      return mtpc_bs_enter(&w->bs, id) || metadata_block(w) || mtpc_bs_leave(&w->bs) ? -1 : 0;
    if (kind != MTPC_BS_ENTRY_RECORD)
      return kind == MTPC_BS_ENTRY_END ? 0 : -1;
    if (mtpc_bs_read_record(&w->bs, id, &w->record))
      return -1;
    if (w->record.code != FUNC_CODE_DECLAREBLOCKS)
      return mtpc_bs_leave(&w->bs) ? -1 : 0;
  }
}

static int module_block(walk *w) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&w->bs, &id);
    if (kind == MTPC_BS_ENTRY_END)
      return 0;
    if (kind == MTPC_BS_ENTRY_ERROR)
      return -1;
    int failed;
    if (kind == MTPC_BS_ENTRY_RECORD)
      failed = mtpc_bs_skip_record(&w->bs, id);
    else if (id == BLOCKINFO_BLOCK)
      failed = mtpc_bs_enter(&w->bs, id) || mtpc_bs_read_blockinfo(&w->bs);
    else if (id == METADATA_BLOCK)
      failed = mtpc_bs_enter(&w->bs, id) || metadata_block(w);
    else if (id == FUNCTION_BLOCK)
      failed = mtpc_bs_enter(&w->bs, id) || function_block(w);
    else
      failed = mtpc_bs_skip_block(&w->bs);
    if (failed)
      return -1;
  }
}

int mtpc_md_strings_each(const void *bitcode, size_t size, mtpc_md_string_visit *visit, void *arg) {
  walk w = {.visit = visit, .arg = arg};
  int failed = mtpc_bs_enter_module(&w.bs, bitcode, size) || module_block(&w);
  mtpc_bs_free(&w.bs);
  mtpc_bs_record_free(&w.record);
  if (w.stopped)
    return w.stopped;
  return failed ? -1 : 0;
}
