/* mtpc: the command-line driver. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <llvm-c/ErrorHandling.h>

#include "../lto-backend/llvm_support.h"
#include "../lto-backend/time_trace.h"
#include "cli.h"
#include "../lto-backend/merge.h"
#include "mtpc/mtpc.h"

static const char usage_text[] =
    "OVERVIEW: compile one large LLVM module on many cores\n"
    "\n"
    "USAGE: mtpc compile <input.bc> -o <output.o> [options]\n"
    "       mtpc plan <input.bc> [options]\n"
    "       mtpc backend -fthinlto-index=<index> <input.o> -o <output.o> [clang options]\n"
    "       mtpc distribute [-j <n>] <job-file.json>\n"
    "\n"
    "compile splits the module along its call graph, optimizes and code-generates\n"
    "the parts in parallel, and writes one relocatable ELF object with the symbols\n"
    "of a serial compile. plan prints the partition plan instead. backend is a\n"
    "distributed ThinLTO backend job (see 'mtpc backend --help'); distribute runs\n"
    "LLVM 22 lld's DTLTO jobs (see 'mtpc distribute --help'). Under make -jN,\n"
    "compile and backend take their threads from make's jobserver.\n"
    "\n"
    "OPTIONS:\n"
    "  -o <file>                  Output object (compile)\n"
    "  -j <n>, --jobs=<n>         Worker threads (default: all hardware threads);\n"
    "                             never changes the output\n"
    "  --partitions=<k>|max       Partitions (default: from the module's size);\n"
    "                             max = one per group of coupled functions\n"
    "  -O0, -O1, -O2, -O3         ThinLTO backend pipeline level (default -O2)\n"
    "  --codegen-opt=<0-3>        Code generation level (default 2)\n"
    "  --mtriple=<triple>         Target triple (default: the module's)\n"
    "  --mcpu=<cpu>               Target CPU\n"
    "  --mattr=<features>         Target features, e.g. +avx2,-sse4.2\n"
    "  --relocation-model=<m>     static, pic or dynamic-no-pic (default: from the\n"
    "                             module's PIC level)\n"
    "  --function-sections        One section per function\n"
    "  --data-sections            One section per variable\n"
    "  --import-instr-limit=<n>   Largest callee copied across a cut (default 30)\n"
    "  --split-dwarf-output=<dwo> Split DWARF: partition 0's .dwo; partition K\n"
    "                             writes <dwo stem>.part<K>.dwo beside it\n"
    "  --split-dwarf-file=<name>  The .dwo name skeleton units record (default:\n"
    "                             the output's; alone: the sections stay in the object)\n"
    "  --sample-profile=<file>    Sample (AutoFDO) profile, as -fprofile-sample-use\n"
    "  --cs-profile=<file>        Context-sensitive IR profile to apply\n"
    "  --cs-profile-generate      Instrument for one (--cs-profile: the .profraw)\n"
    "  --passes=<pipeline>        A pass pipeline instead of the ThinLTO backend's\n"
    "  --aa-pipeline=<pipeline>   An alias-analysis pipeline\n"
    "  --remarks-file=<file>      Optimization remarks of every partition, in order\n"
    "  --remarks-format=<fmt>     yaml (default) or bitstream\n"
    "  --remarks-filter=<regex>   Only remarks of passes matching <regex>\n"
    "  --remarks-with-hotness     Include profile hotness in remarks\n"
    "  --save-temps=<prefix>      Write each partition's IR as formed, optimized and\n"
    "                             before code generation: <prefix>part<K>.<stage>.bc\n"
    "  --debug-pass-manager       Print each partition's passes (partitions then run\n"
    "                             one at a time, in order)\n"
    "  --emit-llvm                Write the optimized IR (the partitions' modules\n"
    "                             linked into one) as bitcode instead of an object\n"
    "  --stats                    Print per-partition cost, time and memory, the\n"
    "                             serial phases and projected speedups\n"
    "  --emit-partitions=<dir>    Write plan.txt and each partition's IR to <dir>\n"
    "  --time-trace[=<file>]      Write a Chrome trace (default: <output>.time-trace.json)\n"
    "  --time-trace-granularity=<us>  Smallest event recorded (default 500)\n"
    "  --no-verify                Skip the IR verifier on partitions\n"
    "  --read-time-limit=<s>      Give up reading bitcode after <s> seconds (default:\n"
    "                             60 plus 10 per MiB; LLVM's reader loops on some\n"
    "                             malformed files)\n"
    "  --help                     Print this help\n"
    "  --version                  Print the version\n"
    "\n"
    "Exit status: 0 on success, 1 on error, 2 on a command-line error.\n";

void cli_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("mtpc: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static void print_diag(void *user, mtpc_severity severity, const char *message) {
  (void)user;
  fprintf(stderr, "mtpc: %s: %s\n", severity == MTPC_WARNING ? "warning" : "note", message);
}

typedef struct cli {
  const char *command;
  const char *input;
  const char *output;
  int stats;
  const char *time_trace; /* NULL: off */
  int time_trace_default;
  unsigned time_trace_granularity;
  unsigned read_time_limit; /* 0: from the input's size */
  mtpc_options options;
} cli;

