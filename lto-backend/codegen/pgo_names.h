// The names context-sensitive PGO gives a partition's promoted locals
// (C++: pass instrumentation has no C API).
//
// Context-sensitive instrumentation and use run after the inliner, in each
// partition, where a local that other partitions call has its promoted name
// and external (hidden) linkage. They name a function's profile record after
// its IR name and linkage (a local's after its file too), so the split
// compile would record, and look up, "f.llvm.mtpc<hash>" where the serial one
// has the local "f". Around those passes a promoted function is the local
// it was: its own name, internal linkage; after them it is promoted again.
// The owner's body is the only one instrumented (copies are gone by then:
// the late pipeline eliminates them first).
#ifndef MTPC_PGO_NAMES_H
#define MTPC_PGO_NAMES_H

#include <string>
#include <utility>
#include <vector>

#include "llvm/IR/PassInstrumentation.h"

namespace mtpc_pgo_names {

// (promoted name, original name) of each local the module defines promoted.
using rename_list = std::vector<std::pair<std::string, std::string>>;
rename_list renames(const char *const *names, const char *const *originals, size_t count);

void name_promoted_as_locals(llvm::PassInstrumentationCallbacks &pic, rename_list promoted);

} // namespace mtpc_pgo_names

#endif
