/* ULEB128, as DWARF and LLVM's address-significance tables write numbers. */
#ifndef MTPC_LEB128_H
#define MTPC_LEB128_H

#include <stddef.h>
#include <stdint.h>

static inline size_t mtpc_uleb_size(uint64_t value) {
  size_t n = 1;
  while (value >>= 7)
    n++;
  return n;
}

/* `value` in exactly `length` bytes (padded with continuation bytes); 0 if
 * it does not fit. */
static inline int mtpc_uleb_encode(uint8_t *out, uint64_t value, size_t length) {
  if (mtpc_uleb_size(value) > length)
    return 0;
  for (size_t i = 0; i < length; i++) {
    out[i] = (uint8_t)((value & 0x7f) | (i + 1 < length ? 0x80 : 0));
    value >>= 7;
  }
  return 1;
}

/* One number from data[*at, size), *at moved past it: 1; 0 when it runs off
 * the end or past 64 bits. */
static inline int mtpc_uleb_decode(const uint8_t *data, size_t size, size_t *at,
                                   uint64_t *value) {
  uint64_t result = 0;
  for (unsigned shift = 0; *at < size; shift += 7) {
    uint8_t byte = data[(*at)++];
    uint64_t bits = byte & 0x7f;
    if (shift >= 64 || (shift && bits >> (64 - shift)))
      return 0;
    result |= bits << shift;
    if (!(byte & 0x80)) {
      *value = result;
      return 1;
    }
  }
  return 0;
}

#endif
