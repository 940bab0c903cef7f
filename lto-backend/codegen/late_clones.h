// Late optimization of the clones a partition may not keep (C++ only:
// late_clones.cpp). A clone that a partition before this one in the plan's
// order also holds is kept there whenever it survives there too
// (clone_keepers.h), so this partition's copy usually ends as a
// declaration. Its simplification, which the partition's inliner needs,
// runs as before; the module optimization pipeline after it (from
// EliminateAvailableExternallyPass on: vectorizers, unrolling, the late
// cleanups) waits until the partition knows which clones it keeps, and then
// runs on those alone.
#ifndef MTPC_LATE_CLONES_H
#define MTPC_LATE_CLONES_H

#include <string>
#include <vector>

#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"

namespace mtpc_late_clones {

// Skips the optional passes of the module optimization pipeline on the
// functions named (found when that pipeline starts).
void skip_late_passes(llvm::PassInstrumentationCallbacks &pic, std::vector<std::string> names);

// Runs `late`, a module optimization pipeline whose module passes are
// skipped (skip_module_passes), on the definitions named and on nothing
// else: the other bodies are set aside meanwhile. Returns the functions it
// ran on.
std::vector<llvm::Function *> run_late_passes(llvm::Module &m, llvm::ModulePassManager &late,
                                              llvm::ModuleAnalysisManager &mam,
                                              const std::vector<std::string> &names);

// Skips every optional pass on the module as a whole: those ran when the
// rest of the module was optimized.
void skip_module_passes(llvm::PassInstrumentationCallbacks &pic);

} // namespace mtpc_late_clones

#endif
