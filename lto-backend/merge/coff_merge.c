#include "coff_merge.h"

#include <stdlib.h>
#include <string.h>

#include "coff_codeview.h"
#include "coff_contents.h"
#include "coff_object.h"
#include "partitioner/graph.h"
#include "support/support.h"

/* An output section: the header of an input section, and its bytes. */
typedef struct out_section {
  uint32_t input, index; /* the input section it comes from */
  coff_content content;
  const uint8_t *data; /* the input's bytes, or built's */
  uint32_t size;
  coff_bytes built;    /* a combined or renumbered section's bytes */
  cv_moves moves;      /* CodeView symbols: where their relocated bytes went */
  const uint8_t *relocations;
  uint32_t relocation_count;
  uint8_t name[8];
} out_section;

/* Everything the merge decides before it writes. */
typedef struct merge {
  coff_object *inputs;
  uint32_t count;
  uint32_t *section_base; /* input -> its first section's place among all inputs' */
  uint32_t *new_section;  /* input section (over all inputs) -> output number, 0 none */
  coff_content *contents; /* input section (over all inputs) -> what its bytes hold */
  uint32_t first_of[COFF_CONTENT_KINDS]; /* a combined kind's output section, 0 none */
  out_section *out;
  uint32_t out_count;
  uint32_t *record_base;  /* input -> its first record's place among all inputs' */
  uint32_t *new_index;    /* record (over all inputs) -> output index, or MTPC_NONE */
  mtpc_bitset kept;       /* records written; the others name another's index */
  int big;                /* write /bigobj */
  unsigned out_record_size;
  mtpc_strmap promoted;   /* promoted name -> index into originals */
  const char *const *originals;
  mtpc_strmap definitions; /* external name -> the record that defines it first */
  uint32_t *weak_of;      /* record -> the weak external it is the default of, or MTPC_NONE */
  coff_name unique;       /* what weak defaults' names end with (setWeakDefaultNames) */
  coff_bytes strings;
  coff_bytes symbols;
  coff_codeview *codeview; /* when the inputs have CodeView */
} merge;

static int fail(char **message, const char *what, uint32_t input) {
  *message = mtpc_asprintf("partition %u's object: %s", input, what);
  return 1;
}

static int no_memory(char **message) {
  *message = NULL;
  return 1;
}

/* i386 symbols carry the global prefix '_' that IR names do not. */
static coff_name without_prefix(const merge *m, coff_name n) {
  if (m->inputs[0].machine == COFF_MACHINE_I386 && n.len > 0 && n.text[0] == '_')
    return (coff_name){n.text + 1, n.len - 1};
  return n;
}

/* The original name of a promoted symbol `n`, or NULL. */
static const char *original_of(const merge *m, coff_name n) {
  coff_name ir = without_prefix(m, n);
  uint32_t which;
  return mtpc_strmap_get(&m->promoted, ir.text, ir.len, &which) ? m->originals[which] : NULL;
}

/* MinGW names a symbol's own section "<kind>$<IR name>": the position of
 * the '$' before a promoted name, and its original, else NULL. */
static const char *original_section_suffix(const merge *m, coff_name n, size_t *dollar) {
  for (size_t i = 0; i < n.len; i++) {
    uint32_t which;
    if (n.text[i] == '$' &&
        mtpc_strmap_get(&m->promoted, n.text + i + 1, n.len - i - 1, &which)) {
      *dollar = i;
      return m->originals[which];
    }
  }
  return NULL;
}

/* Appends `n` and `tail` to the string table: its offset, 0 when memory
 * runs out. */
static uint32_t add_string(merge *m, coff_name n, const char *tail) {
  size_t tail_len = tail ? strlen(tail) : 0;
  size_t at = m->strings.size;
  uint8_t *p = mtpc_coff_reserve(&m->strings, n.len + tail_len + 1);
  if (!p || at > UINT32_MAX)
    return 0;
  memcpy(p, n.text, n.len);
  if (tail_len)
    memcpy(p + n.len, tail, tail_len);
  return (uint32_t)at;
}

/* A name as a symbol record or section header holds it: inline up to eight
 * bytes, else in the string table. */
static int write_name(merge *m, uint8_t *field, coff_name n, const char *tail, int section) {
  size_t tail_len = tail ? strlen(tail) : 0;
  if (n.len + tail_len <= 8) {
    memcpy(field, n.text, n.len);
    if (tail_len)
      memcpy(field + n.len, tail, tail_len);
    return 0;
  }
  uint32_t offset = add_string(m, n, tail);
  if (!offset)
    return 1;
  if (section)
    return mtpc_coff_long_section_name(field, offset);
  coff_wr32(field, 0);
  coff_wr32(field + 4, offset);
  return 0;
}

/* A section's or section symbol's name, MinGW's "$<promoted>" back to
 * "$<original>". */
static int write_section_name(merge *m, uint8_t *field, coff_name n, int section) {
  size_t dollar;
  const char *original = original_section_suffix(m, n, &dollar);
  if (!original)
    return write_name(m, field, n, NULL, section);
  return write_name(m, field, (coff_name){n.text, dollar + 1}, original, section);
}

