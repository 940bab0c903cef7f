#include "localize.h"

#include <stdlib.h>
#include <string.h>

#include "lto-backend/elf/elf_object.h"
#include "partitioner/graph.h"
#include "support/support.h"

/* The byte where a name cut to `keep` characters ends, when no other name of
 * the table shares the characters it drops (a table may keep one name as
 * another's tail): sorted_starts holds every name's offset. 0: it does. */
static size_t cut_point(const string_table *t, uint64_t start, size_t keep,
                        const uint32_t *sorted_starts, size_t count) {
  size_t length = strlen(t->text + start);
  if (keep >= length)
    return 0;
  size_t low = 0, high = count;
  while (low < high) { /* the first start after `start` */
    size_t mid = low + (high - low) / 2;
    if (sorted_starts[mid] <= start)
      low = mid + 1;
    else
      high = mid;
  }
  if (low < count && sorted_starts[low] <= start + length)
    return 0;
  return (size_t)start + keep;
}

/* A plan of the edit: which symbols become local, and where names are cut
 * short. Nothing is written until all of it holds. */
typedef struct edit {
  uint32_t *promoted;       /* symbol -> index into names, or MTPC_NONE */
  uint32_t localized;
  size_t *cuts;             /* offsets into the data where a name now ends */
  size_t cut_count, cut_cap;
} edit;

static int add_cut(edit *e, size_t at) { return MTPC_PUSH(e->cuts, e->cut_count, e->cut_cap, at); }

/* Offsets of every name in a table: symbols' or sections'. */
static uint32_t *name_starts(const elf_object *o, int sections, size_t *count) {
  size_t n = sections ? o->section_count : o->symbol_count;
  uint32_t *starts = mtpc_alloc(n ? n : 1, sizeof(uint32_t));
  if (!starts)
    return NULL;
  for (size_t i = 0; i < n; i++)
    starts[i] = sections ? o->sections[i].sh_name : o->symbols[i].st_name;
  qsort(starts, n, sizeof(uint32_t), mtpc_compare_u32);
  *count = n;
  return starts;
}

static int plan_symbols(const elf_object *o, const mtpc_strmap *map, const char *const *originals,
                        edit *e, int *unsupported) {
  size_t count;
  uint32_t *starts = name_starts(o, 0, &count);
  e->promoted = mtpc_alloc(o->symbol_count, sizeof(uint32_t));
  if (!starts || !e->promoted) {
    free(starts);
    return 1;
  }
  for (uint32_t i = 0; i < o->symbol_count; i++) {
    e->promoted[i] = MTPC_NONE;
    const char *name = o->names.text + o->symbols[i].st_name;
    uint32_t which;
    if (i < o->first_global || !mtpc_strmap_get(map, name, strlen(name), &which))
      continue;
    e->promoted[i] = which;
    e->localized++;
    size_t keep = strlen(originals[which]);
    if (strncmp(name, originals[which], keep) != 0)
      *unsupported = 1;
    if (keep == strlen(name))
      continue;
    size_t cut = cut_point(&o->names, o->symbols[i].st_name, keep, starts, count);
    if (!cut)
      *unsupported = 1;
    else if (add_cut(e, (size_t)o->sections[o->sections[o->symtab].sh_link].sh_offset + cut)) {
      free(starts);
      return 1;
    }
  }
  free(starts);
  return 0;
}

/* A section named after a promoted symbol (".text.<promoted>", and its
 * ".rela.text.<promoted>") takes the symbol's original name. */
static int plan_sections(const elf_object *o, const mtpc_strmap *map,
                         const char *const *originals, edit *e, int *unsupported) {
  size_t count;
  uint32_t *starts = name_starts(o, 1, &count);
  if (!starts)
    return 1;
  uint64_t table = o->sections[((const Elf64_Ehdr *)o->data)->e_shstrndx].sh_offset;
  for (uint32_t i = 1; i < o->section_count && !*unsupported; i++) {
    const char *name = o->section_names.text + o->sections[i].sh_name;
    for (const char *dot = strchr(name + 1, '.'); dot; dot = strchr(dot + 1, '.')) {
      uint32_t which;
      if (!mtpc_strmap_get(map, dot + 1, strlen(dot + 1), &which))
        continue;
      size_t keep = (size_t)(dot + 1 - name) + strlen(originals[which]);
      if (keep == strlen(name))
        break;
      size_t cut = cut_point(&o->section_names, o->sections[i].sh_name, keep, starts, count);
      if (!cut || strncmp(dot + 1, originals[which], strlen(originals[which])) != 0)
        *unsupported = 1;
      else if (add_cut(e, (size_t)table + cut)) {
        free(starts);
        return 1;
      }
      break;
    }
  }
  free(starts);
  return 0;
}

