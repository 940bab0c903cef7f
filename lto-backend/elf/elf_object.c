#include "elf_object.h"

#include <stddef.h>
#include <string.h>

int mtpc_elf_in_file(const elf_object *o, uint64_t offset, uint64_t size, uint64_t align) {
  return offset <= o->size && size <= o->size - offset && offset % align == 0;
}

static int string_table_of(const elf_object *o, uint32_t index, string_table *t) {
  if (index == 0 || index >= o->section_count)
    return 0;
  const Elf64_Shdr *s = &o->sections[index];
  if (s->sh_type != SHT_STRTAB || !mtpc_elf_in_file(o, s->sh_offset, s->sh_size, 1) ||
      s->sh_size == 0 || o->data[s->sh_offset + s->sh_size - 1] != '\0')
    return 0;
  *t = (string_table){(char *)o->data + s->sh_offset, s->sh_size};
  return 1;
}

int mtpc_elf_read(elf_object *o, uint8_t *data, size_t size) {
  memset(o, 0, sizeof(*o));
  o->data = data;
  o->size = size;
  const Elf64_Ehdr *h = (const Elf64_Ehdr *)data;
  if (size < sizeof(*h) || ((uintptr_t)data & 7) || memcmp(h->e_ident, ELFMAG, SELFMAG) != 0 ||
      h->e_ident[EI_CLASS] != ELFCLASS64 || h->e_ident[EI_DATA] != ELFDATA2LSB ||
      h->e_type != ET_REL || h->e_shentsize != sizeof(Elf64_Shdr) || h->e_shnum == 0 ||
      !mtpc_elf_in_file(o, h->e_shoff, (uint64_t)h->e_shnum * sizeof(Elf64_Shdr), 8))
    return 0;
  o->sections = (Elf64_Shdr *)(data + h->e_shoff);
  o->section_count = h->e_shnum;
  if (!string_table_of(o, h->e_shstrndx, &o->section_names))
    return 0;
  o->symtab = 0;
  for (uint32_t i = 1; i < o->section_count; i++) {
    const Elf64_Shdr *s = &o->sections[i];
    if (s->sh_type == SHT_SYMTAB_SHNDX || s->sh_type == SHT_DYNSYM ||
        (s->sh_type == SHT_SYMTAB && o->symtab) || (s->sh_type == SHT_LLVM_ADDRSIG && o->addrsig))
      return 0;
    if (s->sh_type == SHT_SYMTAB)
      o->symtab = i;
    if (s->sh_type == SHT_LLVM_ADDRSIG)
      o->addrsig = i;
  }
  const Elf64_Shdr *symtab = &o->sections[o->symtab];
  if (!o->symtab || symtab->sh_entsize != sizeof(Elf64_Sym) ||
      !mtpc_elf_in_file(o, symtab->sh_offset, symtab->sh_size, 8) ||
      symtab->sh_size / sizeof(Elf64_Sym) > UINT32_MAX || symtab->sh_info == 0 ||
      symtab->sh_info > symtab->sh_size / sizeof(Elf64_Sym) ||
      !string_table_of(o, symtab->sh_link, &o->names))
    return 0;
  o->symbols = (Elf64_Sym *)(data + symtab->sh_offset);
  o->symbol_count = (uint32_t)(symtab->sh_size / sizeof(Elf64_Sym));
  o->first_global = symtab->sh_info;
  for (uint32_t i = 0; i < o->symbol_count; i++)
    if (o->symbols[i].st_name >= o->names.size)
      return 0;
  for (uint32_t i = 1; i < o->section_count; i++) {
    const Elf64_Shdr *s = &o->sections[i];
    if (s->sh_name >= o->section_names.size)
      return 0;
    int relocations = s->sh_type == SHT_RELA || s->sh_type == SHT_REL;
    uint64_t entry = s->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    if (relocations && (s->sh_link != o->symtab || s->sh_entsize != entry ||
                        s->sh_size % entry || !mtpc_elf_in_file(o, s->sh_offset, s->sh_size, 8)))
      return 0;
  }
  return !o->addrsig || mtpc_elf_in_file(o, o->sections[o->addrsig].sh_offset,
                                          o->sections[o->addrsig].sh_size, 1);
}

