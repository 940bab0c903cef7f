#define _GNU_SOURCE
#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "addrsig.h"
#include "coff_merge.h"
#include "coff_object.h"
#include "dead_debug.h"
#include "dwo_merge.h"
#include "localize.h"
#include "lto-backend/elf/objects.h"
#include "lto-backend/elf/split_stack_notes.h"
#include "support/support.h"
#include "support/files.h"

static char *make_temp_dir(char **message) {
  const char *base = getenv("TMPDIR");
  char *dir = mtpc_asprintf("%s/mtpc.XXXXXX", base && *base ? base : "/tmp");
  if (!dir) {
    *message = NULL;
    return NULL;
  }
  if (!mkdtemp(dir)) {
    *message = mtpc_asprintf("cannot create a temporary directory in '%s': %s",
                              base && *base ? base : "/tmp", strerror(errno));
    free(dir);
    return NULL;
  }
  return dir;
}

/* A partition's object where ld.lld -r reads it, its split stack notes
 * hidden from it (split_stack_notes.h) in a copy. */
static int write_partition(const char *path, const mtpc_job *job, const char *faults,
                           char **message) {
  if (!mtpc_elf_has_split_stack_notes(job->object, job->object_size))
    return mtpc_write_scratch_file(path, job->object, job->object_size, faults, message);
  uint8_t *copy = mtpc_alloc(job->object_size, 1);
  if (!copy) {
    *message = NULL;
    return 1;
  }
  memcpy(copy, job->object, job->object_size);
  mtpc_elf_hide_split_stack_notes(copy, job->object_size);
  int failed = mtpc_write_scratch_file(path, copy, job->object_size, faults, message);
  free(copy);
  return failed;
}

static int link_in_dir(const char *dir, const mtpc_job *jobs, uint32_t count, const char *faults,
                       void **merged, size_t *merged_size, char **message) {
  char **inputs = mtpc_zalloc(count, sizeof(char *));
  char *output = mtpc_asprintf("%s/merged.o", dir);
  int failed = !inputs || !output;
  if (failed)
    *message = NULL;
  uint32_t written = 0;
  for (; inputs && written < count && !failed; written++) {
    inputs[written] = mtpc_asprintf("%s/part%u.o", dir, written);
    failed = !inputs[written] ||
             write_partition(inputs[written], &jobs[written], faults, message);
    if (!inputs[written])
      *message = NULL;
  }
  if (!failed)
    failed = mtpc_bridge_link_relocatable((const char *const *)inputs, count, output, message);
  if (!failed)
    failed = mtpc_map_file(output, merged, merged_size, message);
  if (!failed)
    mtpc_elf_restore_split_stack_notes(*merged, *merged_size);
  if (output)
    unlink(output);
  free(output);
  for (uint32_t i = 0; i < written; i++) {
    if (inputs[i])
      unlink(inputs[i]);
    free(inputs[i]);
  }
  free(inputs);
  return failed;
}

/* The plan's promoted names and the names they get back. */
typedef struct promoted_names {
  const char **names;
  const char **originals;
  size_t count;
  char **made; /* the names below, made here */
  size_t made_count;
} promoted_names;

/* With emulated TLS, code generation (LLVM's LowerEmuTLS) gives a
 * thread-local variable a control variable and an initializer template
 * named after it, with its linkage: a promoted variable's are promoted
 * too, and get their original names back with it. Listed whether or not
 * the compile emulates TLS: a name no object holds changes nothing. */
static const char *const emutls_prefixes[] = {"__emutls_v.", "__emutls_t."};
enum { EMUTLS_NAMES = sizeof(emutls_prefixes) / sizeof(emutls_prefixes[0]) };

/* DataFlowSanitizer's: an instrumented function's name and an
 * uninstrumented one's wrapper's, each made before the promoted suffix. */
enum { DFSAN_NAMES = 2 };

static void add_promoted(promoted_names *p, const char *name, const char *original) {
  p->names[p->count] = name;
  p->originals[p->count++] = original;
}

/* A name made here and the one it gets back, both owned by `p` from now
 * on; 1 (freeing them) when either could not be made. */
