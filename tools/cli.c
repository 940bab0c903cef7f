/* What the mtpc commands share: numbers that end a command line, the
 * jobserver, injected faults and crash reports (the error line and the
 * number readers are in cli_base.c). */
#define _GNU_SOURCE
#include "cli.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>

#include "lto-backend/tools.h"
#include "signals.h"

static void out_of_memory(void) {
  cli_error("out of memory");
  exit(1);
}

void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    out_of_memory();
  return p;
}

char *xstrdup(const char *s) {
  char *p = strdup(s);
  if (!p)
    out_of_memory();
  return p;
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  va_end(ap);
  if (n < 0)
    out_of_memory();
  return s;
}

void cli_print_diag(void *user, mtpc_severity severity, const char *message) {
  (void)user;
  fprintf(stderr, "mtpc: %s: %s\n", severity == MTPC_WARNING ? "warning" : "note", message);
}

unsigned cli_parse_unsigned(const char *text, const char *option, int *status) {
  unsigned value = 0;
  if (cli_read_unsigned(text, option, &value))
    *status = CLI_USAGE_ERROR;
  return value;
}

uint64_t cli_parse_size(const char *text, const char *option, int *status) {
  uint64_t value = 0;
  if (cli_read_size(text, option, &value))
    *status = CLI_USAGE_ERROR;
  return value;
}

mtpc_budget *cli_jobserver_budget(unsigned jobs) {
  mtpc_budget *budget = NULL;
  mtpc_result *result = NULL;
  if (mtpc_budget_new_jobserver(mtpc_resolve_jobs(jobs), &budget, &result) != MTPC_OK)
    fprintf(stderr, "mtpc: warning: not using the jobserver: %s\n", mtpc_result_message(result));
  mtpc_result_free(result);
  return budget;
}

/* Adds the time trace to `outputs` at `trace`. 0 on success, else *message. */
static int add_time_trace(mtpc_outputs *outputs, const char *trace, char **message) {
  void *text = NULL;
  size_t size = 0;
  int failed = mtpc_time_trace_take(&text, &size, message) ||
               (text && mtpc_outputs_add(outputs, trace, text, size, NULL, message));
  free(text);
  return failed;
}

int cli_write_outputs(mtpc_result *result, const char *output, const void *object, size_t size,
                      const char *trace) {
  mtpc_outputs *outputs = mtpc_outputs_new();
  char *message = NULL;
  int failed = !outputs ||
               mtpc_outputs_add(outputs, output, object, size, cli_fault_injection(), &message) ||
               (trace && add_time_trace(outputs, trace, &message));
  if (!failed && mtpc_fault_hold(cli_fault_injection()))
    pause(); /* a test's signal ends the process here (fault.h) */
  if (!failed && mtpc_result_commit_files(result) != MTPC_OK) {
    failed = 1;
    message = xstrdup(mtpc_result_message(result));
  }
  if (!failed)
    failed = mtpc_outputs_commit(outputs, &message);
  if (failed)
    cli_error("%s", message ? message : "out of memory");
  free(message);
  mtpc_outputs_free(outputs);
  return failed;
}

const char *cli_fault_injection(void) {
  static int read;
  static const char *spec;
  if (!read) {
    spec = getenv("MTPC_FAULT");
    read = 1;
  }
  return spec;
}

/* LLVM's bitcode reader does not check every malformed input (a string
 * table offset out of range crashes llvm-dis-19 and clang-19 too): a crash
 * while mtpc works on an input becomes one error line and exit status 1.
 * Outputs are only renamed into place after a successful compile. The line
 * is formatted beforehand: a signal handler may only write it. */
typedef struct report {
  char text[1024];
  size_t length;
} report;

static report crash_report, read_hang_report;

static void format_report(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void format_report(report *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(r->text, sizeof r->text, fmt, ap);
  va_end(ap);
  r->length = n < 0 ? 0 : n >= (int)sizeof r->text ? sizeof r->text - 1 : (size_t)n;
}

static void write_report_and_exit(const report *r) {
  cli_remove_registered_files();
  ssize_t written = write(STDERR_FILENO, r->text, r->length);
  (void)written; /* exiting either way */
  _exit(1);
}

static void on_crash(int signal_number) {
  (void)signal_number;
  write_report_and_exit(&crash_report);
}

/* LLVM's report_fatal_error (for IR the verifier passes but code generation
 * rejects) prints "LLVM ERROR" and exits; say it the way mtpc says errors. */
static const char *fatal_input;

static void on_llvm_fatal_error(const char *reason) {
  cli_remove_registered_files();
  fprintf(stderr, "mtpc: error: %s: LLVM: %s\n", fatal_input, reason);
  fflush(stderr);
  _exit(1);
}

/* LLVM 19's reader loops forever on some malformed files (llvm-dis-19 too).
 * Reading is linear in the input's size, so a limit far above it tells a
 * loop from a large file: 60 s plus 10 s per MiB. */
static void on_read_hang(int signal_number) {
  (void)signal_number;
  write_report_and_exit(&read_hang_report);
}

void cli_watch_phase(void *user, const char *phase) {
  const phase_watch *w = user;
  if (strcmp(phase, "read") != 0) {
    alarm(0);
    return;
  }
  format_report(&read_hang_report,
                "mtpc: error: %s: LLVM's bitcode reader did not finish in %u s; "
                "the bitcode is probably malformed\n", w->input, w->limit);
  signal(SIGALRM, on_read_hang);
  alarm(w->limit);
}

void cli_report_crashes_on(const char *input) {
  fatal_input = input;
  LLVMInstallFatalErrorHandler(on_llvm_fatal_error);
  mtpc_bridge_on_out_of_memory(on_llvm_fatal_error);
  format_report(&crash_report,
                "mtpc: error: %s: LLVM crashed while reading or compiling it; "
                "the bitcode is probably malformed\n", input);
  /* Deep recursion in LLVM overflows the stack: the handler runs on its own. */
  static char alternate_stack[1 << 16];
  stack_t stack = {.ss_sp = alternate_stack, .ss_size = sizeof alternate_stack};
  sigaltstack(&stack, NULL);
  struct sigaction action = {0};
  action.sa_handler = on_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_ONSTACK;
  int signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++)
    sigaction(signals[i], &action, NULL);
}

