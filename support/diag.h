/* Warnings and notes of one compile, to its options' callback (diag.c). */
#ifndef MTPC_DIAG_H
#define MTPC_DIAG_H

#include <pthread.h>

#include "mtpc/mtpc.h"

/* One per compile: its workers' messages reach the callback one at a time. */
typedef struct mtpc_reporter {
  const mtpc_options *options;
  pthread_mutex_t lock;
} mtpc_reporter;

void mtpc_reporter_init(mtpc_reporter *reporter, const mtpc_options *options);
void mtpc_reporter_destroy(mtpc_reporter *reporter);
void mtpc_emit_diag(mtpc_reporter *reporter, mtpc_severity severity, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
