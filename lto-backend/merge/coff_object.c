#include "coff_object.h"

#include <stdio.h>
#include <string.h>

const uint8_t mtpc_coff_big_class_id[16] = {0xC7, 0xA1, 0xBA, 0xD1, 0xEE, 0xBA, 0xA9, 0x4B,
                                            0xAF, 0x20, 0xFA, 0xF6, 0x6A, 0xA4, 0xDC, 0xB8};

static const char base64_digits[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int mtpc_coff_name_is(coff_name name, const char *text) {
  return name.len == strlen(text) && memcmp(name.text, text, name.len) == 0;
}

static int is_big(const uint8_t *d, size_t size) {
  return size >= COFF_BIG_HEADER && coff_rd16(d) == 0 && coff_rd16(d + 2) == 0xFFFF &&
         coff_rd16(d + 4) >= 2 &&
         memcmp(d + 12, mtpc_coff_big_class_id, sizeof(mtpc_coff_big_class_id)) == 0;
}

int mtpc_coff_is_object(const void *data, size_t size) {
  const uint8_t *d = data;
  if (is_big(d, size))
    return 1;
  if (size < COFF_FILE_HEADER || coff_rd16(d + 16) != 0) /* an image has an optional header */
    return 0;
  switch (coff_rd16(d)) {
  case 0x14c:  /* i386 */
  case 0x8664: /* AMD64 */
  case 0x1c4:  /* ARMNT */
  case 0xaa64: /* ARM64 */
  case 0xa641: /* ARM64EC */
  case 0xa64e: /* ARM64X */
    return 1;
  default:
    return 0;
  }
}

static int read_header(coff_object *o, const uint8_t *d, size_t size, uint32_t *table) {
  if (is_big(d, size)) {
    o->big = 1;
    o->machine = coff_rd16(d + 6);
    o->timestamp = coff_rd32(d + 8);
    o->section_count = coff_rd32(d + 44);
    *table = coff_rd32(d + 48);
    o->record_count = coff_rd32(d + 52);
    o->sections = d + COFF_BIG_HEADER;
    o->record_size = COFF_BIG_SYMBOL;
    return 1;
  }
  if (!mtpc_coff_is_object(d, size))
    return 0;
  o->machine = coff_rd16(d);
  o->section_count = coff_rd16(d + 2);
  o->timestamp = coff_rd32(d + 4);
  *table = coff_rd32(d + 8);
  o->record_count = coff_rd32(d + 12);
  o->characteristics = coff_rd16(d + 18);
  o->sections = d + COFF_FILE_HEADER;
  o->record_size = COFF_SYMBOL;
  return 1;
}

static int aux_records_inside(const coff_object *o) {
  for (uint32_t r = 0; r < o->record_count; r += 1 + mtpc_coff_symbol(o, r).aux_count)
    if (r + 1 + (uint64_t)mtpc_coff_symbol(o, r).aux_count > o->record_count)
      return 0;
  return 1;
}

int mtpc_coff_open(coff_object *o, const uint8_t *data, size_t size) {
  memset(o, 0, sizeof(*o));
  o->data = data;
  o->size = size;
  uint32_t table;
  if (!read_header(o, data, size, &table))
    return 0;
  uint64_t headers_end = (uint64_t)(o->sections - data) + (uint64_t)o->section_count * COFF_SECTION_HEADER;
  uint64_t table_end = table + (uint64_t)o->record_count * o->record_size;
  if (headers_end > size || table_end + 4 > size)
    return 0;
  o->records = data + table;
  o->strings = (const char *)data + table_end;
  o->strings_size = coff_rd32(data + table_end);
  return o->strings_size >= 4 && table_end + o->strings_size <= size && aux_records_inside(o);
}

const uint8_t *mtpc_coff_section_header(const coff_object *o, uint32_t index) {
  return o->sections + (size_t)index * COFF_SECTION_HEADER;
}

static coff_name table_name(const coff_object *o, uint64_t offset) {
  coff_name n = {"", 0};
  if (offset < 4 || offset >= o->strings_size)
    return n;
  const char *start = o->strings + offset;
  const char *end = memchr(start, '\0', o->strings_size - offset);
  if (end) {
    n.text = start;
    n.len = (size_t)(end - start);
  }
  return n;
}

static coff_name short_name(const uint8_t *field) {
  const char *end = memchr(field, '\0', 8);
  return (coff_name){(const char *)field, end ? (size_t)(end - (const char *)field) : 8};
}

coff_name mtpc_coff_section_name(const coff_object *o, uint32_t index) {
  const uint8_t *h = mtpc_coff_section_header(o, index);
  if (h[0] != '/')
    return short_name(h);
  uint64_t offset = 0;
  if (h[1] == '/') { /* "//" and six base-64 digits */
    for (int i = 2; i < 8; i++) {
      const char *digit = h[i] ? memchr(base64_digits, h[i], 64) : NULL;
      if (!digit)
        return (coff_name){"", 0};
      offset = offset * 64 + (uint64_t)(digit - base64_digits);
    }
    return table_name(o, offset);
  }
  for (int i = 1; i < 8 && h[i]; i++) {
    if (h[i] < '0' || h[i] > '9')
      return (coff_name){"", 0};
    offset = offset * 10 + (uint64_t)(h[i] - '0');
  }
  return table_name(o, offset);
}

int mtpc_coff_section_data(const coff_object *o, uint32_t index, const uint8_t **data,
                           uint32_t *size) {
  const uint8_t *h = mtpc_coff_section_header(o, index);
  uint32_t offset = coff_rd32(h + 20);
  *data = NULL;
  *size = 0;
  if (offset == 0) /* uninitialized data: a size, no bytes */
    return 0;
  *size = coff_rd32(h + 16);
  *data = o->data + offset;
  return (uint64_t)offset + *size > o->size;
}

int mtpc_coff_section_relocations(const coff_object *o, uint32_t index,
                                  const uint8_t **relocations, uint32_t *count) {
  const uint8_t *h = mtpc_coff_section_header(o, index);
  uint32_t offset = coff_rd32(h + 24);
  uint64_t n = coff_rd16(h + 32);
  if ((coff_rd32(h + 36) & COFF_SCN_RELOC_OVERFLOW) && n == 0xFFFF) {
    if ((uint64_t)offset + COFF_RELOCATION > o->size)
      return 1;
    n = coff_rd32(o->data + offset);
    if (n == 0)
      return 1;
    n--;
    offset += COFF_RELOCATION;
  }
  *relocations = o->data + offset;
  *count = (uint32_t)n;
  return n && (uint64_t)offset + n * COFF_RELOCATION > o->size;
}

const uint8_t *mtpc_coff_record(const coff_object *o, uint32_t index) {
  return o->records + (size_t)index * o->record_size;
}

coff_symbol mtpc_coff_symbol(const coff_object *o, uint32_t index) {
  const uint8_t *p = mtpc_coff_record(o, index);
  coff_symbol s;
  s.name = coff_rd32(p) == 0 ? table_name(o, coff_rd32(p + 4)) : short_name(p);
  s.value = coff_rd32(p + 8);
  uint16_t section16 = coff_rd16(p + 12); /* above the most sections: -1 absolute, -2 debug */
  s.section = o->big ? (int32_t)coff_rd32(p + 12)
              : section16 <= COFF_MAX_SECTIONS_16 ? section16
                                                  : (int16_t)section16;
  unsigned tail = o->big ? 16 : 14;
  s.type = coff_rd16(p + tail);
  s.storage = p[tail + 2];
  s.aux_count = p[tail + 3];
  return s;
}

int mtpc_coff_is_section_definition(const coff_symbol *s) {
  return s->storage == COFF_CLASS_STATIC && s->section > 0 && s->value == 0 && s->aux_count > 0;
}

int mtpc_coff_long_section_name(uint8_t field[8], uint32_t offset) {
  memset(field, 0, 8);
  if (offset <= 9999999) {
    char text[9];
    snprintf(text, sizeof(text), "/%u", offset);
    memcpy(field, text, strlen(text));
    return 0;
  }
  if (offset >= (uint32_t)1 << 30) /* six digits of base 64 */
    return 1;
  field[0] = field[1] = '/';
  for (int i = 7; i >= 2; i--, offset /= 64)
    field[i] = (uint8_t)base64_digits[offset % 64];
  return 0;
}
