/* Merging .dwo files (dwo_merge.h).
 *
 * A .dwo holds split units whose strings, location lists and range lists
 * are indices into tables that have one contribution per file: a unit of a
 * .dwo has no base attributes, so a reader takes the table at the start of
 * each section. Merged, each input's entries follow the earlier inputs'
 * in one table, and each index a unit holds grows by the count of those
 * before it. A string index may then need more bytes (DW_FORM_strx1 holds
 * 256), so the abbreviations take one string form wide enough for the
 * merged table, and each unit's DIEs are written again: in a first pass
 * that finds where every DIE moves, then in a second that writes them with
 * their references (to DIEs, in attributes and in location expressions)
 * moved too. Location and range lists keep their bytes (the references to
 * DIEs in location expressions are written in place, with the width they
 * had) and move as a whole. */
#define _GNU_SOURCE
#include "dwo_merge.h"

#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lto-backend/elf/dwarf_cursor.h"
#include "lto-backend/elf/elf_object.h"
#include "support/leb128.h"
#include "support/support.h"

enum {
  DW_UT_split_compile = 0x05, DW_UT_split_type = 0x06,
  DW_FORM_addr = 0x01, DW_FORM_block2 = 0x03, DW_FORM_block4 = 0x04, DW_FORM_data2 = 0x05,
  DW_FORM_data4 = 0x06, DW_FORM_data8 = 0x07, DW_FORM_string = 0x08, DW_FORM_block = 0x09,
  DW_FORM_block1 = 0x0a, DW_FORM_data1 = 0x0b, DW_FORM_flag = 0x0c, DW_FORM_sdata = 0x0d,
  DW_FORM_udata = 0x0f, DW_FORM_ref_addr = 0x10, DW_FORM_ref1 = 0x11, DW_FORM_ref2 = 0x12,
  DW_FORM_ref4 = 0x13, DW_FORM_ref8 = 0x14, DW_FORM_ref_udata = 0x15, DW_FORM_sec_offset = 0x17,
  DW_FORM_exprloc = 0x18, DW_FORM_flag_present = 0x19, DW_FORM_strx = 0x1a, DW_FORM_addrx = 0x1b,
  DW_FORM_data16 = 0x1e, DW_FORM_ref_sig8 = 0x20, DW_FORM_implicit_const = 0x21,
  DW_FORM_loclistx = 0x22, DW_FORM_rnglistx = 0x23, DW_FORM_strx1 = 0x25, DW_FORM_strx4 = 0x28,
  DW_FORM_addrx1 = 0x29, DW_FORM_addrx4 = 0x2c,
  DW_AT_location = 0x02, DW_AT_stmt_list = 0x10, DW_AT_string_length = 0x19,
  DW_AT_return_addr = 0x2a, DW_AT_start_scope = 0x2c, DW_AT_data_member_location = 0x38,
  DW_AT_frame_base = 0x40, DW_AT_segment = 0x46, DW_AT_static_link = 0x48,
  DW_AT_use_location = 0x4a, DW_AT_vtable_elem_location = 0x4d, DW_AT_ranges = 0x55,
};

#define OFFSET_SIZE 4  /* DWARF32, what LLVM writes unless asked for DWARF64 */
#define LIST_HEADER 12 /* a DWARF 5 list table's header (DWARF32) */

/* ---- Reading and writing bytes ---------------------------------------- */

typedef struct buffer {
  uint8_t *data;
  size_t size, cap;
  int failed;
} buffer;

static void put_bytes(buffer *b, const void *bytes, size_t n) {
  if (b->failed || mtpc_grow((void **)&b->data, &b->cap, b->size + n, 1)) {
    b->failed = 1;
    return;
  }
  memcpy(b->data + b->size, bytes, n);
  b->size += n;
}

/* `value` as `bytes` little-endian bytes at `out`. */
static void encode_fixed(uint8_t *out, uint64_t value, unsigned bytes) {
  for (unsigned i = 0; i < bytes; i++)
    out[i] = (uint8_t)(value >> (8 * i));
}

static void put_fixed(buffer *b, uint64_t value, unsigned bytes) {
  uint8_t out[8];
  encode_fixed(out, value, bytes);
  put_bytes(b, out, bytes);
}

static void put_uleb(buffer *b, uint64_t value) {
  uint8_t out[10];
  size_t n = mtpc_uleb_size(value);
  mtpc_uleb_encode(out, value, n);
  put_bytes(b, out, n);
}

/* ---- The merge's inputs ----------------------------------------------- */

typedef struct section {
  const uint8_t *data;
  size_t size;
} section;

typedef struct spec {
  uint64_t name, form;
  const uint8_t *implicit; /* DW_FORM_implicit_const: its value's SLEB128 bytes */
  size_t implicit_length;
} spec;

typedef struct abbrev {
  uint64_t code, tag;
  int children;
  size_t first, count; /* its specs in the table's */
} abbrev;

typedef struct abbrev_table {
  uint64_t offset;     /* in its input's .debug_abbrev.dwo */
  uint64_t new_offset; /* in the merged one */
  abbrev *abbrevs;
  size_t count, cap;
  spec *specs;
  size_t spec_count, spec_cap;
} abbrev_table;

/* A list table (.debug_loclists.dwo or .debug_rnglists.dwo) of one input. */
typedef struct list_table {
  section bytes;
  uint32_t count;      /* entries of its offsets array */
  uint32_t base;       /* their first index in the merged array */
  uint64_t body_start; /* in the merged section */
} list_table;

typedef struct move {
  uint64_t old_offset, new_offset; /* of a DIE, from its unit's start */
} move;

