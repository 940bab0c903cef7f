/* Reading DWARF sections: a cursor over little-endian bytes that never reads
 * past its end, and becomes `bad` instead (line_checksums.c, dwo_merge.c). */
#ifndef MTPC_DWARF_CURSOR_H
#define MTPC_DWARF_CURSOR_H

#include <stddef.h>
#include <stdint.h>

typedef struct dwarf_cursor {
  const uint8_t *at, *end;
  int bad;
} dwarf_cursor;

/* `bytes` (at most 8) little-endian bytes; 0 when bad. */
static inline uint64_t dwarf_fixed(dwarf_cursor *c, unsigned bytes) {
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

/* A LEB128 number's low 64 bits (unsigned); its byte count in *length when
 * not NULL. */
static inline uint64_t dwarf_leb(dwarf_cursor *c, size_t *length) {
  const uint8_t *start = c->at;
  uint64_t value = 0;
  for (unsigned shift = 0;; shift += 7) {
    if (c->bad || c->at == c->end || shift > 63) {
      c->bad = 1;
      return 0;
    }
    uint8_t byte = *c->at++;
    value |= (uint64_t)(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      break;
  }
  if (length)
    *length = (size_t)(c->at - start);
  return value;
}

/* Skips `bytes`; returns where they began. */
static inline const uint8_t *dwarf_skip(dwarf_cursor *c, uint64_t bytes) {
  const uint8_t *start = c->at;
  if (c->bad || (uint64_t)(c->end - c->at) < bytes)
    c->bad = 1;
  else
    c->at += bytes;
  return start;
}

#endif
