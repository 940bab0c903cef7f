/* What the mtpc commands share (cli.c). The commands use the installed
 * headers, the tools' private API (lto-backend/tools.h) and this. */
#ifndef MTPC_TOOLS_CLI_H
#define MTPC_TOOLS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "mtpc/mtpc.h"

/* Allocation that ends the process ("mtpc: error: out of memory", exit 1)
 * when memory runs out, as only a tool may. */
void *xmalloc(size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* cli_base.c, which mtpc-cc links too: */
/* "mtpc: error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A number below UINT32_MAX; non-zero (and an error line) when the text is
 * not one. */
int cli_read_unsigned(const char *text, const char *option, unsigned *value);
/* Bytes, with an optional K, M or G; non-zero (and an error line) when the
 * text is not that. */
int cli_read_size(const char *text, const char *option, uint64_t *value);

/* What follows `prefix` in `arg`, or NULL when `arg` does not start with it. */
const char *cli_after_prefix(const char *arg, const char *prefix);

/* An mtpc_diag_fn: "mtpc: warning: ..." on stderr. */
void cli_print_diag(void *user, mtpc_severity severity, const char *message);
/* The option parsers' convention: each reports a command-line error on
 * stderr and sets *status (or its parser's status) to the exit status, 2;
 * the command returns it to main(), the only place the program exits. */
#define CLI_USAGE_ERROR 2
/* A non-negative number; else an error (*status = 2) and 0. */
unsigned cli_parse_unsigned(const char *text, const char *option, int *status);
/* Bytes, with an optional K, M or G; else an error (*status = 2) and 0. */
uint64_t cli_parse_size(const char *text, const char *option, int *status);

/* Slots from GNU make's jobserver for `jobs` worker threads (0: all), or
 * NULL when MAKEFLAGS names none (or one that is not a jobserver: a
 * warning). */
mtpc_budget *cli_jobserver_budget(unsigned jobs);

/* A compile's outputs, all or nothing: `object` at `output` ("-":
 * standard output), the time trace at `trace` when one was started (NULL:
 * none), and the files `result` holds (a compile with defer_files): each
 * written under a temporary name beside its destination, then all put in
 * place (the object last). 0 on success, else 1 and an error line. */
int cli_write_outputs(mtpc_result *result, const char *output, const void *object, size_t size,
                      const char *trace);

/* MTPC_FAULT (faults injected on purpose, for tests: mtpc_compile_with_faults),
 * read once. */
const char *cli_fault_injection(void);

/* Crashes, fatal errors and a looping reader inside LLVM become one error
 * line naming `input`. */
void cli_report_crashes_on(const char *input);

/* An mtpc_phase_fn whose user is a phase_watch: a bitcode read that takes
 * longer than `limit` seconds ends the process with one error line. */
typedef struct phase_watch {
  const char *input;
  unsigned limit;
} phase_watch;
void cli_watch_phase(void *user, const char *phase);

#endif
