/* mtpc-cc: `mtpc cc` for builds. It links nothing of LLVM, so a compile it
 * passes through (most of a build's) starts as soon as the compiler itself
 * would; a compile it may split continues in `mtpc cc`, run from beside
 * this program. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc.h"
#include "cli.h"

/* `mtpc`, beside this program's own file, or from PATH. */
static void run_mtpc(char **argv) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
  if (n > 0) {
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    if (slash && (size_t)(slash - self) + sizeof("/mtpc") <= sizeof(self)) {
      strcpy(slash, "/mtpc");
      execv(self, argv);
    }
  }
  execvp("mtpc", argv);
  cli_error("cannot run mtpc: %s", strerror(errno));
}

int main(int argc, char **argv) {
  cc_settings s;
  int first = 0;
  cc_settings_status status = cc_parse_settings(&s, argc, argv, &first);
  if (status == CC_SETTINGS_BAD)
    return 2;
  const char *source = NULL;
  int loud = 0;
  const char *reason =
      status == CC_SETTINGS_OK
          ? cc_pass_through_reason(&s, argc - first, argv + first, &source, &loud)
          : NULL;
  if (reason) {
    cc_report_pass_through(&s, source ? source : argv[first], reason, loud);
    return cc_run_compiler(argc - first, argv + first, NULL);
  }
  /* mtpc cc <the same arguments> */
  char **args = malloc(((size_t)argc + 2) * sizeof(char *));
  if (!args) {
    cli_error("out of memory");
    return 1;
  }
  args[0] = "mtpc";
  args[1] = "cc";
  memcpy(args + 2, argv + 1, (size_t)(argc - 1) * sizeof(char *));
  args[argc + 1] = NULL;
  run_mtpc(args);
  free(args);
  return 1;
}