/* "--name=value", "--name value" or, for short options, "-jN" / "-j N". */
static const char *take_value(int argc, char **argv, int *i, const char *name) {
  const char *arg = argv[*i];
  size_t len = strlen(name);
  if (strncmp(arg, name, len) != 0)
    return NULL;
  if (arg[len] == '=')
    return arg + len + 1;
  if (arg[len] != '\0') {
    if (name[1] != '-' )
      return arg + len;
    return NULL;
  }
  if (*i + 1 >= argc) {
    cli_error("option '%s' needs a value", name);
    exit(2);
  }
  return argv[++*i];
}

unsigned cli_parse_unsigned(const char *text, const char *option) {
  char *end = NULL;
  errno = 0;
  unsigned long value = strtoul(text, &end, 10);
  if (!*text || *end || errno || value > UINT32_MAX - 1 || text[0] == '-') {
    cli_error("invalid value '%s' for %s", text, option);
    exit(2);
  }
  return (unsigned)value;
}

mtpc_budget *cli_jobserver_budget(unsigned jobs) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return mtpc_budget_create_jobserver(jobs ? jobs : cores > 0 ? (unsigned)cores : 1);
}

static mtpc_reloc_model parse_reloc(const char *text) {
  if (!strcmp(text, "static"))
    return MTPC_RELOC_STATIC;
  if (!strcmp(text, "pic"))
    return MTPC_RELOC_PIC;
  if (!strcmp(text, "dynamic-no-pic"))
    return MTPC_RELOC_DYNAMIC_NO_PIC;
  if (!strcmp(text, "default"))
    return MTPC_RELOC_DEFAULT;
  cli_error("invalid relocation model '%s' (static, pic, dynamic-no-pic)", text);
  exit(2);
}

static int parse_flag(cli *c, const char *arg) {
  mtpc_options *o = &c->options;
  if (!strcmp(arg, "-O0") || !strcmp(arg, "-O1") || !strcmp(arg, "-O2") || !strcmp(arg, "-O3"))
    o->opt_level = (unsigned)(arg[2] - '0');
  else if (!strcmp(arg, "--function-sections"))
    o->function_sections = 1;
  else if (!strcmp(arg, "--data-sections"))
    o->data_sections = 1;
  else if (!strcmp(arg, "--stats"))
    c->stats = 1;
  else if (!strcmp(arg, "--no-verify"))
    o->verify = 0;
  else if (!strcmp(arg, "--time-trace"))
    c->time_trace_default = 1;
  else if (!strcmp(arg, "--cs-profile-generate"))
    o->cs_profile_generate = 1;
  else if (!strcmp(arg, "--remarks-with-hotness"))
    o->remarks_with_hotness = 1;
  else if (!strcmp(arg, "--debug-pass-manager"))
    o->debug_pass_manager = 1;
  else if (!strcmp(arg, "--emit-llvm"))
    o->emit_llvm = 1;
  else
    return 0;
  return 1;
}

