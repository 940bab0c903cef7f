/* The bitcode each partition loads, and the debug types it is home to
 * (metadata_scan.h finds what these are made from).
 *
 * - Partitions after the first read their metadata on demand from a copy of
 *   the module's bitcode whose compile units' module-wide lists are cut off:
 *   only partition 0 describes those. Each reads the debug info of the
 *   variables it defines alone (variable_debug.h), from a copy-on-write
 *   mapping of its own.
 * - A composite type with an ODR identifier (C++) is described fully by one
 *   partition, its home, and declared in the others, as ThinLTO's importer
 *   declares the types of the functions it imports; gdb and lldb find the
 *   definition by name. A type of the module's own metadata block is homed
 *   in partition 0, which reads that block whole, as an unsplit compile
 *   does, and keeps each such type; a type that one function alone uses is
 *   homed where that function is defined, which reads its record with the
 *   name cut off (so that on-demand reading keeps it whole) from a private
 *   copy-on-write mapping of the bitcode, and puts the name back.
 *
 * Every field is rewritten in place in the same number of bits, so every
 * offset the bitcode records still holds. A module whose bitcode the scan
 * cannot read is loaded whole by every partition. */
#ifndef MTPC_PARTITION_BITCODE_H
#define MTPC_PARTITION_BITCODE_H

#include <stddef.h>
#include <stdint.h>

#include "metadata_scan.h"
#include "partitioner/graph.h"
#include "partitioner/plan.h"

typedef struct mtpc_partition_bitcode mtpc_partition_bitcode;

/* What one partition loads. */
typedef struct mtpc_bitcode_view {
  const void *data;
  size_t size;
  int metadata_on_demand;
  int odr_types;  /* the module has ODR types: the context must unique them */
  /* The ODR types this partition is home to: it puts their names back and
   * keeps them. Pointers into the scan. */
  const mtpc_odr_record *const *homed;
  uint32_t homed_count;
  void *mapping; /* its own patched copy to release, or NULL */
  int fd_mapped; /* that copy is a private mapping (else malloc'ed) */
  /* Per plan node, or NULL: the function's record reads changed here (its
   * attribute list empty, attribute_lists.h, or its type another,
   * function_types.h), which is right only if the partition erases it. */
  uint8_t *records_cut;
} mtpc_bitcode_view;

/* Scans `bitcode`, which must outlive the result. 0, or non-zero when
 * memory ran out. */
int mtpc_partition_bitcode_create(const void *bitcode, size_t size, mtpc_partition_bitcode **out);
void mtpc_partition_bitcode_free(mtpc_partition_bitcode *pb);
/* What the scan found (all 0 when it could not read the bitcode): partition
 * 0's own reading besides its code (cost.h, mtpc_head_cost). */
void mtpc_partition_bitcode_head(const mtpc_partition_bitcode *pb, uint64_t *module_odr_types,
                                 int *odr_types);
/* Homes the ODR types in `plan`'s partitions and makes the later
 * partitions' bitcode. With the references of the graph the plan was made
 * from (`graph`, which must outlive `pb`),
 * a later partition's copy also empties the attribute lists that none of
 * the functions it keeps or the variables and calls it reads name, and
 * gives the functions it erases, that nothing it reads names, the module's
 * function type with the fewest parameters; NULL keeps every record as it
 * is. 0, or non-zero when memory ran out. */
int mtpc_partition_bitcode_plan(mtpc_partition_bitcode *pb, const mtpc_plan *plan,
                                const mtpc_graph_edges *graph);
/* How long the scan (`scan`), or the homes and copies, took, for the stats. */
double mtpc_partition_bitcode_seconds(const mtpc_partition_bitcode *pb, int scan);

/* Partition q's view (MTPC_NONE: the unsplit compile's); with
 * `keep_records`, every function's record as the module has it (a
 * partition that kept a function the graph did not say it names loads
 * again so). Non-zero when
 * its mapping cannot be made (*message says why; NULL when memory ran
 * out). */
int mtpc_bitcode_view_open(const mtpc_partition_bitcode *pb, uint32_t q, int keep_records,
                           mtpc_bitcode_view *view, char **message);
void mtpc_bitcode_view_close(mtpc_bitcode_view *view);

#endif
