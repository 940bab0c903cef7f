/* Compiling one partition in two phases (partition_job.h). */
#define _GNU_SOURCE
#include "partition_job.h"

#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/module.h"
#include "lto-backend/cache/cache.h"
#include "lto-backend/cache/cache_masks.h"
#include "lto-backend/codegen/pipeline.h"
#include "lto-backend/codegen/remarks.h"
#include "lto-backend/partition/debug_info.h"
#include "lto-backend/partition/partition.h"
#include "clone_keepers.h"
#include "job_account.h"
#include "support/fault.h"
#include "support/support.h"
#include "support/time_trace.h"

typedef struct worker_diag {
  mtpc_reporter *reporter;
  int error;         /* LLVM reported an error */
  char *first_error; /* its text; NULL when memory ran out */
} worker_diag;

/* LLVM's default handler exits the process on an error; record it instead. */
static void on_llvm_diagnostic(LLVMDiagnosticInfoRef info, void *user) {
  worker_diag *d = user;
  LLVMDiagnosticSeverity severity = LLVMGetDiagInfoSeverity(info);
  if (severity != LLVMDSError && severity != LLVMDSWarning)
    return;
  char *text = LLVMGetDiagInfoDescription(info);
  if (severity == LLVMDSError && !d->error) {
    d->error = 1;
    d->first_error = mtpc_strdup(text);
  } else if (severity == LLVMDSWarning)
    mtpc_emit_diag(d->reporter, MTPC_WARNING, "%s", text);
  LLVMDisposeMessage(text);
}

/* These two return non-zero when memory runs out. */
static int emit_partition_ir(const mtpc_codegen_config *config, LLVMModuleRef module,
                             uint32_t partition) {
  const char *dir = config->options->emit_partitions_dir;
  char *path = partition == MTPC_NONE ? mtpc_asprintf("%s/unsplit.ll", dir)
                                      : mtpc_asprintf("%s/part%u.ll", dir, partition);
  if (!path)
    return 1;
  char *error = NULL;
  if (LLVMPrintModuleToFile(module, path, &error)) {
    mtpc_emit_diag(config->reporter, MTPC_WARNING, "cannot write '%s': %s", path, error);
    LLVMDisposeMessage(error);
  }
  free(path);
  return 0;
}

char *mtpc_partition_file_name(const char *base, uint32_t partition) {
  if (partition == 0 || partition == MTPC_NONE)
    return mtpc_strdup(base);
  size_t len = strlen(base);
  if (len >= 4 && strcmp(base + len - 4, ".dwo") == 0)
    return mtpc_asprintf("%.*s.part%u.dwo", (int)(len - 4), base, partition);
  return mtpc_asprintf("%s.part%u", base, partition);
}

/* --save-temps: the partition's module at one stage, as LLVM's LTO saves a
 * whole module's. */
static int save_temp(const mtpc_codegen_config *config, LLVMModuleRef module, uint32_t partition,
                     const char *stage) {
  const char *prefix = config->options->save_temps_prefix;
  if (!prefix)
    return 0;
  char *path = partition == MTPC_NONE ? mtpc_asprintf("%s%s.bc", prefix, stage)
                                      : mtpc_asprintf("%spart%u.%s.bc", prefix, partition, stage);
  if (!path)
    return 1;
  if (LLVMWriteBitcodeToFile(module, path) != 0)
    mtpc_emit_diag(config->reporter, MTPC_WARNING, "cannot write '%s'", path);
  free(path);
  return 0;
}

/* The .dwo name the job's skeleton unit records (NULL: no split DWARF). */
static const char *skeleton_dwo_name(const mtpc_codegen_config *config, const mtpc_job *job) {
  return job->dwo_name ? job->dwo_name : config->dwo_name;
}

static int codegen(const mtpc_codegen_config *config, LLVMModuleRef module,
                   LLVMTargetMachineRef machine, mtpc_job *job) {
  if (mtpc_fault_codegen(config->faults,
                         job->partition == MTPC_NONE ? 0 : job->partition)) {
    job->message = mtpc_strdup("injected fault (MTPC_FAULT)");
    return 1;
  }
  return mtpc_bridge_codegen(config->settings, module, machine,
                             skeleton_dwo_name(config, job),
                             job->dwo_output != NULL, &job->object, &job->object_size,
                             &job->dwo, &job->dwo_size, &job->message);
}

