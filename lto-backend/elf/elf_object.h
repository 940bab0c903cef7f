#ifndef MTPC_ELF_OBJECT_H
#define MTPC_ELF_OBJECT_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

#ifndef SHT_LLVM_ADDRSIG
#define SHT_LLVM_ADDRSIG 0x6fff4c03 /* symbol indices, as ULEB128 */
#endif

/* A relocatable ELF64 little-endian object as ld.lld -r writes it, read in
 * place: the merge edits it there (localize.h, dead_debug.h), and the
 * partition cache its line tables (cache_masks.h). */

typedef struct string_table {
  char *text;
  size_t size;
} string_table;

typedef struct elf_object {
  uint8_t *data;
  size_t size;
  Elf64_Shdr *sections;
  uint32_t section_count;
  uint32_t symtab;
  Elf64_Sym *symbols;
  uint32_t symbol_count;
  uint32_t first_global;
  string_table names;         /* the symbols' */
  string_table section_names;
  uint32_t addrsig;           /* the .llvm_addrsig section, or 0 */
} elf_object;

/* Whether [offset, offset + size) lies in the object, aligned to `align`. */
int mtpc_elf_in_file(const elf_object *o, uint64_t offset, uint64_t size, uint64_t align);
/* Finds the parts of an object ld.lld -r writes: one symbol table whose
 * indices only relocations and groups hold (its address-significance table,
 * if any, is void: sh_link 0), and relocation sections that refer to it. 0:
 * not such an object (or one this reader declines). */
int mtpc_elf_open(elf_object *o, uint8_t *data, size_t size);
/* The same parts of an object to be read, not edited: its
 * address-significance table may be live (an LLVM object's). */
int mtpc_elf_read(elf_object *o, uint8_t *data, size_t size);

/* The section headers of any ELF64 little-endian object, read in place
 * (copy each out: the object need not be aligned): the table, and its
 * entries' count in *count; NULL when the object is not one this reads
 * (another class or byte order, or a header out of bounds). */
const uint8_t *mtpc_elf_section_headers(const uint8_t *data, size_t size, uint32_t *count);
/* Header i of such a table. */
Elf64_Shdr mtpc_elf_section_header(const uint8_t *headers, uint32_t i);
/* Where the section names' table of such an object lies (e_shstrndx, or
 * header 0's link past SHN_LORESERVE sections): 1, or 0 when its index or
 * bounds are out of the object. */
int mtpc_elf_section_names(const uint8_t *data, size_t size, const uint8_t *headers,
                           uint32_t count, size_t *offset, size_t *length);

/* The bytes of the section named `name` (the first of that name) in any
 * ELF64 little-endian object: 1 when found, 0 when there is none, -1 when
 * the object is not one this reads (another class or byte order, or a
 * header out of bounds). */
int mtpc_elf_find_section(const uint8_t *data, size_t size, const char *name, size_t *offset,
                          size_t *length);

#endif
