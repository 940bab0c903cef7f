/* What the module's profile says, for the plan: which counts are hot, how
 * often each block runs, and the hashes profiles name functions by. (C++:
 * LLVM-C has no ProfileSummaryInfo, BlockFrequencyInfo or MD5.) */
#ifndef MTPC_PROFILE_H
#define MTPC_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The count from which a call is hot (ProfileSummaryInfo's threshold), or 0
 * when the module has no profile summary. */
uint64_t mtpc_profile_hot_count(LLVMModuleRef module);

/* How often each basic block of `function` runs, in block order, from its
 * entry count and branch weights; 0 (and nothing filled) when it has no
 * entry count. `counts` holds one entry per block. */
int mtpc_profile_block_counts(LLVMValueRef function, uint64_t *counts);

/* The hash a value profile names a function by: MD5 of its PGO name, which
 * is its "PGOFuncName" metadata (a local's file-qualified name) or else its
 * name, as getPGOFuncName(F, InLTO) and InstrProfSymtab have it. */
uint64_t mtpc_profile_name_hash(const char *name, size_t length);

#ifdef __cplusplus
}
#endif

#endif