/* New index of each symbol: the localized ones follow the locals. */
static uint32_t *renumber(const elf_object *o, const edit *e) {
  uint32_t *index = mtpc_alloc(o->symbol_count, sizeof(uint32_t));
  if (!index)
    return NULL;
  uint32_t next_local = o->first_global, next_global = o->first_global + e->localized;
  for (uint32_t i = 0; i < o->symbol_count; i++)
    index[i] = i < o->first_global              ? i
               : e->promoted[i] != MTPC_NONE ? next_local++
                                                : next_global++;
  return index;
}

static int rewrite_symbols(elf_object *o, const edit *e, const uint32_t *index) {
  Elf64_Sym *moved = mtpc_alloc(o->symbol_count, sizeof(Elf64_Sym));
  if (!moved)
    return 1;
  for (uint32_t i = 0; i < o->symbol_count; i++) {
    Elf64_Sym s = o->symbols[i];
    if (e->promoted[i] != MTPC_NONE) {
      s.st_info = ELF64_ST_INFO(STB_LOCAL, ELF64_ST_TYPE(s.st_info));
      s.st_other = (unsigned char)((s.st_other & ~3u) | STV_DEFAULT);
    }
    moved[index[i]] = s;
  }
  memcpy(o->symbols, moved, o->symbol_count * sizeof(Elf64_Sym));
  free(moved);
  o->sections[o->symtab].sh_info = o->first_global + e->localized;
  return 0;
}

static void renumber_references(elf_object *o, const uint32_t *index) {
  for (uint32_t i = 1; i < o->section_count; i++) {
    Elf64_Shdr *s = &o->sections[i];
    if (s->sh_type == SHT_GROUP && s->sh_link == o->symtab && s->sh_info < o->symbol_count)
      s->sh_info = index[s->sh_info];
    if (s->sh_type != SHT_RELA && s->sh_type != SHT_REL)
      continue;
    size_t entry = s->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
    for (uint64_t at = s->sh_offset; at < s->sh_offset + s->sh_size; at += entry) {
      uint64_t *info = (uint64_t *)(o->data + at + 8); /* r_info follows r_offset in both */
      uint64_t symbol = ELF64_R_SYM(*info);
      if (symbol >= o->first_global && symbol < o->symbol_count)
        *info = ELF64_R_INFO(index[symbol], ELF64_R_TYPE(*info));
    }
  }
}

mtpc_localize_status mtpc_localize_in_place(uint8_t *object, size_t size,
                                            const char *const *names,
                                            const char *const *originals, size_t count,
                                            uint32_t *held, size_t held_count) {
  elf_object o;
  if (!mtpc_elf_open(&o, object, size))
    return MTPC_LOCALIZE_UNSUPPORTED;
  mtpc_strmap map;
  edit e = {0};
  int unsupported = 0, no_memory = mtpc_strmap_init(&map, count);
  for (size_t i = 0; !no_memory && i < count; i++)
    no_memory = mtpc_strmap_put(&map, names[i], strlen(names[i]), (uint32_t)i);
  if (!no_memory)
    no_memory = plan_symbols(&o, &map, originals, &e, &unsupported) ||
                plan_sections(&o, &map, originals, &e, &unsupported);
  uint32_t *index = no_memory || unsupported ? NULL : renumber(&o, &e);
  no_memory |= !unsupported && !index;
  if (index && rewrite_symbols(&o, &e, index)) {
    no_memory = 1; /* nothing written yet: rewrite_symbols copies first */
  } else if (index) {
    renumber_references(&o, index);
    for (size_t i = 0; i < held_count; i++)
      if (held[i] < o.symbol_count)
        held[i] = index[held[i]];
    /* The dropped suffix is zeroed whole: its hash names the module, whose
     * identifier must not reach the output. */
    for (size_t i = 0; i < e.cut_count; i++)
      memset(object + e.cuts[i], 0, strlen((const char *)object + e.cuts[i]));
  }
  free(index);
  free(e.promoted);
  free(e.cuts);
  mtpc_strmap_free(&map);
  return no_memory ? MTPC_LOCALIZE_NO_MEMORY
         : unsupported ? MTPC_LOCALIZE_UNSUPPORTED
                       : MTPC_LOCALIZED;
}
