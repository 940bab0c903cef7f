/*
 * mtpc for C++ embedders that run LLVM's LTO (a linker, a ThinLTO backend
 * job): what takes LLVM's own objects. The objects are passed as `void *`
 * so that the header needs no LLVM C++ header; each is the LLVM type named,
 * of the LLVM version mtpc was built against (mtpc_version_string). Errors
 * follow mtpc.h's convention.
 */
#ifndef MTPC_LLVM_H
#define MTPC_LLVM_H

#include "mtpc/mtpc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What an embedder lends a compile besides mtpc_options. */
typedef struct mtpc_llvm_options {
  size_t struct_size; /* set by mtpc_llvm_options_init; leave as it is */
  /* A `const llvm::lto::Config *`. Every partition is then optimized and
   * code-generated as lto::thinBackend would optimize and code-generate the
   * module with it, and the mtpc_options fields that a Config holds (levels,
   * CPU, features, relocation and code model, sections, plugins, profiles,
   * pipelines, split DWARF, assembly, remarks settings, debug_pass_manager)
   * are ignored. Its DwoDir names partition K's .dwo
   * <DwoDir>/<lto_task>[.part<K>].dwo; remarks go to the module's context's
   * remark streamer when it has one. NULL: built from mtpc_options. */
  const void *lto_config;
  unsigned lto_task;
  /* A `const llvm::ModuleSummaryIndex *`, the combined index of a ThinLTO
   * backend: the passes that the backend runs with it first (whole-program
   * devirtualization, type-test lowering, MemProf context disambiguation)
   * run on the whole module before the split. Excludes full_lto. */
  const void *import_summary;
  /* With full_lto, for linkers: a `llvm::ModuleSummaryIndex *`, the link's
   * combined index, to which whole-program devirtualization and type-test
   * lowering export their resolutions for the ThinLTO backends, as LLVM's
   * regular LTO backend does. */
  void *export_summary;
} mtpc_llvm_options;

void mtpc_llvm_options_init_abi2(mtpc_llvm_options *options, size_t struct_size);
static inline void mtpc_llvm_options_init(mtpc_llvm_options *options) {
  mtpc_llvm_options_init_abi2(options, sizeof(*options));
}

/* As mtpc_compile_module, with `llvm` (NULL: none), and on the module
 * itself: with full_lto or an import summary, the whole-module passes
 * change it (a linker's module, which LTO discards afterwards); the caller
 * may then only dispose of it. */
mtpc_status mtpc_llvm_compile_module(LLVMModuleRef module, const mtpc_options *options,
                                     const mtpc_llvm_options *llvm, mtpc_result **result);

/* Copies, from one `llvm::lto::Config` to another, every field that decides
 * how a partition is compiled or what it writes beside its object: what a
 * linker lends mtpc (mtpc_llvm_options.lto_config) when its own Config is
 * not at hand (the LTO object owns it, and a Config cannot be copied
 * whole). Hooks, the diagnostic handler and what only LLVM's LTO driver
 * reads are left as they are. */
void mtpc_copy_lto_config(const void *from, void *to);

/* The size of a digest: 32 hexadecimal digits and a NUL. */
#define MTPC_DIGEST_SIZE 33

/* A digest of everything in an `llvm::lto::Config` that shapes what a
 * backend compiles with it: every field the partition cache keys (CPU,
 * features, TargetOptions, levels, pipelines, LLVM options...), the contents
 * of every file a field names (sample and context-sensitive profiles, their
 * remapping, a basic block sections list, pass plugins, and files that LLVM
 * options name, such as -codegen-data-use-path=), and mtpc's and LLVM's
 * versions. Two Configs with one digest compile a module alike. A linker
 * that caches what its backends return under a key of its own appends the
 * digest to that key, so that an entry is reused only when mtpc's partition
 * cache would reuse its partitions (ld.lld does, with any mtpc option on).
 * MTPC_OK, or MTPC_ERR_INVALID_ARGUMENT when `lto_config` is NULL. */
mtpc_status mtpc_lto_config_digest(const void *lto_config, char digest[MTPC_DIGEST_SIZE]);

#ifdef __cplusplus
}
#endif

#endif