static LLVMModuleRef load_module(const mtpc_codegen_config *config, LLVMContextRef context,
                                 const mtpc_bitcode_view *view, char **message) {
  LLVMModuleRef module = NULL;
  if (view->odr_types)
    mtpc_bridge_unique_odr_types(context);
  if (mtpc_bridge_open_lazily(context, view->data, view->size, config->module_name,
                              view->metadata_on_demand, &module, message))
    return NULL;
  return module;
}

/* `message` NULL: memory ran out (as it does when the message cannot be
 * made), which no unsplit compile would get past. */
static void fail_job(mtpc_job *job, mtpc_job_failure failure, char *message, const char *stage) {
  char *newline = message ? strchr(message, '\n') : NULL; /* one line: drop LLVM's excerpt */
  if (newline)
    *newline = '\0';
  if (!message)
    job->message = NULL;
  else if (job->partition == MTPC_NONE)
    job->message = mtpc_asprintf("%s: %s", stage, message);
  else
    job->message = mtpc_asprintf("partition %u: %s: %s", job->partition, stage, message);
  job->failure = job->message ? failure : MTPC_JOB_NO_MEMORY;
  free(message);
}

static void job_out_of_memory(mtpc_job *job) { fail_job(job, MTPC_JOB_NO_MEMORY, NULL, NULL); }

/* The job's split DWARF names; non-zero when memory runs out. */
/* The job's split DWARF names: the module's when the partitions' .dwo
 * files are merged into one (as their objects are), else its own. */
static int name_dwo(const mtpc_codegen_config *config, mtpc_job *job) {
  if (!config->dwo_name || !config->dwo_output)
    return 0;
  uint32_t partition = config->options->merge ? 0 : job->partition;
  job->dwo_name = mtpc_partition_file_name(config->dwo_name, partition);
  job->dwo_output = mtpc_partition_file_name(config->dwo_output, partition);
  return !job->dwo_name || !job->dwo_output;
}

/* 0, 1 when the job failed, or MTPC_PARTITION_RELOAD. */
static int form_module(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *job,
                       LLVMModuleRef module, const mtpc_bitcode_view *view) {
  char *message = NULL;
  if (!job->dwo_name && name_dwo(config, job)) {
    job_out_of_memory(job);
    return 1;
  }
  int verified = 0; /* by LLVM's reader: the unsplit module is verified once, as stock's is */
  int failed = plan ? mtpc_make_partition(module, plan, job->partition, config->options->merge,
                                          view, &message)
                    : mtpc_bridge_materialize_all(module, &verified, &message);
  if (failed == MTPC_PARTITION_RELOAD)
    return failed;
  if (failed) {
    fail_job(job, plan ? MTPC_JOB_SPLIT_FAILED : MTPC_JOB_FAILED, message, "splitting");
    return 1;
  }
  if (config->options->triple)
    LLVMSetTarget(module, config->options->triple);
  if (config->options->emit_partitions_dir &&
      emit_partition_ir(config, module, job->partition)) {
    job_out_of_memory(job);
    return 1;
  }
  if (config->options->verify && !verified &&
      LLVMVerifyModule(module, LLVMReturnStatusAction, &message)) {
    char *copy = mtpc_strdup(message);
    LLVMDisposeMessage(message);
    fail_job(job, plan ? MTPC_JOB_SPLIT_FAILED : MTPC_JOB_FAILED, copy, "verifier");
    return 1;
  }
  return 0;
}

/* A copy of LLVM's first error, or NULL when memory ran out. */
static char *llvm_error(const worker_diag *diag) {
  return diag->first_error ? mtpc_strdup(diag->first_error) : NULL;
}

static int promoted_stems(LLVMModuleRef module, int unused, mtpc_strmap *stems,
                          LLVMValueRef **functions, size_t *count);

/* The promoted definitions whose stems are `dead` and that nothing here
 * uses leave the module (a declaration would stay in the object as an
 * undefined hidden symbol). Non-zero when memory runs out. */
static int erase_dead(LLVMModuleRef module, const char *const *dead, size_t dead_count) {
  if (!dead_count)
    return 0;
  mtpc_strmap unused;
  LLVMValueRef *functions = NULL;
  size_t count = 0, erased = 0;
  if (promoted_stems(module, 1, &unused, &functions, &count))
    return 1;
  /* The map's keys are the functions' names: gather, then erase. */
  for (size_t i = 0; i < dead_count; i++) {
    uint32_t at;
    if (mtpc_strmap_get(&unused, dead[i], strlen(dead[i]), &at))
      functions[erased++] = functions[at];
  }
  mtpc_strmap_free(&unused);
  for (size_t i = 0; i < erased; i++)
    LLVMDeleteFunction(functions[i]);
  free(functions);
  return 0;
}

