#include "unit_lists.h"

#include <stdlib.h>
#include <string.h>

/* Rewrites a VBR6 field as the value 0 in the same number of bits: every
 * chunk but the last only says "continued". */
static void clear_field(uint8_t *data, mtpc_bit_field f) {
  for (uint64_t bit = 0; bit < f.width; bit++) {
    int continued = bit % 6 == 5 && bit + 1 < f.width;
    uint64_t at = f.bit + bit;
    uint8_t mask = (uint8_t)(1u << (at % 8));
    data[at / 8] = continued ? data[at / 8] | mask : data[at / 8] & (uint8_t)~mask;
  }
}

void *mtpc_without_unit_type_lists(const void *bitcode, size_t size) {
  size_t count = 0;
  mtpc_bit_field *fields = mtpc_bridge_unit_type_list_fields(bitcode, size, &count);
  uint8_t *copy = fields ? malloc(size) : NULL;
  if (copy) {
    memcpy(copy, bitcode, size);
    for (size_t i = 0; i < count; i++)
      clear_field(copy, fields[i]);
  }
  free(fields);
  return copy;
}
