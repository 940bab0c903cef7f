#include "function_types.h"

#include <stdlib.h>
#include <string.h>

#include "support/support.h"

/* LLVMBitCodes.h: the same in LLVM 19 and 22. */
enum { TYPE_BLOCK = 17 };
enum { MODULE_CODE_VERSION = 1, MODULE_CODE_FUNCTION = 8 };
enum { TYPE_CODE_NUMENTRY = 1, TYPE_CODE_STRUCT_NAME = 19, TYPE_CODE_FUNCTION = 21 };
enum { FUNCTION_TYPE = 2 }; /* the operand after the name's two */

typedef struct types_scan {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  mtpc_function_types *out;
  size_t type_cap, field_cap;
  int version_2, seen_types;
  int no_memory;
} types_scan;

/* A record of the type table: every one defines the next type but the
 * count and a struct's name. A function type is [vararg, return, params]. */
static int note_type(void *arg, const mtpc_bs_record *record) {
  types_scan *s = arg;
  mtpc_function_types *out = s->out;
  if (record->code == TYPE_CODE_NUMENTRY || record->code == TYPE_CODE_STRUCT_NAME)
    return 0;
  uint32_t parameters = UINT32_MAX;
  if (record->code == TYPE_CODE_FUNCTION) {
    if (record->count < 2)
      return 1;
    parameters = record->count - 2;
  }
  if (MTPC_PUSH(out->parameters, out->type_count, s->type_cap, parameters)) {
    s->no_memory = 1;
    return 1;
  }
  return 0;
}

static int note_function(types_scan *s) {
  const mtpc_bs_record *r = &s->record;
  if (!s->version_2 || r->count <= FUNCTION_TYPE)
    return 1;
  mtpc_function_types *out = s->out;
  if (MTPC_PUSH(out->fields, out->function_count, s->field_cap, r->ops[FUNCTION_TYPE])) {
    s->no_memory = 1;
    return 1;
  }
  return 0;
}

static int note_module_record(void *arg, const mtpc_bs_record *record) {
  types_scan *s = arg;
  if (record->code == MODULE_CODE_VERSION)
    s->version_2 = record->count > 0 && record->ops[0].value >= 2;
  else if (record->code == MODULE_CODE_FUNCTION)
    return note_function(s);
  return 0;
}

static int note_module_block(void *arg, mtpc_bitstream *bs, uint32_t id) {
  types_scan *s = arg;
  if (id != TYPE_BLOCK)
    return MTPC_BS_NOT_MINE;
  if (s->seen_types++)
    return 1; /* a second table: not what LLVM writes */
  return mtpc_bs_enter(bs, id) ||
         mtpc_bs_walk_block(bs, &s->record, note_type, mtpc_bs_no_subblock, s);
}

/* The first function type with the fewest parameters; non-zero when the
 * table has none, or a function names a type it does not have. */
static int find_fewest(mtpc_function_types *out) {
  uint32_t fewest = UINT32_MAX;
  for (uint32_t t = 0; t < out->type_count; t++)
    if (out->parameters[t] != UINT32_MAX &&
        (fewest == UINT32_MAX || out->parameters[t] < out->parameters[fewest]))
      fewest = t;
  out->fewest = fewest;
  for (uint32_t i = 0; i < out->function_count; i++)
    if (out->fields[i].value >= out->type_count ||
        out->parameters[out->fields[i].value] == UINT32_MAX)
      return 1;
  return fewest == UINT32_MAX;
}

mtpc_types_status mtpc_scan_function_types(const void *bitcode, size_t size,
                                           mtpc_function_types *out) {
  memset(out, 0, sizeof(*out));
  types_scan s = {.out = out};
  int failed = mtpc_bs_enter_module(&s.bs, bitcode, size) ||
               mtpc_bs_walk_block(&s.bs, &s.record, note_module_record, note_module_block, &s);
  int no_memory = s.no_memory || s.bs.out_of_memory;
  mtpc_bs_free(&s.bs);
  mtpc_bs_record_free(&s.record);
  if (!failed && find_fewest(out) == 0)
    return MTPC_TYPES_OK;
  mtpc_function_types_free(out);
  return no_memory ? MTPC_TYPES_NO_MEMORY : MTPC_TYPES_UNREADABLE;
}

void mtpc_function_types_free(mtpc_function_types *types) {
  free(types->fields);
  free(types->parameters);
  memset(types, 0, sizeof(*types));
}

int mtpc_cut_function_type(uint8_t *data, const mtpc_function_types *types, uint32_t i) {
  const mtpc_bs_operand *field = &types->fields[i];
  if (types->parameters[field->value] <= types->parameters[types->fewest])
    return 1;
  return mtpc_bs_write_vbr(data, field->bit, field->width, field->chunk, types->fewest);
}
