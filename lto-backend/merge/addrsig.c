#include "addrsig.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lto-backend/elf/elf_object.h"
#include "support/leb128.h"
#include "support/support.h"

typedef enum step { FOUND, NOT_FOUND, NO_MEMORY } step;

#define NOT_WRITTEN UINT32_MAX

/* One partition's object, and what ld.lld -r left out of it. */
typedef struct input {
  elf_object o;
  uint8_t *discarded;    /* per section: a member of a COMDAT group an earlier input had */
  uint8_t *used;         /* per local symbol: a kept section's relocation names it
                            (NULL when no ".L" symbol sits in a mergeable section) */
  uint32_t *local_index; /* per local symbol: its merged index, or NOT_WRITTEN */
} input;

static const char *symbol_name(const elf_object *o, uint32_t i) {
  return o->names.text + o->symbols[i].st_name;
}

static int is_section_symbol(const elf_object *o, uint32_t i) {
  return ELF64_ST_TYPE(o->symbols[i].st_info) == STT_SECTION;
}

/* ld.lld keeps the first COMDAT group of each signature. */
static step mark_discarded(input *in, mtpc_strmap *signatures) {
  const elf_object *o = &in->o;
  for (uint32_t i = 1; i < o->section_count; i++) {
    const Elf64_Shdr *g = &o->sections[i];
    if (g->sh_type != SHT_GROUP)
      continue;
    if (g->sh_link != o->symtab || g->sh_info >= o->symbol_count || g->sh_size < 4 ||
        !mtpc_elf_in_file(o, g->sh_offset, g->sh_size, 4))
      return NOT_FOUND;
    const uint32_t *words = (const uint32_t *)(o->data + g->sh_offset);
    if (!(words[0] & GRP_COMDAT))
      continue;
    const char *signature = symbol_name(o, g->sh_info);
    uint32_t unused;
    if (!mtpc_strmap_get(signatures, signature, strlen(signature), &unused)) {
      if (mtpc_strmap_put(signatures, signature, strlen(signature), 0))
        return NO_MEMORY;
      continue;
    }
    in->discarded[i] = 1;
    for (size_t k = 1; k < g->sh_size / 4; k++) {
      if (words[k] >= o->section_count)
        return NOT_FOUND;
      in->discarded[words[k]] = 1;
    }
  }
  return FOUND;
}

/* A ".L" local in a mergeable section: ld.lld -r keeps one only if a
 * relocation names it (an assembler normally drops such symbols). */
static int is_merge_label(const elf_object *o, uint32_t i) {
  uint16_t section = o->symbols[i].st_shndx;
  return section < SHN_LORESERVE && section < o->section_count &&
         (o->sections[section].sh_flags & SHF_MERGE) && !strncmp(symbol_name(o, i), ".L", 2);
}

/* The locals that relocations of the kept sections name, read only where
 * a merge label needs it: the relocations (debug sections' included) are
 * most of an object. */
static step mark_used(input *in) {
  const elf_object *o = &in->o;
  uint32_t i = 1;
  while (i < o->first_global && !is_merge_label(o, i))
    i++;
  if (i == o->first_global)
    return FOUND;
  in->used = mtpc_zalloc(o->first_global ? o->first_global : 1, 1);
  if (!in->used)
    return NO_MEMORY;
  for (uint32_t i = 1; i < o->section_count; i++) {
    const Elf64_Shdr *s = &o->sections[i];
    if ((s->sh_type != SHT_RELA && s->sh_type != SHT_REL) || in->discarded[i])
      continue;
    size_t entry = s->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    for (uint64_t at = s->sh_offset; at < s->sh_offset + s->sh_size; at += entry) {
      uint64_t info;
      memcpy(&info, o->data + at + 8, sizeof(info)); /* r_info follows r_offset in both */
      if (ELF64_R_SYM(info) < o->first_global)
        in->used[ELF64_R_SYM(info)] = 1;
    }
  }
  return FOUND;
}

