/* The options a compile runs with (options.c). */
#ifndef MTPC_OPTIONS_H
#define MTPC_OPTIONS_H

#include "mtpc/llvm.h"
#include "mtpc/mtpc.h"

/* Copies the caller's options into `whole`, and what an embedder lent
 * (`llvm_given`, NULL for none) into `llvm_whole`: every field this library
 * has, defaults for the ones the caller's header lacked. MTPC_OK if they
 * are valid, else MTPC_ERR_INVALID_ARGUMENT with what is wrong in *problem
 * (malloc'ed; NULL, and MTPC_ERR_NO_MEMORY, when memory ran out). */
mtpc_status mtpc_options_import(const mtpc_options *given, const mtpc_llvm_options *llvm_given,
                                mtpc_options *whole, mtpc_llvm_options *llvm_whole,
                                char **problem);

/* Whether `name` is a debugger mtpc_options.debugger_tuning may name:
 * "gdb", "lldb", "sce" or "dbx" (what the options' check and `mtpc
 * compile --debugger-tune` accept). */
int mtpc_debugger_tuning_known(const char *name);

/* Whether `name` is a compression mtpc_options.compress_debug_sections may
 * name: "none", "zlib" or "zstd". */
int mtpc_compression_known(const char *name);

/* Whether `name` is one value of mtpc_options.sanitizer_coverage: a level
 * or a kind of SanitizerCoverage's, in clang's spelling ("edge",
 * "trace-cmp"). */
int mtpc_sanitizer_coverage_known(const char *name);

/* Whether instrumentation passes run on the whole module before the split
 * (gcov's, the lowering of clang's counters). */
static inline int mtpc_instruments_whole_module(const mtpc_options *o) {
  return o->gcov != 0 || o->lower_instrprof != 0 || o->instrument_functions != 0;
}

/* Whether the first part of the per-module pipeline, to IR profile
 * instrumentation or use, runs on the whole module before the split. */
static inline int mtpc_runs_profile_phase(const mtpc_options *o) {
  return o->ir_profile_generate != 0 || (o->ir_profile_use && *o->ir_profile_use);
}

/* Whether any passes run on the whole module before the split (full
 * LTO's, the two above): it is read whole, and a caller's is copied. */
static inline int mtpc_changes_whole_module(const mtpc_options *o) {
  return o->full_lto || mtpc_instruments_whole_module(o) || mtpc_runs_profile_phase(o);
}

#endif
