/* A pool's chore (worker.c and read.c run one beside their jobs). */
#ifndef MTPC_CHORE_H
#define MTPC_CHORE_H

/* Work a pool does once before its jobs, on the first of its threads and
 * with a slot of the caller's budget, as a job would: freeing what the
 * caller no longer needs takes CPU that would otherwise run beside the jobs
 * and slow the first of them. */
typedef struct mtpc_chore {
  void (*run)(void *arg);
  void *arg;
  const char *name; /* its time-trace event */
} mtpc_chore;

#endif
