/* Each function record's type in the module's bitcode, and the module's
 * function type with the fewest parameters.
 *
 * LLVM's reader builds every function of the module in every context that
 * reads it, and its clean-up (UpgradeFunctionAttributes) then builds each
 * function's arguments and checks their attributes: on sqlite3.c's split,
 * 0.2% of the serial compile's instructions, for functions that a
 * partition erases unused. A partition's copy of the bitcode can make such
 * a function's record name the fewest-parameter type instead, written in
 * the field's own bits (partition_bitcode.h says which functions). With
 * opaque pointers nothing else sees a function's type but its calls, which
 * name their type themselves, and the partition parses none of them. */
#ifndef MTPC_FUNCTION_TYPES_H
#define MTPC_FUNCTION_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "bitstream.h"

typedef struct mtpc_function_types {
  mtpc_bs_operand *fields; /* each function record's type field, in module order */
  uint32_t function_count;
  /* Type t's parameters when it is a function type, else UINT32_MAX. */
  uint32_t *parameters;
  uint32_t type_count;
  uint32_t fewest; /* the first function type with the fewest parameters */
} mtpc_function_types;

typedef enum mtpc_types_status {
  MTPC_TYPES_OK,
  MTPC_TYPES_UNREADABLE, /* not the records LLVM 19 and 22 write; nothing to free */
  MTPC_TYPES_NO_MEMORY   /* nothing to free */
} mtpc_types_status;

mtpc_types_status mtpc_scan_function_types(const void *bitcode, size_t size,
                                           mtpc_function_types *out);
void mtpc_function_types_free(mtpc_function_types *types);
/* Makes function record i name the fewest-parameter type, in `data`, a
 * copy of the scanned bitcode. 0 when it does; non-zero when the field has
 * no room for that ID, or already names a type with as few parameters. */
int mtpc_cut_function_type(uint8_t *data, const mtpc_function_types *types, uint32_t i);

#endif