/* Whether ld.lld -r (its default discard policy) writes local symbol i to
 * the merged object: 1 or 0, -1 where this does not know. */
static int local_written(const input *in, uint32_t i) {
  const elf_object *o = &in->o;
  if (is_section_symbol(o, i))
    return 0;
  uint16_t section = o->symbols[i].st_shndx;
  if (section == SHN_UNDEF || section == SHN_XINDEX)
    return -1;
  if (section >= SHN_LORESERVE)
    return 1;
  if (section >= o->section_count)
    return -1;
  if (in->discarded[section])
    return 0;
  return is_merge_label(o, i) ? in->used[i] : 1;
}

static uint32_t next_file_local(const elf_object *merged, uint32_t at) {
  while (at < merged->first_global && is_section_symbol(merged, at))
    at++;
  return at;
}

/* Each input's written locals, in order, against the merged object's
 * locals other than section symbols: the same names and kinds, or no
 * table. */
static step place_locals(input *inputs, uint32_t count, const elf_object *merged) {
  uint32_t at = 1;
  for (uint32_t p = 0; p < count; p++) {
    const elf_object *o = &inputs[p].o;
    inputs[p].local_index = mtpc_alloc(o->first_global, sizeof(uint32_t));
    if (!inputs[p].local_index)
      return NO_MEMORY;
    for (uint32_t i = 0; i < o->first_global; i++) {
      inputs[p].local_index[i] = NOT_WRITTEN;
      int written = i ? local_written(&inputs[p], i) : 0;
      if (written < 0)
        return NOT_FOUND;
      if (!written)
        continue;
      at = next_file_local(merged, at);
      if (at >= merged->first_global || strcmp(symbol_name(merged, at), symbol_name(o, i)) ||
          ELF64_ST_TYPE(merged->symbols[at].st_info) != ELF64_ST_TYPE(o->symbols[i].st_info))
        return NOT_FOUND;
      inputs[p].local_index[i] = at++;
    }
  }
  return next_file_local(merged, at) == merged->first_global ? FOUND : NOT_FOUND;
}

static step map_globals(const elf_object *merged, mtpc_strmap *globals) {
  for (uint32_t i = merged->first_global; i < merged->symbol_count; i++) {
    const char *name = symbol_name(merged, i);
    if (mtpc_strmap_put(globals, name, strlen(name), i))
      return NO_MEMORY;
  }
  return FOUND;
}

static step add_entries(const input *in, const mtpc_strmap *globals, mtpc_addrsig *table,
                        size_t *capacity) {
  const elf_object *o = &in->o;
  if (!o->addrsig || o->sections[o->addrsig].sh_link != o->symtab)
    return NOT_FOUND;
  const Elf64_Shdr *s = &o->sections[o->addrsig];
  for (size_t at = 0; at < s->sh_size;) {
    uint64_t index;
    if (!mtpc_uleb_decode(o->data + s->sh_offset, s->sh_size, &at, &index) || index == 0 ||
        index >= o->symbol_count)
      return NOT_FOUND;
    const char *name = symbol_name(o, (uint32_t)index);
    uint32_t merged = index < o->first_global ? in->local_index[index] : NOT_WRITTEN;
    if (index >= o->first_global)
      mtpc_strmap_get(globals, name, strlen(name), &merged);
    if (merged == NOT_WRITTEN)
      return NOT_FOUND;
    if (MTPC_PUSH(table->symbols, table->count, *capacity, merged))
      return NO_MEMORY;
  }
  return FOUND;
}

static step read_inputs(input *inputs, void *const *objects, const size_t *sizes,
                        uint32_t count) {
  mtpc_strmap signatures;
  if (mtpc_strmap_init(&signatures, 64))
    return NO_MEMORY;
  step s = FOUND;
  for (uint32_t p = 0; p < count && s == FOUND; p++) {
    if (!mtpc_elf_read(&inputs[p].o, objects[p], sizes[p]))
      s = NOT_FOUND;
    else if (!(inputs[p].discarded = mtpc_zalloc(inputs[p].o.section_count, 1)))
      s = NO_MEMORY;
    else
      s = mark_discarded(&inputs[p], &signatures);
    if (s == FOUND)
      s = mark_used(&inputs[p]);
  }
  mtpc_strmap_free(&signatures);
  return s;
}

