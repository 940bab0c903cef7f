/* Where the module's bitcode gives each function and global variable its
 * name: the size operand of its MODULE_CODE_FUNCTION or
 * MODULE_CODE_GLOBALVAR record ([strtab offset, strtab size, ...]), a VBR
 * field (VBR6 in a function's record, wider in a variable's abbreviation)
 * that a partition's copy can rewrite as 0 (partition_bitcode.h).
 * LLVM's reader then builds the global without a name: no string copied,
 * hashed or entered in the module's symbol table, nothing to take out of
 * it when the partition erases the global. */
#ifndef MTPC_GLOBAL_NAMES_H
#define MTPC_GLOBAL_NAMES_H

#include <stddef.h>
#include <stdint.h>

/* A VBR field: `width` bits at `bit`, in chunks of `chunk` bits. */
typedef struct mtpc_name_field {
  uint64_t bit;
  uint32_t width, chunk;
} mtpc_name_field;

typedef struct mtpc_global_names {
  mtpc_name_field *functions; /* in module order */
  uint32_t function_count;
  mtpc_name_field *variables; /* in module order */
  uint32_t variable_count;
} mtpc_global_names;

typedef enum mtpc_names_status {
  MTPC_NAMES_OK,
  MTPC_NAMES_UNREADABLE, /* not version 2 records (names in a string table) as
                            LLVM writes them; nothing to free */
  MTPC_NAMES_NO_MEMORY   /* nothing to free */
} mtpc_names_status;

/* Finds the fields in the first module of `bitcode`. */
mtpc_names_status mtpc_scan_global_names(const void *bitcode, size_t size,
                                         mtpc_global_names *out);
void mtpc_global_names_free(mtpc_global_names *names);
/* Rewrites the field as 0 (an empty name) in the same number of bits. */
void mtpc_cut_name(uint8_t *data, mtpc_name_field field);

#endif
