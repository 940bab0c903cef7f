#include "metadata_scan.h"

#include <stdlib.h>
#include <string.h>

#include "bitstream.h"
#include "md_strings.h"
#include "support/support.h"

/* LLVMBitCodes.h and BitcodeWriter.cpp (writeDICompileUnit,
 * writeDICompositeType): the same in LLVM 19 and 22. */
enum {
  BLOCKINFO_BLOCK = 0,
  FUNCTION_BLOCK = 12,
  METADATA_BLOCK = 15,
  FUNC_CODE_DECLAREBLOCKS = 1,
  METADATA_STRING_OLD = 1,
  METADATA_NODE = 3,
  METADATA_DISTINCT_NODE = 5,
  METADATA_NAME = 4,
  METADATA_KIND = 6,
  METADATA_NAMED_NODE = 10,
  METADATA_COMPOSITE_TYPE = 18,
  METADATA_COMPILE_UNIT = 20,
  METADATA_STRINGS = 35,
  METADATA_GLOBAL_DECL_ATTACHMENT = 36,
  METADATA_INDEX_OFFSET = 38,
  METADATA_INDEX = 39,
};
enum { UNIT_ENUMS = 9, UNIT_RETAINED_TYPES = 10, UNIT_GLOBALS = 12, UNIT_IMPORTS = 13, UNIT_MACROS = 15 };
enum { TYPE_TAG = 1, TYPE_NAME = 2, TYPE_FLAGS = 10, TYPE_IDENTIFIER = 15 };
#define FLAG_FWD_DECL 4u /* DINode::FlagFwdDecl */
enum { TAG_CLASS = 0x02, TAG_ENUM = 0x04, TAG_STRUCT = 0x13, TAG_UNION = 0x17 };
#define MODULE_LEVEL UINT32_MAX

typedef struct string_table {
  mtpc_md_string *strings;
  uint32_t count;
} string_table;

typedef struct scan_state {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  mtpc_metadata_scan *out;
  size_t odr_capacity, unit_capacity;
  string_table module_strings;
  uint64_t module_ids; /* metadata IDs the module's block defines */
  int in_functions;    /* a function body was seen: module metadata is over */
  /* For the variables' debug info: the units' global variable lists (their
   * metadata IDs), where the index's positions count from, and whether the
   * attachments and lists can be rewritten. */
  uint64_t *global_lists;
  size_t global_list_count, global_list_capacity;
  uint64_t index_base;
  size_t attachment_capacity, attached_capacity, unit_global_capacity;
  int globals_unusable;
} scan_state;

void mtpc_clear_field(uint8_t *data, mtpc_bit_field f) {
  for (uint64_t bit = 0; bit < f.width; bit++) {
    int continued = bit % 6 == 5 && bit + 1 < f.width;
    uint64_t at = f.bit + bit;
    uint8_t mask = (uint8_t)(1u << (at % 8));
    data[at / 8] = continued ? data[at / 8] | mask : data[at / 8] & (uint8_t)~mask;
  }
}

static int keep_string(void *arg, const char *text, uint32_t length) {
  string_table *table = arg;
  table->strings[table->count++] = (mtpc_md_string){text, length};
  return 0;
}

/* A METADATA_STRINGS record. Non-zero when malformed or out of memory
 * (st->bs says). */
static int read_strings(scan_state *st, string_table *table) {
  const mtpc_bs_record *r = &st->record;
  if (r->count < 2 || r->ops[0].value > UINT32_MAX || table->strings) {
    st->bs.failed = 1;
    return 1;
  }
  uint32_t count = (uint32_t)r->ops[0].value;
  table->strings = malloc((count ? count : 1) * sizeof(mtpc_md_string));
  if (!table->strings) {
    st->bs.out_of_memory = 1;
    return 1;
  }
  if (mtpc_md_strings_of_record(r, keep_string, table)) {
    st->bs.failed = 1;
    return 1;
  }
  return 0;
}

/* The string a metadata operand names (its value is the ID plus one), or
 * NULL: IDs of a function's block start after the module's, its strings
 * first. */
static const mtpc_md_string *string_operand(const scan_state *st, const string_table *local,
                                            uint64_t value) {
  if (value == 0)
    return NULL;
  uint64_t id = value - 1;
  if (id < st->module_strings.count)
    return &st->module_strings.strings[id];
  if (local && id >= st->module_ids && id - st->module_ids < local->count)
    return &local->strings[id - st->module_ids];
  return NULL;
}

static void *grow(void *items, size_t *capacity, size_t count, size_t size) {
  if (count < *capacity)
    return items;
  size_t more = *capacity ? *capacity * 2 : 64;
  void *grown = realloc(items, more * size);
  if (grown)
    *capacity = more;
  return grown;
}