static step collect(input *inputs, void *const *objects, const size_t *sizes, uint32_t count,
                    const elf_object *merged, mtpc_addrsig *table) {
  step s = read_inputs(inputs, objects, sizes, count);
  if (s == FOUND)
    s = place_locals(inputs, count, merged);
  mtpc_strmap globals;
  if (s != FOUND || mtpc_strmap_init(&globals, merged->symbol_count - merged->first_global + 1))
    return s == FOUND ? NO_MEMORY : s;
  s = map_globals(merged, &globals);
  size_t capacity = 0;
  for (uint32_t p = 0; p < count && s == FOUND; p++)
    s = add_entries(&inputs[p], &globals, table, &capacity);
  mtpc_strmap_free(&globals);
  return s;
}

int mtpc_addrsig_collect(uint8_t *merged, size_t merged_size, void *const *objects,
                         const size_t *sizes, uint32_t count, mtpc_addrsig *table) {
  memset(table, 0, sizeof(*table));
  elf_object m;
  if (!mtpc_elf_open(&m, merged, merged_size) || !m.addrsig)
    return 0;
  input *inputs = mtpc_zalloc(count ? count : 1, sizeof(input));
  step s = inputs ? collect(inputs, objects, sizes, count, &m, table) : NO_MEMORY;
  for (uint32_t p = 0; inputs && p < count; p++) {
    free(inputs[p].discarded);
    free(inputs[p].used);
    free(inputs[p].local_index);
  }
  free(inputs);
  if (s == FOUND)
    table->found = 1;
  else
    mtpc_addrsig_free(table);
  return s == NO_MEMORY;
}

/* The few header fields the table's section needs, in an ELF object of
 * either class and byte order (ObjCopy's output: ELF32, big-endian). */
typedef struct header_view {
  uint8_t *data;
  size_t size;
  int wide, big_endian;
} header_view;

static uint64_t get(const header_view *v, size_t at, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; i++)
    value |= (uint64_t)v->data[at + (v->big_endian ? bytes - 1 - i : i)] << (8 * i);
  return value;
}

static void put(header_view *v, size_t at, size_t bytes, uint64_t value) {
  for (size_t i = 0; i < bytes; i++)
    v->data[at + (v->big_endian ? bytes - 1 - i : i)] = (uint8_t)(value >> (8 * i));
}

enum field { TYPE, LINK, OFFSET, SIZE, ALIGN, ENTRY_SIZE };

/* Where a section header field sits, and its width. */
static size_t field_at(const header_view *v, size_t header, enum field f, size_t *bytes) {
  static const uint8_t at64[] = {4, 0x28, 0x18, 0x20, 0x30, 0x38}, at32[] = {4, 0x18, 0x10, 0x14, 0x20, 0x24};
  *bytes = f == TYPE || f == LINK || !v->wide ? 4 : 8;
  return header + (v->wide ? at64[f] : at32[f]);
}

static uint64_t get_field(const header_view *v, size_t header, enum field f) {
  size_t bytes, at = field_at(v, header, f, &bytes);
  return get(v, at, bytes);
}

static void put_field(header_view *v, size_t header, enum field f, uint64_t value) {
  size_t bytes, at = field_at(v, header, f, &bytes);
  put(v, at, bytes, value);
}

/* The offset of the void table's section header, the symbol table's index
 * and its symbol count: 0 when the object has no void table. */
