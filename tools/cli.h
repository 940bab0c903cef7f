/* What the mtpc command's files share. */
#ifndef MTPC_TOOLS_CLI_H
#define MTPC_TOOLS_CLI_H

/* "mtpc: error: ..." on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A non-negative number, or a command-line error (exit 2). */
unsigned cli_parse_unsigned(const char *text, const char *option);
/* Crashes, fatal errors and a looping reader inside LLVM become one error
 * line naming `input`. */
void cli_report_crashes_on(const char *input);

/* Slots from GNU make's jobserver for `jobs` worker threads (0: all), or
 * NULL when MAKEFLAGS names none. */
struct mtpc_budget *cli_jobserver_budget(unsigned jobs);

/* `mtpc backend ...`: argv[0] is "backend". Returns the exit status. */
int cli_backend(int argc, char **argv);
/* `mtpc distribute ...`: argv[0] is "distribute". Returns the exit status. */
int cli_distribute(int argc, char **argv);

#endif
