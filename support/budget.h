/* Compile slots (budget.c; mtpc.h declares the rest). */
#ifndef MTPC_BUDGET_H
#define MTPC_BUDGET_H

#include "mtpc/mtpc.h"

/* A budget of make's jobserver (mtpc_budget_new_jobserver), or NULL: when
 * MAKEFLAGS names none (*problem NULL), when it names one that cannot be
 * used (*problem, malloc'ed), or when memory ran out (*no_memory). */
mtpc_budget *mtpc_budget_join_jobserver(unsigned max_slots, char **problem, int *no_memory);

/* For tests: how many threads wait for a slot. */
unsigned mtpc_budget_waiting(mtpc_budget *budget);

#endif
