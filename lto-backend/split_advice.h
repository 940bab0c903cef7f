/* Whether a module should be split (split_advice.c): mtpc_should_split, and
 * the part of it a compile applies itself. */
#ifndef MTPC_SPLIT_ADVICE_H
#define MTPC_SPLIT_ADVICE_H

#include "mtpc/mtpc.h"

/* Why a module for `triple` cannot be split (a static string), or NULL
 * when it can: its object format is ELF or COFF. */
const char *mtpc_target_unsplit_reason(const char *triple);
/* Whether `triple`'s objects are COFF. */
int mtpc_target_writes_coff(const char *triple);

#endif