/* Options that mirror an lto::Config setting of LLVM's LTO backend. */
static int parse_backend_value(cli *c, int argc, char **argv, int *i) {
  mtpc_options *o = &c->options;
  const char *v;
  if ((v = take_value(argc, argv, i, "--split-dwarf-file")))
    o->split_dwarf_file = v;
  else if ((v = take_value(argc, argv, i, "--split-dwarf-output")))
    o->split_dwarf_output = v;
  else if ((v = take_value(argc, argv, i, "--sample-profile")))
    o->sample_profile = v;
  else if ((v = take_value(argc, argv, i, "--cs-profile")))
    o->cs_profile = v;
  else if ((v = take_value(argc, argv, i, "--passes")))
    o->opt_pipeline = v;
  else if ((v = take_value(argc, argv, i, "--aa-pipeline")))
    o->aa_pipeline = v;
  else if ((v = take_value(argc, argv, i, "--remarks-file")))
    o->remarks_file = v;
  else if ((v = take_value(argc, argv, i, "--remarks-format")))
    o->remarks_format = v;
  else if ((v = take_value(argc, argv, i, "--remarks-filter")))
    o->remarks_passes = v;
  else if ((v = take_value(argc, argv, i, "--save-temps")))
    o->save_temps_prefix = v;
  else
    return 0;
  return 1;
}

static void parse_args(cli *c, int argc, char **argv) {
  mtpc_options *o = &c->options;
  for (int i = 2; i < argc; i++) {
    const char *arg = argv[i], *v;
    if (parse_flag(c, arg) || parse_backend_value(c, argc, argv, &i))
      continue;
    if ((v = take_value(argc, argv, &i, "-o")))
      c->output = v;
    else if ((v = take_value(argc, argv, &i, "-j")) || (v = take_value(argc, argv, &i, "--jobs")))
      o->jobs = cli_parse_unsigned(v, "-j");
    else if ((v = take_value(argc, argv, &i, "--partitions")))
      o->partitions = !strcmp(v, "max") ? MTPC_PARTITIONS_MAX : cli_parse_unsigned(v, "--partitions");
    else if ((v = take_value(argc, argv, &i, "--codegen-opt")))
      o->codegen_opt_level = cli_parse_unsigned(v, "--codegen-opt");
    else if ((v = take_value(argc, argv, &i, "--mtriple")))
      o->triple = v;
    else if ((v = take_value(argc, argv, &i, "--mcpu")))
      o->cpu = v;
    else if ((v = take_value(argc, argv, &i, "--mattr")))
      o->features = v;
    else if ((v = take_value(argc, argv, &i, "--relocation-model")))
      o->reloc_model = parse_reloc(v);
    else if ((v = take_value(argc, argv, &i, "--import-instr-limit")))
      o->import_instr_limit = cli_parse_unsigned(v, "--import-instr-limit");
    else if ((v = take_value(argc, argv, &i, "--read-time-limit")))
      c->read_time_limit = cli_parse_unsigned(v, "--read-time-limit");
    else if ((v = take_value(argc, argv, &i, "--emit-partitions")))
      o->emit_partitions_dir = v;
    else if ((v = take_value(argc, argv, &i, "--time-trace-granularity")))
      c->time_trace_granularity = cli_parse_unsigned(v, "--time-trace-granularity");
    else if (!strncmp(arg, "--time-trace=", 13))
      c->time_trace = arg + 13;
    else if (arg[0] == '-' && arg[1] != '\0') {
      cli_error("unknown option '%s'; see 'mtpc --help'", arg);
      exit(2);
    } else if (!c->input)
      c->input = arg;
    else {
      cli_error("more than one input: '%s' and '%s'", c->input, arg);
      exit(2);
    }
  }
  if (!c->input) {
    cli_error("no input file; see 'mtpc --help'");
    exit(2);
  }
  if (o->opt_level > 3 || o->codegen_opt_level > 3) {
    cli_error("optimization levels are 0 to 3");
    exit(2);
  }
}

