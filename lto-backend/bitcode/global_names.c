#include "global_names.h"

#include <stdlib.h>
#include <string.h>

#include "bitstream.h"
#include "support/support.h"

/* LLVMBitCodes.h: the same in LLVM 19 and 22. */
enum { MODULE_CODE_VERSION = 1, MODULE_CODE_GLOBALVAR = 7, MODULE_CODE_FUNCTION = 8 };
enum { NAME_SIZE = 1 }; /* the operand after the string table offset */

typedef struct names_scan {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  mtpc_global_names *out;
  size_t function_cap, variable_cap;
  int version_2;
  int no_memory;
} names_scan;

/* A global's record: its name size, if the reader reads it as LLVM writes
 * it. Non-zero when it does not, or memory ran out. */
static int note_record(names_scan *s) {
  const mtpc_bs_record *r = &s->record;
  if (!s->version_2 || r->count <= NAME_SIZE || r->ops[NAME_SIZE].chunk < 2)
    return 1;
  const mtpc_bs_operand *op = &r->ops[NAME_SIZE];
  mtpc_name_field field = {op->bit, op->width, op->chunk};
  mtpc_global_names *out = s->out;
  int failed = r->code == MODULE_CODE_FUNCTION
                   ? MTPC_PUSH(out->functions, out->function_count, s->function_cap, field)
                   : MTPC_PUSH(out->variables, out->variable_count, s->variable_cap, field);
  s->no_memory |= failed;
  return failed;
}

static int note_module_record(void *arg, const mtpc_bs_record *record) {
  names_scan *s = arg;
  uint32_t code = record->code;
  if (code == MODULE_CODE_VERSION)
    s->version_2 = record->count > 0 && record->ops[0].value >= 2;
  else if (code == MODULE_CODE_FUNCTION || code == MODULE_CODE_GLOBALVAR)
    return note_record(s);
  return 0;
}

static int scan_module(names_scan *s) {
  return mtpc_bs_walk_block(&s->bs, &s->record, note_module_record, NULL, s);
}

mtpc_names_status mtpc_scan_global_names(const void *bitcode, size_t size,
                                         mtpc_global_names *out) {
  memset(out, 0, sizeof(*out));
  names_scan s = {.out = out};
  int failed = mtpc_bs_enter_module(&s.bs, bitcode, size) || scan_module(&s);
  int no_memory = s.no_memory || s.bs.out_of_memory;
  mtpc_bs_free(&s.bs);
  mtpc_bs_record_free(&s.record);
  if (!failed)
    return MTPC_NAMES_OK;
  mtpc_global_names_free(out);
  return no_memory ? MTPC_NAMES_NO_MEMORY : MTPC_NAMES_UNREADABLE;
}

void mtpc_global_names_free(mtpc_global_names *names) {
  free(names->functions);
  free(names->variables);
  memset(names, 0, sizeof(*names));
}

void mtpc_cut_name(uint8_t *data, mtpc_name_field field) {
  /* Zero fits any field. */
  (void)mtpc_bs_write_vbr(data, field.bit, field.width, field.chunk, 0);
}