static int read_inputs(merge *m, const void *const *objects, const size_t *sizes, char **message) {
  uint64_t sections = 0, records = 0;
  for (uint32_t j = 0; j < m->count; j++) {
    coff_object *in = &m->inputs[j];
    if (!mtpc_coff_open(in, objects[j], sizes[j]))
      return fail(message, "not a COFF object the merge reads", j);
    if (in->machine != m->inputs[0].machine)
      return fail(message, "a machine other than partition 0's", j);
    m->section_base[j] = (uint32_t)sections;
    m->record_base[j] = (uint32_t)records;
    sections += in->section_count;
    records += in->record_count;
    m->big |= in->big;
  }
  if (sections > INT32_MAX || records >= MTPC_NONE)
    return fail(message, "more sections or symbols than one object holds", m->count - 1);
  m->new_section = mtpc_zalloc(sections ? sections : 1, sizeof(uint32_t));
  m->contents = mtpc_alloc(sections ? sections : 1, sizeof(coff_content));
  m->out = mtpc_zalloc(sections ? sections : 1, sizeof(out_section));
  m->new_index = mtpc_alloc(records ? records : 1, sizeof(uint32_t));
  m->weak_of = mtpc_alloc(records ? records : 1, sizeof(uint32_t));
  for (uint64_t g = 0; m->weak_of && g < records; g++)
    m->weak_of[g] = MTPC_NONE;
  if (!m->new_section || !m->contents || !m->out || !m->new_index || !m->weak_of || mtpc_bitset_init(&m->kept, records) ||
      mtpc_strmap_init(&m->definitions, records))
    return no_memory(message);
  for (uint32_t j = 0; j < m->count; j++)
    for (uint32_t i = 0; i < m->inputs[j].section_count; i++)
      m->contents[m->section_base[j] + i] =
          mtpc_coff_content_of(mtpc_coff_section_name(&m->inputs[j], i),
                               coff_rd32(mtpc_coff_section_header(&m->inputs[j], i) + 36));
  return 0;
}

static uint32_t renumber_index(void *context, uint32_t old_index);
static int drops_exclusion(void *context, coff_name symbol);

/* Which input and record a record over all inputs is. */
static void locate(const merge *m, uint32_t g, uint32_t *input, uint32_t *record) {
  uint32_t j = 0;
  while (j + 1 < m->count && m->record_base[j + 1] <= g)
    j++;
  *input = j;
  *record = g - m->record_base[j];
}

/* LLVM names a weak function's default ".weak.<name>.default.<unique>",
 * after the object's first external definition outside a COMDAT (else in
 * one), so that two objects' defaults do not collide; a partition may have
 * had none. The merged object's defaults take its own. */
static int choose_unique(merge *m) {
  for (int allow_comdat = 0; allow_comdat < 2 && !m->unique.len; allow_comdat++)
    for (uint32_t j = 0; j < m->count && !m->unique.len; j++) {
      const coff_object *in = &m->inputs[j];
      for (uint32_t r = 0; r < in->record_count && !m->unique.len;) {
        coff_symbol s = mtpc_coff_symbol(in, r);
        uint32_t g = m->record_base[j] + r;
        r += 1 + s.aux_count;
        if (!mtpc_bitset_test(&m->kept, g) || s.storage != COFF_CLASS_EXTERNAL ||
            m->weak_of[g] != MTPC_NONE || original_of(m, s.name) ||
            (s.section <= 0 && s.section != -1))
          continue;
        const uint8_t *h = s.section > 0 ? mtpc_coff_section_header(in, (uint32_t)s.section - 1)
                                         : NULL;
        if (allow_comdat || !h || !(coff_rd32(h + 36) & COFF_SCN_LNK_COMDAT))
          m->unique = s.name;
      }
    }
  return 0;
}

/* ".weak.<name>.default.<unique>" for the default of weak external `weak`. */
static char *weak_default_name(const merge *m, uint32_t weak) {
  uint32_t j, r;
  locate(m, weak, &j, &r);
  coff_name name = mtpc_coff_symbol(&m->inputs[j], r).name;
  return mtpc_asprintf(".weak.%.*s.default.%.*s", (int)name.len, name.text, (int)m->unique.len,
                       m->unique.text);
}

typedef struct input_context {
  merge *m;
  uint32_t input;
} input_context;

/* Whether a directive is left once those that exclude promoted symbols
 * (static again) are gone: else the merged object has no .drectve. */