/* Saves the optimized module, turns the clones another partition keeps into
 * declarations, erases the dead promoted definitions and finishes its debug
 * info; non-zero when memory runs out. */
static int finish_optimized(const mtpc_codegen_config *config, LLVMModuleRef module,
                            uint32_t partition, const char *const *clones, size_t clone_count,
                            const char *const *dead, size_t dead_count) {
  return save_temp(config, module, partition, "4.opt") ||
         mtpc_drop_clones(module, clones, clone_count) || erase_dead(module, dead, dead_count) ||
         mtpc_finish_debug_info(module) || save_temp(config, module, partition, "5.precodegen");
}

struct mtpc_job_run {
  const mtpc_codegen_config *config;
  const mtpc_plan *plan;
  mtpc_job *job;
  char detail[32];
  worker_diag diag;
  LLVMContextRef context;
  LLVMModuleRef module;
  mtpc_bitcode_view view;
  int view_open;
  LLVMTargetMachineRef machine;
  mtpc_bridge_remarks *remarks;
  int failed;
  int optimized; /* the module went through the optimizer */
  int hit;       /* the object came from the cache */
  mtpc_cache_key key;
  mtpc_cache_masks *masks;
  mtpc_job_account account_of_job, *account;
  const uint32_t *candidates; /* the plan's shared functions it holds */
  const uint8_t *by_use;      /* beside candidates (clone_keepers.h) */
  uint32_t candidate_count;
  const uint8_t *later; /* beside candidates: held by an earlier partition too */
  double cpu_seconds;    /* of both phases, less the account's own */
  uint64_t memory_bytes; /* of both phases */
};

static void run_out_of_memory(mtpc_job_run *run) {
  job_out_of_memory(run->job);
  run->failed = 1;
}

/* The i-th candidate's name in the plan: a clone's name here, a by-use
 * one's stem (clone_keepers.h). */
static const char *candidate_name(const mtpc_job_run *run, uint32_t i) {
  return run->plan->nodes[run->candidates[i]].name;
}

static int is_by_use(const mtpc_job_run *run, uint32_t i) {
  return run->by_use && run->by_use[i];
}

/* The stems of the module's promoted functions that something uses, or
 * that are definitions nothing uses (`unused`): values their functions.
 * The keys point into the module. Non-zero when memory runs out. */
static int promoted_stems(LLVMModuleRef module, int unused, mtpc_strmap *stems,
                          LLVMValueRef **functions, size_t *count) {
  size_t cap = 0;
  *functions = NULL;
  *count = 0;
  if (mtpc_strmap_init(stems, 64))
    return 1;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    size_t stem = mtpc_promoted_stem_length(name, length);
    int used = LLVMGetFirstUse(f) != NULL;
    if (!stem || (unused ? used || LLVMIsDeclaration(f) : !used))
      continue;
    if (MTPC_PUSH(*functions, *count, cap, f) ||
        mtpc_strmap_put(stems, name, stem, (uint32_t)(*count - 1))) {
      mtpc_strmap_free(stems);
      free(*functions);
      return 1;
    }
  }
  return 0;
}

/* The names of the candidates `pick` says and `except` (NULL: none) does
 * not; NULL when memory runs out. */
static const char **candidate_names(const mtpc_job_run *run, const uint8_t *pick,
                                    const uint8_t *except, size_t *count) {
  const char **names = mtpc_alloc(run->candidate_count ? run->candidate_count : 1, sizeof(char *));
  *count = 0;
  for (uint32_t i = 0; names && pick && i < run->candidate_count; i++)
    if (pick[i] && !(except && except[i]))
      names[(*count)++] = candidate_name(run, i);
  return names;
}

/* The functions this partition owns under promoted names, with their own
 * (names and originals point into the plan), when profile records name
 * them (an unsplit module, which has no plan, has none); non-zero when
 * memory runs out. */
static int owned_promoted(const mtpc_job_run *run, mtpc_renames *r) {
  const mtpc_plan *plan = run->plan;
  int wanted = mtpc_bridge_settings_describe(run->config->settings)->names_profile_records;
  uint32_t count = plan && wanted ? plan->node_count : 0;
  const char **names = mtpc_alloc(count ? count : 1, sizeof(char *));
  const char **originals = mtpc_alloc(count ? count : 1, sizeof(char *));
  r->names = names;
  r->originals = originals;
  r->count = 0;
  if (!names || !originals)
    return 1;
  for (uint32_t i = 0; i < count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    if (n->owner != run->job->partition || n->kind != MTPC_FUNCTION || !n->promoted_name ||
        !n->name[0])
      continue;
    names[r->count] = n->promoted_name;
    originals[r->count++] = n->name;
  }
  return 0;
}

