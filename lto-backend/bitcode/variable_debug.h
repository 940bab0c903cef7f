/* A partition's share of the variables' debug info. Read on demand, every
 * partition would still read the DIGlobalVariableExpression of every
 * variable of the module, and all they reach, twice over: the module's
 * global declaration attachments (a variable's !dbg) are all read when the
 * module's metadata is, and each compile unit lists its variables. Only
 * the variables a partition defines keep theirs (debug_info.h,
 * mtpc_bridge_trim_debug_info), so its bitcode loses the others:
 *
 * - the attachments of the variables it defines (and every function's)
 *   are moved to the front of their run, in order, and the others follow
 *   with a code no reader knows, which the reader skips and at which it
 *   stops reading attachments;
 * - of the units' lists, the expressions the kept attachments do not name
 *   read as null.
 *
 * The run keeps its length and every other bit its place, so every offset
 * the bitcode records still holds. */
#ifndef MTPC_VARIABLE_DEBUG_H
#define MTPC_VARIABLE_DEBUG_H

#include <stdint.h>

#include "metadata_scan.h"
#include "partitioner/plan.h"

/* The plan node of each of the scan's attachments (MTPC_NONE: not a
 * variable), or NULL: nothing to rewrite (no attachments, or they do not
 * match the plan's globals). *no_memory is set when memory ran out. */
uint32_t *mtpc_variable_debug_nodes(const mtpc_metadata_scan *scan, const mtpc_plan *plan,
                                    int *no_memory);

/* Rewrites `copy`, a private copy of `original`, for partition q. Non-zero
 * when memory ran out. */
int mtpc_variable_debug_patch(const mtpc_metadata_scan *scan, const uint32_t *nodes,
                              const mtpc_plan *plan, uint32_t q, const uint8_t *original,
                              uint8_t *copy);

#endif
