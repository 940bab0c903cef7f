#include "pipeline.h"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <llvm/ADT/StringSwitch.h>

#include "declined_copies.h"
#include "late_clones.h"
#include "pgo_names.h"
#include "profile_phase.h"
#include "sanitizers.h"
#include "support/compat.h"
#include "support/cxx_util.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/LTO/Config.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/Compression.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/Transforms/IPO/CrossDSOCFI.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/IPO/GlobalSplit.h"
#include "llvm/Transforms/IPO/LowerTypeTests.h"
#include "llvm/Transforms/IPO/MemProfContextDisambiguation.h"
#include "llvm/Transforms/IPO/WholeProgramDevirt.h"
#include "llvm/Transforms/Instrumentation/GCOVProfiler.h"
#include "llvm/Transforms/Instrumentation/InstrProfiling.h"
#include "llvm/Transforms/Utils/EntryExitInstrumenter.h"

using namespace llvm;
using mtpc_util::fail;

namespace llvm {
extern cl::opt<bool> EnableMemProfContextDisambiguation;
}

// mtpc's enums list LLVM's values in LLVM's order, after a default that
// leaves the choice to the module (compile.c checks the ranges).
static std::optional<Reloc::Model> reloc_model(mtpc_reloc_model model) {
  return model ? std::optional(Reloc::Model(model - 1)) : std::nullopt;
}

static std::optional<CodeModel::Model> code_model(mtpc_code_model model) {
  return model ? std::optional(CodeModel::Model(model - 1)) : std::nullopt;
}

struct mtpc_bridge_settings {
  std::unique_ptr<lto::Config> owned;
  const lto::Config *conf = nullptr;
  bool full_lto = false; // partitions run the full LTO pipeline
  mtpc_sanitizer_spec sanitizer = {}; // its passes last, as clang adds them
  mtpc_coverage coverage;             // SanitizerCoverage's, before them
  std::vector<std::string> dfsan_abilists; // DataFlowSanitizer's, in clang's order
  std::optional<PGOOptions> ir_profile; // IR instrumentation or use (profile_phase.h)
  bool assignment_tracking = false; // first in the pipeline, as clang adds it
  bool debug_info_for_profiling = false; // discriminators, as clang's pipeline adds them
  bool emulated_tls_by_target = false; // mtpc_options' 0, for a Config of our own
  mtpc_bridge_settings_info info = {};
};

// clang's assignment tracking, first in a default<ON> pipeline above O0.
static void track_assignments(PassBuilder &pb, const mtpc_bridge_settings *s) {
  if (!s->assignment_tracking)
    return;
  pb.registerPipelineStartEPCallback([](ModulePassManager &mpm, OptimizationLevel level) {
    if (level != OptimizationLevel::O0)
      mpm.addPass(AssignmentTrackingPass());
  });
}

static std::string or_empty(const char *s) { return s ? s : ""; }

// options.c has checked the name.
static DebuggerKind debugger_kind(const char *name) {
  return StringSwitch<DebuggerKind>(or_empty(name))
      .Case("gdb", DebuggerKind::GDB)
      .Case("lldb", DebuggerKind::LLDB)
      .Case("sce", DebuggerKind::SCE)
      .Case("dbx", DebuggerKind::DBX)
      .Default(DebuggerKind::Default);
}

// The basic-block sections and maps of mtpc_options, as clang sets them.
static bool fill_block_sections(lto::Config &c, const mtpc_options *o, std::string &why) {
  c.Options.BBAddrMap = o->basic_block_address_map != 0;
  std::string value = or_empty(o->basic_block_sections);
  if (value.empty() || value == "none")
    return true;
  if (value == "all") {
    c.Options.BBSections = BasicBlockSection::All;
    return true;
  }
  if (value == "labels") {
#if LLVM_VERSION_MAJOR < 20
    c.Options.BBSections = BasicBlockSection::Labels;
#else
    c.Options.BBAddrMap = true;
#endif
    return true;
  }
  ErrorOr<std::unique_ptr<MemoryBuffer>> list = MemoryBuffer::getFile(value);
  if (!list) {
    why = value + ": cannot read the basic block sections list: " + list.getError().message();
    return false;
  }
  c.Options.BBSections = BasicBlockSection::List;
  c.Options.BBSectionsFuncListBuf = std::move(*list);
  return true;
}

