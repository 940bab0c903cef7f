// What a pass instrumentation callback's IR unit is about (C++, for the
// callbacks in this folder).
#ifndef MTPC_PASS_IR_H
#define MTPC_PASS_IR_H

#include "llvm/ADT/Any.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"

namespace mtpc_pass_ir {

// The function a pass runs on: the unit itself, or a loop's function; null
// for a module or an SCC.
inline const llvm::Function *function_of(const llvm::Any &ir) {
  if (const auto *f = llvm::any_cast<const llvm::Function *>(&ir))
    return *f;
  if (const auto *loop = llvm::any_cast<const llvm::Loop *>(&ir))
    return (*loop)->getHeader()->getParent();
  return nullptr;
}

} // namespace mtpc_pass_ir

#endif