static double mib(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

static void print_stats(const mtpc_stats *st) {
  FILE *out = stderr;
  fprintf(out, "mtpc stats: %u partition%s, %u job%s, %s\n", st->partitions,
          st->partitions == 1 ? "" : "s", st->jobs, st->jobs == 1 ? "" : "s",
          st->split ? "split" : "unsplit");
  fprintf(out, "  total cost %" PRIu64 ", duplicated %" PRIu64 " (%.1f%%)\n", st->total_cost,
          st->duplicated_cost,
          st->total_cost ? 100.0 * (double)st->duplicated_cost / (double)st->total_cost : 0.0);
  fprintf(out, "  %-9s %10s %9s %9s %9s %9s %9s %9s\n", "partition", "cost", "imported",
          "functions", "load(s)", "opt(s)", "cg(s)", "rss(MiB)");
  for (unsigned i = 0; i < st->partitions; i++) {
    const mtpc_partition_stats *p = &st->partition[i];
    fprintf(out, "  %-9u %10" PRIu64 " %9" PRIu64 " %9u %9.3f %9.3f %9.3f %9.1f\n", i, p->cost,
            p->imported_cost, p->functions, p->load_seconds, p->opt_seconds, p->codegen_seconds,
            mib(p->rss_bytes));
  }
  fprintf(out, "  serial: read %.3fs, plan %.3fs, bitcode %.3fs, merge %.3fs\n", st->read_seconds,
          st->plan_seconds, st->bitcode_seconds, st->merge_seconds);
  fprintf(out, "  parallel phase %.3fs, total %.3fs, peak rss %.1f MiB\n", st->parallel_seconds,
          st->total_seconds, mib(st->peak_rss_bytes));
  fprintf(out, "  projected speedup over these partitions on one core: 16 cores %.2fx, "
               "64 cores %.2fx\n",
          mtpc_stats_projected_speedup(st, 16), mtpc_stats_projected_speedup(st, 64));
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

typedef struct phase_watch {
  const char *input;
  unsigned limit;
} phase_watch;

static void watch_phase(void *user, const char *phase) {
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

/* Reads the input file, and arms the crash reports and the reading time
 * limit for it. */
static int read_input(cli *c, void **data, size_t *size) {
  char *message = NULL;
  if (mtpc_read_file(c->input, data, size, &message)) {
    cli_error("%s", message);
    free(message);
    return 1;
  }
  cli_report_crashes_on(c->input);
  static phase_watch watch;
  watch.input = c->input;
  watch.limit = c->read_time_limit ? c->read_time_limit : 60 + (unsigned)(*size >> 20) * 10;
  c->options.phase = watch_phase;
  c->options.phase_user = &watch;
  return 0;
}

static int run_compile(cli *c) {
  if (!c->output) {
    cli_error("no output file; use -o <file>");
    return 2;
  }
  if (c->time_trace_default && !c->time_trace) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s.time-trace.json", c->output);
    c->time_trace = path;
  }
  if (c->time_trace)
    mtpc_time_trace_start(c->time_trace_granularity);
  void *data = NULL;
  size_t size = 0;
  if (read_input(c, &data, &size))
    return 1;
  c->options.collect_stats = c->stats;
  c->options.budget = cli_jobserver_budget(c->options.jobs);
  mtpc_result result;
  mtpc_status status = mtpc_compile_bitcode(data, size, c->input, &c->options, &result);
  mtpc_budget_destroy(c->options.budget);
  free(data);
  int rc = 0;
  char *message = NULL;
  if (status != MTPC_OK) {
    cli_error("%s", result.message ? result.message : mtpc_status_string(status));
    rc = 1;
  } else if (mtpc_write_file_atomic(c->output, result.object, result.object_size, &message)) {
    cli_error("%s", message);
    free(message);
    rc = 1;
  }
  if (rc == 0 && c->stats)
    print_stats(&result.stats);
  if (c->time_trace && mtpc_time_trace_write(c->time_trace, &message) != MTPC_OK) {
    cli_error("cannot write the time trace: %s", message);
    free(message);
    rc = 1;
  }
  mtpc_result_free(&result);
  return rc;
}

static int run_plan(cli *c) {
  void *data = NULL;
  size_t size = 0;
  if (read_input(c, &data, &size))
    return 1;
  char *message = NULL;
  mtpc_status status = mtpc_print_plan_bitcode(data, size, c->input, &c->options, stdout, &message);
  if (status != MTPC_OK)
    cli_error("%s", message ? message : mtpc_status_string(status));
  free(message);
  free(data);
  return status == MTPC_OK ? 0 : 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version")) {
    printf("%s\n", mtpc_version_string());
    return 0;
  }
  if (!strcmp(argv[1], "backend"))
    return cli_backend(argc - 1, argv + 1);
  if (!strcmp(argv[1], "distribute"))
    return cli_distribute(argc - 1, argv + 1);
  cli c = {.command = argv[1], .time_trace_granularity = 500};
  mtpc_options_init(&c.options);
  c.options.diag = print_diag;
  if (strcmp(c.command, "compile") != 0 && strcmp(c.command, "plan") != 0) {
    cli_error("unknown command '%s'; see 'mtpc --help'", c.command);
    return 2;
  }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return 0;
    }
  parse_args(&c, argc, argv);
  return !strcmp(c.command, "compile") ? run_compile(&c) : run_plan(&c);
}
