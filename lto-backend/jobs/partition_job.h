/* Compiling one partition, in two phases (partition_job.c): the front loads
 * and forms the partition and optimizes it (or finds it in the partition
 * cache); the back leaves the clones another partition keeps
 * (clone_keepers.h) to it, code-generates, stores and frees. Between them
 * the run holds the partition's context; they may run on different
 * threads, one after the other. */
#ifndef MTPC_PARTITION_JOB_H
#define MTPC_PARTITION_JOB_H

#include <stdint.h>

#include "worker.h"

typedef struct mtpc_job_run mtpc_job_run;

/* `candidates`: the plan's functions that this partition and another
 * define (clone_keepers.h), by_use[i] (NULL: none) whether the i-th is a
 * promoted local whose survival is its use; later[i] (NULL: none), that a
 * partition before this one holds the i-th too, whose late optimization
 * then waits until this partition keeps it (late_clones.h); survived[i]
 * says, on return, whether the optimizer left the i-th (a by-use one: still
 * uses it). NULL (the job says why) when memory ran out; a run whose job
 * failed is still returned, and its back only frees it. */
mtpc_job_run *mtpc_job_front(const mtpc_codegen_config *config, const mtpc_plan *plan,
                             mtpc_job *job, const uint32_t *candidates, const uint8_t *by_use,
                             uint32_t candidate_count, const uint8_t *later, uint8_t *survived);
/* drop[i]: the i-th candidate is another partition's to keep (NULL: none).
 * Frees the run. */
void mtpc_job_back(mtpc_job_run *run, const uint8_t *drop);

#endif
