/* How every partition is optimized and code-generated: as LLVM's ThinLTO
 * backend (lto::thinBackend) would optimize and code-generate the whole
 * module with the same lto::Config. A linker or `mtpc backend` lends its own
 * Config (mtpc_llvm_options.lto_config); for C callers one is built from the
 * options. (C++, pipeline.cpp: LLVM-C has no Config, TargetOptions, PGO
 * options or pass plugins.) */
#ifndef MTPC_PIPELINE_H
#define MTPC_PIPELINE_H

#include <stddef.h>

#include <llvm-c/TargetMachine.h>
#include <llvm-c/Types.h>

#include "mtpc/mtpc.h"
#include "work_account.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtpc_bridge_settings mtpc_bridge_settings;

/* The settings of one compile: the lent Config (a `const lto::Config *`),
 * or when NULL one built from the options. NULL and *message when an
 * option is bad. */
mtpc_bridge_settings *mtpc_bridge_settings_create(const mtpc_options *options,
                                                  const void *lto_config, char **message);
void mtpc_bridge_settings_free(mtpc_bridge_settings *settings);

/* What the C side needs to know of the settings. */
typedef struct mtpc_bridge_settings_info {
  /* Split DWARF of the module as one unit: the name its skeleton unit
   * records and the file the .dwo goes to; NULL when there is none. A name
   * without an output is single-file split DWARF (the .dwo sections stay in
   * the object). With dwo_dir (lld's --plugin-opt=dwo_dir=), both are
   * <dwo_dir>/<task>.dwo, as LLVM's LTO names them. */
  const char *dwo_name;
  const char *dwo_output;
  const char *dwo_dir;
  int assembly;      /* code generation writes assembly, not an object */
  int debug_passes;  /* the pipeline prints its passes (--lto-debug-pass-manager) */
  int discard_names; /* value names are dropped as the module is read, as LLVM's
                        LTO does unless temporary files are saved */
  /* How the Config's code generation compresses debug sections ("zlib",
   * "zstd"; NULL: not at all). The partitions' never do: the merge and the
   * cache read them, and the session compresses its outputs last. */
  const char *compression;
  /* Context-sensitive PGO runs in the partitions' pipelines, whose records
   * name a promoted local by its own name (mtpc_bridge_optimize's
   * `promoted`, pgo_names.h). */
  int names_profile_records;
  /* DataFlowSanitizer runs in the partitions' pipelines, and names functions
   * after promoted ones (sanitizers.cpp; the merge gives those names back). */
  int names_after_promoted;
} mtpc_bridge_settings_info;
const mtpc_bridge_settings_info *mtpc_bridge_settings_describe(const mtpc_bridge_settings *s);

/* A TargetMachine for one partition, created as LLVM's LTO creates one for
 * the module (the Config's CPU, features, TargetOptions, relocation and code
 * model, the module's large-data threshold). NULL and *message on failure. */
LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_settings *settings,
                                                       LLVMModuleRef module, char **message);

/* Names given to values and the names they had: names[i] was originals[i]. */
typedef struct mtpc_renames {
  const char *const *names;
  const char *const *originals;
  size_t count;
} mtpc_renames;

/* Runs the optimization pipeline lto::opt would run on a ThinLTO module: the
 * Config's custom pipeline or the ThinLTO backend pipeline (with full_lto, the
 * full LTO pipeline), its profiles,
 * pass plugins and AA pipeline, then the verifier unless disabled. The
 * summary-driven passes that need the combined index have already run on the
 * whole module (mtpc_bridge_run_summary_passes). `promoted`: the locals this
 * module defines under promoted names, which context-sensitive PGO sees
 * under their own (pgo_names.h). With `account` (NULL: none), where its time
 * goes (work_account.h). 0 on success; else *message. */
int mtpc_bridge_optimize(const mtpc_bridge_settings *settings, LLVMModuleRef module,
                         LLVMTargetMachineRef machine, const char *const *late_clones,
                         size_t late_clone_count, const mtpc_renames *promoted,
                         mtpc_work_account *account, char **message);
/* `late_clones` (above) are the clones an earlier partition may keep: with
 * LLVM's ThinLTO pipeline, they skip its late part (late_clones.h) until
 * mtpc_bridge_optimize_late_clones runs it on those of them kept here
 * (`kept`). Does nothing where they did not wait. 0 on success; else
 * *message. */
int mtpc_bridge_optimize_late_clones(const mtpc_bridge_settings *settings, LLVMModuleRef module,
                                     LLVMTargetMachineRef machine, const char *const *kept,
                                     size_t kept_count, mtpc_work_account *account,
                                     char **message);

/* Code generation of one partition: an object (or assembly) whose skeleton
 * unit records `dwo_name` (NULL: no split DWARF) and, when `separate_dwo`,
 * the .dwo's bytes. Both buffers are malloc'ed; *dwo is NULL without a .dwo.
 * 0 on success; else *message. */
int mtpc_bridge_codegen(const mtpc_bridge_settings *settings, LLVMModuleRef module,
                        LLVMTargetMachineRef machine, const char *dwo_name, int separate_dwo,
                        void **object, size_t *object_size, void **dwo, size_t *dwo_size,
                        char **message);

/* Before the split, on the whole module: the passes the ThinLTO backend runs
 * first with the combined index (`import_summary`, a `const
 * ModuleSummaryIndex *`): MemProf context disambiguation when enabled,
 * whole-program devirtualization and type-test lowering. Does nothing
 * without an index. */
void mtpc_bridge_run_summary_passes(const void *import_summary, LLVMModuleRef module);

/* Before the split, on the whole module, as clang's pipeline does first:
 * gcov's instrumentation (options->gcov; it writes the notes file), then
 * the lowering of clang's profile instrumentation (llvm.instrprof
 * intrinsics) to counters (options->lower_instrprof, instrprof_output,
 * instrprof_atomic). */
void mtpc_bridge_instrument_whole_module(LLVMModuleRef module, const mtpc_options *options);

/* Before the split, on the whole module: the per-module pipeline up to and
 * including its IR profile instrumentation or use (profile_phase.h); each
 * partition's pipeline then starts after them. -1 and *message on
 * failure. */
int mtpc_bridge_run_profile_phase(const mtpc_bridge_settings *settings, LLVMModuleRef module,
                                  char **message);

/* Before the split of a full LTO module (mtpc_options.full_lto), on the
 * whole module: the passes of the full LTO pipeline that need the whole
 * program: global DCE, cross-DSO CFI, global split, whole-program
 * devirtualization and type-test lowering, exporting to `export_summary` (a
 * `llvm::ModuleSummaryIndex *`, or NULL). The partitions then run the full
 * LTO pipeline (mtpc_bridge_optimize). 0 on success; else *message. */
int mtpc_bridge_run_full_lto_passes(const mtpc_bridge_settings *settings, void *export_summary,
                                    LLVMModuleRef module, char **message);

#ifdef __cplusplus
}

#include <string>

namespace llvm {
class Triple;
namespace lto {
struct Config;
}
} // namespace llvm

namespace mtpc_pipeline {
// The Config every partition is compiled with.
const llvm::lto::Config &config(const mtpc_bridge_settings *settings);
// What an LTO backend's Config holds for the C options; false, with why,
// when a file they name cannot be read.
bool fill_config(llvm::lto::Config &config, const mtpc_options *options, std::string &why);
// Whether clang describes call sites' parameters in the debug info for the
// triple's architecture (mtpc_options.call_site_info).
bool describes_call_sites(const llvm::Triple &triple);
} // namespace mtpc_pipeline
#endif

#endif
