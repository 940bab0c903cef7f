// The partition cache's description of an lto::Config (config_key.h): every
// field that can change a partition's object, lent by a linker or built from
// the C options, as "field=value" lines.
#include "config_key.h"

#include <string>

#include "compat.h"
#include "cxx_util.h"
#include "llvm/LTO/Config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetOptions.h"
#include "pipeline.h"

using namespace llvm;

namespace {

struct description {
  std::string text;
  raw_string_ostream out{text};

  template <typename T> void field(const char *name, const T &value) {
    out << name << '=' << value << '\n';
  }
  void flag(const char *name, bool value) { field(name, value ? 1 : 0); }
  template <typename T> void optional(const char *name, const std::optional<T> &value) {
    if (value)
      field(name, static_cast<long long>(*value));
    else
      field(name, "default");
  }
  // A file stands for its contents: an edited profile or a rebuilt plugin
  // keys new entries.
  void file(const char *name, const std::string &path) {
    field(name, path);
    if (path.empty())
      return;
    ErrorOr<std::unique_ptr<MemoryBuffer>> contents = MemoryBuffer::getFile(path);
    if (!contents) {
      field("  contents", "unreadable");
      return;
    }
    out << "  contents=";
    out.write_hex(xxh3_64bits(arrayRefFromStringRef((*contents)->getBuffer())));
    out << '\n';
  }
};

void describe_target_options(description &d, const TargetOptions &o) {
  d.flag("NoInfsFPMath", o.NoInfsFPMath);
  d.flag("NoNaNsFPMath", o.NoNaNsFPMath);
  d.flag("NoTrappingFPMath", o.NoTrappingFPMath);
  d.flag("NoSignedZerosFPMath", o.NoSignedZerosFPMath);
  d.flag("HonorSignDependentRoundingFPMathOption", o.HonorSignDependentRoundingFPMathOption);
  d.flag("NoZerosInBSS", o.NoZerosInBSS);
  d.flag("GuaranteedTailCallOpt", o.GuaranteedTailCallOpt);
  d.flag("StackSymbolOrdering", o.StackSymbolOrdering);
  d.flag("EnableFastISel", o.EnableFastISel);
  d.flag("EnableGlobalISel", o.EnableGlobalISel);
  d.field("GlobalISelAbort", static_cast<int>(o.GlobalISelAbort));
  d.field("SwiftAsyncFramePointer", static_cast<int>(o.SwiftAsyncFramePointer));
  d.flag("UseInitArray", o.UseInitArray);
  d.flag("DisableIntegratedAS", o.DisableIntegratedAS);
  d.flag("FunctionSections", o.FunctionSections);
  d.flag("DataSections", o.DataSections);
  d.flag("IgnoreXCOFFVisibility", o.IgnoreXCOFFVisibility);
  d.flag("XCOFFTracebackTable", o.XCOFFTracebackTable);
  d.flag("UniqueSectionNames", o.UniqueSectionNames);
  d.flag("UniqueBasicBlockSectionNames", o.UniqueBasicBlockSectionNames);
  d.flag("SeparateNamedSections", o.SeparateNamedSections);
  d.flag("TrapUnreachable", o.TrapUnreachable);
  d.flag("NoTrapAfterNoreturn", o.NoTrapAfterNoreturn);
  d.field("TLSSize", o.TLSSize);
  d.flag("EmulatedTLS", o.EmulatedTLS);
  d.flag("EnableTLSDESC", o.EnableTLSDESC);
  d.flag("EnableIPRA", o.EnableIPRA);
  d.flag("EmitStackSizeSection", o.EmitStackSizeSection);
  d.flag("EnableMachineOutliner", o.EnableMachineOutliner);
  d.flag("EnableMachineFunctionSplitter", o.EnableMachineFunctionSplitter);
  d.flag("SupportsDefaultOutlining", o.SupportsDefaultOutlining);
  d.flag("EmitAddrsig", o.EmitAddrsig);
  d.flag("BBAddrMap", o.BBAddrMap);
  d.flag("EmitCallSiteInfo", o.EmitCallSiteInfo);
  d.flag("SupportsDebugEntryValues", o.SupportsDebugEntryValues);
  d.flag("ShouldEmitDebugEntryValues", o.ShouldEmitDebugEntryValues());
  d.flag("ValueTrackingVariableLocations", o.ValueTrackingVariableLocations);
  d.flag("ForceDwarfFrameSection", o.ForceDwarfFrameSection);
  d.flag("XRayFunctionIndex", o.XRayFunctionIndex);
  d.flag("DebugStrictDwarf", o.DebugStrictDwarf);
  d.flag("Hotpatch", o.Hotpatch);
  d.flag("PPCGenScalarMASSEntries", o.PPCGenScalarMASSEntries);
  d.flag("JMCInstrument", o.JMCInstrument);
  d.flag("EnableCFIFixup", o.EnableCFIFixup);
  d.flag("MisExpect", o.MisExpect);
  d.flag("XCOFFReadOnlyPointers", o.XCOFFReadOnlyPointers);
  d.field("BBSections", static_cast<int>(o.BBSections));
  d.field("FloatABIType", static_cast<int>(o.FloatABIType));
  d.field("AllowFPOpFusion", static_cast<int>(o.AllowFPOpFusion));
  d.field("ThreadModel", static_cast<int>(o.ThreadModel));
  d.field("EABIVersion", static_cast<int>(o.EABIVersion));
  d.field("DebuggerTuning", static_cast<int>(o.DebuggerTuning));
  d.field("ExceptionModel", static_cast<int>(o.ExceptionModel));
  d.field("LoopAlignment", o.LoopAlignment);
  d.field("StackUsageOutput", o.StackUsageOutput);
  d.field("ObjectFilenameForDebug", o.ObjectFilenameForDebug);
  for (const auto &[name, value] : mtpc_compat::version_target_options(o))
    d.field(name, value);
  if (o.BBSectionsFuncListBuf)
    d.field("BBSectionsFuncList", o.BBSectionsFuncListBuf->getBuffer());

  const MCTargetOptions &mc = o.MCOptions;
  d.flag("MCRelaxAll", mc.MCRelaxAll);
  d.flag("MCNoExecStack", mc.MCNoExecStack);
  d.flag("MCSaveTempLabels", mc.MCSaveTempLabels);
  d.flag("MCIncrementalLinkerCompatible", mc.MCIncrementalLinkerCompatible);
  d.flag("FDPIC", mc.FDPIC);
  d.flag("AsmVerbose", mc.AsmVerbose);
  d.flag("PreserveAsmComments", mc.PreserveAsmComments);
  d.flag("Dwarf64", mc.Dwarf64);
  d.flag("EmitCompactUnwindNonCanonical", mc.EmitCompactUnwindNonCanonical);
  d.flag("X86RelaxRelocations", mc.X86RelaxRelocations);
  d.flag("X86Sse2Avx", mc.X86Sse2Avx);
  d.field("CompressDebugSections", static_cast<int>(mc.CompressDebugSections));
  d.field("EmitDwarfUnwind", static_cast<int>(mc.EmitDwarfUnwind));
  d.field("ABIName", mc.ABIName);
  d.field("AssemblyLanguage", mc.AssemblyLanguage);
  d.field("DwarfVersion", mc.DwarfVersion);
}

void describe_pipeline_tuning(description &d, const PipelineTuningOptions &o) {
  d.flag("LoopInterleaving", o.LoopInterleaving);
  d.flag("LoopVectorization", o.LoopVectorization);
  d.flag("SLPVectorization", o.SLPVectorization);
  d.flag("LoopUnrolling", o.LoopUnrolling);
  d.flag("ForgetAllSCEVInLoopUnroll", o.ForgetAllSCEVInLoopUnroll);
  d.field("LicmMssaOptCap", o.LicmMssaOptCap);
  d.field("LicmMssaNoAccForPromotionCap", o.LicmMssaNoAccForPromotionCap);
  d.flag("CallGraphProfile", o.CallGraphProfile);
  d.flag("UnifiedLTO", o.UnifiedLTO);
  d.flag("MergeFunctions", o.MergeFunctions);
  d.field("InlinerThreshold", o.InlinerThreshold);
  d.flag("EagerlyInvalidateAnalyses", o.EagerlyInvalidateAnalyses);
}

} // namespace