bool mtpc_pipeline::fill_config(lto::Config &c, const mtpc_options *o, std::string &why) {
  c.CPU = or_empty(o->cpu);
  c.Options.MCOptions.ABIName = or_empty(o->target_abi);
  // Named: a temporary in the range expression would be gone before the
  // loop reads it (C++17 extends only the range's own lifetime).
  std::string features = or_empty(o->features);
  for (StringRef feature : llvm::split(features, ','))
    if (!feature.empty())
      c.MAttrs.push_back(feature.str());
  c.Options.FunctionSections = o->function_sections != 0;
  c.Options.DataSections = o->data_sections != 0;
  c.Options.EmitAddrsig = o->addrsig != 0;
  c.Options.EmitStackSizeSection = o->stack_size_section != 0;
  c.Options.UniqueSectionNames = o->no_unique_section_names == 0;
  c.Options.NoZerosInBSS = o->no_zeros_in_bss != 0;
  c.Options.LoopAlignment = o->loop_alignment;
  c.Options.DebuggerTuning = debugger_kind(o->debugger_tuning);
  c.Options.EnableMachineFunctionSplitter = o->split_machine_functions != 0;
  c.Options.EmitCallSiteInfo = o->call_site_info != 0;
  c.Options.ObjectFilenameForDebug = or_empty(o->object_file_name);
  c.Options.EmulatedTLS = o->emulated_tls > 0;
  // TargetOptions() says .ctors; clang, llc and LLVM's LTO say .init_array.
  c.Options.UseInitArray = true;
  c.RelocModel = reloc_model(o->reloc_model);
  c.CodeModel = code_model(o->code_model);
  c.CGOptLevel = CodeGenOptLevel(o->codegen_opt_level);
  c.OptLevel = o->opt_level;
  c.PTO.LoopVectorization = o->loop_vectorize ? o->loop_vectorize > 0 : o->opt_level > 1;
  c.PTO.SLPVectorization = o->slp_vectorize ? o->slp_vectorize > 0 : o->opt_level > 1;
  if (o->loop_unroll)
    c.PTO.LoopUnrolling = c.PTO.LoopInterleaving = o->loop_unroll > 0;
  for (unsigned i = 0; i < o->pass_plugin_count; i++)
    c.PassPlugins.push_back(o->pass_plugins[i]);
  c.SampleProfile = or_empty(o->sample_profile);
  c.CSIRProfile = or_empty(o->cs_profile);
  c.RunCSIRInstr = o->cs_profile_generate != 0;
  c.OptPipeline = or_empty(o->opt_pipeline);
  c.AAPipeline = or_empty(o->aa_pipeline);
  if (o->emit_assembly) {
    c.CGFileType = CodeGenFileType::AssemblyFile;
    c.Options.MCOptions.AsmVerbose = true;
  }
  c.RemarksFilename = or_empty(o->remarks_file);
  c.RemarksFormat = o->remarks_format ? o->remarks_format : "yaml";
  c.RemarksPasses = or_empty(o->remarks_passes);
  c.RemarksWithHotness = o->remarks_with_hotness != 0;
  c.DebugPassManager = o->debug_pass_manager != 0;
  c.DisableVerify = !o->verify;
  c.SplitDwarfOutput = or_empty(o->split_dwarf_output);
  c.SplitDwarfFile = o->split_dwarf_file ? o->split_dwarf_file : c.SplitDwarfOutput;
  c.ShouldDiscardValueNames = !o->save_temps_prefix;
  return fill_block_sections(c, o, why);
}

static const char *compression_name(DebugCompressionType type) {
  switch (type) {
  case DebugCompressionType::Zlib:
    return "zlib";
  case DebugCompressionType::Zstd:
    return "zstd";
  default:
    return nullptr;
  }
}

static std::optional<PGOOptions> partition_pgo(const mtpc_bridge_settings *s);

