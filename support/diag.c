#define _GNU_SOURCE
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mtpc_reporter_init(mtpc_reporter *r, const mtpc_options *options) {
  r->options = options;
  pthread_mutex_init(&r->lock, NULL);
}

void mtpc_reporter_destroy(mtpc_reporter *r) { pthread_mutex_destroy(&r->lock); }

void mtpc_emit_diag(mtpc_reporter *r, mtpc_severity severity, const char *fmt, ...) {
  if (!r || !r->options->diag)
    return;
  va_list ap;
  va_start(ap, fmt);
  char *text = NULL;
  if (vasprintf(&text, fmt, ap) < 0)
    text = NULL;
  va_end(ap);
  if (!text)
    return;
  pthread_mutex_lock(&r->lock);
  r->options->diag(r->options->diag_user, severity, text);
  pthread_mutex_unlock(&r->lock);
  free(text);
}
