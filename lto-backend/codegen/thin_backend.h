/* One distributed ThinLTO backend job, run as clang runs it (C++,
 * thin_backend.cpp): what `mtpc backend` compiles through. */
#ifndef MTPC_THIN_BACKEND_H
#define MTPC_THIN_BACKEND_H

#include <stddef.h>

#include <llvm-c/Types.h>

#include "mtpc/mtpc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One distributed ThinLTO backend job, as `clang -c -fthinlto-index=` runs
 * it: the module is read from `input` (its identifier is that path, as the
 * index names it), the modules the index imports from are loaded by the paths
 * it records, and LLVM's ThinLTO backend promotes, internalizes and imports.
 * Then `after_import` sees the module, the job's llvm::lto::Config and its
 * llvm::ModuleSummaryIndex: it returns 1 when it compiled the module itself
 * (*object, malloc'ed), 0 to let LLVM's backend optimize and code-generate
 * it, -1 on failure (*message). */
typedef int mtpc_bridge_after_import(void *arg, LLVMModuleRef module, const void *lto_config,
                                     const void *index, void **object, size_t *object_size,
                                     char **message);
/* What clang's backend command line says. */
typedef struct mtpc_bridge_backend_job {
  const char *input;
  const char *index;          /* the job's .thinlto.bc */
  const char *triple;         /* NULL: the module's */
  /* CPU, sections, optimization and code generation levels, relocation
   * model (default: the one the module's PIC level says, as clang's driver
   * passes it), sample profile, context-sensitive instrumentation, split
   * DWARF. */
  const mtpc_options *options;
  int addrsig;                /* -1: as clang's driver (on for ELF); 0: off; 1: on */
  mtpc_bridge_after_import *after_import;
  void *arg;
} mtpc_bridge_backend_job;

typedef enum mtpc_bridge_backend_outcome {
  MTPC_BACKEND_FAILED = -1,
  MTPC_BACKEND_COMPILED = 0, /* *object holds the object */
  MTPC_BACKEND_SKIP,         /* the index says nothing of the module is needed */
  MTPC_BACKEND_NO_INDEX      /* the index file is empty: compile the module as it is */
} mtpc_bridge_backend_outcome;

/* Runs the job; *triple (malloc'ed) is the module's target triple. For a
 * process that exits afterwards: the module, its context and the index stay
 * allocated, as clang leaves them (-disable-free). */
mtpc_bridge_backend_outcome mtpc_bridge_thin_backend(const mtpc_bridge_backend_job *job,
                                                     void **object, size_t *object_size,
                                                     char **triple, char **message);

#ifdef __cplusplus
}
#endif

#endif