static int add_made(promoted_names *p, char *name, char *back) {
  if (!name || !back) {
    free(name);
    free(back);
    return 1;
  }
  p->made[p->made_count++] = name;
  p->made[p->made_count++] = back;
  add_promoted(p, name, back);
  return 0;
}

/* `prefix` before a promoted name and before its original. */
static int add_prefixed(promoted_names *p, const char *prefix, const char *name,
                        const char *original) {
  return add_made(p, mtpc_asprintf("%s%s", prefix, name),
                  mtpc_asprintf("%s%s", prefix, original));
}

/* `infix` between a promoted name's source part and its suffix, and after
 * the original; the name itself when it has no original (an unnamed
 * value's: it stays as it is, local). */
static int add_infixed(promoted_names *p, const char *infix, const char *name,
                       const char *original) {
  const char *suffix = strstr(name, ".llvm.mtpc");
  if (!suffix)
    return 0;
  char *infixed = mtpc_asprintf("%.*s%s%s", (int)(suffix - name), name, infix, suffix);
  char *back = !infixed                ? NULL
               : strcmp(original, name) ? mtpc_asprintf("%s%s", original, infix)
                                        : mtpc_strdup(infixed);
  return add_made(p, infixed, back);
}

/* A promoted function's or alias's DataFlowSanitizer names (DFSAN_NAMES). */
static int add_dfsan_names(promoted_names *p, const mtpc_plan_node *n, const char *original) {
  if (n->kind != MTPC_FUNCTION && n->kind != MTPC_ALIAS)
    return 0;
  return add_infixed(p, ".dfsan", n->promoted_name, original) ||
         add_prefixed(p, "dfsw$", n->promoted_name, original);
}

static int collect_promoted(const mtpc_plan *plan, int dataflow, promoted_names *p) {
  size_t made = 0;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    if (n->promoted_name && (n->flags & MTPC_N_THREAD_LOCAL))
      made += EMUTLS_NAMES;
    if (n->promoted_name && dataflow)
      made += DFSAN_NAMES;
  }
  size_t room = plan->node_count + made;
  p->names = mtpc_alloc(room ? room : 1, sizeof(char *));
  p->originals = mtpc_alloc(room ? room : 1, sizeof(char *));
  p->made = mtpc_alloc(made * 2 + 1, sizeof(char *));
  p->count = p->made_count = 0;
  if (!p->names || !p->originals || !p->made)
    return 1;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    if (!n->promoted_name)
      continue;
    const char *original = n->name[0] ? n->name : n->promoted_name;
    add_promoted(p, n->promoted_name, original);
    for (size_t k = 0; k < EMUTLS_NAMES && (n->flags & MTPC_N_THREAD_LOCAL); k++)
      if (add_prefixed(p, emutls_prefixes[k], n->promoted_name, original))
        return 1;
    if (dataflow && add_dfsan_names(p, n, original))
      return 1;
  }
  return 0;
}

static void free_promoted(promoted_names *p) {
  for (size_t i = 0; i < p->made_count; i++)
    free(p->made[i]);
  free(p->made);
  free(p->names);
  free(p->originals);
}

/* Takes `merged`, a mapping: localized in place, it becomes *object
 * (*mapped set), and the symbols `table` holds are renumbered with it; else
 * unmapped once ObjCopy has copied it, and the table's entries are dropped
 * (ObjCopy renumbers the symbols its own way): the table will list every
 * symbol. */
static int localize_promoted(const mtpc_plan *plan, int dataflow, void *merged,
                             size_t merged_size, mtpc_addrsig *table, void **object,
                             size_t *object_size, int *mapped, char **message) {
  promoted_names p = {0};
  if (collect_promoted(plan, dataflow, &p)) {
    free_promoted(&p);
    munmap(merged, merged_size);
    *message = NULL;
    return 1;
  }
  mtpc_localize_status status = mtpc_localize_in_place(
      merged, merged_size, p.names, p.originals, p.count, table->symbols, table->count);
  if (status != MTPC_LOCALIZED)
    mtpc_addrsig_free(table);
  int failed = status == MTPC_LOCALIZE_NO_MEMORY;
  if (failed)
    *message = NULL;
  else if (status == MTPC_LOCALIZED) {
    *object = merged;
    *object_size = merged_size;
    *mapped = 1;
    merged = NULL;
  } else {
    failed = mtpc_bridge_localize_symbols(merged, merged_size, p.names, p.originals, p.count,
                                          object, object_size, message);
  }
  if (merged)
    munmap(merged, merged_size);
  free_promoted(&p);
  return failed;
}

