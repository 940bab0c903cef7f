/* Partition objects -> one relocatable object whose promoted symbols are
 * local again. */
#ifndef MTPC_MERGE_H
#define MTPC_MERGE_H

#include <stddef.h>

#include "../partitioner/plan.h"
#include "worker.h"

/* Links jobs[0..count) with lld -r (in this process) and makes every promoted
 * symbol of `plan` local under its original name. 0 on success, else
 * *message. */
int mtpc_merge_objects(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       void **object, size_t *object_size, char **message);

/* Writes `size` bytes to `path` through a temporary file in the same
 * directory and a rename, so a failure never leaves a partial file. A path
 * that names something other than a regular file (/dev/null) is written in
 * place. */
int mtpc_write_file_atomic(const char *path, const void *data, size_t size, char **message);

/* Creates `path` and its missing parents. 0 on success, else *message. */
int mtpc_make_directories(const char *path, char **message);

/* Reads a whole file. 0 on success, else *message. */
int mtpc_read_file(const char *path, void **data, size_t *size, char **message);

#endif
