/* Compiling partitions: each on its own thread, in its own LLVMContext with
 * its own TargetMachine, from one shared bitcode image. */
#ifndef MTPC_WORKER_H
#define MTPC_WORKER_H

#include <stddef.h>

#include <llvm-c/TargetMachine.h>

#include "../partitioner/plan.h"
#include "mtpc/mtpc.h"

typedef struct mtpc_codegen_config {
  const void *bitcode;      /* the module, shared read-only by every worker */
  size_t bitcode_size;
  const char *module_name;  /* buffer name: becomes each copy's module identifier */
  LLVMCodeGenOptLevel codegen_level;
  LLVMRelocMode reloc;      /* resolved from the options and the module */
  const mtpc_options *options;
} mtpc_codegen_config;

typedef enum mtpc_job_failure {
  MTPC_JOB_OK,
  MTPC_JOB_SPLIT_FAILED, /* the partition could not be formed: compile unsplit */
  MTPC_JOB_FAILED        /* optimizing or code generation failed */
} mtpc_job_failure;

typedef struct mtpc_job {
  uint32_t partition;       /* MTPC_NONE: the whole module, unsplit */
  mtpc_job_failure failure;
  char *message;
  void *object;
  size_t object_size;
  mtpc_partition_stats stats;
} mtpc_job;

/* Compiles every job, `jobs` at a time, largest planned cost first. `plan` is
 * NULL for one unsplit job. */
void mtpc_run_jobs(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *jobs,
                   uint32_t job_count, unsigned threads);

/* Registers LLVM's targets, once; every entry point calls it first. */
void mtpc_init_llvm(void);

/* Sends a diagnostic to the options' callback, one at a time. */
void mtpc_emit_diag(const mtpc_options *options, mtpc_severity severity, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
