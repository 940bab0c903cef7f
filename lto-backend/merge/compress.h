/* Compressed debug sections (mtpc_options.compress_debug_sections): the
 * last change to the ELF object and .dwo file a compile writes, after the
 * merge read and rewrote their debug sections uncompressed. */
#ifndef MTPC_COMPRESS_H
#define MTPC_COMPRESS_H

#include <stddef.h>

/* Whether `kind` asks for compression ("zlib" or "zstd"; not NULL or "none"). */
int mtpc_compresses(const char *kind);

/* `data` with its .debug_* sections compressed with `kind`, malloc'ed in
 * *out; *out is NULL when there is nothing to do (no compression asked, or
 * not an ELF file: COFF's writer ignores the setting too). 0 on success,
 * else *message (NULL: out of memory). */
int mtpc_compress_debug(const char *kind, const void *data, size_t size, void **out,
                        size_t *out_size, char **message);

#endif
