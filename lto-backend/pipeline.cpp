#include "pipeline.h"

#include <string>

#include "compat.h"
#include "cxx_util.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;
using mtpc_util::fail;

CodeGenOptLevel mtpc_pipeline::codegen_level(int level) {
  static const CodeGenOptLevel levels[] = {CodeGenOptLevel::None, CodeGenOptLevel::Less,
                                           CodeGenOptLevel::Default, CodeGenOptLevel::Aggressive};
  return levels[level & 3];
}

std::optional<Reloc::Model> mtpc_pipeline::reloc_model(int reloc) {
  static const Reloc::Model relocs[] = {Reloc::Static, Reloc::Static, Reloc::PIC_,
                                        Reloc::DynamicNoPIC};
  if (reloc >= 1 && reloc <= 3)
    return relocs[reloc];
  return std::nullopt;
}

static std::optional<CodeModel::Model> code_model(int model, const Module &m) {
  static const CodeModel::Model models[] = {CodeModel::Tiny, CodeModel::Small, CodeModel::Kernel,
                                            CodeModel::Medium, CodeModel::Large};
  if (model > 0 && model <= 5)
    return models[model - 1];
  return m.getCodeModel();
}

extern "C" LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_target *t,
                                                                  LLVMModuleRef module,
                                                                  char **message) {
  std::string error;
  const Target *target = TargetRegistry::lookupTarget(mtpc_compat::triple_arg(t->triple), error);
  if (!target) {
    fail("unknown target '" + std::string(t->triple) + "': " + error, message);
    return nullptr;
  }
  TargetOptions options;
  if (t->target_options) {
    options = *static_cast<const TargetOptions *>(t->target_options);
  } else {
    options.FunctionSections = t->function_sections != 0;
    options.DataSections = t->data_sections != 0;
    // TargetOptions() says .ctors; clang, llc and LLVM's LTO say .init_array.
    options.UseInitArray = true;
  }
  Module *m = unwrap(module);
  TargetMachine *tm = target->createTargetMachine(
      mtpc_compat::triple_arg(t->triple), t->cpu ? t->cpu : "", t->features ? t->features : "",
      options, mtpc_pipeline::reloc_model(t->reloc), code_model(t->code_model, *m),
      mtpc_pipeline::codegen_level(t->codegen_level));
  if (!tm) {
    fail("cannot create a target machine for '" + std::string(t->triple) + "'", message);
    return nullptr;
  }
  if (std::optional<uint64_t> threshold = m->getLargeDataThreshold())
    tm->setLargeDataThreshold(*threshold);
  return reinterpret_cast<LLVMTargetMachineRef>(tm);
}

extern "C" int mtpc_bridge_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine,
                                    unsigned opt_level, const char *const *plugins,
                                    unsigned plugin_count, char **message) {
  Module &m = *unwrap(module);
  TargetMachine *tm = reinterpret_cast<TargetMachine *>(machine);
  PipelineTuningOptions pto;
  pto.LoopVectorization = opt_level > 1;
  pto.SLPVectorization = opt_level > 1;
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  PassInstrumentationCallbacks pic;
  StandardInstrumentations si(m.getContext(), /*DebugLogging=*/false);
  si.registerCallbacks(pic, &mam);
  PassBuilder pb(tm, pto, std::nullopt, &pic);
  for (unsigned i = 0; i < plugin_count; i++) {
    Expected<PassPlugin> plugin = PassPlugin::Load(plugins[i]);
    if (!plugin)
      return fail(plugin.takeError(), message);
    plugin->registerPassBuilderCallbacks(pb);
  }
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  static const OptimizationLevel levels[] = {OptimizationLevel::O0, OptimizationLevel::O1,
                                             OptimizationLevel::O2, OptimizationLevel::O3};
  ModulePassManager mpm = pb.buildThinLTODefaultPipeline(levels[opt_level & 3], nullptr);
  mpm.run(m, mam);
  return 0;
}
