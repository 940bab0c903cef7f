// Copies the inliner will decline (declined_copies.cpp). A partition holds
// an available_externally copy of a function another partition owns only so
// that its inliner can take it; EliminateAvailableExternallyPass drops the
// body afterwards. Most copies no call in the partition inlines (on
// cppcheck, 70% of the copies' optimization went to those), yet each was
// simplified first, because the inliner weighs a callee's simplified body.
//
// When the inliner's turn comes to a copy's SCC (bottom-up, before any
// caller), its cost model weighs each call of the copy against the body as
// the module brought it (already simplified once, in its own translation
// unit). A copy every call declines becomes noinline in this partition and
// skips its simplification: the call stays a call, as the serial compile's
// inliner decides for a body that its own simplification mostly makes
// larger. Function attributes are still inferred on it, so its callers
// see what they would otherwise.
#ifndef MTPC_DECLINED_COPIES_H
#define MTPC_DECLINED_COPIES_H

#include "llvm/Analysis/InlineCost.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"

namespace mtpc_declined_copies {

// Makes the copies that every call declines noinline and skips the optional
// passes on them. `params` are the pipeline inliner's; `fam` is the
// pipeline's, alive while it runs.
void skip_declined(llvm::PassInstrumentationCallbacks &pic, llvm::FunctionAnalysisManager &fam,
                   const llvm::InlineParams &params);

} // namespace mtpc_declined_copies

#endif
