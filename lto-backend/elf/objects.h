/* In-process tools on ELF objects: ld.lld -r (liblld), symbol localization
 * and debug section compression (LLVM's ObjCopy library). (C++,
 * objects.cpp.) */
#ifndef MTPC_OBJECTS_H
#define MTPC_OBJECTS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Runs `ld.lld -r -o output inputs...` in this process. Calls are serialized;
 * never call this from inside a running lld. 0 on success; else *message. */
int mtpc_bridge_link_relocatable(const char *const *inputs, size_t input_count,
                                 const char *output, char **message);

/* Makes each symbol names[i] of an ELF relocatable object local and renames it
 * to new_names[i]. The result is malloc'ed. 0 on success; else *message. */
int mtpc_bridge_localize_symbols(const void *object, size_t size, const char *const *names,
                                 const char *const *new_names, size_t count, void **result,
                                 size_t *result_size, char **message);

/* A symbol's or section's new name, or NULL to keep it; sets *out_of_memory
 * when it cannot say. The mapper keeps what it returns (and frees it after
 * the call it was given to; the bridge copies it at once). */
typedef const char *mtpc_name_mapper(void *arg, const char *name, int *out_of_memory);
/* Renames every symbol and section of an object as `map` says. The result
 * is malloc'ed. 0 on success; else *message (NULL: out of memory). */
int mtpc_bridge_rename_in_names(const void *object, size_t size, mtpc_name_mapper *map,
                                void *arg, void **result, size_t *result_size,
                                char **message);

/* The object with its .debug_* sections compressed with `kind` ("zlib" or
 * "zstd"), as MC compresses them for clang's -gz. The result is malloc'ed.
 * 0 on success; else *message. */
int mtpc_bridge_compress_debug_sections(const void *object, size_t size, const char *kind,
                                        void **result, size_t *result_size, char **message);

#ifdef __cplusplus
}
#endif

#endif
