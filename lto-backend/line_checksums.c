/* DWARF 5 line table headers, read as far as their file tables (DWARF 5,
 * section 6.2.4), for the MD5 fields the partition cache masks. */
#include "line_checksums.h"

#include <string.h>

enum {
  DW_LNCT_MD5 = 0x5,
  DW_FORM_block = 0x09, DW_FORM_data2 = 0x05, DW_FORM_data4 = 0x06, DW_FORM_data8 = 0x07,
  DW_FORM_string = 0x08, DW_FORM_data1 = 0x0b, DW_FORM_strp = 0x0e, DW_FORM_udata = 0x0f,
  DW_FORM_strx = 0x1a, DW_FORM_data16 = 0x1e, DW_FORM_line_strp = 0x1f, DW_FORM_strx1 = 0x25,
  DW_FORM_strx2 = 0x26, DW_FORM_strx3 = 0x27, DW_FORM_strx4 = 0x28
};

/* A bounded reader; `bad` once it ran past its end or met what it cannot read. */
typedef struct cursor {
  uint8_t *at, *end;
  int bad;
} cursor;

static uint64_t read_fixed(cursor *c, unsigned bytes) {
  if (c->bad || (size_t)(c->end - c->at) < bytes) {
    c->bad = 1;
    return 0;
  }
  uint64_t value = 0;
  for (unsigned i = 0; i < bytes; i++)
    value |= (uint64_t)c->at[i] << (8 * i);
  c->at += bytes;
  return value;
}

static uint64_t read_uleb(cursor *c) {
  uint64_t value = 0;
  for (unsigned shift = 0; !c->bad; shift += 7) {
    if (c->at == c->end || shift > 63) {
      c->bad = 1;
      break;
    }
    uint8_t byte = *c->at++;
    value |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return value;
  }
  return 0;
}

static void skip(cursor *c, uint64_t bytes) {
  if (c->bad || (uint64_t)(c->end - c->at) < bytes)
    c->bad = 1;
  else
    c->at += bytes;
}

/* Skips one value of `form`; offsets are `offset_size` bytes. */
static void skip_form(cursor *c, uint64_t form, unsigned offset_size) {
  switch (form) {
  case DW_FORM_string: {
    uint8_t *nul = c->bad ? NULL : memchr(c->at, 0, (size_t)(c->end - c->at));
    if (nul)
      c->at = nul + 1;
    else
      c->bad = 1;
    return;
  }
  case DW_FORM_strp:
  case DW_FORM_line_strp:
    return skip(c, offset_size);
  case DW_FORM_udata:
  case DW_FORM_strx:
    read_uleb(c);
    return;
  case DW_FORM_data1:
  case DW_FORM_strx1:
    return skip(c, 1);
  case DW_FORM_data2:
  case DW_FORM_strx2:
    return skip(c, 2);
  case DW_FORM_strx3:
    return skip(c, 3);
  case DW_FORM_data4:
  case DW_FORM_strx4:
    return skip(c, 4);
  case DW_FORM_data8:
    return skip(c, 8);
  case DW_FORM_data16:
    return skip(c, 16);
  case DW_FORM_block:
    return skip(c, read_uleb(c));
  default:
    c->bad = 1;
  }
}

#define MAX_FORMATS 16

/* One entry list (directories or files): its format, then its entries,
 * each MD5 field visited. */
static void read_entries(cursor *c, unsigned offset_size, mtpc_line_checksum_fn *visit,
                         void *arg) {
  uint64_t kinds[MAX_FORMATS], forms[MAX_FORMATS];
  unsigned format_count = (unsigned)read_fixed(c, 1);
  if (format_count > MAX_FORMATS)
    c->bad = 1;
  for (unsigned f = 0; f < format_count && !c->bad; f++) {
    kinds[f] = read_uleb(c);
    forms[f] = read_uleb(c);
  }
  uint64_t count = read_uleb(c);
  for (uint64_t e = 0; e < count && !c->bad; e++)
    for (unsigned f = 0; f < format_count && !c->bad; f++) {
      if (kinds[f] == DW_LNCT_MD5 && forms[f] == DW_FORM_data16 && c->end - c->at >= 16)
        visit(arg, c->at);
      skip_form(c, forms[f], offset_size);
    }
}

/* The unit at c->at: its header's tables; c->at then at the next unit. */
static void read_unit(cursor *c, mtpc_line_checksum_fn *visit, void *arg) {
  uint64_t length = read_fixed(c, 4);
  unsigned offset_size = 4;
  if (length == 0xffffffffu) {
    length = read_fixed(c, 8);
    offset_size = 8;
  }
  if (c->bad || length > (uint64_t)(c->end - c->at)) {
    c->bad = 1;
    return;
  }
  cursor unit = {c->at, c->at + length, 0};
  c->at += length;
  unsigned version = (unsigned)read_fixed(&unit, 2);
  if (unit.bad || version < 5)
    return; /* a line table before DWARF 5 records no checksums */
  if (version > 5) {
    c->bad = 1;
    return;
  }
  skip(&unit, 2); /* address and segment selector sizes */
  uint64_t header_length = read_fixed(&unit, offset_size);
  if (unit.bad || header_length > (uint64_t)(unit.end - unit.at)) {
    c->bad = 1;
    return;
  }
  cursor header = {unit.at, unit.at + header_length, 0};
  skip(&header, 5); /* instruction length, ops per instruction, is_stmt, line base and range */
  unsigned opcode_base = (unsigned)read_fixed(&header, 1);
  skip(&header, opcode_base ? opcode_base - 1 : 0);
  read_entries(&header, offset_size, visit, arg); /* directories */
  read_entries(&header, offset_size, visit, arg); /* files */
  c->bad = header.bad;
}

int mtpc_line_checksums(uint8_t *section, size_t size, mtpc_line_checksum_fn *visit, void *arg) {
  cursor c = {section, section + size, 0};
  while (!c.bad && c.at < c.end)
    read_unit(&c, visit, arg);
  return c.bad ? -1 : 0;
}