static void free_renames(mtpc_renames *r) {
  free((void *)r->names);
  free((void *)r->originals);
}

/* The target machine, the remarks and the optimizer; sets run->failed. */
static void optimize(mtpc_job_run *run) {
  const mtpc_codegen_config *config = run->config;
  mtpc_job *job = run->job;
  char *message = NULL;
  double start = mtpc_now_seconds(), cpu = mtpc_thread_cpu_seconds();
  run->machine = mtpc_bridge_create_target_machine(config->settings, run->module, &message);
  job->stats.target_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
  if (!run->machine) {
    fail_job(job, MTPC_JOB_FAILED, message, "target");
    run->failed = 1;
    return;
  }
  run->remarks = mtpc_bridge_remarks_begin(config->settings, run->context, &message);
  if (message) {
    fail_job(job, MTPC_JOB_FAILED, message, "remarks");
    run->failed = 1;
    return;
  }
  if (save_temp(config, run->module, job->partition, "3.import")) {
    run_out_of_memory(run);
    return;
  }
  if (!run->hit && config->options->collect_stats == MTPC_STATS_ACCOUNT) {
    if (mtpc_job_account_begin(&run->account_of_job, run->plan, job->partition)) {
      run_out_of_memory(run);
      return;
    }
    run->account = &run->account_of_job;
  }
  size_t late_count = 0;
  const char **late = candidate_names(run, run->later, NULL, &late_count);
  mtpc_renames promoted;
  if (owned_promoted(run, &promoted) || !late) {
    free_renames(&promoted);
    free(late);
    run_out_of_memory(run);
    return;
  }
  mtpc_bridge_time_trace_begin("mtpc optimize", run->detail);
  run->failed = mtpc_bridge_optimize(config->settings, run->module, run->machine, late,
                                     late_count, &promoted,
                                     run->account ? &run->account->work : NULL, &message) ||
                run->diag.error;
  mtpc_bridge_time_trace_end();
  free_renames(&promoted);
  free(late);
  if (run->failed)
    fail_job(job, MTPC_JOB_FAILED, message ? message : llvm_error(&run->diag), "optimizing");
  run->optimized = 1;
  job->stats.opt_seconds = mtpc_now_seconds() - start;
}

/* What a partition's survivors entry holds, after a mark: the names of the
 * discardable functions its optimizer left, each as 'D' and the name, and
 * of the promoted functions it still uses, each as 'U' and the name without
 * its promoted suffix, each ending in '\0'. Neither depends on which of
 * them the plan makes candidates, which an entry outlives (the plan of an
 * edited module may ask about others), nor on the suffixes, which the
 * cache masks. */
#define SURVIVORS_MARK "S2"

static int discardable(LLVMValueRef f) {
  LLVMLinkage linkage = LLVMGetLinkage(f);
  return linkage == LLVMLinkOnceAnyLinkage || linkage == LLVMLinkOnceODRLinkage;
}

/* Appends 'kind' and `length` bytes of `name`, then '\0', at *at, or only
 * counts. */
static void put_survivor(char *names, size_t *at, char kind, const char *name, size_t length) {
  if (names) {
    names[*at] = kind;
    memcpy(names + *at + 1, name, length);
    names[*at + 1 + length] = '\0';
  }
  *at += length + 2;
}

/* Writes (names NULL: counts) the entry's names. */
static size_t put_survivors(LLVMModuleRef module, char *names) {
  size_t at = sizeof(SURVIVORS_MARK);
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
    size_t length = 0;
    const char *name = LLVMGetValueName2(f, &length);
    size_t stem = mtpc_promoted_stem_length(name, length);
    if (!LLVMIsDeclaration(f) && discardable(f))
      put_survivor(names, &at, 'D', name, length);
    if (stem && LLVMGetFirstUse(f))
      put_survivor(names, &at, 'U', name, stem);
  }
  return at;
}

static char *survivor_names(LLVMModuleRef module, size_t *size) {
  size_t total = put_survivors(module, NULL);
  char *names = mtpc_alloc(total, 1);
  if (!names)
    return NULL;
  memcpy(names, SURVIVORS_MARK, sizeof(SURVIVORS_MARK));
  put_survivors(module, names);
  *size = total;
  return names;
}

/* How the entry names the i-th candidate, malloc'ed; NULL when memory runs
 * out. */
