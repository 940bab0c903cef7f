// IR profile instrumentation and use, split as clang's pipeline orders
// them (profile_phase.cpp; C++: pass instrumentation has no C API).
//
// Clang instruments the module (-fprofile-generate), or reads an IR profile
// into it (-fprofile-use), in the middle of its per-module pipeline: after
// the early simplification and a pre-inliner of the whole module, before
// the inliner. Both need every function as the serial compile sees it
// there, so that part runs on the whole module before the split, and each
// partition runs the rest of the same pipeline. The boundary is the pass
// that ends clang's profile passes, indirect call promotion.
#ifndef MTPC_PROFILE_PHASE_H
#define MTPC_PROFILE_PHASE_H

#include <optional>

#include "mtpc/mtpc.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Support/PGOOptions.h"

namespace mtpc_profile_phase {

// clang's PGOOptions for the options' IR instrumentation or use, with a
// use its context-sensitive instrumentation or use (cs_profile_generate,
// cs_profile), and context-sensitive instrumentation alone in a
// default<ON> pipeline; none without them.
std::optional<llvm::PGOOptions> pgo_options(const mtpc_options &o);

// Whether those options run the whole module's phase: IR instrumentation
// or use. Context-sensitive instrumentation and use come after the
// inliner, in the partitions' pipelines only.
bool runs_phase(const std::optional<llvm::PGOOptions> &pgo);

// The whole module's run: every optional pass after the boundary is skipped.
void stop_after_profile_passes(llvm::PassInstrumentationCallbacks &pic);

// A partition's run: every optional pass up to the boundary, and the
// boundary itself, is skipped (the whole module's run did them).
void start_after_profile_passes(llvm::PassInstrumentationCallbacks &pic);

} // namespace mtpc_profile_phase

#endif
