#include "ir_edit.h"

#include <functional>
#include <string>

#include "support/compat.h"
#include "support/cxx_util.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"

using namespace llvm;
using mtpc_util::fail;

extern "C" int mtpc_bridge_open_lazily(LLVMContextRef context, const void *bitcode, size_t size,
                                       const char *name, int metadata_on_demand,
                                       LLVMModuleRef *module, char **message) {
  MemoryBufferRef buffer(StringRef(static_cast<const char *>(bitcode), size), name);
  Expected<std::unique_ptr<Module>> m =
      getLazyBitcodeModule(buffer, *unwrap(context), /*ShouldLazyLoadMetadata=*/metadata_on_demand != 0,
                           /*IsImporting=*/metadata_on_demand != 0);
  if (!m)
    return fail(m.takeError(), message);
  // Named metadata (module flags, compile units) waits for this when on demand.
  if (Error err = (*m)->materializeMetadata())
    return fail(std::move(err), message);
  *module = wrap(m->release());
  return 0;
}

extern "C" void mtpc_bridge_delete_body(LLVMValueRef function) {
  unwrap<Function>(function)->deleteBody();
}

extern "C" int mtpc_bridge_materialize(LLVMValueRef global, char **message) {
  if (Error err = unwrap<GlobalValue>(global)->materialize())
    return fail(std::move(err), message);
  return 0;
}

// Whether materializeAll() verifies the module (UpgradeDebugInfo): one with
// debug info of the current version, unless -disable-auto-upgrade-debug-info
// is given (or cannot be found, so that nothing says it is not).
static bool reader_verifies(const Module &m) {
  auto &registered = cl::getRegisteredOptions(); // a StringMap in 19, a DenseMap in 22
  auto upgrade_off = registered.find("disable-auto-upgrade-debug-info");
  return upgrade_off != registered.end() && upgrade_off->second->getNumOccurrences() == 0 &&
         getDebugMetadataVersionFromModule(m) == DEBUG_METADATA_VERSION;
}

extern "C" int mtpc_bridge_materialize_all(LLVMModuleRef module, int *verified, char **message) {
  // Read before: a module whose debug info fails the verifier loses it (and the flag).
  *verified = reader_verifies(*unwrap(module));
  if (Error err = unwrap(module)->materializeAll())
    return fail(std::move(err), message);
  return 0;
}

extern "C" int mtpc_bridge_materialize_bodies(LLVMModuleRef module, char **message) {
  Module &m = *unwrap(module);
  if (Error err = m.materializeMetadata())
    return fail(std::move(err), message);
  for (Function &f : m)
    if (Error err = f.materialize())
      return fail(std::move(err), message);
  return 0;
}

extern "C" LLVMValueRef mtpc_bridge_replace_with_declaration(LLVMValueRef global) {
  auto *gv = unwrap<GlobalValue>(global);
  Module &m = *gv->getParent();
  std::string name = gv->getName().str();
  gv->setName(name + ".mtpc.replaced");
  GlobalValue *decl;
  if (auto *fn_type = dyn_cast<FunctionType>(gv->getValueType()))
    decl = Function::Create(fn_type, GlobalValue::ExternalLinkage, gv->getAddressSpace(), name, &m);
  else
    decl = new GlobalVariable(m, gv->getValueType(), false, GlobalValue::ExternalLinkage,
                              nullptr, name, nullptr, gv->getThreadLocalMode(),
                              gv->getAddressSpace());
  decl->setVisibility(gv->getVisibility());
  decl->setDSOLocal(gv->isDSOLocal());
  decl->setUnnamedAddr(gv->getUnnamedAddr());
  decl->setThreadLocalMode(gv->getThreadLocalMode());
  gv->replaceAllUsesWith(decl);
  if (auto *alias = dyn_cast<GlobalAlias>(gv))
    alias->eraseFromParent();
  else
    cast<GlobalIFunc>(gv)->eraseFromParent();
  return wrap(decl);
}

extern "C" LLVMValueRef mtpc_bridge_make_declaration(LLVMValueRef global, int coff) {
  GlobalValue *gv = unwrap<GlobalValue>(global);
  if (isa<GlobalAlias>(gv) || isa<GlobalIFunc>(gv))
    return mtpc_bridge_replace_with_declaration(global);
  if (auto *fn = dyn_cast<Function>(gv)) {
    fn->deleteBody();
    fn->setComdat(nullptr);
  } else {
    auto *var = cast<GlobalVariable>(gv);
    var->setInitializer(nullptr);
    var->setComdat(nullptr);
    var->setExternallyInitialized(false);
  }
  gv->setLinkage(GlobalValue::ExternalLinkage);
  /* COFF's code generation takes every definition to be the object's own
   * (no MinGW auto-import stub); the declaration standing for it stays so. */
  if (coff && !gv->hasDLLImportStorageClass())
    gv->setDSOLocal(true);
  return global;
}

extern "C" int mtpc_bridge_erase_if_unused(LLVMValueRef global) {
  auto *gv = unwrap<GlobalValue>(global);
  gv->removeDeadConstantUsers();
  if (!gv->use_empty())
    return 0;
  gv->eraseFromParent();
  return 1;
}

extern "C" void mtpc_bridge_erase_named_metadata(LLVMModuleRef module, const char *name) {
  if (NamedMDNode *node = unwrap(module)->getNamedMetadata(name))
    node->eraseFromParent();
}

// Every text of the module's own that can become a symbol's or section's
// name in its object: global value names, sections (explicit, by pragma, by
// attribute), COMDATs, module assembly, and inline assembly in functions.
static bool mentions(const Module &m, const std::function<bool(StringRef)> &found) {
  for (const GlobalValue &gv : m.global_values()) {
    if (found(gv.getName()) || found(gv.getPartition()))
      return true;
    if (const auto *go = dyn_cast<GlobalObject>(&gv); go && found(go->getSection()))
      return true;
  }
  for (const GlobalVariable &gv : m.globals())
    for (const char *kind : {"bss-section", "data-section", "rodata-section", "relro-section"})
      if (found(gv.getAttribute(kind).getValueAsString()))
        return true;
  for (const auto &comdat : m.getComdatSymbolTable())
    if (found(comdat.getKey()))
      return true;
  if (found(m.getModuleInlineAsm()))
    return true;
  for (const Function &f : m) {
    if (found(f.getFnAttribute("implicit-section-name").getValueAsString()))
      return true;
    for (const BasicBlock &bb : f)
      for (const Instruction &i : bb)
        if (const auto *call = dyn_cast<CallBase>(&i))
          if (const auto *asm_ = dyn_cast<InlineAsm>(call->getCalledOperand());
              asm_ && found(asm_->getAsmString()))
            return true;
  }
  return false;
}

extern "C" int mtpc_bridge_module_mentions(LLVMModuleRef module, const char *const *texts,
                                           size_t count) {
  return mentions(*unwrap(module), [&](StringRef text) {
    for (size_t i = 0; i < count; i++)
      if (text.contains(texts[i]))
        return true;
    return false;
  });
}

extern "C" LLVMMemoryBufferRef mtpc_bridge_write_bitcode_in_use_order(LLVMModuleRef module) {
  SmallVector<char, 0> buffer;
  raw_svector_ostream out(buffer);
  WriteBitcodeToFile(*unwrap(module), out, /*ShouldPreserveUseListOrder=*/true);
  return wrap(MemoryBuffer::getMemBufferCopy(StringRef(buffer.data(), buffer.size())).release());
}
