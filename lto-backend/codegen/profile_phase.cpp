// Where a split compile's IR profile passes end: the whole module runs
// clang's per-module pipeline up to them, the partitions from there.
#include "profile_phase.h"

#include <cstring>
#include <memory>

#include "support/compat.h"
#include "llvm/ADT/StringRef.h"

using namespace llvm;

// The last of the passes addPGOInstrPasses adds, in LLVM 19 and 22 alike
// (22 runs PGO's function attributes after it, per function: the
// partitions').
static bool is_boundary(StringRef pass) { return pass == "PGOIndirectCallPromotion"; }

static const char *raw_profile(const char *path) {
  return path && *path ? path : "default_%m.profraw";
}

static bool per_module_pipeline(const mtpc_options &o) {
  return o.opt_pipeline && !strncmp(o.opt_pipeline, "default<", strlen("default<"));
}

// The context-sensitive part: instrumentation (writing cs_profile) or the
// use of the profile's context-sensitive records, which clang's pipeline
// reads from the one file it uses.
static PGOOptions::CSPGOAction cs_action(const mtpc_options &o) {
  if (o.cs_profile_generate)
    return PGOOptions::CSIRInstr;
  return o.cs_profile && *o.cs_profile ? PGOOptions::CSIRUse : PGOOptions::NoCSAction;
}

std::optional<PGOOptions> mtpc_profile_phase::pgo_options(const mtpc_options &o) {
  bool discriminators = o.debug_info_for_profiling != 0, atomic = o.instrprof_atomic != 0;
  if (o.ir_profile_generate)
    return mtpc_compat::pgo_options(raw_profile(o.instrprof_output), "", "", PGOOptions::IRInstr,
                                    PGOOptions::NoCSAction, discriminators, atomic);
  PGOOptions::CSPGOAction cs = cs_action(o);
  const char *cs_output = cs == PGOOptions::CSIRInstr ? raw_profile(o.cs_profile) : "";
  if (o.ir_profile_use && *o.ir_profile_use)
    return mtpc_compat::pgo_options(o.ir_profile_use, cs_output, "", PGOOptions::IRUse, cs,
                                    discriminators, atomic);
  // Context-sensitive instrumentation alone (clang's -fcs-profile-generate
  // without a profile to use): the partitions' pipelines, no phase.
  if (cs == PGOOptions::CSIRInstr && per_module_pipeline(o))
    return mtpc_compat::pgo_options("", cs_output, "", PGOOptions::NoAction, cs, discriminators,
                                    atomic);
  return std::nullopt;
}

bool mtpc_profile_phase::runs_phase(const std::optional<PGOOptions> &pgo) {
  return pgo && pgo->Action != PGOOptions::NoAction;
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
