#include "profile.h"

#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ProfileSummaryInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MD5.h"

using namespace llvm;

extern "C" uint64_t mtpc_profile_hot_count(LLVMModuleRef module) {
  ProfileSummaryInfo psi(*unwrap(module));
  if (!psi.hasProfileSummary())
    return 0;
  uint64_t hot = psi.getOrCompHotCountThreshold();
  return hot ? hot : 1;
}

extern "C" int mtpc_profile_block_counts(LLVMValueRef function, uint64_t *counts) {
  Function &f = *unwrap<Function>(function);
  if (f.isDeclaration() || !f.getEntryCount())
    return 0;
  DominatorTree dt(f);
  LoopInfo li(dt);
  TargetLibraryInfoImpl tlii(Triple(f.getParent()->getTargetTriple()));
  TargetLibraryInfo tli(tlii, &f);
  BranchProbabilityInfo bpi(f, li, &tli);
  BlockFrequencyInfo bfi(f, bpi, li);
  size_t i = 0;
  for (BasicBlock &block : f)
    counts[i++] = bfi.getBlockProfileCount(&block).value_or(0);
  return 1;
}

extern "C" uint64_t mtpc_profile_name_hash(const char *name, size_t length) {
  return MD5Hash(StringRef(name, length));
}
