/* Partition objects -> one relocatable object whose promoted symbols are
 * local again. */
#ifndef MTPC_MERGE_H
#define MTPC_MERGE_H

#include <stddef.h>

#include "lto-backend/jobs/worker.h"
#include "partitioner/plan.h"

/* Links jobs[0..count) with lld -r (in this process) and makes every promoted
 * symbol of `plan` local under its original name. With `dataflow` the
 * partitions ran DataFlowSanitizer, which names functions after a promoted
 * one too (`<name>.dfsan<suffix>`, `dfsw$<name><suffix>`: sanitizers.cpp):
 * they get their names back the same way. *object is a private mapping of
 * lld's output when *mapped (munmap it), else malloc'ed. `faults`: fault.h.
 * 0 on success, else *message. */
int mtpc_merge_objects(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       int dataflow, const char *faults, void **object, size_t *object_size,
                       int *mapped, char **message);

/* The jobs' .dwo files, merged into one (dwo_merge.h), malloc'ed. 0 on
 * success, else *message (NULL: out of memory). */
int mtpc_merge_dwo_files(const mtpc_job *jobs, uint32_t count, void **dwo, size_t *dwo_size,
                         char **message);

#endif
