// The sanitizers' passes each partition's pipeline ends with, as clang's
// ends with them, and what the split needs to put back after them
// (sanitizers.cpp; C++: the passes have no C API).
#ifndef MTPC_SANITIZERS_H
#define MTPC_SANITIZERS_H

#include "sanitizer_spec.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"

namespace mtpc_sanitizers {

// Registers the sanitizer's passes at the end of the module optimization
// pipeline, where clang's addSanitizers puts them, with the spec's settings.
void add_passes(llvm::PassBuilder &pb, const mtpc_sanitizer_spec &spec);

// After ASan ran on a partition: the names a serial compile would have
// given the promoted statics' descriptions, ODR indicators and groups.
void restore_names(llvm::Module &m);

} // namespace mtpc_sanitizers

#endif
