/*
 * What mtpc's own tools (tools/) use besides the public API: file helpers and
 * the distributed ThinLTO backend job behind `mtpc backend`. Not part of the
 * stable API and not installed; the library's own files declare these here
 * too, so there is one declaration of each.
 */
#ifndef MTPC_TOOLS_H
#define MTPC_TOOLS_H

#include <stddef.h>

#include <llvm-c/Types.h>

#include "mtpc/mtpc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `size` bytes to `path` through a temporary file in the same
 * directory and a rename, so a failure never leaves a partial file. A path
 * that names something other than a regular file (/dev/null) is written in
 * place. `faults`: mtpc_options.fault_injection. 0 on success, else
 * *message. */
int mtpc_write_file_atomic(const char *path, const void *data, size_t size, const char *faults,
                           char **message);
/* The same, but a path that names something other than a regular file (a
 * FIFO) is replaced too, never written in place. */
int mtpc_replace_file(const char *path, const void *data, size_t size, const char *faults,
                      char **message);
/* Writes a file no one else sees (in a private temporary directory): no
 * rename, no sync. 0 on success, else *message. */
int mtpc_write_scratch_file(const char *path, const void *data, size_t size, const char *faults,
                            char **message);
/* A step's output files, all or nothing (outputs.c). A path that names
 * something other than a regular file (/dev/null, a pipe) is written in
 * place when committed, "-" to standard output. */
typedef struct mtpc_outputs mtpc_outputs;
mtpc_outputs *mtpc_outputs_new(void); /* NULL when out of memory */
/* Writes `data` for `path` under a temporary name beside it (or keeps a
 * copy, for a path written in place). 0 on success, else *message (NULL:
 * out of memory). */
int mtpc_outputs_add(mtpc_outputs *outputs, const char *path, const void *data, size_t size,
                     const char *faults, char **message);
/* Renames (or writes) every file added into place, in the order added.
 * 0 on success, else *message. */
int mtpc_outputs_commit(mtpc_outputs *outputs, char **message);
/* Removes the temporaries of files not committed; NULL is allowed. */
void mtpc_outputs_free(mtpc_outputs *outputs);

/* A private, writable mapping of a whole file (munmap it), which goes on
 * holding the data if the file is removed. 0 on success, else *message. */
int mtpc_map_file(const char *path, void **data, size_t *size, char **message);
/* Creates `path` and its missing parents. 0 on success, else *message. */
int mtpc_make_directories(const char *path, char **message);
/* Reads a whole regular file, without blocking on one that is not (a FIFO).
 * 0 on success, else *message. */
int mtpc_read_file(const char *path, void **data, size_t *size, char **message);

/* The calling thread's time trace (mtpc_time_trace_start) as
 * mtpc_time_trace_write would write it (malloc'ed; NULL when none was
 * started), and the trace ends. 0 on success, else *message. */
int mtpc_time_trace_take(void **data, size_t *size, char **message);

/* LLVM's out-of-memory handler calls `handler` (which must not return). */
void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason));

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
