/*
 * What mtpc's own tools (tools/) use besides the installed headers: the file
 * helpers (support/files.h; their watcher of temporaries), a compile with
 * faults injected (support/fault.h), the options' checks (options.h), the time trace
 * as bytes, the distributed ThinLTO backend job behind `mtpc backend`, and
 * why a target cannot be split (split_advice.h).
 * Not part of the stable API and not installed.
 */
#ifndef MTPC_TOOLS_H
#define MTPC_TOOLS_H

#include <stddef.h>

#include <llvm-c/Types.h>

#include "lto-backend/codegen/thin_backend.h"
#include "lto-backend/options.h"
#include "lto-backend/split_advice.h"
#include "mtpc/llvm.h"
#include "mtpc/mtpc.h"
#include "support/fault.h"
#include "support/files.h"
#include "support/llvm_support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mtpc_compile_bitcode (module NULL) or mtpc_llvm_compile_module, with
 * faults injected on purpose (for tests; support/fault.h says which; the
 * tools take them from the environment variable MTPC_FAULT). */
mtpc_status mtpc_compile_with_faults(LLVMModuleRef module, const void *data, size_t size,
                                     const char *name, const mtpc_options *options,
                                     const mtpc_llvm_options *llvm, const char *faults,
                                     mtpc_result **result);

/* The calling thread's time trace (mtpc_time_trace_start) as
 * mtpc_time_trace_save would write it (malloc'ed; NULL when none was
 * started), and the trace ends. 0 on success, else *message. */
int mtpc_time_trace_take(void **data, size_t *size, char **message);

#ifdef __cplusplus
}
#endif

#endif