static int keeps_directives(merge *m, int *no_memory) {
  int kept = 0;
  for (uint32_t j = 0; j < m->count && !kept; j++)
    for (uint32_t i = 0; i < m->inputs[j].section_count && !kept; i++) {
      const uint8_t *data;
      uint32_t size;
      if (m->contents[m->section_base[j] + i] != COFF_CONTENT_DIRECTIVES ||
          mtpc_coff_section_data(&m->inputs[j], i, &data, &size))
        continue;
      input_context context = {m, j};
      coff_renumbering renumbering = {renumber_index, drops_exclusion, &context};
      coff_bytes kept_bytes = {0};
      *no_memory = mtpc_coff_append_content(&kept_bytes, COFF_CONTENT_DIRECTIVES, data, size,
                                            &renumbering) == COFF_NO_MEMORY;
      kept = kept_bytes.size > 0 || *no_memory;
      free(kept_bytes.data);
    }
  return kept;
}

/* Each input section becomes an output section, but for those a linker
 * reads once per object: the first of each kind takes the others' bytes. */
static int plan_sections(merge *m, char **message) {
  int out_of_memory = 0;
  int directives = keeps_directives(m, &out_of_memory);
  if (out_of_memory)
    return no_memory(message);
  for (uint32_t j = 0; j < m->count; j++)
    for (uint32_t i = 0; i < m->inputs[j].section_count; i++) {
      const coff_object *in = &m->inputs[j];
      const uint8_t *h = mtpc_coff_section_header(in, i);
      out_section s = {.input = j, .index = i};
      s.content = m->contents[m->section_base[j] + i];
      if (mtpc_coff_section_data(in, i, &s.data, &s.size) ||
          mtpc_coff_section_relocations(in, i, &s.relocations, &s.relocation_count) ||
          coff_rd16(h + 34) != 0)
        return fail(message, "a section's data or relocations out of bounds", j);
      if (s.content != COFF_CONTENT_PLAIN && s.content != COFF_CONTENT_CV_SYMBOLS &&
          s.relocation_count)
        return fail(message, "relocations in a section of symbol indices", j);
      uint32_t *first = &m->first_of[s.content];
      if ((mtpc_coff_content_combined(s.content) && *first) ||
          (s.content == COFF_CONTENT_DIRECTIVES && !directives) ||
          s.content == COFF_CONTENT_CV_HASHES) {
        m->new_section[m->section_base[j] + i] = 0;
        continue;
      }
      m->out[m->out_count++] = s;
      m->new_section[m->section_base[j] + i] = m->out_count;
      if (mtpc_coff_content_combined(s.content))
        *first = m->out_count;
    }
  m->big |= m->out_count > COFF_MAX_SECTIONS_16;
  m->out_record_size = m->big ? COFF_BIG_SYMBOL : COFF_SYMBOL;
  return 0;
}

/* The output number of input j's section `section` (1-based), 0 if none. */
static uint32_t output_section(const merge *m, uint32_t j, int32_t section) {
  if (section <= 0 || (uint32_t)section > m->inputs[j].section_count)
    return 0;
  return m->new_section[m->section_base[j] + (uint32_t)section - 1];
}

/* A weak external's default is LLVM's ".weak.<name>.default..." symbol
 * (a weak alias's default is its aliasee, which keeps its name). */
static void note_weak_default(merge *m, uint32_t j, uint32_t r) {
  const coff_object *in = &m->inputs[j];
  uint32_t tag = coff_rd32(mtpc_coff_record(in, r + 1));
  if (tag >= in->record_count)
    return;
  coff_name weak = mtpc_coff_symbol(in, r).name, target = mtpc_coff_symbol(in, tag).name;
  size_t prefix = strlen(".weak.");
  if (target.len > prefix + weak.len && memcmp(target.text, ".weak.", prefix) == 0 &&
      memcmp(target.text + prefix, weak.text, weak.len) == 0 &&
      (target.len - prefix - weak.len >= strlen(".default")) &&
      memcmp(target.text + prefix + weak.len, ".default", strlen(".default")) == 0)
    m->weak_of[m->record_base[j] + tag] = m->record_base[j] + r;
}

/* Pass 1: the first definition of each external name (a weak external
 * stands for its name, as it does in a serial compile's object). */
static int find_definitions(merge *m) {
  for (uint32_t j = 0; j < m->count; j++) {
    const coff_object *in = &m->inputs[j];
    for (uint32_t r = 0; r < in->record_count;) {
      coff_symbol s = mtpc_coff_symbol(in, r);
      uint32_t first;
      int defines = (s.storage == COFF_CLASS_EXTERNAL && s.section > 0) ||
                    s.storage == COFF_CLASS_WEAK_EXTERNAL;
      if (s.storage == COFF_CLASS_WEAK_EXTERNAL && s.aux_count)
        note_weak_default(m, j, r);
      if (defines && s.name.len &&
          !mtpc_strmap_get(&m->definitions, s.name.text, s.name.len, &first) &&
          mtpc_strmap_put(&m->definitions, s.name.text, s.name.len, m->record_base[j] + r))
        return 1;
      r += 1 + s.aux_count;
    }
  }
  return 0;
}

/* How many aux records a kept symbol has in the output: a file name is
 * spread over whole records, whose size may differ from the input's. */
