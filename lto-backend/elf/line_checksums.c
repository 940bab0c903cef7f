/* DWARF 5 line table headers, read as far as their file tables (DWARF 5,
 * section 6.2.4), for the MD5 fields the partition cache masks. */
#include "line_checksums.h"

#include <string.h>

#include "dwarf_cursor.h"

enum {
  DW_LNCT_MD5 = 0x5,
  DW_FORM_block = 0x09, DW_FORM_data2 = 0x05, DW_FORM_data4 = 0x06, DW_FORM_data8 = 0x07,
  DW_FORM_string = 0x08, DW_FORM_data1 = 0x0b, DW_FORM_strp = 0x0e, DW_FORM_udata = 0x0f,
  DW_FORM_strx = 0x1a, DW_FORM_data16 = 0x1e, DW_FORM_line_strp = 0x1f, DW_FORM_strx1 = 0x25,
  DW_FORM_strx2 = 0x26, DW_FORM_strx3 = 0x27, DW_FORM_strx4 = 0x28
};

/* The bytes of a value of a fixed-size form; 0 for any other. */
static unsigned fixed_size(uint64_t form, unsigned offset_size) {
  switch (form) {
  case DW_FORM_strp: case DW_FORM_line_strp: return offset_size;
  case DW_FORM_data1: case DW_FORM_strx1: return 1;
  case DW_FORM_data2: case DW_FORM_strx2: return 2;
  case DW_FORM_strx3: return 3;
  case DW_FORM_data4: case DW_FORM_strx4: return 4;
  case DW_FORM_data8: return 8;
  case DW_FORM_data16: return 16;
  default: return 0;
  }
}

/* Skips one value of `form`; offsets are `offset_size` bytes. */
static void skip_form(dwarf_cursor *c, uint64_t form, unsigned offset_size) {
  if (form == DW_FORM_string) {
    const uint8_t *nul = c->bad ? NULL : memchr(c->at, 0, (size_t)(c->end - c->at));
    if (nul)
      c->at = nul + 1;
    else
      c->bad = 1;
  } else if (form == DW_FORM_udata || form == DW_FORM_strx) {
    dwarf_leb(c, NULL);
  } else if (form == DW_FORM_block) {
    dwarf_skip(c, dwarf_leb(c, NULL));
  } else if (fixed_size(form, offset_size)) {
    dwarf_skip(c, fixed_size(form, offset_size));
  } else {
    c->bad = 1;
  }
}

#define MAX_FORMATS 16

/* One entry list (directories or files): its format, then its entries,
 * each MD5 field visited. */
static void read_entries(dwarf_cursor *c, unsigned offset_size, mtpc_line_checksum_fn *visit,
                         void *arg) {
  uint64_t kinds[MAX_FORMATS], forms[MAX_FORMATS];
  unsigned format_count = (unsigned)dwarf_fixed(c, 1);
  if (format_count > MAX_FORMATS)
    c->bad = 1;
  for (unsigned f = 0; f < format_count && !c->bad; f++) {
    kinds[f] = dwarf_leb(c, NULL);
    forms[f] = dwarf_leb(c, NULL);
  }
  uint64_t count = dwarf_leb(c, NULL);
  for (uint64_t e = 0; e < count && !c->bad; e++)
    for (unsigned f = 0; f < format_count && !c->bad; f++) {
      if (kinds[f] == DW_LNCT_MD5 && forms[f] == DW_FORM_data16 && c->end - c->at >= 16)
        visit(arg, (uint8_t *)c->at); /* the section the caller gave, writable */
      skip_form(c, forms[f], offset_size);
    }
}

/* The unit at c->at: its header's tables; c->at then at the next unit. */
static void read_unit(dwarf_cursor *c, mtpc_line_checksum_fn *visit, void *arg) {
  uint64_t length = dwarf_fixed(c, 4);
  unsigned offset_size = 4;
  if (length == 0xffffffffu) {
    length = dwarf_fixed(c, 8);
    offset_size = 8;
  }
  if (c->bad || length > (uint64_t)(c->end - c->at)) {
    c->bad = 1;
    return;
  }
  dwarf_cursor unit = {c->at, c->at + length, 0};
  c->at += length;
  unsigned version = (unsigned)dwarf_fixed(&unit, 2);
  if (unit.bad || version < 5)
    return; /* a line table before DWARF 5 records no checksums */
  if (version > 5) {
    c->bad = 1;
    return;
  }
  dwarf_skip(&unit, 2); /* address and segment selector sizes */
  uint64_t header_length = dwarf_fixed(&unit, offset_size);
  if (unit.bad || header_length > (uint64_t)(unit.end - unit.at)) {
    c->bad = 1;
    return;
  }
  dwarf_cursor header = {unit.at, unit.at + header_length, 0};
  dwarf_skip(&header, 5); /* instruction length, ops per instruction, is_stmt, line base and range */
  unsigned opcode_base = (unsigned)dwarf_fixed(&header, 1);
  dwarf_skip(&header, opcode_base ? opcode_base - 1 : 0);
  read_entries(&header, offset_size, visit, arg); /* directories */
  read_entries(&header, offset_size, visit, arg); /* files */
  c->bad = header.bad;
}

int mtpc_line_checksums(uint8_t *section, size_t size, mtpc_line_checksum_fn *visit, void *arg) {
  dwarf_cursor c = {section, section + size, 0};
  while (!c.bad && c.at < c.end)
    read_unit(&c, visit, arg);
  return c.bad ? -1 : 0;
}