extern "C" mtpc_bridge_settings *mtpc_bridge_settings_create(const mtpc_options *o,
                                                             const void *lto_config,
                                                             char **message) {
  auto s = std::make_unique<mtpc_bridge_settings>();
  if (lto_config) {
    s->conf = static_cast<const lto::Config *>(lto_config);
  } else {
    s->owned = std::make_unique<lto::Config>();
    std::string why;
    if (!mtpc_pipeline::fill_config(*s->owned, o, why))
      return fail(why, message), nullptr;
    s->conf = s->owned.get();
    s->emulated_tls_by_target = o->emulated_tls == 0;
  }
  s->full_lto = o->full_lto != 0;
  s->assignment_tracking = o->assignment_tracking != 0;
  s->debug_info_for_profiling = o->debug_info_for_profiling != 0;
  char why[160];
  if (mtpc_sanitizer_spec_read(o->sanitizers, &s->sanitizer, why, sizeof(why)) ||
      mtpc_coverage_spec_read(o->sanitizer_coverage, &s->coverage.spec, why, sizeof(why)))
    return fail(why, message), nullptr;
  if (o->sanitizer_coverage_allowlist)
    s->coverage.allowlists.push_back(o->sanitizer_coverage_allowlist);
  if (o->sanitizer_coverage_ignorelist)
    s->coverage.ignorelists.push_back(o->sanitizer_coverage_ignorelist);
  for (unsigned i = 0; i < o->dfsan_abilist_count; i++)
    s->dfsan_abilists.push_back(o->dfsan_abilists[i]);
  s->ir_profile = mtpc_profile_phase::pgo_options(*o);
  const lto::Config &c = *s->conf;
  auto or_null = [](const std::string &text) { return text.empty() ? nullptr : text.c_str(); };
  // ASan's and MSan's reports name a function's stack variables by their
  // values' names, which clang's front end keeps for them.
  bool names_stack_variables = s->sanitizer.kind == MTPC_SANITIZER_ADDRESS ||
                               s->sanitizer.kind == MTPC_SANITIZER_MEMORY;
  std::optional<PGOOptions> pgo = partition_pgo(s.get());
  s->info = {or_null(c.SplitDwarfFile), or_null(c.SplitDwarfOutput), or_null(c.DwoDir),
             c.CGFileType == CodeGenFileType::AssemblyFile, c.DebugPassManager,
             c.ShouldDiscardValueNames && !names_stack_variables,
             compression_name(c.Options.MCOptions.CompressDebugSections),
             pgo && pgo->CSAction != PGOOptions::NoCSAction,
             s->sanitizer.kind == MTPC_SANITIZER_DATAFLOW};
  return s.release();
}

extern "C" void mtpc_bridge_settings_free(mtpc_bridge_settings *s) { delete s; }

const lto::Config &mtpc_pipeline::config(const mtpc_bridge_settings *s) { return *s->conf; }

extern "C" const mtpc_bridge_settings_info *
mtpc_bridge_settings_describe(const mtpc_bridge_settings *s) {
  return &s->info;
}

bool mtpc_pipeline::describes_call_sites(const Triple &triple) {
  switch (triple.getArch()) {
  case Triple::x86:
  case Triple::x86_64:
  case Triple::aarch64:
  case Triple::arm:
  case Triple::armeb:
  case Triple::mips:
  case Triple::mipsel:
  case Triple::mips64:
  case Triple::mips64el:
    return true;
#if LLVM_VERSION_MAJOR >= 22
  case Triple::riscv32:
  case Triple::riscv64:
    return true;
#endif
  default:
    return false;
  }
}

