#include "debug_info.h"

#include <string>
#include <vector>

#include "lto-backend/bitcode/metadata_scan.h"
#include "partitioner/debug_type_keys.h"
#include "support/compat.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace mtpc_debug_types;

extern "C" void mtpc_bridge_trim_debug_info(LLVMModuleRef module, int primary) {
  Module &m = *unwrap(module);
  SmallPtrSet<Metadata *, 32> defined;
  SmallVector<DIGlobalVariableExpression *, 2> attached;
  for (GlobalVariable &gv : m.globals()) {
    // An available_externally copy is not emitted: its owner describes it.
    if (gv.isDeclaration() || gv.hasAvailableExternallyLinkage()) {
      gv.eraseMetadata(LLVMContext::MD_dbg);
      continue;
    }
    attached.clear();
    gv.getDebugInfo(attached);
    defined.insert(attached.begin(), attached.end());
  }
  for (DICompileUnit *cu : m.debug_compile_units()) {
    SmallVector<Metadata *, 64> kept;
    for (DIGlobalVariableExpression *e : cu->getGlobalVariables())
      if (defined.count(e))
        kept.push_back(e);
    cu->replaceGlobalVariables(MDTuple::get(m.getContext(), kept));
    if (!primary) {
      cu->replaceEnumTypes(MDTuple::get(m.getContext(), {}));
      cu->replaceRetainedTypes(MDTuple::get(m.getContext(), {}));
    }
  }
}

// Everything in the partition that can describe a type: the units' lists,
// every function's and variable's debug info, and the subprograms and types
// reached only from instructions (inlined code, local variables).
static std::vector<DICompositeType *> shareable_types(Module &m) {
  walk_state w;
  std::vector<DICompositeType *> types;
  auto found = [&](DICompositeType *type) { types.push_back(type); };
  DebugInfoFinder finder;
  finder.processModule(m);
  for (DICompileUnit *cu : finder.compile_units())
    walk_types(w, cu, found);
  for (GlobalValue &gv : m.global_values())
    walk_global_types(w, &gv, found);
  for (DISubprogram *sp : finder.subprograms())
    walk_types(w, sp, found);
  for (DIType *type : finder.types())
    walk_types(w, type, found);
  return types;
}

static void remap_module_metadata(Module &m, ValueToValueMapTy &map) {
  ValueMapper mapper(map, RF_ReuseAndMutateDistinctMDs | RF_IgnoreMissingLocals);
  for (Function &f : m)
    mapper.remapFunction(f);
  for (GlobalVariable &gv : m.globals())
    mapper.remapGlobalObjectMetadata(gv);
  for (NamedMDNode &named : m.named_metadata())
    for (unsigned i = 0; i < named.getNumOperands(); i++)
      named.setOperand(i, mapper.mapMDNode(*named.getOperand(i)));
}

static void retain_types(Module &m, ArrayRef<Metadata *> types) {
  DICompileUnit *cu = *m.debug_compile_units_begin();
  SmallVector<Metadata *, 64> retained(cu->getRetainedTypes().begin(), cu->getRetainedTypes().end());
  SmallPtrSet<Metadata *, 32> present(retained.begin(), retained.end());
  for (Metadata *type : types)
    if (present.insert(type).second)
      retained.push_back(type);
  cu->replaceRetainedTypes(MDTuple::get(m.getContext(), retained));
}

extern "C" void mtpc_bridge_share_debug_types(LLVMModuleRef module, uint32_t partition,
                                              mtpc_bridge_type_home *home_of, void *arg) {
  Module &m = *unwrap(module);
  if (m.debug_compile_units().empty())
    return;
  ValueToValueMapTy declarations;
  SmallVector<Metadata *, 64> homed;
  for (DICompositeType *type : shareable_types(m)) {
    uint32_t home = home_of(arg, type_key(type).c_str());
    if (home == partition)
      homed.push_back(type);
    else if (home != UINT32_MAX)
      declarations.MD()[type].reset(mtpc_compat::composite_declaration(type));
  }
  if (!declarations.MD().empty())
    remap_module_metadata(m, declarations);
  if (!homed.empty())
    retain_types(m, homed);
}

extern "C" void mtpc_bridge_unique_odr_types(LLVMContextRef context) {
  unwrap(context)->enableDebugTypeODRUniquing();
}

static MDString *md_string(LLVMContext &context, const mtpc_md_string &s) {
  return MDString::get(context, StringRef(s.text, s.length));
}

extern "C" void mtpc_bridge_home_odr_types(LLVMModuleRef module,
                                           const mtpc_odr_record *const *homed, uint32_t count) {
  Module &m = *unwrap(module);
  LLVMContext &context = m.getContext();
  if (m.debug_compile_units().empty())
    return;
  SmallVector<Metadata *, 64> kept;
  for (uint32_t i = 0; i < count; i++) {
    DICompositeType *type =
        DICompositeType::getODRTypeIfExists(context, *md_string(context, homed[i]->identifier));
    if (!type || type->isForwardDecl())
      continue; // not read here
    if (!type->getRawName())
      type->replaceOperandWith(2, md_string(context, homed[i]->name_text));
    kept.push_back(type);
  }
  if (!kept.empty())
    retain_types(m, kept);
}