static int note_unit_lists(scan_state *st) {
  static const unsigned lists[] = {UNIT_ENUMS, UNIT_RETAINED_TYPES, UNIT_IMPORTS, UNIT_MACROS};
  for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
    const mtpc_bs_operand *op = lists[i] < st->record.count ? &st->record.ops[lists[i]] : NULL;
    if (!op || op->value == 0 || op->width == 0)
      continue;
    mtpc_metadata_scan *out = st->out;
    mtpc_bit_field *fields = grow(out->unit_lists, &st->unit_capacity, out->unit_list_count,
                                  sizeof(*fields));
    if (!fields) {
      st->bs.out_of_memory = 1;
      return 1;
    }
    out->unit_lists = fields;
    out->unit_lists[out->unit_list_count++] = (mtpc_bit_field){op->bit, op->width};
  }
  return 0;
}

static int note_unit_globals(scan_state *st) {
  const mtpc_bs_record *r = &st->record;
  if (r->count <= UNIT_GLOBALS || r->ops[UNIT_GLOBALS].value == 0)
    return 0;
  uint64_t *lists = grow(st->global_lists, &st->global_list_capacity, st->global_list_count,
                         sizeof(*lists));
  if (!lists) {
    st->bs.out_of_memory = 1;
    return 1;
  }
  st->global_lists = lists;
  lists[st->global_list_count++] = r->ops[UNIT_GLOBALS].value - 1;
  return 0;
}

static int note_composite(scan_state *st, const string_table *local, uint32_t function) {
  const mtpc_bs_record *r = &st->record;
  if (r->count <= TYPE_IDENTIFIER || r->ops[TYPE_NAME].value == 0 ||
      r->ops[TYPE_IDENTIFIER].value == 0 || (r->ops[TYPE_FLAGS].value & FLAG_FWD_DECL))
    return 0; /* no name to find it by, or a declaration already */
  uint64_t tag = r->ops[TYPE_TAG].value;
  if (tag != TAG_CLASS && tag != TAG_ENUM && tag != TAG_STRUCT && tag != TAG_UNION)
    return 0;
  const mtpc_md_string *name = string_operand(st, local, r->ops[TYPE_NAME].value);
  const mtpc_md_string *identifier = string_operand(st, local, r->ops[TYPE_IDENTIFIER].value);
  if (!name || !identifier || r->ops[TYPE_NAME].width == 0) {
    st->bs.failed = 1;
    return 1;
  }
  mtpc_metadata_scan *out = st->out;
  mtpc_odr_record *odr = grow(out->odr, &st->odr_capacity, out->odr_count, sizeof(*odr));
  if (!odr) {
    st->bs.out_of_memory = 1;
    return 1;
  }
  out->odr = odr;
  out->odr[out->odr_count++] = (mtpc_odr_record){
      .function = function,
      .name = {r->ops[TYPE_NAME].bit, r->ops[TYPE_NAME].width},
      .name_text = *name,
      .identifier = *identifier};
  return 0;
}

/* The operands of the tuple record at `bit` (a unit's global variable list),
 * read and then left, the scan going on where it was. */
static int read_global_list(scan_state *st, uint64_t bit) {
  uint64_t resume = st->bs.bit;
  mtpc_bs_record tuple = {0};
  uint32_t id;
  st->bs.bit = bit;
  int failed = mtpc_bs_advance(&st->bs, &id) != MTPC_BS_ENTRY_RECORD ||
               mtpc_bs_read_record(&st->bs, id, &tuple);
  if (!failed && tuple.code != METADATA_NODE && tuple.code != METADATA_DISTINCT_NODE)
    st->globals_unusable = 1;
  mtpc_metadata_scan *out = st->out;
  for (uint32_t i = 0; !failed && !st->globals_unusable && i < tuple.count; i++) {
    if (tuple.ops[i].width == 0) {
      st->globals_unusable = 1;
      break;
    }
    mtpc_md_operand *ops = grow(out->unit_globals, &st->unit_global_capacity,
                                out->unit_global_count, sizeof(*ops));
    if (!ops) {
      st->bs.out_of_memory = failed = 1;
      break;
    }
    out->unit_globals = ops;
    ops[out->unit_global_count++] =
        (mtpc_md_operand){tuple.ops[i].value, {tuple.ops[i].bit, tuple.ops[i].width}};
  }
  mtpc_bs_record_free(&tuple);
  st->bs.bit = resume;
  return failed;
}

/* METADATA_INDEX: each metadata record's position, as deltas from the end
 * of METADATA_INDEX_OFFSET, strings not counted. Reads the units' global
 * variable lists where it says they are. */
