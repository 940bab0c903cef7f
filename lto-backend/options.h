/* The options a compile runs with (options.c). */
#ifndef MTPC_OPTIONS_H
#define MTPC_OPTIONS_H

#include "mtpc/mtpc.h"

/* Copies the caller's options into `whole` (every field this library has;
 * defaults for the ones the caller's header lacked). NULL if they are valid,
 * else what is wrong (malloc'ed). */
char *mtpc_options_import(const mtpc_options *given, mtpc_options *whole);

#endif
