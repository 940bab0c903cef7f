/* A COFF object, regular or /bigobj, read in place: its header, section
 * headers, symbol records and string table, each checked against the
 * object's bounds. The COFF merge reads the partitions' objects with it. */
#ifndef MTPC_COFF_OBJECT_H
#define MTPC_COFF_OBJECT_H

#include <stddef.h>
#include <stdint.h>

/* Sizes and codes of the PE/COFF specification. */
enum {
  COFF_FILE_HEADER = 20,
  COFF_BIG_HEADER = 56,
  COFF_SECTION_HEADER = 40,
  COFF_RELOCATION = 10,
  COFF_SYMBOL = 18,
  COFF_BIG_SYMBOL = 20,
  COFF_MAX_SECTIONS_16 = 65279, /* above it, LLVM writes /bigobj */
  COFF_CLASS_EXTERNAL = 2,
  COFF_CLASS_STATIC = 3,
  COFF_CLASS_FILE = 103,
  COFF_CLASS_WEAK_EXTERNAL = 105,
  COFF_SELECT_ASSOCIATIVE = 5,
  COFF_SCN_LNK_COMDAT = 0x1000,
  COFF_SCN_RELOC_OVERFLOW = 0x01000000,
  COFF_MACHINE_I386 = 0x14c
};

extern const uint8_t mtpc_coff_big_class_id[16];

static inline uint16_t coff_rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t coff_rd32(const uint8_t *p) {
  return coff_rd16(p) | (uint32_t)coff_rd16(p + 2) << 16;
}
static inline void coff_wr16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void coff_wr32(uint8_t *p, uint32_t v) {
  coff_wr16(p, v);
  coff_wr16(p + 2, v >> 16);
}

/* A name inside the object: not NUL-terminated when it fills a header's
 * eight bytes. len 0: none, or one out of bounds. */
typedef struct coff_name {
  const char *text;
  size_t len;
} coff_name;

int mtpc_coff_name_is(coff_name name, const char *text);

typedef struct coff_object {
  const uint8_t *data;
  size_t size;
  int big;
  uint16_t machine;
  uint32_t timestamp;
  uint16_t characteristics;
  uint32_t section_count;
  const uint8_t *sections; /* their headers */
  uint32_t record_count;   /* symbol records, aux records included */
  const uint8_t *records;
  unsigned record_size;
  const char *strings; /* the string table, its size field included */
  uint32_t strings_size;
} coff_object;

/* A symbol record's fields, whichever layout it has. */
typedef struct coff_symbol {
  coff_name name;
  uint32_t value;
  int32_t section; /* 1-based; 0 undefined, -1 absolute, -2 debug */
  uint16_t type;
  uint8_t storage;
  uint8_t aux_count;
} coff_symbol;

/* Whether `data` starts like a COFF object (regular or /bigobj). */
int mtpc_coff_is_object(const void *data, size_t size);
/* 1 when `data` is a COFF object whose tables lie inside it (every
 * symbol's aux records included), else 0. */
int mtpc_coff_open(coff_object *o, const uint8_t *data, size_t size);

const uint8_t *mtpc_coff_section_header(const coff_object *o, uint32_t index); /* 0-based */
coff_name mtpc_coff_section_name(const coff_object *o, uint32_t index);
/* A section's bytes in the file (none for uninitialized data) and its
 * relocations, the placeholder an overflowing count keeps left out. 0 when
 * they lie inside the object. */
int mtpc_coff_section_data(const coff_object *o, uint32_t index, const uint8_t **data,
                           uint32_t *size);
int mtpc_coff_section_relocations(const coff_object *o, uint32_t index,
                                  const uint8_t **relocations, uint32_t *count);

const uint8_t *mtpc_coff_record(const coff_object *o, uint32_t index);
coff_symbol mtpc_coff_symbol(const coff_object *o, uint32_t index);
/* The static symbol that names a section and carries its definition. */
int mtpc_coff_is_section_definition(const coff_symbol *s);

/* A section name's "/<offset>" or "//<base 64>" form for a string table
 * offset; 1 when it fits neither. */
int mtpc_coff_long_section_name(uint8_t field[8], uint32_t offset);

#endif
