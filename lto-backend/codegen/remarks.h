/* Optimization remarks of a split module: each partition's context records
 * its remarks in memory, and they are written in partition order to where
 * the whole module's would have gone. (C++, remarks.cpp: LLVM-C has no
 * remark streamers.) */
#ifndef MTPC_REMARKS_H
#define MTPC_REMARKS_H

#include <stddef.h>

#include <llvm-c/Types.h>

#include "pipeline.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtpc_bridge_remarks mtpc_bridge_remarks;

/* Starts recording the remarks of a partition's `context` as the settings ask
 * (pass filter, hotness); NULL when no remarks are asked for. */
mtpc_bridge_remarks *mtpc_bridge_remarks_begin(const mtpc_bridge_settings *settings,
                                               LLVMContextRef context, char **message);
/* Stops recording; *text (malloc'ed, YAML) holds what was recorded.
 * Non-zero when memory ran out. */
int mtpc_bridge_remarks_end(mtpc_bridge_remarks *remarks, void **text, size_t *size);

/* Writes the partitions' recorded remarks, in the order given: through the
 * remark streamer of `module`'s context when it has one (a ThinLTO backend
 * set it up for the module), else into *file (malloc'ed, in the settings'
 * format) for the caller to write to *path. 0 on success; else *message. */
int mtpc_bridge_remarks_merge(const mtpc_bridge_settings *settings, LLVMModuleRef module,
                              const void *const *texts, const size_t *sizes, unsigned count,
                              void **file, size_t *file_size, const char **path,
                              char **message);

#ifdef __cplusplus
}
#endif

#endif
