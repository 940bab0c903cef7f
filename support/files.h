/* Whole reads, atomic writes, scratch files, mappings, directories
 * (files.c), and a step's outputs, all or nothing (outputs.c). `faults`:
 * injected faults (fault.h). */
#ifndef MTPC_FILES_H
#define MTPC_FILES_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif


/* Told of each temporary file beside a destination (mtpc_write_temporary)
 * once it exists (made = 1) and once it is renamed into place or removed
 * (made = 0). Process-wide, as a signal's disposition is: a command-line
 * tool sets it so that a signal that ends it can remove the temporaries
 * (tools/signals.c); the library never sets it, and a linker that links
 * the library keeps its own handling. May be called from any thread. */
typedef void mtpc_temporary_watcher(const char *temp, int made);
void mtpc_watch_temporaries(mtpc_temporary_watcher *watcher);
/* Tells the watcher that `temp` is gone: renamed into place or removed. */
void mtpc_temporary_gone(const char *temp);

/* Writes `size` bytes to a new temporary file beside `path` (in its
 * directory, mode 0644, synced), whose name goes to *temp (malloc'ed).
 * 0 on success, else *message (NULL: out of memory) and no file. */
int mtpc_write_temporary(const char *path, const void *data, size_t size, const char *faults,
                         char **temp, char **message);

/* Writes and flushes `size` bytes to an open stream (`name` for messages).
 * 0 on success, else *message. */
int mtpc_write_stream(FILE *stream, const char *name, const void *data, size_t size,
                      char **message);

/* Writes `size` bytes to `path` through a temporary file in the same
 * directory and a rename, so a failure never leaves a partial file. A path
 * that names something other than a regular file (/dev/null) is written in
 * place. `faults`: injected faults (fault.h). 0 on success, else
 * *message. */
int mtpc_write_file_atomic(const char *path, const void *data, size_t size, const char *faults,
                           char **message);
/* The same, but a path that names something other than a regular file (a
 * FIFO) is replaced too, never written in place. */
int mtpc_replace_file(const char *path, const void *data, size_t size, const char *faults,
                      char **message);
/* Writes a file no one else sees (in a private temporary directory): no
 * rename, no sync. 0 on success, else *message. */
int mtpc_write_scratch_file(const char *path, const void *data, size_t size, const char *faults,
                            char **message);
/* A step's output files, all or nothing (outputs.c). A path that names
 * something other than a regular file (/dev/null, a pipe) is written in
 * place when committed, "-" to standard output. */
typedef struct mtpc_outputs mtpc_outputs;
mtpc_outputs *mtpc_outputs_new(void); /* NULL when out of memory */
/* Writes `data` for `path` under a temporary name beside it (or keeps a
 * copy, for a path written in place). 0 on success, else *message (NULL:
 * out of memory). */
int mtpc_outputs_add(mtpc_outputs *outputs, const char *path, const void *data, size_t size,
                     const char *faults, char **message);
/* Renames (or writes) every file added into place, in the order added.
 * 0 on success, else *message. */
int mtpc_outputs_commit(mtpc_outputs *outputs, char **message);
/* Removes the temporaries of files not committed; NULL is allowed. */
void mtpc_outputs_free(mtpc_outputs *outputs);

/* A private, writable mapping of a whole file (munmap it), which goes on
 * holding the data if the file is removed. 0 on success, else *message. */
int mtpc_map_file(const char *path, void **data, size_t *size, char **message);
/* Releases `data`: a mapping of mtpc_map_file's when `mapped`, else malloc'ed. */
void mtpc_release_buffer(void *data, size_t size, int mapped);
/* Creates `path` and its missing parents. 0 on success, else *message. */
int mtpc_make_directories(const char *path, char **message);
/* Reads a whole regular file, without blocking on one that is not (a FIFO).
 * 0 on success, else *message. */
int mtpc_read_file(const char *path, void **data, size_t *size, char **message);

#ifdef __cplusplus
}
#endif

#endif
