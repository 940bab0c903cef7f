#include "comdat_groups.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

/* The offsets of the first words of an object's group sections, in
 * section order; -1 when it is not an object this reads. */
static long group_flag_offsets(const uint8_t *data, size_t size, size_t *offsets, size_t cap) {
  const Elf64_Ehdr *h = (const Elf64_Ehdr *)data;
  if (size < sizeof(*h) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 ||
      h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
      h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shoff > size ||
      (uint64_t)h->e_shnum * sizeof(Elf64_Shdr) > size - h->e_shoff)
    return -1;
  size_t count = 0;
  Elf64_Shdr s;
  for (uint32_t i = 1; i < h->e_shnum; i++) {
    memcpy(&s, data + h->e_shoff + (size_t)i * sizeof(Elf64_Shdr), sizeof(s));
    if (s.sh_type != SHT_GROUP)
      continue;
    if (s.sh_offset > size || s.sh_size < 4 || s.sh_size > size - s.sh_offset)
      return -1;
    if (offsets && count < cap)
      offsets[count] = s.sh_offset;
    count++;
  }
  return (long)count;
}

int mtpc_elf_keep_comdat_groups(const uint8_t *before, size_t before_size, uint8_t *after,
                                size_t after_size) {
  long count = group_flag_offsets(before, before_size, NULL, 0);
  if (count < 0 || group_flag_offsets(after, after_size, NULL, 0) != count)
    return 1;
  size_t *from = calloc((size_t)count + 1, sizeof(size_t));
  size_t *to = calloc((size_t)count + 1, sizeof(size_t));
  if (!from || !to) {
    free(from);
    free(to);
    return 1;
  }
  group_flag_offsets(before, before_size, from, (size_t)count);
  group_flag_offsets(after, after_size, to, (size_t)count);
  for (long i = 0; i < count; i++) {
    uint32_t was, is;
    memcpy(&was, before + from[i], 4);
    memcpy(&is, after + to[i], 4);
    is |= was & GRP_COMDAT;
    memcpy(after + to[i], &is, 4);
  }
  free(from);
  free(to);
  return 0;
}
