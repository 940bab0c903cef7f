/* cli_error, alone in a file: mtpc-cc, which links nothing of LLVM, uses it
 * too. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mtpc: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}