// As lto's createTargetMachine does it.
extern "C" LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_settings *s,
                                                                  LLVMModuleRef module,
                                                                  char **message) {
  const lto::Config &c = *s->conf;
  Module &m = *unwrap(module);
  Triple triple = mtpc_compat::module_triple(m);
  std::string error;
  const Target *target = mtpc_compat::lookup_target(triple, error);
  if (!target) {
    fail("unknown target '" + triple.str() + "': " + error, message);
    return nullptr;
  }
  SubtargetFeatures features;
  features.getDefaultSubtargetFeatures(triple);
  for (const std::string &attr : c.MAttrs)
    features.AddFeature(attr);
  std::optional<Reloc::Model> reloc = c.RelocModel;
  if (!reloc && m.getModuleFlag("PIC Level"))
    reloc = m.getPICLevel() == PICLevel::NotPIC ? Reloc::Static : Reloc::PIC_;
  std::optional<CodeModel::Model> model = c.CodeModel ? c.CodeModel : m.getCodeModel();
  TargetOptions options = c.Options;
  // The merge and the partition cache read the partitions' debug sections;
  // the session compresses its outputs last (merge/compress.h).
  options.MCOptions.CompressDebugSections = DebugCompressionType::None;
  options.EmitCallSiteInfo =
      options.EmitCallSiteInfo && mtpc_pipeline::describes_call_sites(triple);
  if (s->emulated_tls_by_target)
    options.EmulatedTLS = triple.hasDefaultEmulatedTLS();
  TargetMachine *tm =
      target->createTargetMachine(mtpc_compat::triple_arg(triple.str()), c.CPU,
                                  features.getString(), options, reloc, model, c.CGOptLevel);
  if (!tm) {
    fail("cannot create a target machine for '" + triple.str() + "'", message);
    return nullptr;
  }
  if (std::optional<uint64_t> threshold = m.getLargeDataThreshold())
    tm->setLargeDataThreshold(*threshold);
  return reinterpret_cast<LLVMTargetMachineRef>(tm);
}

// The profile options lto::opt gives the pass builder.
static std::optional<PGOOptions> pgo_options(const lto::Config &c) {
  using mtpc_compat::pgo_options;
  if (!c.SampleProfile.empty())
    return pgo_options(c.SampleProfile, "", c.ProfileRemapping, PGOOptions::SampleUse,
                       PGOOptions::NoCSAction, true);
  if (c.RunCSIRInstr)
    return pgo_options("", c.CSIRProfile, c.ProfileRemapping, PGOOptions::IRUse,
                       PGOOptions::CSIRInstr, c.AddFSDiscriminator);
  if (!c.CSIRProfile.empty())
    return pgo_options(c.CSIRProfile, "", c.ProfileRemapping, PGOOptions::IRUse,
                       PGOOptions::CSIRUse, c.AddFSDiscriminator);
  if (c.AddFSDiscriminator)
    return pgo_options("", "", "", PGOOptions::NoAction, PGOOptions::NoCSAction, true);
  return std::nullopt;
}

// The analysis managers of one pipeline, registered with its PassBuilder.
struct analyses {
  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  std::unique_ptr<TargetLibraryInfoImpl> library;
  // The library functions of the module's target (none when freestanding);
  // before register_with, whose default would take their place.
  void know_library(const Module &m, bool freestanding = false) {
    library = std::make_unique<TargetLibraryInfoImpl>(mtpc_compat::module_triple(m));
    if (freestanding)
      library->disableAllFunctions();
    fam.registerPass([this] { return TargetLibraryAnalysis(*library); });
  }
  void register_with(PassBuilder &pb) {
    pb.registerModuleAnalyses(mam);
    pb.registerCGSCCAnalyses(cgam);
    pb.registerFunctionAnalyses(fam);
    pb.registerLoopAnalyses(lam);
    pb.crossRegisterProxies(lam, fam, cgam, mam);
  }
};

// A pipeline's analyses and the instrumentation the configuration asks for
// (--debug-pass-manager, the verifier after each pass).
struct pass_run {
  analyses a;
  PassInstrumentationCallbacks pic;
  StandardInstrumentations si;
  pass_run(Module &m, const lto::Config &c) : si(m.getContext(), c.DebugPassManager, c.VerifyEach) {
    si.registerCallbacks(pic, &a.mam);
  }
};

static OptimizationLevel optimization_level(unsigned level) {
  static const OptimizationLevel levels[] = {OptimizationLevel::O0, OptimizationLevel::O1,
                                             OptimizationLevel::O2, OptimizationLevel::O3};
  return levels[level & 3];
}

// The passes of the full LTO pipeline that ran on the whole module
// (mtpc_bridge_run_full_lto_passes). In a partition they would see a part of
// the program as the whole: type-test lowering would lay out the vtables
// that the branch funnels of devirtualization name again, from the
// partition's copies.
static bool whole_program_pass(StringRef pass) {
  return pass == "CrossDSOCFIPass" || pass == "GlobalSplitPass" ||
         pass == "WholeProgramDevirtPass" || pass == "LowerTypeTestsPass";
}

