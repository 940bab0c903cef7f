// Copies the inliner will decline (declined_copies.h).
#include "declined_copies.h"

#include <memory>

#include "pass_ir.h"
#include "llvm/ADT/Any.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"

using namespace llvm;

namespace mtpc_declined_copies {

namespace {

// The inliner's pass on an SCC, where each copy is weighed first.
const char *const inliner = "InlinerPass";
// Runs on a declined copy still: its callers read the attributes it infers.
const char *const attributes = "PostOrderFunctionAttrsPass";

struct declining {
  FunctionAnalysisManager *fam;
  InlineParams params;
  DenseSet<const Function *> weighed;
  DenseSet<const Function *> declined;
};

// Whether some direct call of `f` is one the inliner would take now. A copy
// without direct calls (its address taken) is kept: a call through the
// address can become direct once its caller is simplified.
bool some_call_inlines(declining &d, Function &f) {
  FunctionAnalysisManager &fam = *d.fam;
  auto assumptions = [&](Function &g) -> AssumptionCache & {
    return fam.getResult<AssumptionAnalysis>(g);
  };
  auto library = [&](Function &g) -> const TargetLibraryInfo & {
    return fam.getResult<TargetLibraryAnalysis>(g);
  };
  TargetTransformInfo &target = fam.getResult<TargetIRAnalysis>(f);
  bool calls = false;
  for (User *user : f.users()) {
    auto *call = dyn_cast<CallBase>(user);
    if (!call || call->getCalledOperand() != &f)
      continue;
    calls = true;
    if (getInlineCost(*call, d.params, target, assumptions, library))
      return true;
  }
  return !calls;
}

// A pass instrumentation callback sees its IR as const; the attribute is
// this partition's decision about its own copy.
void decline(declining &d, const Function &f) {
  const_cast<Function &>(f).addFnAttr(Attribute::NoInline);
  d.declined.insert(&f);
}

void weigh(declining &d, const Function &f) {
  if (!d.weighed.insert(&f).second || !f.hasAvailableExternallyLinkage() ||
      f.hasFnAttribute(Attribute::NoInline) || f.hasFnAttribute(Attribute::AlwaysInline))
    return;
  if (!some_call_inlines(d, const_cast<Function &>(f)))
    decline(d, f);
}

bool is_declined(const declining &d, const Function &f) {
  // A function made later could reuse a deleted copy's address; a declined
  // copy is still available_externally and noinline.
  return d.declined.contains(&f) && f.hasAvailableExternallyLinkage() &&
         f.hasFnAttribute(Attribute::NoInline);
}

// An SCC's passes are skipped when every function in it is declined.
bool scc_declined(declining &d, const LazyCallGraph::SCC &scc, bool weigh_first) {
  bool all = scc.size() > 0;
  for (LazyCallGraph::Node &node : scc) {
    if (weigh_first)
      weigh(d, node.getFunction());
    all = all && is_declined(d, node.getFunction());
  }
  return all;
}

bool should_run(declining &d, StringRef pass, const Any &ir) {
  if (pass == attributes)
    return true;
  if (const auto *scc = any_cast<const LazyCallGraph::SCC *>(&ir))
    return !scc_declined(d, **scc, pass == inliner);
  const Function *f = mtpc_pass_ir::function_of(ir);
  return !f || !is_declined(d, *f);
}

} // namespace

void skip_declined(PassInstrumentationCallbacks &pic, FunctionAnalysisManager &fam,
                   const InlineParams &params) {
  auto d = std::make_shared<declining>();
  d->fam = &fam;
  d->params = params;
  pic.registerShouldRunOptionalPassCallback(
      [d](StringRef pass, Any ir) { return should_run(*d, pass, ir); });
}

} // namespace mtpc_declined_copies
