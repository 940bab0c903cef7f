/* What a compile hands back (result.c). */
#ifndef MTPC_RESULT_H
#define MTPC_RESULT_H

#include "mtpc/mtpc.h"
#include "support/files.h"

typedef struct mtpc_buffer {
  void *data;
  size_t size;
} mtpc_buffer;

struct mtpc_result {
  mtpc_buffer object;      /* merged */
  int object_mapped;       /* object is a file mapping (munmap), not malloc'ed */
  mtpc_buffer *objects;    /* merge = 0: one per partition */
  unsigned object_count;
  mtpc_status status; /* of the compile that filled it */
  char *message;      /* NULL: the status says it all (out of memory) */
  mtpc_stats stats;
  mtpc_partition_stats *partition; /* stats.partitions entries */
  char *unsplit_reason;            /* stats.unsplit_reason */
  mtpc_outputs *files;             /* .dwo files and remarks, until committed */
};

/* A zeroed result, or NULL when out of memory. */
mtpc_result *mtpc_result_new(void);

/* Records a failure and returns its status. Every failure comes with a
 * message (the result takes it); one without ran out of memory making it,
 * or earlier, and is MTPC_ERR_NO_MEMORY. */
mtpc_status mtpc_result_fail(mtpc_result *r, mtpc_status status, char *message);
mtpc_status mtpc_result_out_of_memory(mtpc_result *r);

/* The result of a call that is not a compile: its status and the message
 * (taken; NULL when it failed for want of memory), in a new result handed
 * to *result when result is not NULL. Returns the status. */
mtpc_status mtpc_result_report(mtpc_status status, char *message, mtpc_result **result);

#endif
