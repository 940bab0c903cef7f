/* Whether a module should be split (split_advice.c): mtpc_should_split, and
 * the part of it a compile applies itself. */
#ifndef MTPC_SPLIT_ADVICE_H
#define MTPC_SPLIT_ADVICE_H

#include "mtpc/mtpc.h"

/* Why the partitions of a module for `triple` cannot be merged into one
 * object (a static string), or NULL when they can. */
const char *mtpc_target_unsplit_reason(const char *triple);

#endif