// CGProfilePass appends its "CG Profile" module flag without looking for
// one, and LLVM's verifier rejects a second: a module that a whole pipeline
// has optimized already (clang -O2 -emit-llvm with a profile) has one. The
// default pipelines' own takes its place, each partition's of its edges.
static void drop_module_flag(Module &m, StringRef key) {
  NamedMDNode *flags = m.getModuleFlagsMetadata();
  if (!flags)
    return;
  SmallVector<MDNode *, 16> kept;
  for (MDNode *flag : flags->operands()) {
    auto *name = flag->getNumOperands() > 1 ? dyn_cast<MDString>(flag->getOperand(1)) : nullptr;
    if (!name || name->getString() != key)
      kept.push_back(flag);
  }
  if (kept.size() == flags->getNumOperands())
    return;
  flags->clearOperands();
  for (MDNode *flag : kept)
    flags->addOperand(flag);
}

// A pipeline that is clang's per-module default one ("default<Oz>"), built
// as clang builds it: parsed from text, LLVM 19 builds it with the
// vectorizers on whatever the tuning options say, where clang's -Oz and
// -fno-vectorize have them off.
static std::optional<OptimizationLevel> default_pipeline_level(StringRef pipeline) {
  static const std::pair<const char *, OptimizationLevel> levels[] = {
      {"default<O1>", OptimizationLevel::O1}, {"default<O2>", OptimizationLevel::O2},
      {"default<O3>", OptimizationLevel::O3}, {"default<Os>", OptimizationLevel::Os},
      {"default<Oz>", OptimizationLevel::Oz}};
  for (const auto &[text, level] : levels)
    if (pipeline == text)
      return level;
  return std::nullopt;
}

static int load_plugins(PassBuilder &pb, const lto::Config &c, char **message) {
  for (const std::string &path : c.PassPlugins) {
    Expected<PassPlugin> plugin = PassPlugin::Load(path);
    if (!plugin)
      return fail(plugin.takeError(), message);
    plugin->registerPassBuilderCallbacks(pb);
  }
  return 0;
}

// The analyses the Config asks for: its library functions and AA pipeline.
static int config_analyses(analyses &a, PassBuilder &pb, const lto::Config &c, const Module &m,
                           char **message) {
  a.know_library(m, c.Freestanding);
  if (c.AAPipeline.empty())
    return 0;
  AAManager aa;
  if (Error err = pb.parseAAPipeline(aa, c.AAPipeline))
    return fail("cannot parse the AA pipeline '" + c.AAPipeline + "': " + toString(std::move(err)),
                message);
  a.fam.registerPass([aa = std::move(aa)]() mutable { return std::move(aa); });
  return 0;
}

// The per-module pipeline up to its IR profile passes, on the whole module
// (profile_phase.h says why).
extern "C" int mtpc_bridge_run_profile_phase(const mtpc_bridge_settings *s, LLVMModuleRef module,
                                             char **message) {
  const lto::Config &c = *s->conf;
  Module &m = *unwrap(module);
  LLVMTargetMachineRef machine = mtpc_bridge_create_target_machine(s, module, message);
  if (!machine)
    return -1;
  std::unique_ptr<TargetMachine> tm(reinterpret_cast<TargetMachine *>(machine));
  tm->setPGOOption(s->ir_profile);
  pass_run run(m, c);
  analyses &a = run.a;
  PassInstrumentationCallbacks &pic = run.pic;
  mtpc_profile_phase::stop_after_profile_passes(pic);
  PassBuilder pb(tm.get(), c.PTO, s->ir_profile, &pic);
  if (load_plugins(pb, c, message) || config_analyses(a, pb, c, m, message))
    return -1;
  track_assignments(pb, s);
  a.register_with(pb);
  ModulePassManager mpm;
  mpm.addPass(pb.buildPerModuleDefaultPipeline(
      default_pipeline_level(c.OptPipeline).value_or(optimization_level(c.OptLevel))));
  mpm.run(m, a.mam);
  return 0;
}