static char *survivor_entry_name(const mtpc_job_run *run, uint32_t i) {
  return mtpc_asprintf("%c%s", is_by_use(run, i) ? 'U' : 'D', candidate_name(run, i));
}

static int compare_strings(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* survived[i] from a survivors entry; non-zero when memory runs out. */
static int read_survivors(const mtpc_job_run *run, const char *names, size_t size,
                          uint8_t *survived) {
  size_t count = 0;
  for (size_t at = sizeof(SURVIVORS_MARK); at < size; at += strlen(names + at) + 1)
    count++;
  const char **sorted = mtpc_alloc(count ? count : 1, sizeof(char *));
  if (!sorted)
    return 1;
  count = 0;
  for (size_t at = sizeof(SURVIVORS_MARK); at < size; at += strlen(names + at) + 1)
    sorted[count++] = names + at;
  qsort(sorted, count, sizeof(char *), compare_strings);
  for (uint32_t i = 0; i < run->candidate_count && count; i++) {
    char *name = survivor_entry_name(run, i);
    if (!name) {
      free(sorted);
      return 1;
    }
    survived[i] = bsearch(&name, sorted, count, sizeof(char *), compare_strings) != NULL;
    free(name);
  }
  free(sorted);
  return 0;
}

static int valid_survivors(const void *data, size_t size) {
  return size >= sizeof(SURVIVORS_MARK) && !memcmp(data, SURVIVORS_MARK, sizeof(SURVIVORS_MARK)) &&
         ((const char *)data)[size - 1] == '\0';
}

static void survivors_key(const mtpc_job_run *run, mtpc_cache_key *key) {
  mtpc_cache_key_derive(&run->key, "survivors", NULL, 0, key);
}

/* 1 when the cache knew which candidates survive (*survived set), 0 when
 * not, -1 when memory ran out. */
static int look_up_survivors(mtpc_job_run *run, uint8_t *survived) {
  mtpc_cache_key key;
  survivors_key(run, &key);
  void *data = NULL, *none = NULL;
  size_t size = 0, none_size = 0;
  int hit = mtpc_cache_lookup(run->config->cache, &key, &data, &size, &none, &none_size);
  if (hit > 0 && (none || !valid_survivors(data, size)))
    hit = 0;
  if (hit > 0 && read_survivors(run, data, size, survived))
    hit = -1;
  free(data);
  free(none);
  return hit;
}

static int store_survivors(mtpc_job_run *run) {
  size_t size = 0;
  char *names = survivor_names(run->module, &size);
  if (!names)
    return 1;
  mtpc_cache_key key;
  survivors_key(run, &key);
  mtpc_cache_store(run->config->cache, &key, names, size, NULL, 0);
  free(names);
  return 0;
}

/* Non-zero when memory runs out. */
static int find_survivors(const mtpc_job_run *run, uint8_t *survived) {
  int any_by_use = 0;
  for (uint32_t i = 0; i < run->candidate_count; i++)
    any_by_use |= is_by_use(run, i);
  mtpc_strmap used = {0};
  LLVMValueRef *functions = NULL;
  size_t count = 0;
  if (any_by_use && promoted_stems(run->module, 0, &used, &functions, &count))
    return 1;
  for (uint32_t i = 0; i < run->candidate_count; i++) {
    const char *name = candidate_name(run, i);
    uint32_t ignored;
    if (is_by_use(run, i)) {
      survived[i] = mtpc_strmap_get(&used, name, strlen(name), &ignored);
    } else {
      LLVMValueRef f = LLVMGetNamedFunction(run->module, name);
      survived[i] = f && !LLVMIsDeclaration(f);
    }
  }
  if (any_by_use)
    mtpc_strmap_free(&used);
  free(functions);
  return 0;
}

/* The names of the candidates drop[] says, '\0'-separated in `*joined`
 * (for the cache's key). NULL when memory runs out. */
static const char **drop_names(const mtpc_job_run *run, const uint8_t *drop, size_t *count,
                               char **joined, size_t *joined_size) {
  const char **names = candidate_names(run, drop, NULL, count);
  size_t size = 0;
  for (size_t i = 0; names && i < *count; i++)
    size += strlen(names[i]) + 1;
  *joined = names ? mtpc_alloc(size ? size : 1, 1) : NULL;
  if (!*joined) {
    free(names);
    return NULL;
  }
  size_t at = 0;
  for (size_t i = 0; i < *count; i++) {
    size_t length = strlen(names[i]) + 1;
    memcpy(*joined + at, names[i], length);
    at += length;
  }
  *joined_size = size;
  return names;
}

/* 1 and the job's object on a hit, 0 on a miss (*key then says where its
 * object goes), -1 when memory ran out. */
static int look_up_object(mtpc_job_run *run, const char *drops, size_t drops_size,
                          mtpc_cache_key *key) {
  mtpc_job *job = run->job;
  mtpc_cache_key_derive(&run->key, "object", drops, drops_size, key);
  int hit = mtpc_cache_lookup(run->config->cache, key, &job->object, &job->object_size,
                              &job->dwo, &job->dwo_size);
  job->stats.cache_hit = hit > 0;
  return hit;
}

/* Masks the module and keys it (the partition cache); sets run->failed. */
static void key_module(mtpc_job_run *run) {
  const mtpc_codegen_config *config = run->config;
  mtpc_job *job = run->job;
  /* Renamed back, an object is ObjCopy's; a merged or linked one is laid
   * out again, but an unsplit object is the output as it is. */
  int names = mtpc_cache_masks_names(config->cache) &&
              !(job->partition == MTPC_NONE && config->options->merge);
  if (mtpc_cache_mask_module(run->module, names, mtpc_cache_masks_checksums(config->cache),
                             &run->masks) ||
      mtpc_cache_key_of(config->cache, run->module, run->masks, skeleton_dwo_name(config, job),
                        &run->key))
    run_out_of_memory(run);
}

static LLVMContextRef new_context(const mtpc_codegen_config *config, worker_diag *diag) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(context, on_llvm_diagnostic, diag);
  /* Names stay for IR that people read (--emit-partitions, --save-temps). */
  LLVMContextSetDiscardValueNames(
      context, mtpc_bridge_settings_describe(config->settings)->discard_names &&
                   !config->options->emit_partitions_dir);
  return context;
}

