#include "dead_debug.h"

#include <string.h>

#include "lto-backend/elf/elf_object.h"

#ifndef R_AARCH64_ABS64
#define R_AARCH64_ABS64 257
#endif

/* The absolute relocation of an address: 0 where it is not known. */
static uint32_t address_relocation(const elf_object *o) {
  const Elf64_Ehdr *h = (const Elf64_Ehdr *)o->data;
  switch (h->e_machine) {
  case EM_X86_64:
    return R_X86_64_64;
  case EM_AARCH64:
    return R_AARCH64_ABS64;
  default:
    return 0;
  }
}

/* A local absolute symbol of value 0 (ld.lld -r keeps each input's
 * STT_FILE symbol, which is one): an address relocated against it keeps its
 * addend, -1, in the final link too, where ld.lld resolves one against the
 * null symbol, as it does one against a discarded section, to 0. 0 when the
 * object has none. */
static uint32_t absolute_zero(const elf_object *o) {
  for (uint32_t i = 1; i < o->first_global; i++)
    if (o->symbols[i].st_shndx == SHN_ABS && o->symbols[i].st_value == 0)
      return i;
  return 0;
}

/* Relocations of a section that holds addresses of code. */
static int holds_addresses(const elf_object *o, const Elf64_Shdr *s) {
  if (s->sh_type != SHT_RELA || s->sh_info == 0 || s->sh_info >= o->section_count)
    return 0;
  const char *name = o->section_names.text + o->sections[s->sh_info].sh_name;
  return strcmp(name, ".debug_addr") == 0 || strcmp(name, ".debug_info") == 0;
}

size_t mtpc_mark_dead_debug(uint8_t *object, size_t size) {
  elf_object o;
  if (!mtpc_elf_open(&o, object, size))
    return 0;
  uint32_t absolute = address_relocation(&o);
  if (!absolute)
    return 0;
  uint32_t anchor = absolute_zero(&o);
  size_t marked = 0;
  for (uint32_t i = 1; i < o.section_count; i++) {
    const Elf64_Shdr *s = &o.sections[i];
    if (!holds_addresses(&o, s))
      continue;
    Elf64_Rela *relocation = (Elf64_Rela *)(o.data + s->sh_offset);
    for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Rela); k++) {
      if (relocation[k].r_info != 0) /* symbol 0, R_*_NONE: its target was discarded */
        continue;
      relocation[k].r_info = ELF64_R_INFO(anchor, absolute);
      relocation[k].r_addend = -1;
      marked++;
    }
  }
  return marked;
}
