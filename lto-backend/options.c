/* mtpc_options: defaults, and a caller's options (of whatever size its
 * header had) made whole and checked. */
#include "options.h"

#include <stdio.h>
#include <string.h>

#include "lto-backend/codegen/coverage_spec.h"
#include "lto-backend/codegen/sanitizer_spec.h"
#include "partitioner/plan.h"
#include "support/llvm_support.h"
#include "support/support.h"

static void set_defaults(mtpc_options *o) {
  memset(o, 0, sizeof(*o));
  o->struct_size = sizeof(*o);
  o->opt_level = 2;
  o->codegen_opt_level = 2;
  o->reloc_model = MTPC_RELOC_DEFAULT;
  o->import_instr_limit = MTPC_IMPORT_LIMIT_BY_MODULE;
  o->merge = 1;
  o->verify = 1;
}

void mtpc_options_init_abi2(mtpc_options *o, size_t struct_size) {
  mtpc_options defaults;
  set_defaults(&defaults);
  size_t known = struct_size < sizeof(defaults) ? struct_size : sizeof(defaults);
  memset(o, 0, struct_size);
  memcpy(o, &defaults, known);
  o->struct_size = struct_size;
}

void mtpc_llvm_options_init_abi2(mtpc_llvm_options *o, size_t struct_size) {
  memset(o, 0, struct_size);
  o->struct_size = struct_size;
}

/* Bytes past the `known` this library knows must be zero: the caller's
 * newer header has fields it did not set. */
static int tail_is_zero(const void *given, size_t known, size_t size) {
  const unsigned char *bytes = given;
  for (size_t i = known; i < size; i++)
    if (bytes[i])
      return 0;
  return 1;
}

int mtpc_debugger_tuning_known(const char *name) {
  return !strcmp(name, "gdb") || !strcmp(name, "lldb") || !strcmp(name, "sce") ||
         !strcmp(name, "dbx");
}

int mtpc_compression_known(const char *name) {
  return !strcmp(name, "none") || !strcmp(name, "zlib") || !strcmp(name, "zstd");
}

int mtpc_sanitizer_coverage_known(const char *name) {
  mtpc_coverage_spec spec;
  char why[80];
  return *name && !strchr(name, ',') && !mtpc_coverage_spec_read(name, &spec, why, sizeof(why));
}

/* What is wrong with the options' values, written to `why`; 0 if nothing. */
static int check(const mtpc_options *o, const mtpc_llvm_options *llvm, char *why, size_t size) {
  mtpc_sanitizer_spec sanitizer;
  mtpc_coverage_spec coverage;
  if (o->opt_level > 3)
    snprintf(why, size, "optimization level %u is not 0, 1, 2 or 3", o->opt_level);
  else if (o->codegen_opt_level > 3)
    snprintf(why, size, "code generation level %u is not 0, 1, 2 or 3", o->codegen_opt_level);
  else if ((unsigned)o->reloc_model > MTPC_RELOC_DYNAMIC_NO_PIC)
    snprintf(why, size, "unknown relocation model %d", (int)o->reloc_model);
  else if (o->emit_llvm && o->emit_assembly)
    snprintf(why, size, "emit_llvm and emit_assembly exclude each other");
  else if ((unsigned)o->code_model > MTPC_CODE_MODEL_LARGE)
    snprintf(why, size, "unknown code model %d", (int)o->code_model);
  else if (o->full_lto && llvm->import_summary)
    snprintf(why, size, "full_lto and an import summary exclude each other");
  else if (llvm->export_summary && !o->full_lto)
    snprintf(why, size, "an export summary without full_lto");
  else if (o->llvm_option_count && !o->llvm_options)
    snprintf(why, size, "llvm_option_count without llvm_options");
  else if (mtpc_sanitizer_spec_read(o->sanitizers, &sanitizer, why, size))
    return 1;
  else if (mtpc_coverage_spec_read(o->sanitizer_coverage, &coverage, why, size))
    return 1;
  else if ((o->sanitizer_coverage_allowlist || o->sanitizer_coverage_ignorelist) &&
           coverage.level == MTPC_COVERAGE_NONE)
    snprintf(why, size, "a sanitizer coverage allowlist or ignorelist without coverage");
  else if (o->dfsan_abilist_count && !o->dfsan_abilists)
    snprintf(why, size, "dfsan_abilist_count without dfsan_abilists");
  else if (o->dfsan_abilist_count && sanitizer.kind != MTPC_SANITIZER_DATAFLOW)
    snprintf(why, size, "DataFlowSanitizer ABI lists without the \"dataflow\" sanitizer");
  else if (o->debugger_tuning && !mtpc_debugger_tuning_known(o->debugger_tuning))
    snprintf(why, size, "unknown debugger tuning '%s' (gdb, lldb, sce, dbx)", o->debugger_tuning);
  else if (o->compress_debug_sections && !mtpc_compression_known(o->compress_debug_sections))
    snprintf(why, size, "unknown debug section compression '%s' (none, zlib, zstd)",
             o->compress_debug_sections);
  else if (o->compress_debug_sections &&
           !mtpc_bridge_compression_available(o->compress_debug_sections))
    snprintf(why, size, "LLVM %s was built without %s", mtpc_bridge_llvm_version(),
             o->compress_debug_sections);
  else if (o->gcov & ~(unsigned)(MTPC_GCOV_NOTES | MTPC_GCOV_DATA | MTPC_GCOV_NO_RED_ZONE))
    snprintf(why, size, "unknown gcov flags 0x%x", o->gcov);
  else if (o->ir_profile_generate && o->ir_profile_use && *o->ir_profile_use)
    snprintf(why, size, "ir_profile_generate and ir_profile_use exclude each other");
  else if (o->ir_profile_generate && (o->cs_profile_generate || (o->cs_profile && *o->cs_profile)))
    snprintf(why, size, "ir_profile_generate and a context-sensitive profile exclude each other");
  else if (o->ir_profile_use && *o->ir_profile_use && !o->cs_profile_generate && o->cs_profile &&
           *o->cs_profile && strcmp(o->cs_profile, o->ir_profile_use) != 0)
    snprintf(why, size, "a context-sensitive profile other than ir_profile_use (the pipeline "
                        "reads both kinds of records from one file)");
  else if (mtpc_runs_profile_phase(o) && o->opt_level == 0)
    snprintf(why, size, "IR profile instrumentation or use at optimization level 0");
  else if (mtpc_runs_profile_phase(o) && (o->full_lto || llvm->import_summary))
    snprintf(why, size, "IR profile instrumentation or use with LTO (the pre-link compile's)");
  else if (mtpc_runs_profile_phase(o) && o->opt_pipeline && *o->opt_pipeline &&
           strncmp(o->opt_pipeline, "default<", strlen("default<")) != 0)
    snprintf(why, size, "IR profile instrumentation or use with a pipeline other than default<ON>");
  else
    return 0;
  return 1;
}

