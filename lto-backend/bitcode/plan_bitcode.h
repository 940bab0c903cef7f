/* The bitcode the plan is read from (read.h): a copy of the module's in
 * which every debug record and debug location of a function body reads as
 * DEBUG_LOC_AGAIN, which gives the instruction before it the last location
 * read: none. The plan needs of a body's debug info only its subprogram (in
 * the body's metadata block and attachments, which stay) and how many debug
 * records it has (cost.h), which the copy counts per body; building the
 * DILocations and debug records that LLVM would read otherwise was most of
 * the read of a module with debug info (docs/design.rst, The read).
 *
 * Every field is rewritten in place in the same number of bits. The
 * partitions never see this copy: they load the module's own bitcode. */
#ifndef MTPC_PLAN_BITCODE_H
#define MTPC_PLAN_BITCODE_H

#include <stddef.h>
#include <stdint.h>

typedef struct mtpc_plan_bitcode {
  uint8_t *data;           /* the copy; NULL: read the module's own bitcode */
  size_t size;
  uint32_t *debug_records; /* per function body, in module order */
  uint32_t body_count;
} mtpc_plan_bitcode;

/* Makes the copy of `bitcode`. A module whose first 256 function bodies
 * have no debug records or locations, or whose bitcode holds something the
 * rewrite does not know, gets none (data NULL), and its plan is read from
 * its own bitcode. 0, or non-zero when memory ran out. */
int mtpc_plan_bitcode_make(const void *bitcode, size_t size, mtpc_plan_bitcode *out);
void mtpc_plan_bitcode_free(mtpc_plan_bitcode *pb);

#endif