/* Reads and forms the partition's module; MTPC_PARTITION_RELOAD when it
 * must be read again with every function's record as it is. */
static int load_from_view(mtpc_job_run *run, int keep_records) {
  const mtpc_codegen_config *config = run->config;
  mtpc_job *job = run->job;
  char *message = NULL;
  int failed = mtpc_bitcode_view_open(config->bitcode, job->partition, keep_records,
                                      &run->view, &message);
  run->view_open = !failed;
  if (!failed)
    failed = !(run->module = load_module(config, run->context, &run->view, &message));
  if (failed) {
    fail_job(job, MTPC_JOB_FAILED, message, "loading");
    return 1;
  }
  int reload = !keep_records && run->view.records_cut &&
               mtpc_fault_reload(config->faults, job->partition);
  return reload ? MTPC_PARTITION_RELOAD
                : form_module(config, run->plan, job, run->module, &run->view);
}

/* What a first load made goes, in a new context: types and constants it
 * made would otherwise stay in the context, and a struct type read again
 * would take another name. */
static void unload(mtpc_job_run *run) {
  LLVMDisposeModule(run->module);
  run->module = NULL;
  mtpc_bitcode_view_close(&run->view);
  run->view_open = 0;
  LLVMContextDispose(run->context);
  run->context = new_context(run->config, &run->diag);
}

static void load(mtpc_job_run *run) {
  mtpc_job *job = run->job;
  double start = mtpc_now_seconds(), cpu = mtpc_thread_cpu_seconds();
  mtpc_bridge_time_trace_begin("mtpc load", run->detail);
  int status = load_from_view(run, 0);
  if (status == MTPC_PARTITION_RELOAD) {
    unload(run);
    job->stats.reloaded = 1;
    status = load_from_view(run, 1);
  }
  run->failed = status != 0;
  mtpc_bridge_time_trace_end();
  job->stats.load_seconds = mtpc_now_seconds() - start;
  job->stats.load_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
}

