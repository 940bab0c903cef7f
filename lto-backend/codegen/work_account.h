/* Where a partition's optimization goes (work_account.cpp: LLVM-C has no
 * pass instrumentation): the thread CPU time of each pass, less that of the
 * passes it runs, by what it ran on. With it, the split's extra work against
 * a serial compile is told apart from the work both do (bench/cpu-account.sh,
 * docs/design.rst, "The CPU account"). */
#ifndef MTPC_WORK_ACCOUNT_H
#define MTPC_WORK_ACCOUNT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtpc_work_account {
  /* Thread CPU seconds in optimization passes on: */
  double own;    /* the partition's own definitions */
  double copies; /* available_externally bodies, which it drops after optimizing */
  double clones; /* discardable definitions owned elsewhere (the linker keeps one) */
  double module; /* the module as a whole (interprocedural passes, pass managers) */
  /* Which definitions are clones; NULL: none are. */
  int (*is_clone)(void *context, const char *name, size_t length);
  void *clone_context;
} mtpc_work_account;

#ifdef __cplusplus
}

#include <memory>

namespace llvm {
class PassInstrumentationCallbacks;
}

namespace mtpc_account {
class tracker;
void release(tracker *t);
struct tracker_deleter {
  void operator()(tracker *t) const { release(t); }
};
// Records into `account` for as long as the tracker lives.
std::unique_ptr<tracker, tracker_deleter> track(mtpc_work_account *account,
                                                llvm::PassInstrumentationCallbacks &pic);
} // namespace mtpc_account
#endif

#endif