/* Names are edited in place, so the symbols' must not be the sections'
 * (LLVM writes one table for both, ld.lld two). A table ld.lld -r wrote
 * (sh_link 0) holds no valid index, so nothing in it needs renumbering; a
 * live one (an LLVM object's) would. */
int mtpc_elf_open(elf_object *o, uint8_t *data, size_t size) {
  return mtpc_elf_read(o, data, size) &&
         o->sections[o->symtab].sh_link != ((const Elf64_Ehdr *)data)->e_shstrndx &&
         (!o->addrsig || o->sections[o->addrsig].sh_link == 0);
}

const uint8_t *mtpc_elf_section_headers(const uint8_t *data, size_t size, uint32_t *count) {
  Elf64_Ehdr h;
  if (size < sizeof(h))
    return NULL;
  memcpy(&h, data, sizeof(h));
  if (memcmp(h.e_ident, ELFMAG, SELFMAG) != 0 || h.e_ident[EI_CLASS] != ELFCLASS64 ||
      h.e_ident[EI_DATA] != ELFDATA2LSB || h.e_shentsize != sizeof(Elf64_Shdr) ||
      h.e_shoff > size || size - h.e_shoff < sizeof(Elf64_Shdr))
    return NULL;
  /* Past SHN_LORESERVE sections, the count is header 0's size. */
  uint64_t n = h.e_shnum ? h.e_shnum : mtpc_elf_section_header(data + h.e_shoff, 0).sh_size;
  if (n > UINT32_MAX || n * sizeof(Elf64_Shdr) > size - h.e_shoff)
    return NULL;
  *count = (uint32_t)n;
  return data + h.e_shoff;
}

int mtpc_elf_section_names(const uint8_t *data, size_t size, const uint8_t *headers,
                           uint32_t count, size_t *offset, size_t *length) {
  uint16_t field;
  memcpy(&field, data + offsetof(Elf64_Ehdr, e_shstrndx), sizeof(field));
  /* Past SHN_LORESERVE sections, the index is header 0's link. */
  uint32_t index = field == SHN_XINDEX ? mtpc_elf_section_header(headers, 0).sh_link : field;
  if (index >= count)
    return 0;
  Elf64_Shdr names = mtpc_elf_section_header(headers, index);
  if (names.sh_offset > size || names.sh_size > size - names.sh_offset)
    return 0;
  *offset = names.sh_offset;
  *length = names.sh_size;
  return 1;
}

Elf64_Shdr mtpc_elf_section_header(const uint8_t *headers, uint32_t i) {
  Elf64_Shdr s;
  memcpy(&s, headers + (size_t)i * sizeof(Elf64_Shdr), sizeof(s));
  return s;
}

int mtpc_elf_find_section(const uint8_t *data, size_t size, const char *name, size_t *offset,
                          size_t *length) {
  uint32_t count = 0;
  const uint8_t *headers = mtpc_elf_section_headers(data, size, &count);
  if (!headers)
    return -1;
  size_t names = 0, names_size = 0;
  if (!mtpc_elf_section_names(data, size, headers, count, &names, &names_size))
    return -1;
  size_t name_length = strlen(name) + 1;
  for (uint32_t i = 1; i < count; i++) {
    Elf64_Shdr s = mtpc_elf_section_header(headers, i);
    if (s.sh_name >= names_size || names_size - s.sh_name < name_length ||
        memcmp(data + names + s.sh_name, name, name_length) != 0)
      continue;
    if (s.sh_type == SHT_NOBITS || s.sh_offset > size || s.sh_size > size - s.sh_offset)
      return -1;
    *offset = s.sh_offset;
    *length = s.sh_size;
    return 1;
  }
  return 0;
}