mtpc_job_run *mtpc_job_front(const mtpc_codegen_config *config, const mtpc_plan *plan,
                             mtpc_job *job, const uint32_t *candidates, const uint8_t *by_use,
                             uint32_t candidate_count, const uint8_t *later, uint8_t *survived) {
  mtpc_job_run *run = mtpc_zalloc(1, sizeof(*run));
  memset(survived, 0, candidate_count);
  if (!run) {
    job_out_of_memory(job);
    return NULL;
  }
  *run = (mtpc_job_run){.config = config, .plan = plan, .job = job, .candidates = candidates,
                        .by_use = by_use,
                        .candidate_count = candidate_count, .later = later,
                        .diag = {config->reporter, 0, NULL}};
  snprintf(run->detail, sizeof(run->detail), "partition %d",
           job->partition == MTPC_NONE ? -1 : (int)job->partition);
  mtpc_bridge_time_trace_begin("mtpc partition", run->detail);
  double cpu = mtpc_thread_cpu_seconds();
  uint64_t memory_mark = mtpc_thread_memory_begin();
  run->context = new_context(config, &run->diag);
  load(run);
  if (!run->failed && config->cache)
    key_module(run);
  int known = 0; /* which candidates survive */
  if (!run->failed && config->cache) {
    mtpc_cache_key ignored;
    int found = candidate_count ? look_up_survivors(run, survived)
                                : look_up_object(run, "", 0, &ignored);
    if (found < 0)
      run_out_of_memory(run);
    known = found > 0 && candidate_count;
    run->hit = found > 0 && !candidate_count;
  }
  if (!run->failed && !run->hit && !known) {
    optimize(run);
    if (!run->failed && find_survivors(run, survived))
      run_out_of_memory(run);
    if (!run->failed && config->cache && candidate_count && store_survivors(run))
      run_out_of_memory(run);
  }
  if (run->failed)
    memset(survived, 0, candidate_count);
  run->cpu_seconds += mtpc_thread_cpu_seconds() - cpu;
  run->memory_bytes += mtpc_thread_memory_used(memory_mark);
  mtpc_bridge_time_trace_end();
  return run;
}

/* Code generation of the optimized module (the object, or its bitcode with
 * --emit-llvm); the account's measurement without the clones first. */
static void generate(mtpc_job_run *run) {
  const mtpc_codegen_config *config = run->config;
  mtpc_job *job = run->job;
  double without_clones = -1;
  if (run->account && run->account->clone_count && !config->options->emit_llvm)
    run->account->own_cpu_seconds = mtpc_job_account_codegen_without_clones(
        run->account, config->settings, run->module, run->machine, &without_clones);
  double start = mtpc_now_seconds(), cpu = mtpc_thread_cpu_seconds();
  mtpc_bridge_time_trace_begin("mtpc codegen", run->detail);
  int failed;
  if (config->options->emit_llvm) /* the optimized IR stands for the object */
    failed = !(job->object = mtpc_module_bitcode(run->module, &job->object_size));
  else
    failed = codegen(config, run->module, run->machine, job);
  job->stats.codegen_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
  if (without_clones >= 0)
    job->stats.codegen_clone_cpu_seconds = job->stats.codegen_cpu_seconds - without_clones;
  mtpc_bridge_time_trace_end();
  job->stats.codegen_seconds = mtpc_now_seconds() - start;
  if (!failed && run->diag.error) {
    failed = 1;
    fail_job(job, MTPC_JOB_FAILED, llvm_error(&run->diag), "code generation");
  } else if (failed) {
    fail_job(job, MTPC_JOB_FAILED, job->message, "code generation");
  }
  run->failed = failed;
}

/* The late pipeline on the clones that waited for it and that this
 * partition keeps (late_clones.h); sets run->failed. */
static void optimize_late_clones(mtpc_job_run *run, const uint8_t *drop) {
  size_t count = 0;
  const char **kept = candidate_names(run, run->later, drop, &count);
  if (!kept) {
    run_out_of_memory(run);
    return;
  }
  if (!count) {
    free(kept);
    return;
  }
  char *message = NULL;
  double start = mtpc_now_seconds();
  mtpc_bridge_time_trace_begin("mtpc optimize late clones", run->detail);
  run->failed = mtpc_bridge_optimize_late_clones(run->config->settings, run->module,
                                                 run->machine, kept, count,
                                                 run->account ? &run->account->work : NULL,
                                                 &message) ||
                run->diag.error;
  mtpc_bridge_time_trace_end();
  free(kept);
  if (run->failed)
    fail_job(run->job, MTPC_JOB_FAILED, message ? message : llvm_error(&run->diag), "optimizing");
  run->job->stats.opt_seconds += mtpc_now_seconds() - start;
}

/* The object of a run whose candidates drop[] are left to other
 * partitions: from the cache, or optimized if the front did not, and code
 * generated. */
