// The sanitizers' passes of a partition's pipeline, set as clang sets them
// for Linux, and the names ASan's would give a serial compile's statics.
#include "sanitizers.h"

#include <cstring>
#include <string>
#include <vector>

#include "support/compat.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Analysis/GlobalsModRef.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Instrumentation/AddressSanitizer.h"
#include "llvm/Transforms/Instrumentation/DataFlowSanitizer.h"
#include "llvm/Transforms/Instrumentation/MemorySanitizer.h"
#include "llvm/Transforms/Instrumentation/ThreadSanitizer.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/GVN.h"
#include "llvm/Transforms/Scalar/JumpThreading.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

static void add_address_sanitizer(ModulePassManager &mpm, const mtpc_sanitizer_spec &spec) {
  AddressSanitizerOptions options;
  options.Recover = spec.recover != 0;
  options.UseAfterScope = spec.use_after_scope != 0;
  options.UseAfterReturn = spec.use_after_return == 0   ? AsanDetectStackUseAfterReturnMode::Never
                           : spec.use_after_return == 2 ? AsanDetectStackUseAfterReturnMode::Always
                                                        : AsanDetectStackUseAfterReturnMode::Runtime;
  mpm.addPass(AddressSanitizerPass(options, spec.globals_gc != 0, spec.odr_indicator != 0,
                                   spec.global_destructor ? AsanDtorKind::Global
                                                          : AsanDtorKind::None));
}

static void add_memory_sanitizer(ModulePassManager &mpm, OptimizationLevel level,
                                 const mtpc_sanitizer_spec &spec) {
  mpm.addPass(MemorySanitizerPass(MemorySanitizerOptions(
      spec.track_origins, spec.recover != 0, /*Kernel=*/false, spec.eager_checks != 0)));
  if (level == OptimizationLevel::O0)
    return;
  // As clang: MSan's shadow code follows the program's, and these tidy it.
  mpm.addPass(RequireAnalysisPass<GlobalsAA, Module>());
  FunctionPassManager fpm;
  fpm.addPass(EarlyCSEPass(/*UseMemorySSA=*/true));
  fpm.addPass(InstCombinePass());
  fpm.addPass(JumpThreadingPass());
  fpm.addPass(GVNPass());
  fpm.addPass(InstCombinePass());
  mpm.addPass(createModuleToFunctionPassAdaptor(std::move(fpm)));
}

static SanitizerCoverageOptions coverage_options(const mtpc_coverage_spec &spec) {
  SanitizerCoverageOptions options;
  options.CoverageType = SanitizerCoverageOptions::Type(spec.level);
  auto has = [&spec](unsigned kind) { return (spec.kinds & kind) != 0; };
  options.IndirectCalls = has(MTPC_COVERAGE_INDIRECT_CALLS);
  options.TraceBB = has(MTPC_COVERAGE_TRACE_BB);
  options.TraceCmp = has(MTPC_COVERAGE_TRACE_CMP);
  options.TraceDiv = has(MTPC_COVERAGE_TRACE_DIV);
  options.TraceGep = has(MTPC_COVERAGE_TRACE_GEP);
  options.Use8bitCounters = has(MTPC_COVERAGE_8BIT_COUNTERS);
  options.TracePC = has(MTPC_COVERAGE_TRACE_PC);
  options.TracePCGuard = has(MTPC_COVERAGE_TRACE_PC_GUARD);
  options.Inline8bitCounters = has(MTPC_COVERAGE_INLINE_8BIT_COUNTERS);
  options.InlineBoolFlag = has(MTPC_COVERAGE_INLINE_BOOL_FLAG);
  options.PCTable = has(MTPC_COVERAGE_PC_TABLE);
  options.NoPrune = has(MTPC_COVERAGE_NO_PRUNE);
  options.StackDepth = has(MTPC_COVERAGE_STACK_DEPTH);
  options.TraceLoads = has(MTPC_COVERAGE_TRACE_LOADS);
  options.TraceStores = has(MTPC_COVERAGE_TRACE_STORES);
  options.CollectControlFlow = has(MTPC_COVERAGE_CONTROL_FLOW);
  return options;
}

// As clang's hasSanitizeCoverage: a level, or a kind that instruments
// without one.
static bool instruments(const mtpc_coverage &coverage) {
  unsigned alone = MTPC_COVERAGE_INDIRECT_CALLS | MTPC_COVERAGE_TRACE_CMP |
                   MTPC_COVERAGE_TRACE_LOADS | MTPC_COVERAGE_TRACE_STORES |
                   MTPC_COVERAGE_CONTROL_FLOW;
  return coverage.spec.level != MTPC_COVERAGE_NONE || (coverage.spec.kinds & alone);
}