static unsigned out_aux_count(const merge *m, const coff_object *in, uint32_t r,
                              const coff_symbol *s) {
  if (s->storage != COFF_CLASS_FILE || in->record_size == m->out_record_size)
    return s->aux_count;
  size_t room = (size_t)s->aux_count * in->record_size;
  const uint8_t *name = mtpc_coff_record(in, r + 1);
  const uint8_t *end = memchr(name, '\0', room);
  size_t len = end ? (size_t)(end - name) : room;
  return (unsigned)((len + m->out_record_size - 1) / m->out_record_size);
}

/* Whether a record is left out: one file record and one "@feat.00" stand
 * for all, and a combined section's later parts have no symbol. */
static int left_out(const merge *m, uint32_t j, const coff_symbol *s, char **message, int *bad) {
  if (j > 0 && (s->storage == COFF_CLASS_FILE ||
                (s->section == -1 && mtpc_coff_name_is(s->name, "@feat.00"))))
    return 1;
  if (s->section <= 0)
    return 0;
  if ((uint32_t)s->section > m->inputs[j].section_count) {
    *bad = fail(message, "a symbol in a section the object does not have", j);
    return 1;
  }
  return output_section(m, j, s->section) == 0;
}

typedef struct numbering {
  mtpc_strmap first_reference; /* undefined name -> its first record */
  uint32_t *redirect;          /* record -> the record whose index it takes */
  uint32_t next;
} numbering;

/* A plain undefined symbol names a definition (another partition's) or the
 * first reference to its name: 1 when it takes that record's index. */
static int redirected(merge *m, numbering *n, uint32_t j, uint32_t g, const coff_symbol *s,
                      char **message, int *bad) {
  uint32_t target;
  if (mtpc_strmap_get(&m->definitions, s->name.text, s->name.len, &target) ||
      mtpc_strmap_get(&n->first_reference, s->name.text, s->name.len, &target)) {
    n->redirect[g] = target;
    return 1;
  }
  if (original_of(m, s->name))
    *bad = fail(message, "a promoted symbol that no partition defines", j);
  else if (mtpc_strmap_put(&n->first_reference, s->name.text, s->name.len, g))
    *bad = no_memory(message);
  return *bad;
}

static int number_input(merge *m, numbering *n, uint32_t j, char **message) {
  const coff_object *in = &m->inputs[j];
  int bad = 0;
  for (uint32_t r = 0; r < in->record_count && !bad;) {
    coff_symbol s = mtpc_coff_symbol(in, r);
    uint32_t g = m->record_base[j] + r;
    for (unsigned a = 0; a <= s.aux_count; a++)
      m->new_index[g + a] = n->redirect[g + a] = MTPC_NONE;
    if (!left_out(m, j, &s, message, &bad) &&
        !(s.storage == COFF_CLASS_EXTERNAL && s.section == 0 && s.value == 0 &&
          s.aux_count == 0 && redirected(m, n, j, g, &s, message, &bad)) &&
        !bad) {
      m->new_index[g] = n->next;
      mtpc_bitset_set(&m->kept, g);
      n->next += 1 + out_aux_count(m, in, r, &s);
    }
    r += 1 + s.aux_count;
  }
  return bad;
}

/* Pass 2: which records stay, and their output indices. */
static int number_records(merge *m, uint32_t *out_count, char **message) {
  numbering n = {.next = 0};
  const coff_object *last = &m->inputs[m->count - 1];
  uint32_t total = m->record_base[m->count - 1] + last->record_count;
  n.redirect = mtpc_alloc(total ? total : 1, sizeof(uint32_t));
  if (!n.redirect || mtpc_strmap_init(&n.first_reference, 64)) {
    free(n.redirect);
    return no_memory(message);
  }
  int failed = 0;
  for (uint32_t j = 0; j < m->count && !failed; j++)
    failed = number_input(m, &n, j, message);
  for (uint32_t g = 0; !failed && g < total; g++)
    if (n.redirect[g] != MTPC_NONE)
      m->new_index[g] = m->new_index[n.redirect[g]];
  free(n.redirect);
  mtpc_strmap_free(&n.first_reference);
  *out_count = n.next;
  return failed;
}

static uint32_t renumber_index(void *context, uint32_t old_index) {
  const input_context *c = context;
  if (old_index >= c->m->inputs[c->input].record_count)
    return UINT32_MAX;
  return c->m->new_index[c->m->record_base[c->input] + old_index];
}

static int drops_exclusion(void *context, coff_name symbol) {
  const input_context *c = context;
  return original_of(c->m, symbol) != NULL;
}

static int is_codeview(coff_content content) {
  return content == COFF_CONTENT_CV_SYMBOLS || content == COFF_CONTENT_CV_TYPES ||
         content == COFF_CONTENT_CV_HASHES;
}

/* The bytes of the sections that name symbols, renumbered, each combined
 * section's parts in input order. */
