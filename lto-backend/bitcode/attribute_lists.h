/* The module's attribute lists in its bitcode, and who names them.
 *
 * LLVM's reader builds every list of the PARAMATTR block (each a record of
 * attribute group IDs) in every context that reads the module, merging its
 * groups index by index: on sqlite3.c a sixth of a partition's load, for
 * lists that only the functions and calls of other partitions name. A
 * list is named by a function's record, a variable's record, or a call,
 * invoke or callbr of a body. A partition's copy of the bitcode rewrites
 * each group ID of a list that nothing it keeps names as 0, in the same
 * number of bits; no group has that ID, so the reader builds the list
 * empty, with nothing to merge (partition_bitcode.h says who keeps what). */
#ifndef MTPC_ATTRIBUTE_LISTS_H
#define MTPC_ATTRIBUTE_LISTS_H

#include <stddef.h>
#include <stdint.h>

#include "bitstream.h"

typedef struct mtpc_attribute_lists {
  /* List l (numbered from 1, as records name them; 0 is no list) has the
   * group ID fields groups[start[l - 1] .. start[l]). */
  uint32_t list_count;
  uint32_t *start;
  mtpc_bs_operand *groups;
  /* Each function record's list, in module order, and each variable's. */
  uint32_t function_count, variable_count;
  uint32_t *function_lists;
  uint32_t *variable_lists;
  /* Where each function body's block starts (its header, after the block
   * ID), in module order, and the BLOCKINFO block's. */
  uint32_t body_count;
  uint64_t *body_bits;
  uint64_t blockinfo_bit;
} mtpc_attribute_lists;

typedef enum mtpc_lists_status {
  MTPC_LISTS_OK,
  MTPC_LISTS_UNREADABLE, /* not the records LLVM 19 and 22 write; nothing to free */
  MTPC_LISTS_NO_MEMORY   /* nothing to free */
} mtpc_lists_status;

mtpc_lists_status mtpc_scan_attribute_lists(const void *bitcode, size_t size,
                                            mtpc_attribute_lists *out);
void mtpc_attribute_lists_free(mtpc_attribute_lists *lists);

/* Sets keep[l] (list_count + 1 entries) for each list that a call, invoke or
 * callbr of body k names, for each k with parsed[k]. Non-zero when a body
 * cannot be read or memory ran out: then keep every list. */
int mtpc_attribute_lists_mark_calls(const void *bitcode, size_t size,
                                    const mtpc_attribute_lists *lists, const uint8_t *parsed,
                                    uint8_t *keep);
/* Rewrites the group IDs of every list l without keep[l] as 0, in `data`, a
 * copy of the scanned bitcode. */
void mtpc_attribute_lists_cut(uint8_t *data, const mtpc_attribute_lists *lists,
                              const uint8_t *keep);

#endif
