#include "comdat_groups.h"

#include <string.h>

#include "elf_object.h"

/* How many group sections the headers list, each in the object and with
 * its flag word; -1 when one is not. */
static long group_count(const uint8_t *headers, uint32_t count, size_t size) {
  long groups = 0;
  for (uint32_t i = 1; i < count; i++) {
    Elf64_Shdr s = mtpc_elf_section_header(headers, i);
    if (s.sh_type != SHT_GROUP)
      continue;
    if (s.sh_offset > size || s.sh_size < 4 || s.sh_size > size - s.sh_offset)
      return -1;
    groups++;
  }
  return groups;
}

/* The index of the first group section at or after `i` (count: none). */
static uint32_t next_group(const uint8_t *headers, uint32_t count, uint32_t i) {
  while (i < count && mtpc_elf_section_header(headers, i).sh_type != SHT_GROUP)
    i++;
  return i;
}

int mtpc_elf_keep_comdat_groups(const uint8_t *before, size_t before_size, uint8_t *after,
                                size_t after_size) {
  uint32_t count = 0, after_count = 0;
  const uint8_t *headers = mtpc_elf_section_headers(before, before_size, &count);
  const uint8_t *after_headers = mtpc_elf_section_headers(after, after_size, &after_count);
  if (!headers || !after_headers)
    return 1;
  long groups = group_count(headers, count, before_size);
  if (groups < 0 || group_count(after_headers, after_count, after_size) != groups)
    return 1;
  for (uint32_t i = next_group(headers, count, 1), j = next_group(after_headers, after_count, 1);
       i < count; i = next_group(headers, count, i + 1),
                j = next_group(after_headers, after_count, j + 1)) {
    uint32_t was, is;
    size_t at = mtpc_elf_section_header(after_headers, j).sh_offset;
    memcpy(&was, before + mtpc_elf_section_header(headers, i).sh_offset, sizeof(was));
    memcpy(&is, after + at, sizeof(is));
    is |= was & GRP_COMDAT;
    memcpy(after + at, &is, sizeof(is));
  }
  return 0;
}