static int build_contents(merge *m, char **message) {
  for (uint32_t j = 0; j < m->count; j++)
    for (uint32_t i = 0; i < m->inputs[j].section_count; i++) {
      const coff_object *in = &m->inputs[j];
      coff_content content = m->contents[m->section_base[j] + i];
      if (content == COFF_CONTENT_PLAIN || is_codeview(content))
        continue;
      uint32_t target = m->new_section[m->section_base[j] + i];
      if (!target) /* the first of its kind takes it */
        target = m->first_of[content];
      if (!target) /* directives that all excluded promoted symbols */
        continue;
      const uint8_t *data;
      uint32_t size;
      (void)mtpc_coff_section_data(in, i, &data, &size); /* checked by plan_sections */
      input_context context = {m, j};
      coff_renumbering renumbering = {renumber_index, drops_exclusion, &context};
      out_section *s = &m->out[target - 1];
      coff_append_status status =
          mtpc_coff_append_content(&s->built, content, data, size, &renumbering);
      if (status == COFF_NO_MEMORY)
        return no_memory(message);
      if (status == COFF_MALFORMED)
        return fail(message, "a section of symbol indices that names no symbol", j);
      if (s->built.size > UINT32_MAX)
        return fail(message, "a section larger than COFF's 4 GiB", j);
      s->data = s->built.data;
      s->size = (uint32_t)s->built.size;
    }
  return 0;
}

/* A .debug$S section of input j whose procedure records ask whether the
 * function they relocate against was promoted. */
typedef struct codeview_section {
  merge *m;
  uint32_t input;
  const uint8_t *relocations;
  uint32_t relocation_count;
} codeview_section;

/* The relocation at `offset`: LLVM writes a section's in offset order, else
 * every one is looked at. */
static const uint8_t *relocation_at(const codeview_section *c, uint32_t offset) {
  uint32_t low = 0, high = c->relocation_count;
  while (low < high) {
    uint32_t middle = low + (high - low) / 2;
    if (coff_rd32(c->relocations + (size_t)middle * COFF_RELOCATION) < offset)
      low = middle + 1;
    else
      high = middle;
  }
  if (low < c->relocation_count &&
      coff_rd32(c->relocations + (size_t)low * COFF_RELOCATION) == offset)
    return c->relocations + (size_t)low * COFF_RELOCATION;
  for (uint32_t k = 0; k < c->relocation_count; k++)
    if (coff_rd32(c->relocations + (size_t)k * COFF_RELOCATION) == offset)
      return c->relocations + (size_t)k * COFF_RELOCATION;
  return NULL;
}

static int promoted_at(void *context, uint32_t offset) {
  const codeview_section *c = context;
  const uint8_t *relocation = relocation_at(c, offset);
  const coff_object *in = &c->m->inputs[c->input];
  if (!relocation || coff_rd32(relocation + 4) >= in->record_count)
    return 0;
  coff_symbol s = mtpc_coff_symbol(in, coff_rd32(relocation + 4));
  return s.storage == COFF_CLASS_EXTERNAL && s.section > 0 && original_of(c->m, s.name);
}

static int codeview_failed(char **message, coff_append_status status, uint32_t input) {
  if (status == COFF_NO_MEMORY)
    return no_memory(message);
  return fail(message, "CodeView records the merge does not read", input);
}

/* Pass 1: every input's types, string table and checksums, merged. */
static int read_codeview(merge *m, char **message) {
  size_t type_bytes = 0;
  int any = 0;
  for (uint32_t j = 0; j < m->count; j++)
    for (uint32_t i = 0; i < m->inputs[j].section_count; i++) {
      coff_content content = m->contents[m->section_base[j] + i];
      any |= content == COFF_CONTENT_CV_TYPES || content == COFF_CONTENT_CV_SYMBOLS;
      if (content == COFF_CONTENT_CV_TYPES)
        type_bytes += coff_rd32(mtpc_coff_section_header(&m->inputs[j], i) + 16);
    }
  if (!any)
    return 0;
  if (!(m->codeview = mtpc_cv_new(m->count, type_bytes)))
    return no_memory(message);
  for (int pass = 0; pass < 2; pass++) /* an input's types before its files */
    for (uint32_t j = 0; j < m->count; j++)
      for (uint32_t i = 0; i < m->inputs[j].section_count; i++) {
        coff_content content = m->contents[m->section_base[j] + i];
        const uint8_t *data;
        uint32_t size;
        if (content != (pass ? COFF_CONTENT_CV_SYMBOLS : COFF_CONTENT_CV_TYPES) ||
            mtpc_coff_section_data(&m->inputs[j], i, &data, &size))
          continue;
        coff_append_status status = pass ? mtpc_cv_add_files(m->codeview, j, data, size)
                                         : mtpc_cv_add_types(m->codeview, j, data, size);
        if (status != COFF_APPENDED)
          return codeview_failed(message, status, j);
      }
  return 0;
}

/* Pass 2: one type stream, and each .debug$S section rewritten for it; the
 * first outside a COMDAT carries the merged string table and checksums. */
