#include "debug_types.h"

#include "debug_type_keys.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

using namespace llvm;

struct mtpc_type_walk {
  mtpc_debug_types::walk_state state;
};

extern "C" mtpc_type_walk *mtpc_type_walk_create(void) { return new mtpc_type_walk; }

extern "C" void mtpc_type_walk_free(mtpc_type_walk *walk) { delete walk; }

extern "C" int mtpc_subprogram_names(LLVMValueRef function, const char **name, size_t *name_len,
                                     const char **linkage_name, size_t *linkage_len,
                                     unsigned *flags) {
  const DISubprogram *sp = unwrap<Function>(function)->getSubprogram();
  if (!sp)
    return 0;
  *name = sp->getName().data();
  *name_len = sp->getName().size();
  *linkage_name = sp->getLinkageName().data();
  *linkage_len = sp->getLinkageName().size();
  *flags = sp->getFlags() & ~DINode::FlagAllCallsDescribed; // a definition's only
  return 1;
}

extern "C" void mtpc_walk_debug_types(mtpc_type_walk *walk, LLVMValueRef global,
                                      mtpc_type_found *found, void *arg) {
  mtpc_debug_types::walk_global_types(
      walk->state, unwrap<GlobalValue>(global),
      [&](DICompositeType *type) { found(arg, mtpc_debug_types::type_key(type).c_str()); });
}

extern "C" uint64_t mtpc_debug_record_count(LLVMValueRef function) {
  uint64_t records = 0;
  for (const BasicBlock &block : *unwrap<Function>(function))
    for (const Instruction &inst : block)
      records += std::distance(inst.getDbgRecordRange().begin(), inst.getDbgRecordRange().end());
  return records;
}

extern "C" uint64_t mtpc_unit_type_list_entries(LLVMModuleRef module) {
  uint64_t entries = 0;
  for (const DICompileUnit *unit : unwrap(module)->debug_compile_units())
    entries += unit->getRetainedTypes().size() + unit->getEnumTypes().size();
  return entries;
}