extern "C" void mtpc_bridge_strip_debug_info(LLVMValueRef function) {
  stripDebugInfo(*unwrap<Function>(function));
}

extern "C" void mtpc_bridge_keep_subprogram_only(LLVMValueRef function) {
  Function &f = *unwrap<Function>(function);
  DISubprogram *sp = f.getSubprogram();
  if (!sp)
    return;
  // Its calls get no call-site entries: they have no locations.
  DINode::DIFlags flags = sp->getFlags() & ~DINode::FlagAllCallsDescribed;
  DISubprogram *bare = DISubprogram::getDistinct(
      f.getContext(), sp->getScope(), sp->getName(), sp->getLinkageName(), sp->getFile(),
      sp->getLine(), sp->getType(), sp->getScopeLine(), sp->getContainingType(),
      sp->getVirtualIndex(), sp->getThisAdjustment(), flags, sp->getSPFlags(), sp->getUnit(),
      /*TemplateParams=*/nullptr, sp->getDeclaration());
  stripDebugInfo(f);
  f.setSubprogram(bare);
}

namespace {
// Where the module's metadata holds its strings: each file met, and every
// string reached. A file's checksum is not reached through its file, so a
// checksum string the walk reached is held somewhere else too.
struct string_uses {
  std::vector<const DIFile *> files; // in the order the walk meets them
  DenseSet<const Metadata *> seen;
  SmallVector<const MDNode *, 64> pending;

  // DIFile's operands: name, directory, checksum (null without one), source.
  static constexpr unsigned file_checksum = 2;

  void reach(const Metadata *md) {
    if (!md || !seen.insert(md).second)
      return;
    if (auto *node = dyn_cast<MDNode>(md))
      pending.push_back(node);
    // Strings are only noted; values as metadata and argument lists hold
    // no strings.
  }

  void drain() {
    while (!pending.empty()) {
      const MDNode *node = pending.pop_back_val();
      auto *file = dyn_cast<DIFile>(node);
      if (file)
        files.push_back(file);
      for (unsigned i = 0; i < node->getNumOperands(); i++)
        if (!(file && i == file_checksum))
          reach(node->getOperand(i));
    }
  }

  void reach_attachments(const GlobalObject &object) {
    SmallVector<std::pair<unsigned, MDNode *>, 4> attached;
    object.getAllMetadata(attached);
    for (auto &[kind, node] : attached)
      reach(node);
  }

  void reach_records(const Instruction &inst) {
    for (const DbgRecord &record : inst.getDbgRecordRange()) {
      reach(record.getDebugLoc().getAsMDNode());
      if (auto *label = dyn_cast<DbgLabelRecord>(&record)) {
        reach(label->getRawLabel());
        continue;
      }
      auto &variable = cast<DbgVariableRecord>(record);
      reach(variable.getRawVariable());
      reach(variable.getRawExpression());
      reach(variable.getRawLocation());
      if (variable.isDbgAssign()) {
        reach(variable.getRawAssignID());
        reach(variable.getRawAddress());
        reach(variable.getRawAddressExpression());
      }
    }
  }

  void reach_instruction(const Instruction &inst) {
    SmallVector<std::pair<unsigned, MDNode *>, 4> attached;
    inst.getAllMetadata(attached); // !dbg too
    for (auto &[kind, node] : attached)
      reach(node);
    for (const Use &operand : inst.operands())
      if (auto *wrapped = dyn_cast<MetadataAsValue>(operand.get()))
        reach(wrapped->getMetadata());
    reach_records(inst);
  }

  // Everything the bitcode writer writes of the module's metadata.
  void walk(const Module &m) {
    for (const NamedMDNode &named : m.named_metadata())
      for (const MDNode *node : named.operands())
        reach(node);
    for (const GlobalObject &object : m.global_objects())
      reach_attachments(object);
    for (const Function &f : m)
      for (const BasicBlock &block : f)
        for (const Instruction &inst : block)
          reach_instruction(inst);
    drain();
  }
};
} // namespace

extern "C" int mtpc_bridge_file_checksums(LLVMModuleRef module, mtpc_bridge_file_checksum *found,
                                          void *arg) {
  string_uses uses;
  uses.walk(*unwrap(module));
  for (const DIFile *file : uses.files) {
    auto checksum = file->getRawChecksum();
    if (!checksum || checksum->Kind != DIFile::CSK_MD5 || !checksum->Value ||
        checksum->Value->getLength() != 32 || uses.seen.count(checksum->Value))
      continue;
    std::string hex = checksum->Value->getString().str(),
                directory = file->getDirectory().str(), name = file->getFilename().str();
    if (found(arg, hex.c_str(), directory.c_str(), name.c_str()))
      return 1;
  }
  return 0;
}