static int read_global_lists(scan_state *st) {
  size_t count = st->global_list_count;
  if (count == 0)
    return 0;
  qsort(st->global_lists, count, sizeof(uint64_t), mtpc_compare_u64);
  uint64_t *bits = malloc(count * sizeof(uint64_t));
  if (!bits) {
    st->bs.out_of_memory = 1;
    return 1;
  }
  const mtpc_bs_record *index = &st->record;
  uint64_t at = st->index_base, strings = st->module_strings.count;
  size_t found = 0;
  for (uint32_t k = 0; k < index->count && found < count; k++) {
    at += index->ops[k].value;
    while (found < count && st->global_lists[found] == strings + k)
      bits[found++] = at;
  }
  int failed = 0;
  if (found < count || st->index_base == 0)
    st->globals_unusable = 1;
  for (size_t i = 0; i < count && !failed && !st->globals_unusable; i++)
    failed = (i == 0 || bits[i] != bits[i - 1]) && read_global_list(st, bits[i]);
  free(bits);
  return failed;
}

/* METADATA_GLOBAL_DECL_ATTACHMENT, which began at `start`. */
static int note_attachment(scan_state *st, uint64_t start) {
  const mtpc_bs_record *r = &st->record;
  mtpc_metadata_scan *out = st->out;
  size_t n = out->attachment_count;
  int contiguous = n == 0 || out->attachments[n - 1].end == start;
  if (r->count % 2 == 0 || r->code_chunk != 6 || r->ops[0].value >= UINT32_MAX || !contiguous) {
    st->globals_unusable = 1;
    return 0;
  }
  mtpc_md_attachment *attachments =
      grow(out->attachments, &st->attachment_capacity, n, sizeof(*attachments));
  if (attachments)
    out->attachments = attachments;
  for (uint32_t i = 2; attachments && i < r->count; i += 2) {
    uint32_t *ids = grow(out->attached, &st->attached_capacity, out->attached_count, sizeof(*ids));
    if (!ids) {
      attachments = NULL;
      break;
    }
    out->attached = ids;
    ids[out->attached_count++] = (uint32_t)r->ops[i].value;
  }
  if (!attachments) {
    st->bs.out_of_memory = 1;
    return 1;
  }
  uint32_t pairs = (r->count - 1) / 2;
  attachments[out->attachment_count++] = (mtpc_md_attachment){
      .value = (uint32_t)r->ops[0].value,
      .start = start,
      .end = st->bs.bit,
      .code_bit = r->code_bit,
      .code_width = r->code_width,
      .first = (uint32_t)(out->attached_count - pairs),
      .count = pairs};
  return 0;
}

/* What the module's block holds for the variables' debug info. */
static int note_module_record(scan_state *st, uint64_t start) {
  switch (st->record.code) {
  case METADATA_COMPILE_UNIT:
    return note_unit_globals(st);
  case METADATA_INDEX_OFFSET:
    st->index_base = st->bs.bit;
    return 0;
  case METADATA_INDEX:
    return read_global_lists(st);
  case METADATA_GLOBAL_DECL_ATTACHMENT:
    return note_attachment(st, start);
  default:
    return 0;
  }
}

/* How many metadata IDs a record defines (METADATA_STRINGS: its count). */
static uint64_t ids_defined(const mtpc_bs_record *r) {
  switch (r->code) {
  case METADATA_NAME:
  case METADATA_KIND:
  case METADATA_NAMED_NODE:
  case METADATA_GLOBAL_DECL_ATTACHMENT:
  case METADATA_INDEX_OFFSET:
  case METADATA_INDEX:
    return 0;
  case METADATA_STRINGS:
    return r->count ? r->ops[0].value : 0;
  default:
    return 1;
  }
}

/* An entered metadata block, the module's or function body `function`'s.
 * Non-zero when malformed (a module block whose count of IDs disagrees with
 * its index, too) or out of memory. */
