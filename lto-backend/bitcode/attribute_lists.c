#include "attribute_lists.h"

#include <stdlib.h>
#include <string.h>

#include "support/support.h"

/* LLVMBitCodes.h: the same in LLVM 19 and 22. */
enum { BLOCKINFO_BLOCK = 0, PARAMATTR_BLOCK = 9, FUNCTION_BLOCK = 12 };
enum { MODULE_CODE_VERSION = 1, MODULE_CODE_GLOBALVAR = 7, MODULE_CODE_FUNCTION = 8 };
enum { PARAMATTR_CODE_ENTRY = 2 };
enum { FUNC_CODE_INST_INVOKE = 13, FUNC_CODE_INST_CALL = 34, FUNC_CODE_INST_CALLBR = 57 };
/* Operands of version 2 records (a name in the string table first). */
enum { FUNCTION_ATTRIBUTES = 6, VARIABLE_ATTRIBUTES = 14 };

typedef struct lists_scan {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  mtpc_attribute_lists *out;
  size_t start_cap, group_cap, function_cap, variable_cap, body_cap;
  int version_2;
  int no_memory;
} lists_scan;

/* What MTPC_PUSH returned, noted. */
static int pushed(lists_scan *s, int failed) {
  s->no_memory |= failed != 0;
  return failed != 0;
}

static uint32_t list_of(const mtpc_bs_record *r, uint32_t operand) {
  return r->count > operand && r->ops[operand].value <= UINT32_MAX
             ? (uint32_t)r->ops[operand].value
             : 0;
}

/* An entry of the PARAMATTR block: its group ID fields. */
static int note_list(void *arg, const mtpc_bs_record *record) {
  lists_scan *s = arg;
  mtpc_attribute_lists *out = s->out;
  if (record->code != PARAMATTR_CODE_ENTRY)
    return 1; /* the old format, before LLVM 3.3 */
  uint32_t group_count = out->start[out->list_count];
  for (uint32_t i = 0; i < record->count; i++)
    if (pushed(s, MTPC_PUSH(out->groups, group_count, s->group_cap, record->ops[i])))
      return 1;
  uint32_t ends = out->list_count + 1;
  if (pushed(s, MTPC_PUSH(out->start, ends, s->start_cap, group_count)))
    return 1;
  out->list_count = ends - 1;
  return 0;
}

/* The PARAMATTR block, entered: each entry's group ID fields. */
static int scan_lists(lists_scan *s) {
  mtpc_attribute_lists *out = s->out;
  uint32_t ends = 0;
  if (out->start)
    return 1; /* a second block: not what LLVM writes */
  if (pushed(s, MTPC_PUSH(out->start, ends, s->start_cap, 0)))
    return 1;
  return mtpc_bs_walk_block(&s->bs, &s->record, note_list, mtpc_bs_no_subblock, s);
}

static int note_global(lists_scan *s) {
  mtpc_attribute_lists *out = s->out;
  const mtpc_bs_record *r = &s->record;
  if (!s->version_2)
    return 1;
  if (r->code == MODULE_CODE_FUNCTION)
    return pushed(s, MTPC_PUSH(out->function_lists, out->function_count, s->function_cap,
                               list_of(r, FUNCTION_ATTRIBUTES)));
  return pushed(s, MTPC_PUSH(out->variable_lists, out->variable_count, s->variable_cap,
                             list_of(r, VARIABLE_ATTRIBUTES)));
}

static int note_module_record(void *arg, const mtpc_bs_record *record) {
  lists_scan *s = arg;
  uint32_t code = record->code;
  if (code == MODULE_CODE_VERSION)
    s->version_2 = record->count > 0 && record->ops[0].value >= 2;
  else if (code == MODULE_CODE_FUNCTION || code == MODULE_CODE_GLOBALVAR)
    return note_global(s);
  return 0;
}

static int note_module_block(void *arg, mtpc_bitstream *bs, uint32_t id) {
  lists_scan *s = arg;
  mtpc_attribute_lists *out = s->out;
  if (id == BLOCKINFO_BLOCK)
    out->blockinfo_bit = bs->bit; /* and the walk reads it */
  if (id == PARAMATTR_BLOCK)
    return mtpc_bs_enter(bs, id) || scan_lists(s);
  if (id == FUNCTION_BLOCK)
    return pushed(s, MTPC_PUSH(out->body_bits, out->body_count, s->body_cap, bs->bit)) ||
           mtpc_bs_skip_block(bs);
  return MTPC_BS_NOT_MINE;
}

static int scan_module(lists_scan *s) {
  return mtpc_bs_walk_block(&s->bs, &s->record, note_module_record, note_module_block, s);
}