typedef struct unit {
  unsigned input;
  uint64_t offset, length; /* in its input's .debug_info.dwo; length with its header */
  uint8_t type;
  uint8_t address_size;
  uint64_t signature;      /* a type unit's */
  uint64_t type_offset;    /* a type unit's type DIE */
  size_t table;            /* its abbreviations: its input's tables[table] */
  move *moves;
  size_t move_count, move_cap;
  uint64_t new_offset, new_length;
  int dropped;             /* a type unit an earlier one has */
} unit;

typedef struct owner {
  uint64_t list_offset; /* a location list, in its input's section */
  size_t unit;
} owner;

typedef struct input {
  section info, abbrev, str, str_offsets, line;
  list_table locations, ranges;
  uint32_t str_count, str_base;
  uint64_t line_base;
  abbrev_table *tables;
  size_t table_count, table_cap;
  owner *owners; /* which unit refers to each location list */
  size_t owner_count, owner_cap;
} input;

typedef struct merge {
  input *inputs;
  unsigned input_count;
  unit *units;
  size_t unit_count, unit_cap;
  uint32_t str_total;
  unsigned str_form_size; /* bytes of each merged string index */
  mtpc_strmap strings;    /* merged .debug_str.dwo: text -> offset */
  buffer str, str_offsets, abbrev, info, locations, ranges, line;
  const Elf64_Ehdr *elf; /* the first input's header */
  char *error;
  int no_memory;
} merge;

