/* What tests ask a budget (mtpc.h declares the rest). */
#ifndef MTPC_BUDGET_H
#define MTPC_BUDGET_H

#include "mtpc/mtpc.h"

/* How many threads wait for a slot. */
unsigned mtpc_budget_waiting(mtpc_budget *budget);

#endif
