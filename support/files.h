/* What files.c gives the library besides what mtpc/tools.h declares. */
#ifndef MTPC_FILES_H
#define MTPC_FILES_H

#include <stddef.h>
#include <stdio.h>

#include "mtpc/tools.h"

/* Writes `size` bytes to a new temporary file beside `path` (in its
 * directory, mode 0644, synced), whose name goes to *temp (malloc'ed).
 * 0 on success, else *message (NULL: out of memory) and no file. */
int mtpc_write_temporary(const char *path, const void *data, size_t size, const char *faults,
                         char **temp, char **message);

/* Writes and flushes `size` bytes to an open stream (`name` for messages).
 * 0 on success, else *message. */
int mtpc_write_stream(FILE *stream, const char *name, const void *data, size_t size,
                      char **message);

#endif