extern "C" char *mtpc_bridge_describe_config(const mtpc_bridge_settings *settings) {
  const lto::Config &c = mtpc_pipeline::config(settings);
  description d;
  d.field("CPU", c.CPU);
  for (const std::string &attr : c.MAttrs)
    d.field("MAttr", attr);
  for (const std::string &arg : c.MllvmArgs)
    d.field("MllvmArg", arg);
  for (const std::string &plugin : c.PassPlugins)
    d.file("PassPlugin", plugin);
  d.optional("RelocModel", c.RelocModel);
  d.optional("CodeModel", c.CodeModel);
  d.field("CGOptLevel", static_cast<int>(c.CGOptLevel));
  d.field("CGFileType", static_cast<int>(c.CGFileType));
  d.field("OptLevel", c.OptLevel);
  d.flag("VerifyEach", c.VerifyEach);
  d.flag("DisableVerify", c.DisableVerify);
  d.flag("Freestanding", c.Freestanding);
  d.flag("RunCSIRInstr", c.RunCSIRInstr);
  d.flag("PGOWarnMismatch", c.PGOWarnMismatch);
  d.flag("AddFSDiscriminator", c.AddFSDiscriminator);
  d.field("OptPipeline", c.OptPipeline);
  d.field("AAPipeline", c.AAPipeline);
  d.field("OverrideTriple", c.OverrideTriple);
  d.field("DefaultTriple", c.DefaultTriple);
  // An instrumented build writes its profile there; a use reads it.
  if (c.RunCSIRInstr)
    d.field("CSIRProfile", c.CSIRProfile);
  else
    d.file("CSIRProfile", c.CSIRProfile);
  d.file("SampleProfile", c.SampleProfile);
  d.file("ProfileRemapping", c.ProfileRemapping);
  d.flag("ShouldDiscardValueNames", c.ShouldDiscardValueNames);
  describe_target_options(d, c.Options);
  describe_pipeline_tuning(d, c.PTO);
  d.out.flush();
  return mtpc_util::copy_message(d.text);
}

extern "C" int mtpc_bridge_config_writes_more(const mtpc_bridge_settings *settings) {
  const lto::Config &c = mtpc_pipeline::config(settings);
  return !c.RemarksFilename.empty() || c.DebugPassManager || !c.StatsFile.empty();
}

extern "C" int mtpc_bridge_config_reads_names(const mtpc_bridge_settings *settings) {
  const lto::Config &c = mtpc_pipeline::config(settings);
  return !c.SampleProfile.empty() || !c.CSIRProfile.empty() || c.RunCSIRInstr ||
         !c.ProfileRemapping.empty() || !c.MllvmArgs.empty() ||
         c.Options.BBSections == BasicBlockSection::List;
}