static void make_object(mtpc_job_run *run, const uint8_t *drop) {
  const mtpc_codegen_config *config = run->config;
  size_t drop_count = 0, joined_size = 0;
  char *joined = NULL;
  const char **drops = drop_names(run, drop, &drop_count, &joined, &joined_size);
  if (!drops) {
    run_out_of_memory(run);
    return;
  }
  /* Of the drops (all in the key), the clones' and the dead definitions'. */
  size_t clone_count = 0, dead_count = 0;
  const char **clones = candidate_names(run, drop, run->by_use, &clone_count);
  const char **dead = candidate_names(run, drop, NULL, &dead_count);
  if (!clones || !dead) {
    free(clones);
    free(dead);
    free(drops);
    free(joined);
    run_out_of_memory(run);
    return;
  }
  dead_count = 0;
  for (uint32_t i = 0; drop && i < run->candidate_count; i++)
    if (drop[i] && is_by_use(run, i))
      dead[dead_count++] = candidate_name(run, i);
  run->job->stats.clones_dropped = (unsigned)drop_count;
  run->job->stats.dead_dropped = (unsigned)dead_count;
  mtpc_cache_key key;
  int hit = config->cache ? look_up_object(run, joined, joined_size, &key) : 0;
  if (hit < 0)
    run_out_of_memory(run);
  run->hit = hit > 0;
  if (!run->failed && !run->hit && !run->optimized)
    optimize(run);
  if (!run->failed && !run->hit)
    optimize_late_clones(run, drop);
  if (!run->failed && !run->hit &&
      finish_optimized(config, run->module, run->job->partition, clones, clone_count, dead,
                       dead_count))
    run_out_of_memory(run);
  if (!run->failed && !run->hit)
    generate(run);
  /* Stored with the placeholders: the names it was compiled with, and the
   * checksums masked again here; unmask() gives both back. */
  if (!run->failed && !run->hit && config->cache &&
      !mtpc_cache_mask_object(run->masks, run->job->object, run->job->object_size,
                              run->job->dwo, run->job->dwo_size))
    mtpc_cache_store(config->cache, &key, run->job->object, run->job->object_size,
                     run->job->dwo, run->job->dwo_size);
  free(drops);
  free(clones);
  free(dead);
  free(joined);
}

static void end_remarks(mtpc_job_run *run) {
  if (run->remarks && mtpc_bridge_remarks_end(run->remarks, &run->job->remarks,
                                              &run->job->remarks_size) && !run->failed)
    run_out_of_memory(run);
  run->remarks = NULL;
}

static void unmask(mtpc_job_run *run) {
  char *message = NULL;
  mtpc_job *job = run->job;
  if (!run->failed && mtpc_cache_unmask_object(run->masks, &job->object, &job->object_size,
                                               job->dwo, job->dwo_size, &message)) {
    run->failed = 1;
    if (message)
      fail_job(job, MTPC_JOB_FAILED, message, "renaming");
    else
      job_out_of_memory(job);
  }
  mtpc_cache_masks_free(run->masks);
  run->masks = NULL;
}

static void release(mtpc_job_run *run) {
  mtpc_job *job = run->job;
  mtpc_bridge_time_trace_begin("mtpc release", run->detail);
  double start = mtpc_now_seconds(), cpu = mtpc_thread_cpu_seconds();
  if (run->machine)
    LLVMDisposeTargetMachine(run->machine);
  if (run->context)
    mtpc_release_context(run->context, run->module);
  if (run->view_open)
    mtpc_bitcode_view_close(&run->view);
  job->stats.release_cpu_seconds = mtpc_thread_cpu_seconds() - cpu;
  mtpc_bridge_time_trace_end();
  job->stats.release_seconds = mtpc_now_seconds() - start;
}

void mtpc_job_back(mtpc_job_run *run, const uint8_t *drop) {
  mtpc_job *job = run->job;
  mtpc_bridge_time_trace_begin("mtpc partition", run->detail);
  double cpu = mtpc_thread_cpu_seconds();
  uint64_t memory_mark = mtpc_thread_memory_begin();
  if (!run->failed && !run->hit)
    make_object(run, drop);
  end_remarks(run);
  double account_cpu_seconds = 0; /* the account's own work, not the job's */
  if (run->account) {
    job->stats.opt_own_cpu_seconds = run->account->work.own;
    job->stats.opt_copy_cpu_seconds = run->account->work.copies;
    job->stats.opt_clone_cpu_seconds = run->account->work.clones;
    job->stats.opt_module_cpu_seconds = run->account->work.module;
    account_cpu_seconds = run->account->own_cpu_seconds;
    mtpc_job_account_end(run->account);
  }
  unmask(run);
  job->stats.rss_bytes = mtpc_current_rss();
  job->stats.object_bytes = job->object_size;
  release(run);
  run->memory_bytes += mtpc_thread_memory_used(memory_mark);
  job->stats.memory_bytes = run->memory_bytes;
  job->stats.cpu_seconds =
      run->cpu_seconds + mtpc_thread_cpu_seconds() - cpu - account_cpu_seconds;
  free(run->diag.first_error);
  mtpc_bridge_time_trace_end();
  free(run);
}