// The profile the partitions' pipelines read: the IR profile phase's, else
// the configuration's; with -fdebug-info-for-profiling's discriminators,
// as clang's options hold them.
static std::optional<PGOOptions> partition_pgo(const mtpc_bridge_settings *s) {
  std::optional<PGOOptions> pgo = s->ir_profile ? s->ir_profile : pgo_options(*s->conf);
  if (s->debug_info_for_profiling && !pgo)
    pgo = mtpc_compat::pgo_options("", "", "", PGOOptions::NoAction, PGOOptions::NoCSAction,
                                   true);
  else if (s->debug_info_for_profiling)
    pgo->DebugInfoForProfiling = true;
  return pgo;
}

// The profile options of a partition's pass builder: the target machine's,
// but after the profile phase, whose pipeline added the discriminators of
// -fdebug-info-for-profiling to the whole module, without them (the pass
// that adds them is required, so it would run, and count, again).
static std::optional<PGOOptions> builder_pgo(const mtpc_bridge_settings *s,
                                             std::optional<PGOOptions> pgo) {
  if (mtpc_profile_phase::runs_phase(s->ir_profile) && pgo)
    pgo->DebugInfoForProfiling = false;
  return pgo;
}

// Whether the partition runs the ThinLTO pipeline as LLVM builds it, with
// nothing added to it (profiles, sanitizers, plugins) and no verifier
// between passes. Then clones may wait for the late pipeline
// (late_clones.h): nothing depends on the late passes seeing the whole
// module, and no verifier meets the bodies set aside. And copies may be
// weighed before their simplification (declined_copies.h) with the
// inliner's own parameters, which a profile would change.
static bool thin_pipeline_as_built(const mtpc_bridge_settings *s,
                                   const std::optional<PGOOptions> &pgo) {
  const lto::Config &c = *s->conf;
  return !s->full_lto && !pgo && c.OptPipeline.empty() && c.PassPlugins.empty() &&
         !c.VerifyEach && s->sanitizer.kind == MTPC_SANITIZER_NONE;
}

// What the ThinLTO pipeline's inliner weighs calls with (PassBuilder's
// buildInlinerPipeline, without a profile).
static InlineParams inliner_params(const lto::Config &c) {
  if (c.PTO.InlinerThreshold != -1)
    return getInlineParams(c.PTO.InlinerThreshold);
  OptimizationLevel level = optimization_level(c.OptLevel);
  return getInlineParams(level.getSpeedupLevel(), level.getSizeLevel());
}

static std::vector<std::string> names_of(const char *const *names, size_t count) {
  return std::vector<std::string>(names, names + count);
}

extern "C" int mtpc_bridge_optimize(const mtpc_bridge_settings *s, LLVMModuleRef module,
                                    LLVMTargetMachineRef machine,
                                    const char *const *late_clones, size_t late_clone_count,
                                    const mtpc_renames *promoted, mtpc_work_account *account,
                                    char **message) {
  const lto::Config &c = *s->conf;
  if (c.CodeGenOnly)
    return 0;
  Module &m = *unwrap(module);
  TargetMachine *tm = reinterpret_cast<TargetMachine *>(machine);
  std::optional<PGOOptions> pgo = partition_pgo(s);
  tm->setPGOOption(pgo);
  pass_run run(m, c);
  analyses &a = run.a;
  PassInstrumentationCallbacks &pic = run.pic;
  auto tracker = account ? mtpc_account::track(account, pic) : nullptr;
  if (s->full_lto)
    pic.registerShouldRunOptionalPassCallback(
        [](StringRef pass, Any) { return !whole_program_pass(pass); });
  if (mtpc_profile_phase::runs_phase(s->ir_profile))
    mtpc_profile_phase::start_after_profile_passes(pic);
  if (s->info.names_profile_records && promoted && promoted->count)
    mtpc_pgo_names::name_promoted_as_locals(
        pic, mtpc_pgo_names::renames(promoted->names, promoted->originals, promoted->count));
  if (thin_pipeline_as_built(s, pgo)) {
    mtpc_late_clones::skip_late_passes(pic, names_of(late_clones, late_clone_count));
    mtpc_declined_copies::skip_declined(pic, a.fam, inliner_params(c));
  }
  PassBuilder pb(tm, c.PTO, builder_pgo(s, pgo), &pic);
  if (load_plugins(pb, c, message) || config_analyses(a, pb, c, m, message))
    return -1;
  mtpc_sanitizers::add_passes(pb, s->sanitizer, s->coverage, s->dfsan_abilists);
  track_assignments(pb, s);
  a.register_with(pb);
  ModulePassManager mpm;
  if (std::optional<OptimizationLevel> level = default_pipeline_level(c.OptPipeline)) {
    mpm.addPass(pb.buildPerModuleDefaultPipeline(*level));
  } else if (s->ir_profile) {
    mpm.addPass(pb.buildPerModuleDefaultPipeline(optimization_level(c.OptLevel)));
  } else if (!c.OptPipeline.empty()) {
    if (Error err = pb.parsePassPipeline(mpm, c.OptPipeline))
      return fail("cannot parse the pass pipeline '" + c.OptPipeline + "': " +
                      toString(std::move(err)),
                  message);
  } else {
    drop_module_flag(m, "CG Profile");
    // With full LTO the summaries have done their work on the whole module already.
    OptimizationLevel level = optimization_level(c.OptLevel);
    mpm.addPass(s->full_lto ? pb.buildLTODefaultPipeline(level, nullptr)
                            : pb.buildThinLTODefaultPipeline(level, nullptr));
  }
  if (!c.DisableVerify)
    mpm.addPass(VerifierPass());
  mpm.run(m, a.mam);
  if (s->sanitizer.kind == MTPC_SANITIZER_ADDRESS)
    mtpc_sanitizers::restore_names(m);
  return 0;
}

