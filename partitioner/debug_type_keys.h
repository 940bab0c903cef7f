// C++ shared by the plan's type walk (debug_types.cpp) and the partitions'
// type sharing (lto-backend/partition/debug_info.cpp): which types are shared, their
// keys, and the walk over a metadata graph.
#ifndef MTPC_DEBUG_TYPE_KEYS_H
#define MTPC_DEBUG_TYPE_KEYS_H

#include <string>

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalVariable.h"

namespace mtpc_debug_types {
using namespace llvm;

// A C struct or union that gdb can find by name from a declaration: named,
// at file scope, and without an ODR identifier (C++ types have type units).
inline bool is_shareable(const DICompositeType *type) {
  unsigned tag = type->getTag();
  if (tag != dwarf::DW_TAG_structure_type && tag != dwarf::DW_TAG_union_type)
    return false;
  if (type->getName().empty() || !type->getIdentifier().empty() || type->isForwardDecl())
    return false;
  const DIScope *scope = type->getScope();
  return !scope || isa<DIFile>(scope) || isa<DICompileUnit>(scope);
}

inline std::string type_key(const DICompositeType *type) {
  std::string key = type->getTag() == dwarf::DW_TAG_union_type ? "union " : "struct ";
  key += type->getName();
  if (const DIFile *file = type->getFile()) {
    key += " at ";
    if (!file->getDirectory().empty() && !file->getFilename().starts_with("/"))
      key += file->getDirectory().str() + "/";
    key += file->getFilename().str() + ":" + std::to_string(type->getLine());
  }
  return key;
}

struct walk_state {
  DenseSet<const MDNode *> seen;
  SmallVector<const MDNode *, 64> stack;
};

// Every node below `root` not seen before, except compile units (which list
// the whole module's globals and types); calls found() on shareable types.
template <typename Found> void walk_types(walk_state &w, const MDNode *root, Found found) {
  if (!root || !w.seen.insert(root).second)
    return;
  w.stack.push_back(root);
  while (!w.stack.empty()) {
    const MDNode *node = w.stack.pop_back_val();
    if (auto *type = dyn_cast<DICompositeType>(node); type && is_shareable(type))
      found(const_cast<DICompositeType *>(type));
    for (const MDOperand &op : node->operands()) {
      auto *child = dyn_cast_or_null<MDNode>(op.get());
      if (child && !isa<DICompileUnit>(child) && w.seen.insert(child).second)
        w.stack.push_back(child);
    }
  }
}

template <typename Found> void walk_global_types(walk_state &w, GlobalValue *gv, Found found) {
  if (auto *f = dyn_cast<Function>(gv)) {
    walk_types(w, f->getSubprogram(), found);
  } else if (auto *var = dyn_cast<GlobalVariable>(gv)) {
    SmallVector<DIGlobalVariableExpression *, 1> attached;
    var->getDebugInfo(attached);
    for (DIGlobalVariableExpression *e : attached)
      walk_types(w, e, found);
  }
}

} // namespace mtpc_debug_types

#endif
