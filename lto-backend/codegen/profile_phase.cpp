// Where a split compile's IR profile passes end: the whole module runs
// clang's per-module pipeline up to them, the partitions from there.
#include "profile_phase.h"

#include <memory>

#include "support/compat.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

// The last of the passes addPGOInstrPasses adds, in LLVM 19 and 22 alike
// (22 runs PGO's function attributes after it, per function: the
// partitions').
static bool is_boundary(StringRef pass) { return pass == "PGOIndirectCallPromotion"; }

std::optional<PGOOptions> mtpc_profile_phase::pgo_options(const mtpc_options &o) {
  if (o.ir_profile_generate)
    return mtpc_compat::pgo_options(o.instrprof_output && *o.instrprof_output
                                        ? o.instrprof_output
                                        : "default_%m.profraw",
                                    "", "", PGOOptions::IRInstr, PGOOptions::NoCSAction,
                                    o.debug_info_for_profiling != 0,
                                    o.instrprof_atomic != 0);
  if (o.ir_profile_use && *o.ir_profile_use)
    return mtpc_compat::pgo_options(o.ir_profile_use, "", "", PGOOptions::IRUse,
                                    PGOOptions::NoCSAction,
                                    o.debug_info_for_profiling != 0);
  return std::nullopt;
}

void mtpc_profile_phase::stop_after_profile_passes(PassInstrumentationCallbacks &pic) {
  auto done = std::make_shared<bool>(false);
  pic.registerShouldRunOptionalPassCallback([done](StringRef, Any) { return !*done; });
  pic.registerAfterPassCallback([done](StringRef pass, Any, const PreservedAnalyses &) {
    if (is_boundary(pass))
      *done = true;
  });
}

void mtpc_profile_phase::start_after_profile_passes(PassInstrumentationCallbacks &pic) {
  auto started = std::make_shared<bool>(false);
  pic.registerShouldRunOptionalPassCallback([started](StringRef pass, Any) {
    if (*started)
      return true;
    if (is_boundary(pass))
      *started = true;
    return false;
  });
}
