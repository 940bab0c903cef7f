/* What mtpc-cc, which links nothing of LLVM, shares with the mtpc commands
 * (cli.h): the error line and reading numbers from the command line. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char *cli_after_prefix(const char *arg, const char *prefix) {
  size_t len = strlen(prefix);
  return strncmp(arg, prefix, len) == 0 ? arg + len : NULL;
}

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mtpc: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int cli_read_unsigned(const char *text, const char *option, unsigned *value) {
  char *end = NULL;
  errno = 0;
  unsigned long number = strtoul(text, &end, 10);
  if (!*text || *end || errno || number > UINT32_MAX - 1 || text[0] == '-') {
    cli_error("invalid value '%s' for %s", text, option);
    return 1;
  }
  *value = (unsigned)number;
  return 0;
}

int cli_read_size(const char *text, const char *option, uint64_t *value) {
  if (mtpc_parse_size(text, value) == MTPC_OK)
    return 0;
  cli_error("invalid value '%s' for %s (bytes, or a number with K, M or G)", text, option);
  return 1;
}
