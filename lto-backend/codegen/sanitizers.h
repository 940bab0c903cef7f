// The sanitizers' passes each partition's pipeline ends with, as clang's
// ends with them, and what the split needs to put back after them
// (sanitizers.cpp; C++: the passes have no C API).
#ifndef MTPC_SANITIZERS_H
#define MTPC_SANITIZERS_H

#include <string>
#include <vector>

#include "coverage_spec.h"
#include "sanitizer_spec.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

// SanitizerCoverage's settings and its special case lists.
struct mtpc_coverage {
  mtpc_coverage_spec spec = {};
  std::vector<std::string> allowlists, ignorelists;
};

namespace mtpc_sanitizers {

// Registers SanitizerCoverage's pass and the sanitizer's at the end of the
// module optimization pipeline, where clang's addSanitizers puts them, in
// its order, with the specs' settings and DataFlowSanitizer's ABI lists.
void add_passes(llvm::PassBuilder &pb, const mtpc_sanitizer_spec &spec,
                const mtpc_coverage &coverage, const std::vector<std::string> &dfsan_abilists);

// After ASan ran on a partition: the names a serial compile would have
// given the promoted statics' descriptions, ODR indicators and groups.
void restore_names(llvm::Module &m);

} // namespace mtpc_sanitizers

#endif