mtpc_lists_status mtpc_scan_attribute_lists(const void *bitcode, size_t size,
                                            mtpc_attribute_lists *out) {
  memset(out, 0, sizeof(*out));
  out->blockinfo_bit = UINT64_MAX;
  lists_scan s = {.out = out};
  int failed = mtpc_bs_enter_module(&s.bs, bitcode, size) || scan_module(&s);
  int no_memory = s.no_memory || s.bs.out_of_memory;
  mtpc_bs_free(&s.bs);
  mtpc_bs_record_free(&s.record);
  for (uint32_t i = 0; !failed && out->start && i < out->function_count; i++)
    failed = out->function_lists[i] > out->list_count;
  for (uint32_t i = 0; !failed && out->start && i < out->variable_count; i++)
    failed = out->variable_lists[i] > out->list_count;
  if (!failed && out->start)
    return MTPC_LISTS_OK;
  mtpc_attribute_lists_free(out);
  return no_memory ? MTPC_LISTS_NO_MEMORY : MTPC_LISTS_UNREADABLE;
}

void mtpc_attribute_lists_free(mtpc_attribute_lists *lists) {
  free(lists->start);
  free(lists->groups);
  free(lists->function_lists);
  free(lists->variable_lists);
  free(lists->body_bits);
  memset(lists, 0, sizeof(*lists));
}

static int names_a_list(uint32_t code) {
  return code == FUNC_CODE_INST_CALL || code == FUNC_CODE_INST_INVOKE ||
         code == FUNC_CODE_INST_CALLBR;
}

/* A record of a body, read as far as a call's list. Non-zero when the
 * bitstream failed; *list is 0 for a record that names none. */
static int read_list(mtpc_bitstream *bs, mtpc_bs_record *record, uint32_t id, uint64_t *list) {
  *list = 0;
  uint32_t code;
  if (id == MTPC_BS_UNABBREV_RECORD) {
    code = (uint32_t)mtpc_bs_vbr(bs, 6);
    uint64_t count = mtpc_bs_vbr(bs, 6);
    if (names_a_list(code) && count > 0) {
      *list = mtpc_bs_vbr(bs, 6);
      count--;
    }
    mtpc_bs_skip_vbrs(bs, 6, count);
    return bs->failed;
  }
  if (mtpc_bs_literal_code(bs, id, &code) && !names_a_list(code))
    return mtpc_bs_skip_record(bs, id);
  if (mtpc_bs_read_record(bs, id, record))
    return 1;
  if (names_a_list(record->code) && record->count > 0)
    *list = record->ops[0].value;
  return 0;
}

/* One body's block, entered: the lists its calls name. */
static int mark_body(mtpc_bitstream *bs, mtpc_bs_record *record, uint32_t list_count,
                     uint8_t *keep) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(bs, &id);
    if (kind == MTPC_BS_ENTRY_END || kind == MTPC_BS_ENTRY_ERROR)
      return kind == MTPC_BS_ENTRY_ERROR;
    uint64_t list;
    if (kind == MTPC_BS_ENTRY_SUBBLOCK ? mtpc_bs_skip_block(bs)
                                       : read_list(bs, record, id, &list))
      return 1;
    if (kind == MTPC_BS_ENTRY_SUBBLOCK)
      continue;
    if (list > list_count)
      return 1;
    keep[list] = 1;
  }
}

int mtpc_attribute_lists_mark_calls(const void *bitcode, size_t size,
                                    const mtpc_attribute_lists *lists, const uint8_t *parsed,
                                    uint8_t *keep) {
  mtpc_bitstream bs;
  mtpc_bs_record record = {0};
  int failed = mtpc_bs_enter_module(&bs, bitcode, size);
  if (!failed && lists->blockinfo_bit != UINT64_MAX) {
    bs.bit = lists->blockinfo_bit;
    failed = mtpc_bs_enter(&bs, BLOCKINFO_BLOCK) || mtpc_bs_read_blockinfo(&bs);
  }
  for (uint32_t k = 0; !failed && k < lists->body_count; k++) {
    if (!parsed[k])
      continue;
    bs.bit = lists->body_bits[k];
    failed = mtpc_bs_enter(&bs, FUNCTION_BLOCK) ||
             mark_body(&bs, &record, lists->list_count, keep);
  }
  mtpc_bs_free(&bs);
  mtpc_bs_record_free(&record);
  return failed;
}

void mtpc_attribute_lists_cut(uint8_t *data, const mtpc_attribute_lists *lists,
                              const uint8_t *keep) {
  for (uint32_t l = 1; l <= lists->list_count; l++) {
    if (keep[l])
      continue;
    for (uint32_t i = lists->start[l - 1]; i < lists->start[l]; i++) {
      const mtpc_bs_operand *op = &lists->groups[i];
      /* Zero fits any field. */
      (void)mtpc_bs_write_vbr(data, op->bit, op->width, op->chunk, 0);
    }
  }
}