static int build_codeview(merge *m, char **message) {
  if (read_codeview(m, message))
    return 1;
  if (!m->codeview)
    return 0;
  int tables = 1;
  for (uint32_t k = 0; k < m->out_count; k++) {
    out_section *s = &m->out[k];
    if (s->content == COFF_CONTENT_CV_TYPES) {
      size_t size;
      s->data = mtpc_cv_types(m->codeview, &size);
      s->size = (uint32_t)size;
      continue;
    }
    if (s->content != COFF_CONTENT_CV_SYMBOLS)
      continue;
    int comdat = (coff_rd32(mtpc_coff_section_header(&m->inputs[s->input], s->index) + 36) &
                  COFF_SCN_LNK_COMDAT) != 0;
    unsigned flags = (s->input == 0 ? CV_REWRITE_OBJECT_RECORDS : 0) |
                     (tables && !comdat ? CV_REWRITE_TABLES : 0) | (comdat ? 0 : CV_REWRITE_ONCE);
    tables &= comdat;
    codeview_section context = {m, s->input, s->relocations, s->relocation_count};
    coff_append_status status =
        mtpc_cv_rewrite_symbols(m->codeview, s->input, s->data, s->size, flags, promoted_at,
                                &context, &s->built, &s->moves);
    if (status != COFF_APPENDED)
      return codeview_failed(message, status, s->input);
    if (s->built.size > UINT32_MAX)
      return fail(message, "a section larger than COFF's 4 GiB", s->input);
    s->data = s->built.data;
    s->size = (uint32_t)s->built.size;
  }
  if (tables) /* the lines' checksums would be nowhere */
    return fail(message, "CodeView symbols only in COMDATs", 0);
  return 0;
}

static void write_symbol_fields(const merge *m, uint8_t *p, uint32_t value, int32_t section,
                                uint16_t type, uint8_t storage, uint8_t aux_count) {
  coff_wr32(p + 8, value);
  unsigned tail = 14;
  if (m->big) {
    coff_wr32(p + 12, (uint32_t)section);
    tail = 16;
  } else {
    coff_wr16(p + 12, (uint16_t)(int16_t)section);
  }
  coff_wr16(p + tail, type);
  p[tail + 2] = storage;
  p[tail + 3] = aux_count;
}

/* A section's size: what the merge wrote of it, or an input's
 * uninitialized data's. */
static uint32_t section_size(const merge *m, const out_section *s) {
  if (s->data || s->content != COFF_CONTENT_PLAIN)
    return s->size;
  return coff_rd32(mtpc_coff_section_header(&m->inputs[s->input], s->index) + 16);
}

/* A section definition's aux record: the section's size and relocations as
 * written, and an associative COMDAT's section renumbered. */
static void write_section_aux(const merge *m, uint32_t j, uint32_t section, const uint8_t *aux,
                              uint8_t *out) {
  const out_section *s = &m->out[section - 1];
  memcpy(out, aux, 18);
  out[16] = out[17] = 0;
  coff_wr32(out, section_size(m, s));
  coff_wr16(out + 4, s->relocation_count > 0xFFFF ? 0xFFFF : s->relocation_count);
  if (s->content != COFF_CONTENT_PLAIN)
    coff_wr32(out + 8, 0); /* no checksum of bytes the merge wrote */
  uint32_t number = coff_rd16(aux + 12) | (m->inputs[j].big ? (uint32_t)coff_rd16(aux + 16) << 16 : 0);
  if (aux[14] == COFF_SELECT_ASSOCIATIVE && number)
    number = output_section(m, j, (int32_t)number);
  coff_wr16(out + 12, number & 0xFFFF);
  if (m->big)
    coff_wr16(out + 16, number >> 16);
}

static int write_aux(merge *m, uint32_t j, uint32_t r, const coff_symbol *s, uint32_t section,
                     char **message) {
  const coff_object *in = &m->inputs[j];
  unsigned out_count = out_aux_count(m, in, r, s);
  if (s->storage == COFF_CLASS_FILE) { /* the name, re-spread over the output's records */
    uint8_t *out = mtpc_coff_reserve(&m->symbols, (size_t)out_count * m->out_record_size);
    if (!out)
      return no_memory(message);
    size_t room = (size_t)s->aux_count * in->record_size;
    size_t out_room = (size_t)out_count * m->out_record_size;
    memcpy(out, mtpc_coff_record(in, r + 1), room < out_room ? room : out_room);
    return 0;
  }
  for (unsigned a = 1; a <= s->aux_count; a++) {
    const uint8_t *aux = mtpc_coff_record(in, r + a);
    uint8_t *out = mtpc_coff_reserve(&m->symbols, m->out_record_size);
    if (!out)
      return no_memory(message);
    memcpy(out, aux, 18);
    if (a == 1 && mtpc_coff_is_section_definition(s)) {
      write_section_aux(m, j, section, aux, out);
    } else if (a == 1 && s->storage == COFF_CLASS_WEAK_EXTERNAL) {
      input_context context = {m, j};
      uint32_t tag = renumber_index(&context, coff_rd32(aux));
      if (tag == MTPC_NONE)
        return fail(message, "a weak external whose default is no symbol", j);
      coff_wr32(out, tag);
    }
  }
  return 0;
}