/* The partitions' objects and their sizes, side by side. */
typedef struct job_objects {
  void **objects;
  size_t *sizes;
} job_objects;

static int list_objects(const mtpc_job *jobs, uint32_t count, job_objects *list) {
  list->objects = mtpc_alloc(count ? count : 1, sizeof(void *));
  list->sizes = mtpc_alloc(count ? count : 1, sizeof(size_t));
  if (!list->objects || !list->sizes)
    return 1;
  for (uint32_t i = 0; i < count; i++) {
    list->objects[i] = jobs[i].object;
    list->sizes[i] = jobs[i].object_size;
  }
  return 0;
}

static void free_objects(job_objects *list) {
  free(list->objects);
  free(list->sizes);
}

/* The partitions' address-significance tables, in the merged object's
 * symbol indices (addrsig.h). Unmaps `merged` when memory runs out. */
static int collect_addrsig(const mtpc_job *jobs, uint32_t count, void *merged,
                           size_t merged_size, mtpc_addrsig *table) {
  job_objects list = {0};
  memset(table, 0, sizeof(*table));
  int failed = list_objects(jobs, count, &list) ||
               mtpc_addrsig_collect(merged, merged_size, list.objects, list.sizes, count, table);
  free_objects(&list);
  if (failed)
    munmap(merged, merged_size);
  return failed;
}

/* COFF partitions need no linker: coff_merge.h. */
static int merge_coff(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count, int dataflow,
                      void **object, size_t *object_size, char **message) {
  promoted_names p = {0};
  job_objects list = {0};
  int failed = list_objects(jobs, count, &list) || collect_promoted(plan, dataflow, &p);
  *message = NULL;
  if (!failed)
    failed = mtpc_coff_merge((const void *const *)list.objects, list.sizes, count, p.names,
                             p.originals, p.count, object, object_size, message);
  free_promoted(&p);
  free_objects(&list);
  return failed;
}

int mtpc_merge_objects(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       int dataflow, const char *faults, void **object, size_t *object_size,
                       int *mapped, char **message) {
  *mapped = 0;
  if (count && mtpc_coff_is_object(jobs[0].object, jobs[0].object_size))
    return merge_coff(plan, jobs, count, dataflow, object, object_size, message);
  char *dir = make_temp_dir(message);
  if (!dir)
    return 1;
  void *merged = NULL;
  size_t merged_size = 0;
  int failed = link_in_dir(dir, jobs, count, faults, &merged, &merged_size, message);
  rmdir(dir);
  free(dir);
  if (failed)
    return failed;
  mtpc_mark_dead_debug(merged, merged_size);
  *mapped = 0;
  mtpc_addrsig table;
  if (collect_addrsig(jobs, count, merged, merged_size, &table)) {
    *message = NULL;
    return 1;
  }
  failed = localize_promoted(plan, dataflow, merged, merged_size, &table, object, object_size, mapped,
                             message);
  if (!failed && mtpc_addrsig_write(&table, object, object_size, mapped)) {
    mtpc_release_buffer(*object, *object_size, *mapped);
    *object = NULL;
    *mapped = 0;
    *message = NULL;
    failed = 1;
  }
  mtpc_addrsig_free(&table);
  return failed;
}

int mtpc_merge_dwo_files(const mtpc_job *jobs, uint32_t count, void **dwo, size_t *dwo_size,
                         char **message) {
  const void **dwos = mtpc_zalloc(count, sizeof(void *));
  size_t *sizes = mtpc_zalloc(count, sizeof(size_t));
  int failed = !dwos || !sizes;
  *message = NULL;
  for (uint32_t i = 0; !failed && i < count; i++) {
    dwos[i] = jobs[i].dwo;
    sizes[i] = jobs[i].dwo_size;
  }
  if (!failed)
    failed = mtpc_merge_dwo(dwos, sizes, count, dwo, dwo_size, message);
  free(dwos);
  free(sizes);
  return failed;
}