extern "C" int mtpc_bridge_optimize_late_clones(const mtpc_bridge_settings *s,
                                                LLVMModuleRef module, LLVMTargetMachineRef machine,
                                                const char *const *kept, size_t kept_count,
                                                mtpc_work_account *account, char **message) {
  const lto::Config &c = *s->conf;
  std::optional<PGOOptions> pgo = partition_pgo(s);
  if (c.CodeGenOnly || !kept_count || !thin_pipeline_as_built(s, pgo))
    return 0;
  Module &m = *unwrap(module);
  TargetMachine *tm = reinterpret_cast<TargetMachine *>(machine);
  pass_run run(m, c);
  analyses &a = run.a;
  PassInstrumentationCallbacks &pic = run.pic;
  auto tracker = account ? mtpc_account::track(account, pic) : nullptr;
  mtpc_late_clones::skip_module_passes(pic);
  PassBuilder pb(tm, c.PTO, pgo, &pic);
  if (config_analyses(a, pb, c, m, message))
    return -1;
  a.register_with(pb);
  ModulePassManager late = pb.buildModuleOptimizationPipeline(optimization_level(c.OptLevel),
                                                              ThinOrFullLTOPhase::ThinLTOPostLink);
  std::vector<Function *> ran =
      mtpc_late_clones::run_late_passes(m, late, a.mam, names_of(kept, kept_count));
  std::string broken;
  raw_string_ostream out(broken);
  if (!c.DisableVerify)
    for (Function *f : ran)
      if (verifyFunction(*f, &out))
        return fail(out.str(), message);
  return 0;
}

extern "C" int mtpc_bridge_codegen(const mtpc_bridge_settings *s, LLVMModuleRef module,
                                   LLVMTargetMachineRef machine, const char *dwo_name,
                                   int separate_dwo, void **object, size_t *object_size,
                                   void **dwo, size_t *dwo_size, char **message) {
  Module &m = *unwrap(module);
  TargetMachine *tm = reinterpret_cast<TargetMachine *>(machine);
  tm->Options.MCOptions.SplitDwarfFile = dwo_name ? dwo_name : "";
  SmallString<0> object_bytes, dwo_bytes;
  raw_svector_ostream object_out(object_bytes), dwo_out(dwo_bytes);
  legacy::PassManager passes;
  TargetLibraryInfoImpl tlii(mtpc_compat::module_triple(m));
  passes.add(new TargetLibraryInfoWrapperPass(tlii));
  if (tm->addPassesToEmitFile(passes, object_out, separate_dwo ? &dwo_out : nullptr,
                              s->conf->CGFileType))
    return fail("the target cannot emit this file type", message);
  passes.run(m);
  *object = mtpc_util::copy_bytes(object_bytes, object_size);
  *dwo = separate_dwo ? mtpc_util::copy_bytes(dwo_bytes, dwo_size) : nullptr;
  if (!*object || (separate_dwo && !*dwo)) {
    std::free(*object);
    std::free(*dwo);
    *object = *dwo = nullptr;
    return mtpc_util::out_of_memory(message);
  }
  return 0;
}

