// Late optimization of the clones a partition may not keep (late_clones.h).
#include "late_clones.h"

#include <memory>
#include <utility>

#include "pass_ir.h"
#include "support/compat.h"
#include "llvm/ADT/Any.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/Function.h"

using namespace llvm;

namespace mtpc_late_clones {

namespace {

// The pass that starts LLVM's module optimization pipeline (PassBuilder's
// buildModuleOptimizationPipeline, after the simplification and its inliner).
const char *const late_pipeline_start = "EliminateAvailableExternallyPass";

struct skipping {
  std::vector<std::string> names;
  DenseSet<const Function *> functions; // filled when the late pipeline starts
  bool started = false;
};

void start(skipping &s, const Any &ir) {
  s.started = true;
  const auto *m = any_cast<const Module *>(&ir);
  if (!m)
    return;
  for (const std::string &name : s.names)
    if (const Function *f = (*m)->getFunction(name))
      s.functions.insert(f);
}

} // namespace

void skip_late_passes(PassInstrumentationCallbacks &pic, std::vector<std::string> names) {
  if (names.empty())
    return;
  auto s = std::make_shared<skipping>();
  s->names = std::move(names);
  pic.registerShouldRunOptionalPassCallback([s](StringRef pass, Any ir) {
    if (!s->started && pass == late_pipeline_start)
      start(*s, ir);
    if (!s->started)
      return true;
    const Function *f = mtpc_pass_ir::function_of(ir);
    return !f || !s->functions.contains(f);
  });
}

void skip_module_passes(PassInstrumentationCallbacks &pic) {
  pic.registerShouldRunOptionalPassCallback(
      [](StringRef, Any ir) { return !any_cast<const Module *>(&ir); });
}

std::vector<Function *> run_late_passes(Module &m, ModulePassManager &late,
                                        ModuleAnalysisManager &mam,
                                        const std::vector<std::string> &names) {
  DenseSet<Function *> kept;
  std::vector<Function *> ran;
  for (const std::string &name : names)
    if (Function *f = m.getFunction(name); f && !f->isDeclaration() && kept.insert(f).second)
      ran.push_back(f);
  if (ran.empty())
    return ran;
  // Each other body waits in a function of a module no pass sees, so that
  // the pipeline's function passes (and the analyses their adaptors compute
  // before asking whether a pass runs) find a declaration in its place.
  Module scratch("mtpc.late-clones.aside", m.getContext());
  std::vector<std::pair<Function *, Function *>> aside;
  for (Function &f : m)
    if (!f.isDeclaration() && !kept.contains(&f)) {
      Function *holder = mtpc_compat::holder_in(scratch, f);
      holder->splice(holder->end(), &f);
      aside.emplace_back(&f, holder);
    }
  late.run(m, mam);
  for (auto &[f, holder] : aside) {
    f->splice(f->end(), holder);
    holder->eraseFromParent();
  }
  return ran;
}

} // namespace mtpc_late_clones
