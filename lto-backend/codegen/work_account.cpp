// Where a partition's optimization goes (work_account.h).
#include "work_account.h"

#include <vector>

#include "pass_ir.h"
#include "llvm/ADT/Any.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"

extern "C" {
#include "support/support.h" // C, for mtpc_thread_cpu_seconds
}

using namespace llvm;

namespace mtpc_account {

// A pass's time counts for what it ran on; the passes it ran (a pass manager's,
// an adaptor's) count for theirs, so each second is counted once.
class tracker {
public:
  explicit tracker(mtpc_work_account *account) : account(account) {}

  void before(Any ir) {
    frames.push_back({mtpc_thread_cpu_seconds(), 0.0, bucket_of(ir)});
  }

  void after() {
    if (frames.empty())
      return;
    frame f = frames.back();
    frames.pop_back();
    double spent = mtpc_thread_cpu_seconds() - f.start;
    *f.bucket += spent - f.nested;
    if (!frames.empty())
      frames.back().nested += spent;
  }

private:
  struct frame {
    double start;
    double nested;
    double *bucket;
  };

  double *bucket_of_function(const Function &f) {
    if (f.hasAvailableExternallyLinkage())
      return &account->copies;
    if (account->is_clone && f.hasLinkOnceODRLinkage()) {
      StringRef name = f.getName();
      if (account->is_clone(account->clone_context, name.data(), name.size()))
        return &account->clones;
    }
    return &account->own;
  }

  // An SCC counts for its first function: a copy's SCC holds copies.
  double *bucket_of(Any ir) {
    if (const Function *f = mtpc_pass_ir::function_of(ir))
      return bucket_of_function(*f);
    if (const auto *c = any_cast<const LazyCallGraph::SCC *>(&ir))
      if ((*c)->size())
        return bucket_of_function((*c)->begin()->getFunction());
    return &account->module;
  }

  mtpc_work_account *account;
  std::vector<frame> frames;
};

std::unique_ptr<tracker, tracker_deleter> track(mtpc_work_account *account,
                                                PassInstrumentationCallbacks &pic) {
  std::unique_ptr<tracker, tracker_deleter> t(new tracker(account));
  tracker *raw = t.get();
  pic.registerBeforeNonSkippedPassCallback([raw](StringRef, Any ir) { raw->before(ir); });
  pic.registerAfterPassCallback(
      [raw](StringRef, Any, const PreservedAnalyses &) { raw->after(); });
  pic.registerAfterPassInvalidatedCallback(
      [raw](StringRef, const PreservedAnalyses &) { raw->after(); });
  return t;
}

void release(tracker *t) { delete t; }

} // namespace mtpc_account
