/* The graph of one module read by several readers at once: each reader has
 * its own copy of the module (the same bitcode, lazily loaded in its own
 * context) and, on its own thread, takes chunks of functions in module
 * order, materializes them and walks them. The chunks' results are joined in
 * chunk order, so the graph is the same for any number of readers and any
 * timing: the one mtpc_graph_build gives from a whole module. */
#ifndef MTPC_GRAPH_READ_H
#define MTPC_GRAPH_READ_H

#include <llvm-c/Types.h>

#include "graph.h"

typedef struct mtpc_graph_reading mtpc_graph_reading;

/* Brings a lazily loaded function's body in; non-zero with *message
 * (malloc'd, or NULL when memory ran out) when the bitcode is bad. */
typedef int mtpc_materialize_fn(LLVMValueRef function, char **message);

/* `chunk_functions` functions to a chunk (0: a default). NULL when memory
 * runs out. */
mtpc_graph_reading *mtpc_graph_reading_create(unsigned readers, uint32_t chunk_functions);
void mtpc_graph_reading_free(mtpc_graph_reading *r);

/* The readers read a copy of the bitcode without debug records, whose
 * counts per function body (in module order) are these; they must outlive
 * the reading. Before any reader begins. */
void mtpc_graph_reading_use_debug_records(mtpc_graph_reading *r, const uint32_t *records,
                                          uint32_t bodies);

/* Reader `index` (< readers; each index once) walks chunks of `module`
 * until none is left, materializing each function first when `materialize`
 * is given. Safe to call from several threads at once. A reader stops at
 * its first failure; the others go on. */
void mtpc_graph_read(mtpc_graph_reading *r, unsigned index, LLVMModuleRef module,
                     mtpc_materialize_fn *materialize);

/* mtpc_graph_read in steps, for a caller that decides which reader takes
 * the next chunk (the tests, to spread chunks over readers without timing):
 * begin once (non-zero when memory runs out; the reader then takes no
 * chunk), then take chunks while read_next returns non-zero (0: none left,
 * or this reader failed and must stop). */
int mtpc_graph_reader_begin(mtpc_graph_reading *r, unsigned index, LLVMModuleRef module);
int mtpc_graph_read_next(mtpc_graph_reading *r, unsigned index, mtpc_materialize_fn *materialize);

/* Once every reader has returned: the joined graph, finalized. Reader 0 must
 * have read. MTPC_ERR_INPUT with *message (malloc'd) when materializing
 * failed: the failure of the first chunk in module order that failed. */
__attribute__((warn_unused_result)) mtpc_status
mtpc_graph_reading_finish(mtpc_graph_reading *r, mtpc_graph *g, char **message);

#endif
