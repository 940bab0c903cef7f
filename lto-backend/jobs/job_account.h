/* The CPU account of one job (mtpc_options.collect_stats =
 * MTPC_STATS_ACCOUNT; job_account.c): which of its definitions are clones,
 * for the optimizer's account, and what code generation costs without them. */
#ifndef MTPC_JOB_ACCOUNT_H
#define MTPC_JOB_ACCOUNT_H

#include <stdint.h>

#include <llvm-c/TargetMachine.h>
#include <llvm-c/Types.h>

#include "lto-backend/codegen/pipeline.h"
#include "partitioner/plan.h"

typedef struct mtpc_job_account {
  mtpc_work_account work;
  const char **clone_names; /* sorted */
  uint32_t clone_count;
  double own_cpu_seconds; /* the account's own measurements took */
} mtpc_job_account;

/* Sets up the account of `partition` of `plan` (NULL: the unsplit module,
 * which has no clones). Non-zero when memory runs out. */
int mtpc_job_account_begin(mtpc_job_account *account, const mtpc_plan *plan,
                           uint32_t partition);
void mtpc_job_account_end(mtpc_job_account *account);

/* Code-generates a copy of the optimized `module` without its clones'
 * bodies (a scratch object, thrown away): *codegen gets the thread CPU
 * seconds of that code generation (negative when it failed, or when no
 * clone is defined here any more: each was left to the partition that
 * keeps it), and the return value those of the whole measurement (the copy
 * included), which are the account's and not the compile's. */
double mtpc_job_account_codegen_without_clones(const mtpc_job_account *account,
                                               const mtpc_bridge_settings *settings,
                                               LLVMModuleRef module,
                                               LLVMTargetMachineRef machine, double *codegen);

#endif
