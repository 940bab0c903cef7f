// Key Instructions' atom groups (LLVM 21 and later), numbered per function
// for the partition cache.
#include "debug_info.h"

#include <algorithm>
#include <vector>

#include "support/compat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"

using namespace llvm;

#if LLVM_VERSION_MAJOR >= 21
namespace {
// Each debug location of the function's instructions and variable records
// (code generation pairs them by their inlined-at locations), replaced by
// what `fn` gives for it.
template <typename Fn> void update_locations(Function &f, Fn &&fn) {
  for (BasicBlock &bb : f)
    for (Instruction &i : bb) {
      if (DILocation *loc = i.getDebugLoc().get())
        if (DILocation *next = fn(loc); next != loc)
          i.setDebugLoc(DebugLoc(next));
      for (DbgRecord &record : i.getDbgRecordRange())
        if (DILocation *loc = record.getDebugLoc().get())
          if (DILocation *next = fn(loc); next != loc)
            record.setDebugLoc(DebugLoc(next));
    }
}

// The passes that copy code (the loop unroller, the inliner) number the
// copies' atom groups from one counter of the LLVMContext: an edit that adds
// a statement shifts the numbers of every group copied after it, in every
// function. Code generation compares a function's groups only with each
// other (which instructions share a line-table row; merged locations keep
// the lower group), so giving each function's groups the numbers 1, 2, ...
// in their own order changes no object, and leaves an unedited function's
// numbers as they were.
class renumbering {
public:
  explicit renumbering(Function &f) : context(f.getContext()) {
    std::vector<uint64_t> seen;
    update_locations(f, [&](DILocation *loc) {
      for (DILocation *l = loc; l; l = l->getInlinedAt())
        if (l->getAtomGroup())
          seen.push_back(l->getAtomGroup());
      return loc;
    });
    std::sort(seen.begin(), seen.end());
    seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
    for (size_t i = 0; i < seen.size(); i++)
      groups[seen[i]] = i + 1;
  }

  DILocation *renumbered(DILocation *loc) {
    if (!loc)
      return nullptr;
    auto found = done.find(loc);
    if (found != done.end())
      return found->second;
    uint64_t group = loc->getAtomGroup() ? groups.lookup(loc->getAtomGroup()) : 0;
    DILocation *outer = renumbered(loc->getInlinedAt());
    DILocation *result = loc;
    // The inliner makes call sites distinct so that two inlined copies of a
    // function stay two; a copy must stay as distinct as its original.
    if (group != loc->getAtomGroup() || outer != loc->getInlinedAt()) {
      if (loc->isDistinct())
        result = DILocation::getDistinct(context, loc->getLine(), loc->getColumn(),
                                         loc->getScope(), outer, loc->isImplicitCode(), group,
                                         loc->getAtomRank());
      else
        result = DILocation::get(context, loc->getLine(), loc->getColumn(), loc->getScope(),
                                 outer, loc->isImplicitCode(), group, loc->getAtomRank());
    }
    done[loc] = result;
    return result;
  }

private:
  LLVMContext &context;
  DenseMap<uint64_t, uint64_t> groups;
  DenseMap<const DILocation *, DILocation *> done;
};
} // namespace

extern "C" void mtpc_bridge_renumber_atom_groups(LLVMModuleRef module) {
  for (Function &f : *unwrap(module)) {
    renumbering r(f);
    update_locations(f, [&](DILocation *loc) { return r.renumbered(loc); });
  }
}
#else
extern "C" void mtpc_bridge_renumber_atom_groups(LLVMModuleRef) {}
#endif