extern "C" void mtpc_bridge_run_summary_passes(const void *import_summary, LLVMModuleRef module) {
  auto *index = static_cast<const ModuleSummaryIndex *>(import_summary);
  if (!index)
    return;
  analyses a;
  PassBuilder pb;
  a.register_with(pb);
  ModulePassManager mpm;
  // What buildThinLTODefaultPipeline runs first when it has the index.
  if (EnableMemProfContextDisambiguation)
    mpm.addPass(MemProfContextDisambiguation(index));
  mpm.addPass(WholeProgramDevirtPass(nullptr, index));
  mpm.addPass(LowerTypeTestsPass(nullptr, index));
  mpm.run(*unwrap(module), a.mam);
}

// gcov's pass, then the lowering of clang's counters: the order of clang's
// pipeline-start callbacks. On the whole module, each function's counters
// are made once, where it is defined, and a copy inlined elsewhere counts
// into them.
extern "C" void mtpc_bridge_instrument_whole_module(LLVMModuleRef module, const mtpc_options *o) {
  analyses a;
  PassBuilder pb;
  a.know_library(*unwrap(module));
  a.register_with(pb);
  ModulePassManager mpm;
  if (o->gcov) {
    GCOVOptions gcov = GCOVOptions::getDefault();
    gcov.EmitNotes = (o->gcov & MTPC_GCOV_NOTES) != 0;
    gcov.EmitData = (o->gcov & MTPC_GCOV_DATA) != 0;
    gcov.NoRedZone = (o->gcov & MTPC_GCOV_NO_RED_ZONE) != 0;
    gcov.Atomic = o->instrprof_atomic != 0;
    std::memcpy(gcov.Version, "408*", 4); // clang's default -coverage-version
    mpm.addPass(GCOVProfilerPass(gcov));
  }
  if (o->lower_instrprof) {
    InstrProfOptions lowering;
    lowering.InstrProfileOutput = or_empty(o->instrprof_output);
    lowering.Atomic = o->instrprof_atomic != 0;
    mpm.addPass(InstrProfilingLoweringPass(lowering, /*IsCS=*/false));
  }
  // LLVM 19's per-module pipeline makes these calls itself, LLVM 22's only
  // through clang; made here, they are made once either way (the pass
  // drops the attributes it has served).
  if (o->instrument_functions)
    mpm.addPass(createModuleToFunctionPassAdaptor(EntryExitInstrumenterPass(/*PostInlining=*/false)));
  mpm.run(*unwrap(module), a.mam);
}

// What the full LTO pipeline (PassBuilder::buildLTODefaultPipeline) does
// that needs the whole program, before the split (docs/design.rst, Full
// LTO, says why these and not IPSCCP or GlobalOpt).
extern "C" int mtpc_bridge_run_full_lto_passes(const mtpc_bridge_settings *s, void *export_summary,
                                               LLVMModuleRef module, char **message) {
  Module &m = *unwrap(module);
  LLVMTargetMachineRef machine = mtpc_bridge_create_target_machine(s, module, message);
  if (!machine)
    return -1;
  std::unique_ptr<TargetMachine> tm(reinterpret_cast<TargetMachine *>(machine));
  auto *index = static_cast<ModuleSummaryIndex *>(export_summary);
  analyses a;
  PassBuilder pb(tm.get(), s->conf->PTO);
  a.know_library(m);
  a.register_with(pb);
  ModulePassManager mpm;
  mpm.addPass(CrossDSOCFIPass());
  if (s->conf->OptLevel > 0) {
    mpm.addPass(GlobalDCEPass(/*InLTOPostLink=*/true));
    mpm.addPass(GlobalSplitPass());
  }
  mpm.addPass(WholeProgramDevirtPass(index, nullptr));
  mpm.addPass(LowerTypeTestsPass(index, nullptr));
  mpm.addPass(mtpc_compat::drop_type_tests_pass());
  mpm.run(m, a.mam);
  return 0;
}