static int find_tables(const header_view *v, size_t *table, uint32_t *symtab_index,
                       uint64_t *symbols) {
  size_t ehdr = v->wide ? 64 : 52;
  if (v->size < ehdr)
    return 0;
  uint64_t shoff = get(v, v->wide ? 0x28 : 0x20, v->wide ? 8 : 4);
  uint64_t entry = get(v, v->wide ? 0x3a : 0x2e, 2), count = get(v, v->wide ? 0x3c : 0x30, 2);
  if (entry != (v->wide ? 64u : 40u) || shoff > v->size || shoff % 4 ||
      v->size - shoff < entry)
    return 0;
  if (count == 0) /* more than 65,279 sections: the count is in section 0 */
    count = get_field(v, shoff, SIZE);
  if (count > (v->size - shoff) / entry)
    return 0;
  size_t symtab = 0;
  *table = 0;
  for (uint64_t i = 1; i < count; i++) {
    size_t header = (size_t)(shoff + i * entry);
    uint64_t type = get_field(v, header, TYPE);
    if (type == SHT_LLVM_ADDRSIG && get_field(v, header, LINK) == 0)
      *table = header;
    if (type == SHT_SYMTAB) {
      symtab = header;
      *symtab_index = (uint32_t)i;
    }
  }
  uint64_t symbol_size = v->wide ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
  if (!*table || !symtab || get_field(v, symtab, ENTRY_SIZE) != symbol_size)
    return 0;
  *symbols = get_field(v, symtab, SIZE) / symbol_size;
  return *symbols <= UINT32_MAX;
}

/* Every symbol of the object: what a linker assumes of an object without a
 * table. */
static int list_every_symbol(uint64_t symbols, mtpc_addrsig *table) {
  mtpc_addrsig_free(table);
  table->symbols = mtpc_alloc(symbols ? symbols : 1, sizeof(uint32_t));
  if (!table->symbols)
    return 1;
  for (uint32_t i = 1; i < symbols; i++)
    table->symbols[table->count++] = i;
  return 0;
}

static size_t sort_unique(mtpc_addrsig *table) {
  qsort(table->symbols, table->count, sizeof(uint32_t), mtpc_compare_u32);
  size_t unique = 0, bytes = 0;
  for (size_t i = 0; i < table->count; i++)
    if (!unique || table->symbols[unique - 1] != table->symbols[i]) {
      table->symbols[unique++] = table->symbols[i];
      bytes += mtpc_uleb_size(table->symbols[i]);
    }
  table->count = unique;
  return bytes;
}

int mtpc_addrsig_write(mtpc_addrsig *table, void **object, size_t *object_size, int *mapped) {
  header_view v = {*object, *object_size, 0, 0};
  if (v.size < EI_NIDENT || memcmp(v.data, ELFMAG, SELFMAG) != 0)
    return 0;
  v.wide = v.data[EI_CLASS] == ELFCLASS64;
  v.big_endian = v.data[EI_DATA] == ELFDATA2MSB;
  size_t section;
  uint32_t symtab_index = 0;
  uint64_t symbols;
  if (!find_tables(&v, &section, &symtab_index, &symbols))
    return 0;
  if (!table->found && list_every_symbol(symbols, table))
    return 1;
  size_t bytes = sort_unique(table), size = *object_size;
  uint8_t *out = malloc(size + bytes);
  if (!out)
    return 1;
  memcpy(out, *object, size);
  for (size_t i = 0, at = size; i < table->count; i++) {
    size_t n = mtpc_uleb_size(table->symbols[i]);
    mtpc_uleb_encode(out + at, table->symbols[i], n);
    at += n;
  }
  v.data = out;
  uint64_t old = get_field(&v, section, OFFSET), old_size = get_field(&v, section, SIZE);
  if (old <= size && old_size <= size - old)
    memset(out + old, 0, old_size); /* ld.lld's void table */
  put_field(&v, section, OFFSET, size);
  put_field(&v, section, SIZE, bytes);
  put_field(&v, section, LINK, symtab_index);
  put_field(&v, section, ALIGN, 1);
  if (*mapped)
    munmap(*object, size);
  else
    free(*object);
  *object = out;
  *object_size = size + bytes;
  *mapped = 0;
  return 0;
}

void mtpc_addrsig_free(mtpc_addrsig *table) {
  free(table->symbols);
  memset(table, 0, sizeof(*table));
}