/* What is wrong with the size of a struct its caller set up with `init`
 * (`kind` names it in messages), written to `why`; 0 if nothing. It must
 * reach past its first field, `first_end`, and what it has past this
 * library's `known` size must be zero. */
static int check_struct_size(const void *given, size_t struct_size, size_t first_end,
                             size_t known, const char *kind, const char *init, char *why,
                             size_t size) {
  if (struct_size < first_end)
    snprintf(why, size, "%s of size %zu: not set up by %s", kind, struct_size, init);
  else if (!tail_is_zero(given, known, struct_size))
    snprintf(why, size, "%s set fields this library (%s) does not have", kind,
             MTPC_VERSION_STRING);
  else
    return 0;
  return 1;
}

static int check_size(const mtpc_options *given, char *why, size_t size) {
  if (!given) {
    snprintf(why, size, "no options given");
    return 1;
  }
  return check_struct_size(given, given->struct_size,
                           offsetof(mtpc_options, jobs) + sizeof(given->jobs),
                           sizeof(mtpc_options), "options", "mtpc_options_init", why, size);
}

static int check_llvm_size(const mtpc_llvm_options *given, char *why, size_t size) {
  return check_struct_size(given, given->struct_size,
                           offsetof(mtpc_llvm_options, lto_config) + sizeof(given->lto_config),
                           sizeof(mtpc_llvm_options), "LLVM options", "mtpc_llvm_options_init",
                           why, size);
}

/* Copies the `struct_size` bytes the caller has of `given` over `whole`'s
 * defaults, of which this library knows `known`. */
static void copy_known(void *whole, const void *given, size_t struct_size, size_t known) {
  memcpy(whole, given, struct_size < known ? struct_size : known);
}

mtpc_status mtpc_options_import(const mtpc_options *given, const mtpc_llvm_options *llvm_given,
                                mtpc_options *whole, mtpc_llvm_options *llvm_whole,
                                char **problem) {
  set_defaults(whole);
  mtpc_llvm_options_init(llvm_whole);
  char why[160];
  *problem = NULL;
  int bad = check_size(given, why, sizeof(why)) ||
            (llvm_given && check_llvm_size(llvm_given, why, sizeof(why)));
  if (!bad) {
    copy_known(whole, given, given->struct_size, sizeof(*whole));
    whole->struct_size = sizeof(*whole);
    if (llvm_given)
      copy_known(llvm_whole, llvm_given, llvm_given->struct_size, sizeof(*llvm_whole));
    llvm_whole->struct_size = sizeof(*llvm_whole);
    if (!check(whole, llvm_whole, why, sizeof(why)))
      return MTPC_OK;
  }
  *problem = mtpc_strdup(why);
  return *problem ? MTPC_ERR_INVALID_ARGUMENT : MTPC_ERR_NO_MEMORY;
}
