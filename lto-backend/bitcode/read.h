/* The read the plan is made from, on several threads: each reader opens the
 * bitcode lazily, its metadata on demand, in its own context and
 * materializes and walks chunks of functions (partitioner/graph_read.c), so
 * parsing the module, the largest serial step of a split compile, is
 * shared. They read a copy of the bitcode without debug records and
 * locations when the module has them (plan_bitcode.h), made by the calling
 * thread while another scans the bitcode. The graph does not depend on how
 * many readers there were. Materializing function by function also
 * skips materializeAll()'s whole-module verifier (UpgradeDebugInfo); each
 * partition is verified instead (worker.c). */
#ifndef MTPC_READ_H
#define MTPC_READ_H

#include <stddef.h>

#include <llvm-c/Types.h>

#include "plan_bitcode.h"
#include "partitioner/graph.h"
#include "support/chore.h"

/* The most readers one compile uses: each re-reads the module's global
 * records and compile units, which stops paying for itself beyond this. */
#define MTPC_MAX_READERS 8

typedef struct mtpc_read {
  LLVMModuleRef *modules; /* module_count readers' copies; [0] read on the calling thread */
  unsigned module_count;
  mtpc_graph graph;
  mtpc_plan_bitcode light; /* the bitcode they were read from, when not the module's own */
} mtpc_read;

/* Reads `bitcode` with up to `readers` threads (the calling one included).
 * `side` (or NULL) runs once, on the first reader to start, while the others
 * read. When the calling thread records a time trace, each reader records an
 * "mtpc reader" event, its thread at `trace_granularity_us` (0: 500).
 * On failure, MTPC_ERR_INPUT with *message (free()) from LLVM, or
 * MTPC_ERR_NO_MEMORY; nothing is left to release. */
mtpc_status mtpc_read_for_plan(const void *bitcode, size_t size, const char *name,
                               unsigned readers, unsigned trace_granularity_us,
                               const mtpc_chore *side, mtpc_read *read, char **message);

/* Frees the readers' modules and contexts and the bitcode they were read
 * from (the graph is the caller's). */
void mtpc_read_release_modules(mtpc_read *read);

#endif
