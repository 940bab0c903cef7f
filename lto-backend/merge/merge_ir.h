/* Partition modules -> one module: what a split compile gives for the
 * module's optimized IR (lld's --lto-emit-llvm). */
#ifndef MTPC_MERGE_IR_H
#define MTPC_MERGE_IR_H

#include <stddef.h>

#include "lto-backend/jobs/worker.h"
#include "partitioner/plan.h"

/* Links the bitcode of jobs[0..count) (their `object`) into one module, in
 * partition order, and makes every promoted symbol of `plan` local again
 * under its original name (or that name with LLVM's suffix, when a copy
 * holds it). *bitcode is malloc'ed. 0 on success, else *message. */
int mtpc_merge_modules(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       void **bitcode, size_t *bitcode_size, char **message);

#endif
