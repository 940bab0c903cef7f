// What differs between LLVM 19 and LLVM 22 for the bridge, in one place.
// C++ only; every other source is the same for both versions.
#ifndef MTPC_COMPAT_H
#define MTPC_COMPAT_H

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/Module.h"
#include "llvm/LTO/LTOBackend.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Remarks/RemarkSerializer.h"
#include "llvm/Remarks/RemarkStreamer.h"
#include "llvm/Support/PGOOptions.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/FunctionImport.h"
#include "llvm/Transforms/IPO/LowerTypeTests.h"
#include "llvm/Transforms/Instrumentation/SanitizerCoverage.h"
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
inline const Target *lookup_target(const Triple &triple, std::string &error) {
#if LLVM_VERSION_MAJOR >= 22
  return TargetRegistry::lookupTarget(triple, error);
#else
  return TargetRegistry::lookupTarget(triple.str(), error);
#endif
}

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

// PGOOptions lost its file system (the PassBuilder has it) in 22. The last
// argument is DebugInfoForProfiling, as lto::opt passes it.
inline PGOOptions pgo_options(std::string profile, std::string cs_profile_gen, std::string remap,
                              PGOOptions::PGOAction action, PGOOptions::CSPGOAction cs_action,
                              bool debug_info_for_profiling, bool atomic_counters = false) {
#if LLVM_VERSION_MAJOR >= 22
  return PGOOptions(profile, cs_profile_gen, remap, "", action, cs_action,
                    PGOOptions::ColdFuncOpt::Default, debug_info_for_profiling,
                    /*PseudoProbeForProfiling=*/false, atomic_counters);
#else
  return PGOOptions(profile, cs_profile_gen, remap, "", vfs::getRealFileSystem(), action,
                    cs_action, PGOOptions::ColdFuncOpt::Default, debug_info_for_profiling,
                    /*PseudoProbeForProfiling=*/false, atomic_counters);
#endif
}

// A serializer for a remarks file of its own; bitstream needs every string
// in `strings` up front. 22's serializers are finalized.
inline Expected<std::unique_ptr<remarks::RemarkSerializer>>
remarks_file_serializer(remarks::Format format, raw_ostream &out, remarks::StringTable strings) {
#if LLVM_VERSION_MAJOR >= 22
  if (format == remarks::Format::Bitstream)
    return remarks::createRemarkSerializer(format, out, std::move(strings));
  return remarks::createRemarkSerializer(format, out);
#else
  if (format == remarks::Format::Bitstream)
    return remarks::createRemarkSerializer(format, remarks::SerializerMode::Standalone, out,
                                           std::move(strings));
  return remarks::createRemarkSerializer(format, remarks::SerializerMode::Standalone, out);
#endif
}

inline void finish_remarks_file(remarks::RemarkSerializer &serializer) {
#if LLVM_VERSION_MAJOR >= 22
  serializer.finalize();
#else
  (void)serializer;
#endif
}

// Ends what setupLLVMOptimizationRemarks(context, stream, ...) started.
inline void stop_remarks(LLVMContext &context) {
#if LLVM_VERSION_MAJOR >= 22
  finalizeLLVMOptimizationRemarks(context);
#else
  context.setLLVMRemarkStreamer(nullptr);
  context.setMainRemarkStreamer(nullptr);
#endif
}

// The type-test lowering that drops the type tests left after lowering
// (the second of the full LTO pipeline's two): a flag in 19, a kind in 22.
inline LowerTypeTestsPass drop_type_tests_pass() {
#if LLVM_VERSION_MAJOR >= 22
  return LowerTypeTestsPass(nullptr, nullptr, lowertypetests::DropTestKind::Assume);
#else
  return LowerTypeTestsPass(nullptr, nullptr, true);
#endif
}

// Passes added where clang adds its sanitizers, at the end of the module
// optimization pipeline: 22's callback also takes the LTO phase.
template <typename AddPasses>
inline void at_optimizer_last(PassBuilder &pb, AddPasses add) {
#if LLVM_VERSION_MAJOR >= 22
  pb.registerOptimizerLastEPCallback(
      [add](ModulePassManager &mpm, OptimizationLevel level, ThinOrFullLTOPhase) {
        add(mpm, level);
      });
#else
  pb.registerOptimizerLastEPCallback(
      [add](ModulePassManager &mpm, OptimizationLevel level) { add(mpm, level); });
#endif
}

// SanitizerCoverage's pass, its lists read from the real file system (22
// takes the file system its lists are read from).
inline SanitizerCoveragePass sanitizer_coverage_pass(const SanitizerCoverageOptions &options,
                                                     const std::vector<std::string> &allowlists,
                                                     const std::vector<std::string> &ignorelists) {
#if LLVM_VERSION_MAJOR >= 22
  return SanitizerCoveragePass(options, vfs::getRealFileSystem(), allowlists, ignorelists);
#else
  return SanitizerCoveragePass(options, allowlists, ignorelists);
#endif
}

// A function of `scratch` that holds f's blocks for a while: 19's keeps
// their debug records in f's format (22 has one).
inline Function *holder_in(Module &scratch, const Function &f) {
  Function *holder =
      Function::Create(f.getFunctionType(), GlobalValue::ExternalLinkage, "", &scratch);
#if LLVM_VERSION_MAJOR < 22
  holder->IsNewDbgInfoFormat = f.IsNewDbgInfoFormat;
#endif
  return holder;
}

} // namespace mtpc_compat

#endif