// The partition's promoted functions named as the source names them, where
// no other value of the module has that name: the defined ones, or with
// `declared_and_aliases` the declared ones and the aliases too. Each with
// its promoted name, the source name then its suffix.
struct source_named {
  GlobalValue *value;
  std::string promoted;
  size_t source_length;
};

static std::vector<source_named> name_as_source(Module &m, bool declared_and_aliases) {
  std::vector<source_named> renamed;
  auto rename = [&](GlobalValue &v) {
    size_t at = v.getName().find(".llvm.mtpc");
    if (at == StringRef::npos || m.getNamedValue(v.getName().take_front(at)))
      return;
    renamed.push_back({&v, v.getName().str(), at});
    v.setName(v.getName().take_front(at));
  };
  for (Function &f : m)
    if (!f.isDeclaration() || declared_and_aliases)
      rename(f);
  if (declared_and_aliases)
    for (GlobalAlias &a : m.aliases())
      rename(a);
  return renamed;
}

// SanitizerCoverage with special case lists, which name functions as the
// source does: a static the split promoted is matched by its source name,
// as a serial compile's pass matches it, and keeps its promoted name and a
// section group named after it (the merge gives both the source name back).
struct coverage_by_source_names : PassInfoMixin<coverage_by_source_names> {
  SanitizerCoveragePass pass;
  explicit coverage_by_source_names(SanitizerCoveragePass pass) : pass(std::move(pass)) {}

  PreservedAnalyses run(Module &m, ModuleAnalysisManager &am) {
    std::vector<source_named> renamed = name_as_source(m, /*declared_and_aliases=*/false);
    PreservedAnalyses preserved = pass.run(m, am);
    for (source_named &r : renamed) {
      auto *f = cast<Function>(r.value);
      std::string source_name = f->getName().str();
      f->setName(r.promoted);
      Comdat *group = f->getComdat();
      if (!group || group->getName() != source_name)
        continue;
      Comdat *own = m.getOrInsertComdat(r.promoted);
      own->setSelectionKind(group->getSelectionKind());
      for (GlobalObject &object : m.global_objects())
        if (object.getComdat() == group)
          object.setComdat(own);
    }
    return preserved;
  }
  static bool isRequired() { return true; }
};

// DataFlowSanitizer matches its ABI lists against the source's names and
// writes them into its warnings, so it sees a promoted function (declared
// or defined) by that name, as a serial compile's pass does. What it names
// after the function then gets the promoted suffix, at the end where the
// merge cuts it off again: the instrumented `<name>.dfsan`, and an
// uninstrumented one's wrapper `dfsw$<name>` (its declarations' too, so the
// partitions agree on every name). The pass may replace an alias by a
// function of the same name, so the names are looked up again after it.
struct dfsan_by_source_names : PassInfoMixin<dfsan_by_source_names> {
  DataFlowSanitizerPass pass;
  explicit dfsan_by_source_names(DataFlowSanitizerPass pass) : pass(std::move(pass)) {}

  PreservedAnalyses run(Module &m, ModuleAnalysisManager &am) {
    std::vector<std::pair<std::string, std::string>> sources; // name, suffix
    for (source_named &r : name_as_source(m, /*declared_and_aliases=*/true))
      sources.emplace_back(r.promoted.substr(0, r.source_length),
                           r.promoted.substr(r.source_length));
    PreservedAnalyses preserved = pass.run(m, am);
    for (auto &[source, suffix] : sources)
      for (const std::string &name : {source, source + ".dfsan", "dfsw$" + source})
        if (GlobalValue *v = m.getNamedValue(name))
          v->setName(name + suffix);
    return preserved;
  }
  static bool isRequired() { return true; }
};

// SanitizerCoverage's pass (its constructor reads the lists).
static void add_coverage(ModulePassManager &mpm, const mtpc_coverage &coverage) {
  SanitizerCoveragePass pass = mtpc_compat::sanitizer_coverage_pass(
      coverage_options(coverage.spec), coverage.allowlists, coverage.ignorelists);
  if (coverage.allowlists.empty() && coverage.ignorelists.empty())
    mpm.addPass(std::move(pass));
  else
    mpm.addPass(coverage_by_source_names(std::move(pass)));
}