static int write_symbol(merge *m, uint32_t j, uint32_t r, const coff_symbol *s, char **message) {
  size_t at = m->symbols.size;
  if (!mtpc_coff_reserve(&m->symbols, m->out_record_size))
    return no_memory(message);
  const char *original = NULL;
  uint8_t storage = s->storage;
  if (s->storage == COFF_CLASS_EXTERNAL && s->section > 0 && (original = original_of(m, s->name)))
    storage = COFF_CLASS_STATIC;
  uint32_t section = output_section(m, j, s->section);
  uint8_t *p = m->symbols.data + at;
  int failed;
  if (original) {
    size_t prefix = s->name.len - without_prefix(m, s->name).len;
    failed = write_name(m, p, (coff_name){s->name.text, prefix}, original, 0);
  } else if (mtpc_coff_is_section_definition(s)) {
    failed = write_section_name(m, p, s->name, 0);
  } else if (m->weak_of[m->record_base[j] + r] != MTPC_NONE && m->unique.len) {
    char *name = weak_default_name(m, m->weak_of[m->record_base[j] + r]);
    failed = !name || write_name(m, p, (coff_name){name, strlen(name)}, NULL, 0);
    free(name);
  } else {
    failed = write_name(m, p, s->name, NULL, 0);
  }
  if (failed)
    return no_memory(message);
  p = m->symbols.data + at; /* the string table grew, not the symbols */
  write_symbol_fields(m, p, s->value, s->section > 0 ? (int32_t)section : s->section, s->type,
                      storage, (uint8_t)out_aux_count(m, &m->inputs[j], r, s));
  return write_aux(m, j, r, s, section, message);
}

static int write_symbols(merge *m, char **message) {
  for (uint32_t j = 0; j < m->count; j++) {
    const coff_object *in = &m->inputs[j];
    for (uint32_t r = 0; r < in->record_count;) {
      coff_symbol s = mtpc_coff_symbol(in, r);
      if (mtpc_bitset_test(&m->kept, m->record_base[j] + r) && write_symbol(m, j, r, &s, message))
        return 1;
      r += 1 + s.aux_count;
    }
  }
  return 0;
}

static int name_sections(merge *m) {
  for (uint32_t k = 0; k < m->out_count; k++) {
    out_section *s = &m->out[k];
    if (write_section_name(m, s->name, mtpc_coff_section_name(&m->inputs[s->input], s->index), 1))
      return 1;
  }
  return 0;
}

static int overflows(const out_section *s) { return s->relocation_count > 0xFFFE; }

/* Writes a section's header at `h` and its bytes and relocations at
 * out + *body. */
static int write_section(const merge *m, const out_section *s, uint8_t *out, uint8_t *h,
                         size_t *body, char **message) {
  const uint8_t *from = mtpc_coff_section_header(&m->inputs[s->input], s->index);
  memcpy(h, s->name, 8);
  memcpy(h + 8, from + 8, 8); /* virtual size and address */
  coff_wr32(h + 16, section_size(m, s));
  uint32_t characteristics = coff_rd32(from + 36) & ~(uint32_t)COFF_SCN_RELOC_OVERFLOW;
  if (s->data && s->size) {
    memcpy(out + *body, s->data, s->size);
    coff_wr32(h + 20, (uint32_t)*body);
    *body += s->size;
  }
  if (s->relocation_count) {
    coff_wr32(h + 24, (uint32_t)*body);
    uint8_t *r = out + *body;
    if (overflows(s)) {
      characteristics |= COFF_SCN_RELOC_OVERFLOW;
      coff_wr32(r, s->relocation_count + 1);
      r += COFF_RELOCATION;
    }
    coff_wr16(h + 32, overflows(s) ? 0xFFFF : s->relocation_count);
    input_context context = {(merge *)m, s->input};
    for (uint32_t k = 0; k < s->relocation_count; k++, r += COFF_RELOCATION) {
      const uint8_t *relocation = s->relocations + (size_t)k * COFF_RELOCATION;
      uint32_t index = renumber_index(&context, coff_rd32(relocation + 4));
      if (index == MTPC_NONE)
        return fail(message, "a relocation against no symbol the merge keeps", s->input);
      memcpy(r, relocation, COFF_RELOCATION);
      coff_wr32(r + 4, index);
      if (s->content == COFF_CONTENT_CV_SYMBOLS) {
        uint32_t offset = mtpc_cv_moved(&s->moves, coff_rd32(relocation));
        if (offset == UINT32_MAX)
          return fail(message, "a relocation in CodeView records the merge leaves out",
                      s->input);
        coff_wr32(r, offset);
      }
    }
    *body = (size_t)(r - out);
  }
  coff_wr32(h + 36, characteristics);
  return 0;
}

