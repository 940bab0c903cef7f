/* Compiling partitions: each on its own thread, in its own LLVMContext with
 * its own TargetMachine, from one shared bitcode image. */
#ifndef MTPC_WORKER_H
#define MTPC_WORKER_H

#include <stddef.h>

#include <llvm-c/TargetMachine.h>

#include "lto-backend/bitcode/partition_bitcode.h"
#include "lto-backend/codegen/pipeline.h"
#include "partitioner/plan.h"
#include "support/chore.h"
#include "support/diag.h"
#include "mtpc/mtpc.h"

typedef struct mtpc_codegen_config {
  /* What each partition loads, shared read-only by every worker. */
  const mtpc_partition_bitcode *bitcode;
  const char *module_name;  /* buffer name: becomes each copy's module identifier */
  const mtpc_bridge_settings *settings; /* how to optimize and code-generate */
  const mtpc_options *options;
  const char *faults;       /* injected faults (support/fault.h); NULL: none */
  mtpc_reporter *reporter;
  const char *dwo_name;     /* split DWARF of the module as one unit (the */
  const char *dwo_output;   /* settings' names, resolved): see mtpc_bridge_settings_info */
  struct mtpc_cache *cache; /* NULL: no partition cache */
} mtpc_codegen_config;

typedef enum mtpc_job_failure {
  MTPC_JOB_OK,
  MTPC_JOB_SPLIT_FAILED, /* the partition could not be formed: compile unsplit */
  MTPC_JOB_FAILED,       /* optimizing or code generation failed */
  MTPC_JOB_NO_MEMORY     /* memory ran out */
} mtpc_job_failure;

typedef struct mtpc_job {
  uint32_t partition;       /* MTPC_NONE: the whole module, unsplit */
  mtpc_job_failure failure;
  char *message;
  void *object;
  size_t object_size;
  char *dwo_name;           /* split DWARF: what the skeleton records, and */
  char *dwo_output;         /* where the .dwo goes (NULL: no separate file) */
  void *dwo;
  size_t dwo_size;
  void *remarks;            /* recorded optimization remarks (YAML), or NULL */
  size_t remarks_size;
  uint64_t memory_estimate; /* bytes it is expected to add while it runs */
  mtpc_partition_stats stats;
} mtpc_job;


/* Runs `chore` (if not NULL) first, then compiles every job, `jobs` at a
 * time, in the plan's order (mtpc_plan_partition_order: largest planned
 * cost first; one at a time when the pipeline prints its passes). With a
 * plan, `jobs` holds one job per partition, so that each clone's copies
 * can be left to the partition that keeps it (clone_keepers.h).
 * `plan` is NULL for one unsplit job. With options->memory_limit a worker
 * thread starts only while the process's memory at the start plus the
 * estimates of the started threads' first jobs stay under the limit, or when
 * no other runs. Adds to *memory_waits how many threads waited for the limit.
 * Returns non-zero, and compiles nothing, when memory runs out. */
int mtpc_run_jobs(const mtpc_codegen_config *config, const mtpc_plan *plan, mtpc_job *jobs,
                  uint32_t job_count, unsigned threads, const mtpc_chore *chore,
                  uint64_t *memory_waits);

/* The name of partition `partition`'s file of a kind a module has one of
 * (a .dwo): `base` for partition 0 and an unsplit module (MTPC_NONE), else
 * base with ".part<K>" before its ".dwo" (or at its end). */
char *mtpc_partition_file_name(const char *base, uint32_t partition);



/* Resident memory a job of `cost` own and `imported_cost` imported IR
 * instructions adds while it is compiled (measured: docs/api.rst). */
uint64_t mtpc_job_memory_estimate(uint64_t cost, uint64_t imported_cost);

#endif