void mtpc_sanitizers::add_passes(PassBuilder &pb, const mtpc_sanitizer_spec &spec,
                                 const mtpc_coverage &coverage,
                                 const std::vector<std::string> &dfsan_abilists) {
  bool covers = instruments(coverage);
  if (spec.kind == MTPC_SANITIZER_NONE && !covers)
    return;
  mtpc_compat::at_optimizer_last(pb, [spec, covers, coverage, dfsan_abilists](
                                         ModulePassManager &mpm, OptimizationLevel level) {
    if (covers)
      add_coverage(mpm, coverage);
    switch (spec.kind) {
    case MTPC_SANITIZER_MEMORY:
      add_memory_sanitizer(mpm, level, spec);
      break;
    case MTPC_SANITIZER_THREAD:
      mpm.addPass(ModuleThreadSanitizerPass());
      mpm.addPass(createModuleToFunctionPassAdaptor(ThreadSanitizerPass()));
      break;
    case MTPC_SANITIZER_ADDRESS:
      add_address_sanitizer(mpm, spec);
      break;
    case MTPC_SANITIZER_DATAFLOW:
      mpm.addPass(dfsan_by_source_names(DataFlowSanitizerPass(dfsan_abilists)));
      break;
    case MTPC_SANITIZER_NONE:
      break;
    }
  });
}

// ASan describes each global it instruments by the symbol's name, which for
// a static used across partitions is its promoted one: the description gets
// the source's name back, so that a report names the variable as a serial
// compile's does (the symbol itself is local again once merged). The ODR
// indicator ASan gives a global that is not local stays in the partition
// too: a serial compile's static has none to export. And the section group
// ASan puts a promoted static and its metadata in is named after the
// symbol: once the merge gives the symbol its name back, the group would be
// named like the other objects' groups of their own static (".str.76"),
// and the linker would keep only one; it gets the name ASan gives a local's
// group, after the partition's exported names.
void mtpc_sanitizers::restore_names(Module &m) {
  std::vector<Comdat *> groups;
  // Not a function's own group (SanitizerCoverage's, named after it and
  // never deduplicated): its signature is the function's symbol.
  for (auto &entry : m.getComdatSymbolTable())
    if (entry.getKey().contains(".llvm.mtpc") &&
        entry.getValue().getSelectionKind() != Comdat::NoDeduplicate)
      groups.push_back(&entry.getValue());
  // As ASan names a local's group: after the module's exported names.
  std::string module_id = getUniqueModuleId(&m);
  DenseMap<Comdat *, Comdat *> renamed;
  for (Comdat *group : groups) {
    std::string name = group->getName().str();
    if (module_id.empty())
      name.replace(name.find(".llvm.mtpc"), strlen(".llvm.mtpc"), ".asan.mtpc");
    else
      name = name.substr(0, name.find(".llvm.mtpc")) + module_id;
    Comdat *other = m.getOrInsertComdat(name);
    other->setSelectionKind(group->getSelectionKind());
    renamed[group] = other;
  }
  // One walk over the module's objects, however many groups were renamed.
  for (GlobalObject &object : m.global_objects())
    if (Comdat *other = renamed.lookup(object.getComdat()))
      object.setComdat(other);
  std::vector<GlobalVariable *> names;
  for (GlobalVariable &gv : m.globals()) {
    if (gv.getName().starts_with("__odr_asan_gen_") && gv.getName().contains(".llvm.mtpc")) {
      gv.setLinkage(GlobalValue::InternalLinkage);
      gv.setVisibility(GlobalValue::DefaultVisibility);
    }
    if (gv.getName().starts_with("___asan_gen_") && gv.hasInitializer())
      if (auto *text = dyn_cast<ConstantDataArray>(gv.getInitializer()))
        if (text->isCString() && text->getAsCString().contains(".llvm.mtpc"))
          names.push_back(&gv);
  }
  for (GlobalVariable *gv : names) {
    StringRef promoted = cast<ConstantDataArray>(gv->getInitializer())->getAsCString();
    Constant *text = ConstantDataArray::getString(m.getContext(),
                                                  promoted.substr(0, promoted.find(".llvm.mtpc")));
    auto *restored = new GlobalVariable(m, text->getType(), true, gv->getLinkage(), text, "", gv,
                                        gv->getThreadLocalMode());
    restored->copyAttributesFrom(gv);
    restored->takeName(gv);
    gv->replaceAllUsesWith(restored);
    gv->eraseFromParent();
  }
}
