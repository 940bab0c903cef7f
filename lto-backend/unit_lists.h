/* The bitcode that partitions other than the first load: every compile
 * unit's enum-type and retained-type lists are cut off. Those lists are the
 * whole module's; only partition 0 describes them (debug_info.h), and with
 * metadata read on demand (ir_edit.h) a list nobody refers to is never read,
 * where the lists alone reach most of a C program's types. (The bitstream
 * scan is C++, unit_lists.cpp; the rewrite C, unit_lists.c.) */
#ifndef MTPC_UNIT_LISTS_H
#define MTPC_UNIT_LISTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A copy (free()) of `bitcode` in which each compile unit's two fields that
 * name those lists name nothing, rewritten in place in the same number of
 * bits, so every recorded bit offset still holds. NULL when the module has
 * no such list, its bitcode is not laid out as LLVM writes it, or memory ran
 * out: the partitions then load `bitcode` itself. */
void *mtpc_without_unit_type_lists(const void *bitcode, size_t size);

/* Where those fields are: a VBR6 operand at `bit`, `width` bits long. */
typedef struct mtpc_bit_field {
  uint64_t bit, width;
} mtpc_bit_field;

/* The fields (free()) of the first module's compile units, *count of them;
 * NULL when there are none or the bitstream is not as expected. */
mtpc_bit_field *mtpc_bridge_unit_type_list_fields(const void *bitcode, size_t size,
                                                  size_t *count);

#ifdef __cplusplus
}
#endif

#endif
