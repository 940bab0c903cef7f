// A pass plugin for tests/lld/cache-options.py: aligns every function to 64
// bytes at the end of the LTO pipelines, so that a link that loads it
// differs from one that does not.
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#if __has_include("llvm/Plugins/PassPlugin.h") // LLVM 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif

using namespace llvm;

namespace {
struct AlignFunctions : PassInfoMixin<AlignFunctions> {
  PreservedAnalyses run(Module &m, ModuleAnalysisManager &) {
    for (Function &f : m)
      if (!f.isDeclaration())
        f.setAlignment(Align(64));
    return PreservedAnalyses::all();
  }
};

void registerCallbacks(PassBuilder &pb) {
#if LLVM_VERSION_MAJOR >= 20
  pb.registerOptimizerLastEPCallback(
      [](ModulePassManager &mpm, OptimizationLevel, ThinOrFullLTOPhase) {
        mpm.addPass(AlignFunctions());
      });
#else
  pb.registerOptimizerLastEPCallback(
      [](ModulePassManager &mpm, OptimizationLevel) { mpm.addPass(AlignFunctions()); });
#endif
  pb.registerFullLinkTimeOptimizationLastEPCallback(
      [](ModulePassManager &mpm, OptimizationLevel) { mpm.addPass(AlignFunctions()); });
}
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AlignFunctions", LLVM_VERSION_STRING, registerCallbacks};
}
