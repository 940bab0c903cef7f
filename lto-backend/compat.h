// What differs between LLVM 19 and LLVM 22 for the bridge, in one place.
// C++ only; every other source is the same for both versions.
#ifndef MTPC_COMPAT_H
#define MTPC_COMPAT_H

#include <optional>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/FunctionImport.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

namespace mtpc_compat {
using namespace llvm;

// Target triples: a Triple in 22, a string in 19.
#if LLVM_VERSION_MAJOR >= 22
using triple_arg = Triple;
#else
using triple_arg = StringRef;
#endif

inline void set_triple(Module &m, const char *triple) { m.setTargetTriple(triple_arg(triple)); }
inline Triple module_triple(const Module &m) { return Triple(m.getTargetTriple()); }

// The ThinLTO import list: 22's needs an ImportIDTable and lists its source
// modules itself.
#if LLVM_VERSION_MAJOR >= 22
struct import_list {
  FunctionImporter::ImportIDTable ids;
  FunctionImporter::ImportMapTy map{ids};
  SmallVector<StringRef, 0> source_modules() const { return map.getSourceModules(); }
};
#else
struct import_list {
  FunctionImporter::ImportMapTy map;
  SmallVector<StringRef, 0> source_modules() const {
    SmallVector<StringRef, 0> paths;
    for (const auto &entry : map)
      paths.push_back(entry.first);
    llvm::sort(paths);
    return paths;
  }
};
#endif

// lto::thinBackend gained a CodeGenOnly argument.
inline Error thin_backend(const lto::Config &conf, AddStreamFn add_stream, Module &m,
                          const ModuleSummaryIndex &index, const import_list &imports,
                          const GVSummaryMapTy &defined,
                          MapVector<StringRef, BitcodeModule> *modules) {
#if LLVM_VERSION_MAJOR >= 22
  return lto::thinBackend(conf, 0, add_stream, m, index, imports.map, defined, modules,
                          /*CodeGenOnly=*/false);
#else
  return lto::thinBackend(conf, 0, add_stream, m, index, imports.map, defined, modules);
#endif
}

// A declaration of a composite type: DICompositeType::get gained EnumKind.
inline DICompositeType *composite_declaration(DICompositeType *type) {
  return DICompositeType::get(type->getContext(), type->getTag(), type->getName(), type->getFile(),
                              type->getLine(), type->getScope(), nullptr, uint64_t(0), 0,
                              uint64_t(0), DINode::FlagFwdDecl, nullptr, type->getRuntimeLang(),
#if LLVM_VERSION_MAJOR >= 22
                              /*EnumKind=*/std::nullopt,
#endif
                              nullptr);
}

} // namespace mtpc_compat

#endif