static void write_file_header(const merge *m, uint8_t *out, uint32_t symbol_table,
                              uint32_t symbol_count) {
  const coff_object *first = &m->inputs[0];
  if (m->big) {
    coff_wr16(out + 2, 0xFFFF);
    coff_wr16(out + 4, 2);
    coff_wr16(out + 6, first->machine);
    coff_wr32(out + 8, first->timestamp);
    memcpy(out + 12, mtpc_coff_big_class_id, sizeof(mtpc_coff_big_class_id));
    coff_wr32(out + 44, m->out_count);
    coff_wr32(out + 48, symbol_table);
    coff_wr32(out + 52, symbol_count);
  } else {
    coff_wr16(out, first->machine);
    coff_wr16(out + 2, m->out_count);
    coff_wr32(out + 4, first->timestamp);
    coff_wr32(out + 8, symbol_table);
    coff_wr32(out + 12, symbol_count);
    coff_wr16(out + 18, first->characteristics);
  }
}

/* The headers, the sections' bodies in order, the symbol and string tables. */
static int write_object(merge *m, void **result, size_t *result_size, char **message) {
  size_t header = m->big ? COFF_BIG_HEADER : COFF_FILE_HEADER;
  uint64_t total = header + (uint64_t)m->out_count * COFF_SECTION_HEADER;
  for (uint32_t k = 0; k < m->out_count; k++) {
    const out_section *s = &m->out[k];
    total += (s->data ? s->size : 0) +
             (uint64_t)(s->relocation_count + overflows(s)) * COFF_RELOCATION;
  }
  uint64_t symbol_table = total;
  total += m->symbols.size + m->strings.size;
  if (total > UINT32_MAX)
    return fail(message, "a merged object larger than COFF's 4 GiB", m->count - 1);
  uint8_t *out = mtpc_zalloc((size_t)total, 1);
  if (!out)
    return no_memory(message);
  size_t body = header + (size_t)m->out_count * COFF_SECTION_HEADER;
  for (uint32_t k = 0; k < m->out_count; k++)
    if (write_section(m, &m->out[k], out, out + header + (size_t)k * COFF_SECTION_HEADER, &body,
                      message)) {
      free(out);
      return 1;
    }
  coff_wr32(m->strings.data, (uint32_t)m->strings.size);
  write_file_header(m, out, (uint32_t)symbol_table,
                    (uint32_t)(m->symbols.size / m->out_record_size));
  memcpy(out + symbol_table, m->symbols.data, m->symbols.size);
  memcpy(out + symbol_table + m->symbols.size, m->strings.data, m->strings.size);
  *result = out;
  *result_size = (size_t)total;
  return 0;
}

static int map_promoted(merge *m, const char *const *names, size_t name_count) {
  if (mtpc_strmap_init(&m->promoted, name_count))
    return 1;
  for (size_t i = 0; i < name_count; i++)
    if (mtpc_strmap_put(&m->promoted, names[i], strlen(names[i]), (uint32_t)i))
      return 1;
  return 0;
}

static void free_merge(merge *m) {
  for (uint32_t k = 0; m->out && k < m->out_count; k++) {
    free(m->out[k].built.data);
    free(m->out[k].moves.pieces);
  }
  mtpc_cv_free(m->codeview);
  mtpc_strmap_free(&m->promoted);
  mtpc_strmap_free(&m->definitions);
  mtpc_bitset_free(&m->kept);
  free(m->new_index);
  free(m->weak_of);
  free(m->new_section);
  free(m->contents);
  free(m->out);
  free(m->inputs);
  free(m->section_base);
  free(m->record_base);
  free(m->strings.data);
  free(m->symbols.data);
}

int mtpc_coff_merge(const void *const *objects, const size_t *sizes, uint32_t count,
                    const char *const *names, const char *const *originals, size_t name_count,
                    void **out, size_t *out_size, char **message) {
  merge m;
  memset(&m, 0, sizeof(m));
  m.count = count;
  m.originals = originals;
  m.inputs = mtpc_zalloc(count ? count : 1, sizeof(coff_object));
  m.section_base = mtpc_zalloc(count ? count : 1, sizeof(uint32_t));
  m.record_base = mtpc_zalloc(count ? count : 1, sizeof(uint32_t));
  uint32_t symbol_count = 0;
  *message = NULL;
  int failed = !m.inputs || !m.section_base || !m.record_base ||
               map_promoted(&m, names, name_count) || !mtpc_coff_reserve(&m.strings, 4);
  if (!failed && count == 0)
    failed = fail(message, "no objects to merge", 0);
  if (!failed)
    failed = read_inputs(&m, objects, sizes, message) || plan_sections(&m, message) ||
             find_definitions(&m) || number_records(&m, &symbol_count, message) ||
             choose_unique(&m) ||
             build_contents(&m, message) || build_codeview(&m, message) ||
             write_symbols(&m, message) || name_sections(&m) ||
             write_object(&m, out, out_size, message);
  if (!failed && m.symbols.size / m.out_record_size != symbol_count)
    failed = fail(message, "symbols numbered and written disagree", 0);
  free_merge(&m);
  return failed;
}