static int scan_metadata_block(scan_state *st, uint32_t function) {
  string_table local = {NULL, 0};
  string_table *strings = function == MODULE_LEVEL ? &st->module_strings : &local;
  uint64_t ids = 0, indexed = 0;
  int has_index = 0, failed = 0;
  for (;;) {
    uint32_t id;
    uint64_t start = st->bs.bit;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&st->bs, &id);
    if (kind == MTPC_BS_ENTRY_END)
      break;
    if (kind == MTPC_BS_ENTRY_ERROR ||
        (kind == MTPC_BS_ENTRY_SUBBLOCK ? mtpc_bs_skip_block(&st->bs)
                                        : mtpc_bs_read_record(&st->bs, id, &st->record))) {
      failed = 1;
      break;
    }
    if (kind == MTPC_BS_ENTRY_SUBBLOCK)
      continue;
    const mtpc_bs_record *r = &st->record;
    if (r->code == METADATA_STRING_OLD)
      failed = 1; /* bitcode of before LLVM 4: not ours to rewrite */
    else if (r->code == METADATA_STRINGS)
      failed = read_strings(st, strings);
    else if (r->code == METADATA_COMPILE_UNIT && function == MODULE_LEVEL)
      failed = note_unit_lists(st);
    else if (r->code == METADATA_COMPOSITE_TYPE)
      failed = note_composite(st, function == MODULE_LEVEL ? NULL : &local, function);
    if (!failed && function == MODULE_LEVEL)
      failed = note_module_record(st, start);
    if (r->code == METADATA_INDEX) {
      has_index = 1;
      indexed = r->count;
    }
    ids += ids_defined(r);
    if (failed)
      break;
  }
  if (function == MODULE_LEVEL) {
    st->module_ids += ids;
    if (has_index && indexed + st->module_strings.count != st->module_ids)
      st->bs.failed = failed = 1;
  }
  free(local.strings);
  return failed;
}

/* An entered function block: its metadata block comes before its
 * instructions, which are jumped over. */
static int scan_function_block(scan_state *st, uint32_t function) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&st->bs, &id);
    if (kind == MTPC_BS_ENTRY_END || kind == MTPC_BS_ENTRY_ERROR)
      return kind == MTPC_BS_ENTRY_ERROR;
    if (kind == MTPC_BS_ENTRY_SUBBLOCK && id == METADATA_BLOCK) {
      if (mtpc_bs_enter(&st->bs, id) || scan_metadata_block(st, function))
        return 1;
      return mtpc_bs_leave(&st->bs);
    }
    if (kind == MTPC_BS_ENTRY_SUBBLOCK) {
      if (mtpc_bs_skip_block(&st->bs))
        return 1;
      continue;
    }
    if (mtpc_bs_read_record(&st->bs, id, &st->record))
      return 1;
    if (st->record.code != FUNC_CODE_DECLAREBLOCKS)
      return mtpc_bs_leave(&st->bs); /* instructions: no metadata of its own */
  }
}

static int scan_module_block(scan_state *st) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&st->bs, &id);
    if (kind == MTPC_BS_ENTRY_END || kind == MTPC_BS_ENTRY_ERROR)
      return kind == MTPC_BS_ENTRY_ERROR;
    if (kind == MTPC_BS_ENTRY_RECORD) {
      if (mtpc_bs_skip_record(&st->bs, id))
        return 1;
      continue;
    }
    int failed;
    if (id == BLOCKINFO_BLOCK)
      failed = mtpc_bs_enter(&st->bs, id) || mtpc_bs_read_blockinfo(&st->bs);
    else if (id == METADATA_BLOCK && !st->in_functions)
      failed = mtpc_bs_enter(&st->bs, id) || scan_metadata_block(st, MODULE_LEVEL);
    else if (id == FUNCTION_BLOCK) {
      st->in_functions = 1;
      failed = mtpc_bs_enter(&st->bs, id) ||
               scan_function_block(st, st->out->function_bodies++);
    } else
      failed = mtpc_bs_skip_block(&st->bs);
    if (failed)
      return 1;
  }
}

static void forget_globals(mtpc_metadata_scan *scan) {
  free(scan->attachments);
  free(scan->attached);
  free(scan->unit_globals);
  scan->attachments = NULL;
  scan->attached = NULL;
  scan->unit_globals = NULL;
  scan->attachment_count = scan->attached_count = scan->unit_global_count = 0;
}

mtpc_scan_status mtpc_scan_metadata(const void *bitcode, size_t size, mtpc_metadata_scan *scan) {
  memset(scan, 0, sizeof(*scan));
  scan_state st = {.out = scan};
  int failed = mtpc_bs_enter_module(&st.bs, bitcode, size) || scan_module_block(&st);
  int no_memory = st.bs.out_of_memory;
  mtpc_bs_free(&st.bs);
  mtpc_bs_record_free(&st.record);
  free(st.module_strings.strings);
  free(st.global_lists);
  if (!failed && st.globals_unusable)
    forget_globals(scan);
  if (!failed)
    return MTPC_SCAN_OK;
  mtpc_metadata_scan_free(scan);
  return no_memory ? MTPC_SCAN_NO_MEMORY : MTPC_SCAN_UNREADABLE;
}

void mtpc_metadata_scan_free(mtpc_metadata_scan *scan) {
  forget_globals(scan);
  free(scan->unit_lists);
  free(scan->odr);
  memset(scan, 0, sizeof(*scan));
}