static int fail(merge *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(merge *m, const char *fmt, ...) {
  if (!m->error && !m->no_memory) {
    va_list ap;
    va_start(ap, fmt);
    if (vasprintf(&m->error, fmt, ap) < 0) {
      m->error = NULL;
      m->no_memory = 1;
    }
    va_end(ap);
  }
  return 1;
}

static int failed(const merge *m) { return m->error || m->no_memory; }

static section find_section(const void *dwo, size_t size, const char *name, int *bad) {
  size_t offset = 0, length = 0;
  int found = mtpc_elf_find_section(dwo, size, name, &offset, &length);
  if (found < 0)
    *bad = 1;
  return found > 0 ? (section){(const uint8_t *)dwo + offset, length} : (section){NULL, 0};
}

/* A list table's header: one DWARF 5 contribution filling the section. */
static int read_list_table(merge *m, list_table *t, const char *name) {
  if (!t->bytes.size)
    return 0;
  dwarf_cursor c = {t->bytes.data, t->bytes.data + t->bytes.size, 0};
  uint64_t length = dwarf_fixed(&c, 4);
  unsigned version = (unsigned)dwarf_fixed(&c, 2);
  dwarf_skip(&c, 2); /* address and segment selector sizes */
  t->count = (uint32_t)dwarf_fixed(&c, 4);
  if (c.bad || length + 4 != t->bytes.size || version != 5 ||
      LIST_HEADER + (uint64_t)t->count * OFFSET_SIZE > t->bytes.size)
    return fail(m, "%s is not one DWARF 5 contribution", name);
  return 0;
}

static int read_string_offsets(merge *m, input *in) {
  if (!in->str_offsets.size)
    return 0;
  dwarf_cursor c = {in->str_offsets.data, in->str_offsets.data + in->str_offsets.size, 0};
  uint64_t length = dwarf_fixed(&c, 4);
  unsigned version = (unsigned)dwarf_fixed(&c, 2);
  if (c.bad || length + 4 != in->str_offsets.size || version != 5 || length < 4)
    return fail(m, ".debug_str_offsets.dwo is not one DWARF 5 contribution");
  in->str_count = (uint32_t)((length - 4) / OFFSET_SIZE);
  return 0;
}

static int open_input(merge *m, input *in, const void *dwo, size_t size) {
  int bad = 0;
  in->info = find_section(dwo, size, ".debug_info.dwo", &bad);
  in->abbrev = find_section(dwo, size, ".debug_abbrev.dwo", &bad);
  in->str = find_section(dwo, size, ".debug_str.dwo", &bad);
  in->str_offsets = find_section(dwo, size, ".debug_str_offsets.dwo", &bad);
  in->line = find_section(dwo, size, ".debug_line.dwo", &bad);
  in->locations.bytes = find_section(dwo, size, ".debug_loclists.dwo", &bad);
  in->ranges.bytes = find_section(dwo, size, ".debug_rnglists.dwo", &bad);
  static const char *const unsupported[] = {".debug_loc.dwo", ".debug_types.dwo",
                                            ".debug_macro.dwo", ".debug_macinfo.dwo"};
  for (size_t i = 0; i < sizeof(unsupported) / sizeof(*unsupported) && !bad; i++)
    if (find_section(dwo, size, unsupported[i], &bad).data)
      return fail(m, "a .dwo with %s (DWARF before 5, or macros)", unsupported[i]);
  if (bad)
    return fail(m, "a .dwo that is not an ELF64 little-endian object");
  if (!m->elf)
    m->elf = dwo;
  return read_string_offsets(m, in) ||
         read_list_table(m, &in->locations, ".debug_loclists.dwo") ||
         read_list_table(m, &in->ranges, ".debug_rnglists.dwo");
}

/* ---- Abbreviations ---------------------------------------------------- */

static int is_string_index(uint64_t form) {
  return form == DW_FORM_strx || (form >= DW_FORM_strx1 && form <= DW_FORM_strx4);
}

/* The index of the abbreviation table at `offset` of the input, read
 * once; -1 on failure. */
static long table_at(merge *m, input *in, uint64_t offset) {
  for (size_t i = 0; i < in->table_count; i++)
    if (in->tables[i].offset == offset)
      return (long)i;
  abbrev_table t = {.offset = offset};
  dwarf_cursor c = {in->abbrev.data + (offset < in->abbrev.size ? offset : in->abbrev.size),
              in->abbrev.data + in->abbrev.size, offset >= in->abbrev.size};
  for (uint64_t code; !c.bad && (code = dwarf_leb(&c, NULL)) != 0;) {
    abbrev a = {code, dwarf_leb(&c, NULL), (int)dwarf_fixed(&c, 1), t.spec_count, 0};
    for (;;) {
      spec s = {dwarf_leb(&c, NULL), dwarf_leb(&c, NULL), NULL, 0};
      if (c.bad || (s.name == 0 && s.form == 0))
        break;
      if (s.form == DW_FORM_implicit_const) { /* its value is the abbreviation's */
        s.implicit = c.at;
        dwarf_leb(&c, &s.implicit_length);
      }
      if (MTPC_PUSH(t.specs, t.spec_count, t.spec_cap, s))
        m->no_memory = 1;
      a.count++;
    }
    if (MTPC_PUSH(t.abbrevs, t.count, t.cap, a))
      m->no_memory = 1;
  }
  if (c.bad)
    fail(m, "an abbreviation table cut short");
  if (failed(m) || MTPC_PUSH(in->tables, in->table_count, in->table_cap, t)) {
    free(t.abbrevs);
    free(t.specs);
    m->no_memory |= !failed(m);
    return -1;
  }
  return (long)in->table_count - 1;
}

static const abbrev_table *table_of(const merge *m, const unit *u) {
  return &m->inputs[u->input].tables[u->table];
}

static const abbrev *find_abbrev(const abbrev_table *t, uint64_t code) {
  if (code - 1 < t->count && t->abbrevs[code - 1].code == code)
    return &t->abbrevs[code - 1]; /* LLVM numbers them 1, 2, ... */
  for (size_t i = 0; i < t->count; i++)
    if (t->abbrevs[i].code == code)
      return &t->abbrevs[i];
  return NULL;
}

/* The table again, with the merged string form. */
static void write_table(merge *m, abbrev_table *t) {
  buffer *b = &m->abbrev;
  t->new_offset = b->size;
  for (size_t i = 0; i < t->count; i++) {
    const abbrev *a = &t->abbrevs[i];
    put_uleb(b, a->code);
    put_uleb(b, a->tag);
    put_fixed(b, (uint64_t)a->children, 1);
    for (size_t k = 0; k < a->count; k++) {
      const spec *s = &t->specs[a->first + k];
      put_uleb(b, s->name);
      put_uleb(b, is_string_index(s->form) ? DW_FORM_strx1 + m->str_form_size - 1 : s->form);
      put_bytes(b, s->implicit, s->implicit_length);
    }
    put_fixed(b, 0, 2);
  }
  put_fixed(b, 0, 1);
}

/* ---- Units ------------------------------------------------------------ */

static int read_units(merge *m, unsigned index) {
  input *in = &m->inputs[index];
  dwarf_cursor c = {in->info.data, in->info.data + in->info.size, 0};
  while (!c.bad && c.at < c.end) {
    unit u = {.input = index, .offset = (uint64_t)(c.at - in->info.data)};
    uint64_t length = dwarf_fixed(&c, 4);
    if (length >= 0xfffffff0u)
      return fail(m, "a 64-bit DWARF unit");
    const uint8_t *end = dwarf_skip(&c, 0) + length;
    unsigned version = (unsigned)dwarf_fixed(&c, 2);
    u.type = (uint8_t)dwarf_fixed(&c, 1);
    u.address_size = (uint8_t)dwarf_fixed(&c, 1);
    uint64_t abbrev_offset = dwarf_fixed(&c, 4);
    u.signature = dwarf_fixed(&c, 8);
    if (u.type == DW_UT_split_type)
      u.type_offset = dwarf_fixed(&c, 4);
    if (c.bad || end > c.end)
      return fail(m, "a unit cut short");
    if (version != 5 || (u.type != DW_UT_split_compile && u.type != DW_UT_split_type))
      return fail(m, "a unit that is not a DWARF 5 split unit");
    u.length = 4 + length;
    c.at = end;
    long table = table_at(m, in, abbrev_offset);
    if (table < 0)
      return 1;
    u.table = (size_t)table;
    for (size_t k = 0; k < m->unit_count && u.type == DW_UT_split_type; k++)
      u.dropped |= m->units[k].type == DW_UT_split_type && m->units[k].signature == u.signature;
    if (MTPC_PUSH(m->units, m->unit_count, m->unit_cap, u))
      return m->no_memory = 1;
  }
  return c.bad ? fail(m, "a unit cut short") : 0;
}

static size_t unit_header_size(const unit *u) {
  return u->type == DW_UT_split_type ? 24 : 20;
}

/* Where a DIE of the unit moved; *found 0 when no DIE starts there. */
static uint64_t moved(const unit *u, uint64_t old_offset, int *found) {
  size_t low = 0, high = u->move_count;
  while (low < high) {
    size_t mid = low + (high - low) / 2;
    if (u->moves[mid].old_offset < old_offset)
      low = mid + 1;
    else
      high = mid;
  }
  *found = low < u->move_count && u->moves[low].old_offset == old_offset;
  return *found ? u->moves[low].new_offset : 0;
}

/* A reference to a DIE by its offset in the input's .debug_info.dwo. */
static uint64_t moved_in_section(merge *m, unsigned input, uint64_t offset, int *found) {
  *found = 0;
  for (size_t k = 0; k < m->unit_count; k++) {
    const unit *u = &m->units[k];
    if (u->input == input && offset >= u->offset && offset < u->offset + u->length && !u->dropped)
      return u->new_offset + moved(u, offset - u->offset, found);
  }
  return 0;
}

/* ---- Location expressions --------------------------------------------- */

/* Operand kinds of the operations of DWARF 5 (and GNU's before it). */
typedef enum operand {
  NONE, U8, U16, U32, U64, ULEB, SLEB, ADDRESS, ULEB_ULEB, ULEB_SLEB, ULEB_BLOCK,
  DIE2, DIE4, DIE_ULEB, SECTION_DIE, SECTION_DIE_SLEB, SUBEXPRESSION, TYPED_CONST,
  ULEB_DIE_ULEB, U8_DIE_ULEB, UNKNOWN
} operand;

static operand operand_of(uint8_t op) {
  if ((op >= 0x30 && op <= 0x6f) || (op >= 0x12 && op <= 0x14) || (op >= 0x16 && op <= 0x22) ||
      (op >= 0x24 && op <= 0x27) || (op >= 0x29 && op <= 0x2e) || op == 0x06 ||
      (op >= 0x96 && op <= 0x97) || (op >= 0x9b && op <= 0x9c) || op == 0x9f || op == 0xe0 ||
      op == 0xf0)
    return NONE;
  if (op >= 0x70 && op <= 0x8f)
    return SLEB; /* breg0..31 */
  switch (op) {
  case 0x03: return ADDRESS;
  case 0x08: case 0x09: case 0x15: case 0x94: case 0x95: return U8;
  case 0x0a: case 0x0b: case 0x28: case 0x2f: return U16;
  case 0x0c: case 0x0d: return U32;
  case 0x0e: case 0x0f: return U64;
  case 0x10: case 0x23: case 0x90: case 0x93: case 0xa1: case 0xa2: case 0xfb: case 0xfc:
    return ULEB;
  case 0x11: case 0x91: return SLEB;
  case 0x92: return ULEB_SLEB;
  case 0x9d: return ULEB_ULEB;
  case 0x9e: return ULEB_BLOCK;
  case 0x98: return DIE2;
  case 0x99: case 0xfa: return DIE4;
  case 0xa8: case 0xa9: case 0xf7: case 0xf9: return DIE_ULEB;
  case 0x9a: case 0xfd: return SECTION_DIE;
  case 0xa0: case 0xf2: return SECTION_DIE_SLEB;
  case 0xa3: case 0xf3: return SUBEXPRESSION;
  case 0xa4: case 0xf4: return TYPED_CONST;
  case 0xa5: case 0xf5: return ULEB_DIE_ULEB;
  case 0xa6: case 0xa7: case 0xf6: return U8_DIE_ULEB;
  default: return UNKNOWN;
  }
}

typedef struct expression_ctx {
  merge *m;
  const unit *u; /* NULL: not known (a list no unit refers to) */
} expression_ctx;

/* Rewrites a DIE offset of `width` bytes at `at` (a ULEB128 of that many
 * bytes when uleb) with where the DIE moved. */
static void rewrite_die(expression_ctx *x, uint8_t *at, size_t width, int uleb, int section) {
  dwarf_cursor c = {at, at + width, 0};
  uint64_t old = uleb ? dwarf_leb(&c, NULL) : dwarf_fixed(&c, (unsigned)width);
  if (uleb && old == 0)
    return; /* DW_OP_convert 0: the generic type */
  int found = 0;
  uint64_t now = !x->u ? 0
                 : section ? moved_in_section(x->m, x->u->input, old, &found)
                           : moved(x->u, old, &found);
  if (!found) {
    fail(x->m, "a location expression refers to no DIE (offset 0x%llx)", (unsigned long long)old);
    return;
  }
  if (!uleb)
    encode_fixed(at, now, (unsigned)width);
  else if (!mtpc_uleb_encode(at, now, width))
    fail(x->m, "a DIE reference in a location expression no longer fits its bytes");
}

/* Rewrites, in place, the references to DIEs in an expression. */
static void rewrite_expression(expression_ctx *x, uint8_t *bytes, size_t size) {
  dwarf_cursor c = {bytes, bytes + size, 0};
  size_t length = 0;
  while (!c.bad && c.at < c.end && !failed(x->m)) {
    uint8_t op = (uint8_t)dwarf_fixed(&c, 1);
    uint8_t *at = (uint8_t *)c.at;
    switch (operand_of(op)) {
    case NONE: break;
    case U8: dwarf_skip(&c, 1); break;
    case U16: dwarf_skip(&c, 2); break;
    case U32: dwarf_skip(&c, 4); break;
    case U64: dwarf_skip(&c, 8); break;
    case ADDRESS: dwarf_skip(&c, x->u ? x->u->address_size : 8); break;
    case ULEB: case SLEB: dwarf_leb(&c, NULL); break;
    case ULEB_ULEB: case ULEB_SLEB: dwarf_leb(&c, NULL); dwarf_leb(&c, NULL); break;
    case ULEB_BLOCK: dwarf_skip(&c, dwarf_leb(&c, NULL)); break;
    case DIE2: dwarf_skip(&c, 2); rewrite_die(x, at, 2, 0, 0); break;
    case DIE4: dwarf_skip(&c, 4); rewrite_die(x, at, 4, 0, 0); break;
    case DIE_ULEB: dwarf_leb(&c, &length); rewrite_die(x, at, length, 1, 0); break;
    case SECTION_DIE: dwarf_skip(&c, OFFSET_SIZE); rewrite_die(x, at, OFFSET_SIZE, 0, 1); break;
    case SECTION_DIE_SLEB:
      dwarf_skip(&c, OFFSET_SIZE);
      rewrite_die(x, at, OFFSET_SIZE, 0, 1);
      dwarf_leb(&c, NULL);
      break;
    case SUBEXPRESSION: {
      uint64_t inner = dwarf_leb(&c, NULL);
      uint8_t *start = (uint8_t *)dwarf_skip(&c, inner);
      if (!c.bad)
        rewrite_expression(x, start, inner);
      break;
    }
    case TYPED_CONST:
      dwarf_leb(&c, &length);
      rewrite_die(x, at, length, 1, 0);
      dwarf_skip(&c, dwarf_fixed(&c, 1));
      break;
    case ULEB_DIE_ULEB:
      dwarf_leb(&c, NULL);
      at = (uint8_t *)c.at;
      dwarf_leb(&c, &length);
      rewrite_die(x, at, length, 1, 0);
      break;
    case U8_DIE_ULEB:
      dwarf_skip(&c, 1);
      at = (uint8_t *)c.at;
      dwarf_leb(&c, &length);
      rewrite_die(x, at, length, 1, 0);
      break;
    case UNKNOWN: fail(x->m, "an unknown location expression operation 0x%02x", op); return;
    }
  }
  if (c.bad)
    fail(x->m, "a location expression cut short");
}

/* ---- DIEs ------------------------------------------------------------- */

static int is_location_list(uint64_t name) {
  switch (name) {
  case DW_AT_location: case DW_AT_string_length: case DW_AT_return_addr:
  case DW_AT_data_member_location: case DW_AT_frame_base: case DW_AT_segment:
  case DW_AT_static_link: case DW_AT_use_location: case DW_AT_vtable_elem_location:
    return 1;
  default:
    return 0;
  }
}

/* A list's offset in its section, moved with the input's table. */
static uint64_t moved_list(const list_table *t, uint64_t offset) {
  uint64_t old_body = LIST_HEADER + (uint64_t)t->count * OFFSET_SIZE;
  return offset - old_body + t->body_start;
}

/* Notes that unit `u` refers to the location list at `offset`. */
static void note_owner(merge *m, input *in, uint64_t offset, size_t u) {
  owner o = {offset, u};
  if (MTPC_PUSH(in->owners, in->owner_count, in->owner_cap, o))
    m->no_memory = 1;
}

/* The offset of location list `index` of the input's table. */
static uint64_t list_offset(const list_table *t, uint64_t index) {
  dwarf_cursor c = {t->bytes.data + LIST_HEADER + index * OFFSET_SIZE,
                    t->bytes.data + t->bytes.size, 0};
  return LIST_HEADER + dwarf_fixed(&c, OFFSET_SIZE);
}

/* One attribute's value: read at c, written to out with its indices and
 * references moved, or with out NULL only sized (*size) and noted. */
typedef struct die_pass {
  merge *m;
  size_t unit_index;
  buffer *out;
  uint64_t size;
} die_pass;

static void emit(die_pass *p, const uint8_t *bytes, size_t n) {
  if (p->out)
    put_bytes(p->out, bytes, n);
  p->size += n;
}

static void emit_fixed(die_pass *p, uint64_t value, unsigned n) {
  uint8_t out[8];
  encode_fixed(out, value, n);
  emit(p, out, n);
}

static void emit_uleb(die_pass *p, uint64_t value) {
  uint8_t out[10];
  size_t n = mtpc_uleb_size(value);
  mtpc_uleb_encode(out, value, n);
  emit(p, out, n);
}

static void move_reference(die_pass *p, dwarf_cursor *c, unsigned width) {
  const unit *u = &p->m->units[p->unit_index];
  uint64_t old = dwarf_fixed(c, width);
  int found = 1;
  uint64_t now = p->out ? moved(u, old, &found) : 0;
  if (!found)
    fail(p->m, "a reference to no DIE (offset 0x%llx)", (unsigned long long)old);
  emit_fixed(p, now, width);
}

static void move_section_offset(die_pass *p, dwarf_cursor *c, uint64_t name) {
  input *in = &p->m->inputs[p->m->units[p->unit_index].input];
  uint64_t old = dwarf_fixed(c, OFFSET_SIZE);
  if (is_location_list(name)) {
    if (!p->out)
      note_owner(p->m, in, old, p->unit_index);
    emit_fixed(p, moved_list(&in->locations, old), OFFSET_SIZE);
  } else if (name == DW_AT_ranges || name == DW_AT_start_scope) {
    emit_fixed(p, moved_list(&in->ranges, old), OFFSET_SIZE);
  } else if (name == DW_AT_stmt_list) {
    emit_fixed(p, old + in->line_base, OFFSET_SIZE);
  } else {
    fail(p->m, "a section offset in attribute 0x%llx", (unsigned long long)name);
  }
}

static void move_value(die_pass *p, dwarf_cursor *c, const spec *s) {
  merge *m = p->m;
  const unit *u = &m->units[p->unit_index];
  input *in = &m->inputs[u->input];
  const uint8_t *start = c->at;
  size_t length = 0;
  switch (s->form) {
  case DW_FORM_flag_present:
  case DW_FORM_implicit_const:
    return;
  case DW_FORM_addr:
    return emit(p, dwarf_skip(c, u->address_size), u->address_size);
  case DW_FORM_data1: case DW_FORM_flag:
    return emit(p, dwarf_skip(c, 1), 1);
  case DW_FORM_data2:
    return emit(p, dwarf_skip(c, 2), 2);
  case DW_FORM_data4:
    return emit(p, dwarf_skip(c, 4), 4);
  case DW_FORM_data8: case DW_FORM_ref_sig8:
    return emit(p, dwarf_skip(c, 8), 8);
  case DW_FORM_data16:
    return emit(p, dwarf_skip(c, 16), 16);
  case DW_FORM_sdata: case DW_FORM_udata: case DW_FORM_addrx:
    dwarf_leb(c, &length);
    return emit(p, start, length);
  case DW_FORM_string: {
    const uint8_t *nul = c->bad ? NULL : memchr(c->at, 0, (size_t)(c->end - c->at));
    if (!nul)
      return (void)(c->bad = 1);
    c->at = nul + 1;
    return emit(p, start, (size_t)(c->at - start));
  }
  case DW_FORM_block1: case DW_FORM_block2: case DW_FORM_block4: case DW_FORM_block: {
    uint64_t n = s->form == DW_FORM_block ? dwarf_leb(c, NULL)
                 : dwarf_fixed(c, s->form == DW_FORM_block1 ? 1 : s->form == DW_FORM_block2 ? 2 : 4);
    dwarf_skip(c, n);
    return emit(p, start, (size_t)(c->at - start));
  }
  case DW_FORM_exprloc: {
    uint64_t n = dwarf_leb(c, &length);
    const uint8_t *expression = dwarf_skip(c, n);
    if (c->bad)
      return;
    emit(p, start, length);
    if (!p->out)
      return emit(p, expression, (size_t)n);
    size_t at = p->out->size;
    emit(p, expression, (size_t)n);
    expression_ctx x = {m, u};
    if (!p->out->failed)
      rewrite_expression(&x, p->out->data + at, (size_t)n);
    return;
  }
  case DW_FORM_ref1: return move_reference(p, c, 1);
  case DW_FORM_ref2: return move_reference(p, c, 2);
  case DW_FORM_ref4: return move_reference(p, c, 4);
  case DW_FORM_ref8: return move_reference(p, c, 8);
  case DW_FORM_ref_addr: {
    uint64_t old = dwarf_fixed(c, OFFSET_SIZE);
    int found = 1;
    uint64_t now = p->out ? moved_in_section(m, u->input, old, &found) : 0;
    if (!found)
      fail(m, "a reference to no DIE (section offset 0x%llx)", (unsigned long long)old);
    return emit_fixed(p, now, OFFSET_SIZE);
  }
  case DW_FORM_sec_offset:
    return move_section_offset(p, c, s->name);
  case DW_FORM_strx:
    return emit_fixed(p, in->str_base + dwarf_leb(c, NULL), m->str_form_size);
  case DW_FORM_loclistx: {
    uint64_t index = dwarf_leb(c, NULL);
    if (index >= in->locations.count)
      return (void)fail(m, "a location list index out of range");
    if (!p->out)
      note_owner(m, in, list_offset(&in->locations, index), p->unit_index);
    return emit_uleb(p, in->locations.base + index);
  }
  case DW_FORM_rnglistx: {
    uint64_t index = dwarf_leb(c, NULL);
    if (index >= in->ranges.count)
      return (void)fail(m, "a range list index out of range");
    return emit_uleb(p, in->ranges.base + index);
  }
  default:
    if (s->form >= DW_FORM_strx1 && s->form <= DW_FORM_strx4)
      return emit_fixed(p, in->str_base + dwarf_fixed(c, (unsigned)(s->form - DW_FORM_strx1 + 1)),
                        m->str_form_size);
    if (s->form >= DW_FORM_addrx1 && s->form <= DW_FORM_addrx4) {
      unsigned n = (unsigned)(s->form - DW_FORM_addrx1 + 1);
      return emit(p, dwarf_skip(c, n), n);
    }
    fail(m, "an attribute of form 0x%llx", (unsigned long long)s->form);
  }
}

/* One pass over a unit's DIEs: sizing (and noting where each DIE moves)
 * with out NULL, else writing. */
static void pass_over_dies(merge *m, size_t unit_index, buffer *out) {
  unit *u = &m->units[unit_index];
  const input *in = &m->inputs[u->input];
  const abbrev_table *table = table_of(m, u);
  const uint8_t *base = in->info.data + u->offset;
  dwarf_cursor c = {base + unit_header_size(u), base + u->length, 0};
  die_pass p = {m, unit_index, out, unit_header_size(u)};
  while (!c.bad && c.at < c.end && !failed(m)) {
    uint64_t old_offset = (uint64_t)(c.at - base);
    uint64_t code = dwarf_leb(&c, NULL);
    const abbrev *a = code ? find_abbrev(table, code) : NULL;
    if (code && !a) {
      fail(m, "a DIE with no abbreviation %llu", (unsigned long long)code);
      break;
    }
    if (!out && code) {
      move mv = {old_offset, p.size};
      if (MTPC_PUSH(u->moves, u->move_count, u->move_cap, mv))
        m->no_memory = 1;
    }
    emit_uleb(&p, code);
    for (size_t k = 0; a && k < a->count && !c.bad; k++)
      move_value(&p, &c, &table->specs[a->first + k]);
  }
  if (c.bad)
    fail(m, "a DIE cut short");
  u->new_length = p.size;
}

static void write_unit(merge *m, unit *u, size_t unit_index) {
  buffer *b = &m->info;
  uint64_t length = u->new_length;
  if (b->size != u->new_offset)
    fail(m, "internal: a unit is not where the first pass put it");
  put_fixed(b, length - 4, 4);
  put_fixed(b, 5, 2);
  put_fixed(b, u->type, 1);
  put_fixed(b, u->address_size, 1);
  put_fixed(b, table_of(m, u)->new_offset, 4);
  put_fixed(b, u->signature, 8);
  if (u->type == DW_UT_split_type) {
    int found = 0;
    put_fixed(b, moved(u, u->type_offset, &found), 4);
    if (!found)
      fail(m, "a type unit whose type is no DIE");
  }
  pass_over_dies(m, unit_index, b);
  if (!b->failed && (u->new_length != length || b->size - u->new_offset != length))
    fail(m, "internal: a unit's size differs between the passes");
}

/* ---- Tables ----------------------------------------------------------- */

static void merge_strings(merge *m) {
  put_fixed(&m->str_offsets, 4 + (uint64_t)m->str_total * OFFSET_SIZE, 4);
  put_fixed(&m->str_offsets, 5, 2);
  put_fixed(&m->str_offsets, 0, 2);
  for (unsigned i = 0; i < m->input_count && !failed(m); i++) {
    const input *in = &m->inputs[i];
    dwarf_cursor c = {in->str_offsets.data + 8, in->str_offsets.data + in->str_offsets.size, 0};
    for (uint32_t k = 0; k < in->str_count; k++) {
      uint64_t offset = dwarf_fixed(&c, OFFSET_SIZE);
      const char *text = offset < in->str.size ? (const char *)in->str.data + offset : NULL;
      const char *nul = text ? memchr(text, 0, in->str.size - offset) : NULL;
      if (!nul) {
        fail(m, "a string offset outside .debug_str.dwo");
        return;
      }
      uint32_t at = 0;
      if (!mtpc_strmap_get(&m->strings, text, (size_t)(nul - text), &at)) {
        at = (uint32_t)m->str.size;
        put_bytes(&m->str, text, (size_t)(nul - text) + 1);
        if (mtpc_strmap_put(&m->strings, text, (size_t)(nul - text), at))
          m->no_memory = 1;
      }
      put_fixed(&m->str_offsets, at, OFFSET_SIZE);
    }
  }
}

static int by_list_offset(const void *a, const void *b) {
  const owner *x = a, *y = b;
  return x->list_offset < y->list_offset ? -1 : x->list_offset > y->list_offset;
}

/* A location list's entries, their expressions rewritten in place; *end
 * past its DW_LLE_end_of_list. */
static const uint8_t *rewrite_location_list(merge *m, uint8_t *list, const uint8_t *end,
                                            const unit *u) {
  dwarf_cursor c = {list, end, 0};
  expression_ctx x = {m, u};
  unsigned address = u ? u->address_size : 8;
  for (;;) {
    uint8_t kind = (uint8_t)dwarf_fixed(&c, 1);
    if (c.bad || kind == 0) /* DW_LLE_end_of_list */
      break;
    switch (kind) {
    case 1: dwarf_leb(&c, NULL); continue;            /* base_addressx */
    case 6: dwarf_skip(&c, address); continue;             /* base_address */
    case 2: case 3: case 4: dwarf_leb(&c, NULL); dwarf_leb(&c, NULL); break;
    case 5: break;                                   /* default_location */
    case 7: dwarf_skip(&c, 2 * address); break;            /* start_end */
    case 8: dwarf_skip(&c, address); dwarf_leb(&c, NULL); break; /* start_length */
    default: fail(m, "an unknown location list entry 0x%02x", kind); return end;
    }
    uint64_t n = dwarf_leb(&c, NULL);
    uint8_t *expression = (uint8_t *)dwarf_skip(&c, n);
    if (!c.bad)
      rewrite_expression(&x, expression, (size_t)n);
  }
  if (c.bad)
    fail(m, "a location list cut short");
  return c.at;
}

/* Where each input's lists go: its entries follow the earlier inputs' in
 * the offsets array, its lists theirs. Returns the merged entry count;
 * *bodies the lists' bytes. */
static uint64_t layout_lists(merge *m, int locations, uint64_t *bodies) {
  uint64_t total = 0;
  *bodies = 0;
  for (unsigned i = 0; i < m->input_count; i++) {
    list_table *t = locations ? &m->inputs[i].locations : &m->inputs[i].ranges;
    t->base = (uint32_t)total;
    total += t->count;
  }
  for (unsigned i = 0; i < m->input_count; i++) {
    list_table *t = locations ? &m->inputs[i].locations : &m->inputs[i].ranges;
    t->body_start = LIST_HEADER + total * OFFSET_SIZE + *bodies;
    if (t->bytes.size)
      *bodies += t->bytes.size - LIST_HEADER - (uint64_t)t->count * OFFSET_SIZE;
  }
  return total;
}

/* Rewrites the expressions of an input's location lists, copied to
 * [lists, end), each by the unit that refers to it; `body` is where they
 * began in the input's section. */
static void rewrite_location_lists(merge *m, input *in, uint8_t *lists, uint8_t *end,
                                   size_t body) {
  qsort(in->owners, in->owner_count, sizeof(owner), by_list_offset);
  for (uint8_t *list = lists; list < end && !failed(m);) {
    owner key = {(uint64_t)(list - lists) + body, 0};
    const owner *o = bsearch(&key, in->owners, in->owner_count, sizeof(owner), by_list_offset);
    list = (uint8_t *)rewrite_location_list(m, list, end, o ? &m->units[o->unit] : NULL);
  }
}

static void write_lists(merge *m, buffer *out, int locations) {
  uint64_t bodies = 0;
  uint64_t total = layout_lists(m, locations, &bodies);
  if (!total && !bodies)
    return;
  put_fixed(out, 8 + total * OFFSET_SIZE + bodies, 4);
  put_fixed(out, 5, 2);
  put_fixed(out, 8, 1); /* address size */
  put_fixed(out, 0, 1);
  put_fixed(out, total, 4);
  for (unsigned i = 0; i < m->input_count; i++) {
    const list_table *t = locations ? &m->inputs[i].locations : &m->inputs[i].ranges;
    for (uint32_t k = 0; k < t->count; k++)
      put_fixed(out, moved_list(t, list_offset(t, k)) - LIST_HEADER, OFFSET_SIZE);
  }
  for (unsigned i = 0; i < m->input_count && !failed(m); i++) {
    input *in = &m->inputs[i];
    const list_table *t = locations ? &in->locations : &in->ranges;
    size_t body = LIST_HEADER + (size_t)t->count * OFFSET_SIZE;
    if (!t->bytes.size)
      continue;
    size_t at = out->size;
    put_bytes(out, t->bytes.data + body, t->bytes.size - body);
    if (locations && !out->failed)
      rewrite_location_lists(m, in, out->data + at, out->data + out->size, body);
  }
}

/* ---- The merged object ------------------------------------------------ */

typedef struct out_section {
  const char *name;
  const buffer *bytes;
  uint64_t flags, entsize;
} out_section;

static void write_object(merge *m, buffer *object) {
  const uint64_t exclude = SHF_EXCLUDE;
  const out_section sections[] = {
      {".debug_abbrev.dwo", &m->abbrev, exclude, 0},
      {".debug_info.dwo", &m->info, exclude, 0},
      {".debug_str_offsets.dwo", &m->str_offsets, exclude, 0},
      {".debug_str.dwo", &m->str, SHF_MERGE | SHF_STRINGS | exclude, 1},
      {".debug_loclists.dwo", &m->locations, exclude, 0},
      {".debug_rnglists.dwo", &m->ranges, exclude, 0},
      {".debug_line.dwo", &m->line, exclude, 0},
  };
  enum { COUNT = sizeof(sections) / sizeof(sections[0]) };
  buffer names = {0};
  put_bytes(&names, "\0.strtab", 9);
  Elf64_Shdr headers[COUNT + 2];
  memset(headers, 0, sizeof(headers));
  Elf64_Ehdr header;
  memcpy(&header, m->elf, sizeof(header));
  put_bytes(object, &header, sizeof(header));
  unsigned used = 2;
  for (size_t i = 0; i < COUNT; i++) {
    if (!sections[i].bytes->size)
      continue;
    Elf64_Shdr *h = &headers[used++];
    h->sh_name = (Elf64_Word)names.size;
    put_bytes(&names, sections[i].name, strlen(sections[i].name) + 1);
    h->sh_type = SHT_PROGBITS;
    h->sh_flags = sections[i].flags;
    h->sh_offset = object->size;
    h->sh_size = sections[i].bytes->size;
    h->sh_addralign = 1;
    h->sh_entsize = sections[i].entsize;
    put_bytes(object, sections[i].bytes->data, sections[i].bytes->size);
  }
  headers[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = object->size,
                            .sh_size = names.size, .sh_addralign = 1};
  put_bytes(object, names.data, names.size);
  free(names.data);
  object->failed |= names.failed;
  while (object->size % 8)
    put_bytes(object, "", 1);
  uint64_t headers_at = object->size;
  put_bytes(object, headers, used * sizeof(Elf64_Shdr));
  if (object->failed)
    return;
  Elf64_Ehdr *h = (Elf64_Ehdr *)object->data;
  h->e_shoff = headers_at;
  h->e_shnum = (Elf64_Half)used;
  h->e_shstrndx = 1;
  h->e_phoff = 0;
  h->e_phnum = 0;
}

static void free_merge(merge *m) {
  for (unsigned i = 0; m->inputs && i < m->input_count; i++) {
    input *in = &m->inputs[i];
    for (size_t t = 0; t < in->table_count; t++) {
      free(in->tables[t].abbrevs);
      free(in->tables[t].specs);
    }
    free(in->tables);
    free(in->owners);
  }
  for (size_t u = 0; u < m->unit_count; u++)
    free(m->units[u].moves);
  free(m->units);
  free(m->inputs);
  mtpc_strmap_free(&m->strings);
  buffer *buffers[] = {&m->str, &m->str_offsets, &m->abbrev, &m->info,
                       &m->locations, &m->ranges, &m->line};
  for (size_t i = 0; i < sizeof(buffers) / sizeof(*buffers); i++)
    free(buffers[i]->data);
}

/* Everything but the object: tables, then units in two passes. */
static void merge_inputs(merge *m, const void *const *dwos, const size_t *sizes, unsigned count) {
  for (unsigned i = 0; i < count && !failed(m); i++) {
    if (!dwos[i] || !sizes[i])
      continue;
    input *in = &m->inputs[m->input_count];
    if (open_input(m, in, dwos[i], sizes[i]) || !in->info.size)
      continue;
    in->str_base = m->str_total;
    m->str_total += in->str_count;
    in->line_base = m->line.size;
    put_bytes(&m->line, in->line.data, in->line.size);
    read_units(m, m->input_count++);
  }
  m->str_form_size = m->str_total <= 0x100 ? 1 : m->str_total <= 0x10000 ? 2
                     : m->str_total <= 0x1000000 ? 3 : 4;
  for (unsigned i = 0; i < m->input_count; i++)
    for (size_t t = 0; t < m->inputs[i].table_count; t++)
      write_table(m, &m->inputs[i].tables[t]);
  uint64_t bodies;
  layout_lists(m, 1, &bodies); /* list indices in attributes depend on it */
  layout_lists(m, 0, &bodies);
  uint64_t new_offset = 0;
  for (size_t u = 0; u < m->unit_count && !failed(m); u++) {
    pass_over_dies(m, u, NULL);
    m->units[u].new_offset = new_offset;
    if (!m->units[u].dropped)
      new_offset += m->units[u].new_length;
  }
  if (failed(m))
    return;
  write_lists(m, &m->ranges, 0);
  write_lists(m, &m->locations, 1);
  merge_strings(m);
  for (size_t u = 0; u < m->unit_count && !failed(m); u++)
    if (!m->units[u].dropped)
      write_unit(m, &m->units[u], u);
}

int mtpc_merge_dwo(const void *const *dwos, const size_t *sizes, unsigned count, void **merged,
                   size_t *merged_size, char **message) {
  merge m = {0};
  *merged = NULL;
  *message = NULL;
  if (!(m.inputs = mtpc_zalloc(count ? count : 1, sizeof(input))) ||
      mtpc_strmap_init(&m.strings, 1024)) {
    free_merge(&m);
    return 1;
  }
  merge_inputs(&m, dwos, sizes, count);
  buffer object = {0};
  if (!failed(&m) && m.elf)
    write_object(&m, &object);
  buffer *buffers[] = {&m.str, &m.str_offsets, &m.abbrev, &m.info,
                       &m.locations, &m.ranges, &m.line, &object};
  for (size_t i = 0; i < sizeof(buffers) / sizeof(*buffers); i++)
    m.no_memory |= buffers[i]->failed;
  int bad = failed(&m) || !m.elf;
  if (!bad) {
    *merged = object.data;
    *merged_size = object.size;
  } else {
    free(object.data);
    *message = m.no_memory ? NULL
               : m.error   ? mtpc_asprintf("cannot merge split DWARF: %s", m.error)
                           : mtpc_strdup("cannot merge split DWARF: no .dwo holds a unit");
  }
  free(m.error);
  free_merge(&m);
  return bad;
}
