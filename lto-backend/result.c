/* mtpc_result: the objects, message and stats of one compile, and what its
 * status says. */
#include "result.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "support/files.h"
#include "support/support.h"

const char *mtpc_status_string(mtpc_status status) {
  switch (status) {
  case MTPC_OK:
    return "success";
  case MTPC_ERR_INVALID_ARGUMENT:
    return "invalid argument";
  case MTPC_ERR_INPUT:
    return "invalid input";
  case MTPC_ERR_TARGET:
    return "unsupported target";
  case MTPC_ERR_WORKER:
    return "compiling a partition failed";
  case MTPC_ERR_MERGE:
    return "merging the partition objects failed";
  case MTPC_ERR_OUTPUT:
    return "writing the output failed";
  case MTPC_ERR_NO_MEMORY:
    return "out of memory";
  }
  return "unknown status";
}

/* Every failure comes with a message; one without ran out of memory
 * making it, or earlier. */
mtpc_status mtpc_result_fail(mtpc_result *r, mtpc_status status, char *message) {
  free(r->message);
  r->message = message;
  r->status = message ? status : MTPC_ERR_NO_MEMORY;
  return r->status;
}

mtpc_status mtpc_result_out_of_memory(mtpc_result *r) {
  return mtpc_result_fail(r, MTPC_ERR_NO_MEMORY, NULL);
}

mtpc_result *mtpc_result_new(void) { return calloc(1, sizeof(mtpc_result)); }

mtpc_status mtpc_result_report(mtpc_status status, char *message, mtpc_result **result) {
  mtpc_result *r = result ? mtpc_result_new() : NULL;
  if (r && status != MTPC_OK)
    status = mtpc_result_fail(r, status, message);
  else
    free(message);
  if (result)
    *result = r;
  return status;
}

void mtpc_result_free(mtpc_result *r) {
  if (!r)
    return;
  mtpc_release_buffer(r->object.data, r->object.size, r->object_mapped);
  for (unsigned i = 0; i < r->object_count; i++)
    free(r->objects[i].data);
  free(r->objects);
  free(r->message);
  free(r->partition);
  free(r->unsplit_reason);
  mtpc_outputs_free(r->files);
  free(r);
}

mtpc_status mtpc_result_commit_files(mtpc_result *r) {
  char *message = NULL;
  if (!r || !r->files || mtpc_outputs_commit(r->files, &message) == 0)
    return MTPC_OK;
  free(r->message);
  r->message = message;
  r->status = message ? MTPC_ERR_OUTPUT : MTPC_ERR_NO_MEMORY;
  return r->status;
}

const void *mtpc_result_object(const mtpc_result *r, size_t *size) {
  if (size)
    *size = r ? r->object.size : 0;
  return r ? r->object.data : NULL;
}

void *mtpc_result_take_object(mtpc_result *r, size_t *size) {
  void *object = r ? r->object.data : NULL;
  if (size)
    *size = r ? r->object.size : 0;
  if (r && r->object_mapped) { /* the caller frees with free() */
    object = mtpc_alloc(r->object.size, 1);
    if (!object)
      return NULL;
    memcpy(object, r->object.data, r->object.size);
    munmap(r->object.data, r->object.size);
    r->object_mapped = 0;
  }
  if (r)
    r->object = (mtpc_buffer){NULL, 0};
  return object;
}

unsigned mtpc_result_object_count(const mtpc_result *r) { return r ? r->object_count : 0; }

const void *mtpc_result_object_at(const mtpc_result *r, unsigned index, size_t *size) {
  int valid = r && index < r->object_count;
  if (size)
    *size = valid ? r->objects[index].size : 0;
  return valid ? r->objects[index].data : NULL;
}

const char *mtpc_result_message(const mtpc_result *r) {
  if (!r)
    return mtpc_status_string(MTPC_ERR_NO_MEMORY);
  if (r->message)
    return r->message;
  return r->status == MTPC_OK ? "" : mtpc_status_string(r->status);
}

const mtpc_stats *mtpc_result_stats(const mtpc_result *r) { return r ? &r->stats : NULL; }

const mtpc_partition_stats *mtpc_result_partition_stats(const mtpc_result *r, unsigned index) {
  return r && r->partition && index < r->stats.partitions ? &r->partition[index] : NULL;
}

static int longest_first(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x > y ? -1 : x < y;
}

double mtpc_result_projected_speedup(const mtpc_result *r, unsigned cores) {
  if (!r || !r->partition || r->stats.partitions == 0 || cores == 0)
    return 0.0;
  const mtpc_stats *st = &r->stats;
  double serial = st->read_seconds + st->plan_seconds + st->bitcode_seconds + st->merge_seconds;
  double *times = calloc(st->partitions, sizeof(double));
  double *core_load = calloc(cores, sizeof(double));
  if (!times || !core_load) {
    free(times);
    free(core_load);
    return 0.0;
  }
  double sum = 0.0;
  for (unsigned i = 0; i < st->partitions; i++) {
    const mtpc_partition_stats *p = &r->partition[i];
    times[i] = p->load_seconds + p->opt_seconds + p->codegen_seconds + p->release_seconds;
    sum += times[i];
  }
  qsort(times, st->partitions, sizeof(double), longest_first);
  for (unsigned i = 0; i < st->partitions; i++) {
    unsigned lightest = 0;
    for (unsigned c = 1; c < cores; c++)
      if (core_load[c] < core_load[lightest])
        lightest = c;
    core_load[lightest] += times[i];
  }
  double makespan = 0.0;
  for (unsigned c = 0; c < cores; c++)
    if (core_load[c] > makespan)
      makespan = core_load[c];
  free(times);
  free(core_load);
  return (serial + sum) / (serial + makespan);
}
