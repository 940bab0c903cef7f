/* `mtpc cc <compiler> <args...>`: a compiler launcher. A large -c compile
 * runs clang's front end alone (the -cc1 job `clang -###` names, writing
 * bitcode before LLVM's passes), then mtpc splits the module, runs the
 * optimization pipeline and code generation per partition, and writes the
 * object where clang would have. Everything else runs the compiler itself
 * (docs/cc.rst). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm/Config/llvm-config.h>

#include "cc.h"
#include "cli.h"
#include "commands.h"
#include "mtpc/mtpc.h"
#include "mtpc/tools.h"

extern char **environ;

static const char usage_text[] =
    "OVERVIEW: a compiler launcher that compiles one large translation unit on many cores\n"
    "\n"
    "USAGE: mtpc cc [options] <compiler> <compiler arguments...>\n"
    "       mtpc-cc [options] <compiler> <compiler arguments...>\n"
    "\n"
    "A clang -c compile at -O1 or above whose source is large runs clang's front\n"
    "end, then mtpc splits the module, optimizes and code-generates the parts in\n"
    "parallel, and writes the object clang would have written. Any other command\n"
    "(a small source, -O0, -E, -S, -emit-llvm, -flto, sanitizers, profiles, a\n"
    "compiler that is not clang, an option mtpc does not know) runs the compiler\n"
    "as it is. Under make -jN the threads take slots from make's jobserver.\n"
    "\n"
    "  CMake: -DCMAKE_C_COMPILER_LAUNCHER='mtpc;cc'   Make: CC='mtpc cc clang-19'\n"
    "  ccache: CCACHE_PREFIX=mtpc-cc\n"
    "\n"
    "OPTIONS:\n"
    "  -j <n>, --jobs=<n>        Threads (default: all hardware threads; env MTPC_CC_JOBS)\n"
    "  --partitions=<k>          Partitions (default: from the module's size)\n"
    "  --min-source-size=<bytes> Sources smaller than this pass through without\n"
    "                            running the front end (default 256K; a source that\n"
    "                            includes .c/.cpp files counts theirs)\n"
    "  --threshold=<n>           Split modules of at least <n> unoptimized IR\n"
    "                            instructions (default 40000); smaller ones are\n"
    "                            compiled by the compiler itself\n"
    "  --verbose                 Say what happens to each compile (env MTPC_CC_VERBOSE=1)\n"
    "  --time-trace=<file>       Write a Chrome trace of a split compile (clang's own\n"
    "                            -ftime-trace passes the compile through)\n"
    "  --help, --version\n"
    "\n"
    "Exit status: the compiler's, or 1 when mtpc fails, 2 on a command-line error.\n";

typedef struct cc_settings {
  unsigned jobs;
  unsigned partitions; /* 0: from the module's size */
  uint64_t min_source_size;
  uint64_t threshold;
  int verbose;
  const char *time_trace; /* NULL: none */
} cc_settings;

static void note(const cc_settings *s, const char *fmt, const char *a, const char *b) {
  if (!s->verbose)
    return;
  fprintf(stderr, "mtpc: note: ");
  fprintf(stderr, fmt, a, b);
  fputc('\n', stderr);
}

/* Runs the compiler in place of this process. */
static int run_compiler(int argc, char **argv, const char *extra) {
  char **args = xmalloc(((size_t)argc + 2) * sizeof(char *));
  memcpy(args, argv, (size_t)argc * sizeof(char *));
  args[argc] = (char *)extra;
  args[argc + (extra != NULL)] = NULL;
  execvp(args[0], args);
  cli_error("cannot run '%s': %s", args[0], strerror(errno));
  free(args);
  return 1;
}

/* Waits for a child; its exit status, or 1 if a signal ended it. */
static int wait_for(pid_t pid) {
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return 1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Runs argv with stderr read into *text; its exit status, or -1 if it
 * could not be started. */
static int run_capturing_stderr(char **argv, char **text) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC))
    return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  pid_t pid;
  int failed = posix_spawnp(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  size_t size = 0, cap = 4096;
  *text = xmalloc(cap);
  ssize_t n = 0;
  while (!failed && (n = read(fds[0], *text + size, cap - size - 1)) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      break;
    size += (size_t)n;
    if (cap - size < 2) {
      char *bigger = realloc(*text, cap *= 2);
      if (!bigger)
        break;
      *text = bigger;
    }
  }
  (*text)[size] = '\0';
  close(fds[0]);
  return failed ? -1 : wait_for(pid);
}

static int run(char **argv) {
  pid_t pid;
  if (posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ))
    return -1;
  return wait_for(pid);
}

/* One line of `clang -###`: "arg" "arg" ..., with \" and \\ escaped. */
static char **split_job_line(char *line, int *count) {
  size_t cap = 64;
  char **args = xmalloc(cap * sizeof(char *));
  int n = 0;
  char *p = line;
  while (*p) {
    while (*p == ' ')
      p++;
    if (*p != '"')
      break;
    char *start = ++p, *out = p;
    while (*p && *p != '"') {
      if (*p == '\\' && p[1])
        p++;
      *out++ = *p++;
    }
    if (*p == '"')
      p++;
    *out = '\0';
    if ((size_t)n + 1 >= cap) {
      cap *= 2;
      char **bigger = realloc(args, cap * sizeof(char *));
      if (!bigger)
        break;
      args = bigger;
    }
    args[n++] = start;
  }
  args[n] = NULL;
  *count = n;
  return args;
}

/* The driver's one job, or NULL; its warnings go to *warnings. */
static char *job_line(char *text, char **warnings, int *jobs) {
  char *job = NULL;
  *jobs = 0;
  *warnings = xstrdup("");
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == ' ' && line[1] == '"') {
      job = line;
      ++*jobs;
    } else if (strstr(line, ": warning: ") || strstr(line, ": note: ")) {
      char *more = xasprintf("%s%s\n", *warnings, line);
      free(*warnings);
      *warnings = more;
    }
  }
  return *jobs == 1 ? job : NULL;
}

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The source's size, with the sizes of the C and C++ files it includes by
 * name (a unity build's source is a list of those). */
static uint64_t source_size(const char *source, uint64_t enough) {
  uint64_t size = file_size(source);
  if (size >= enough)
    return size;
  FILE *f = fopen(source, "r");
  if (!f)
    return size;
  const char *slash = strrchr(source, '/');
  int dir_len = slash ? (int)(slash - source) : 1;
  const char *dir = slash ? source : ".";
  char line[4096], name[4096];
  while (fgets(line, sizeof(line), f) && size < enough) {
    if (sscanf(line, " # include \"%4095[^\"]\"", name) != 1)
      continue;
    size_t len = strlen(name);
    int code = (len > 2 && !strcmp(name + len - 2, ".c")) ||
               (len > 4 && (!strcmp(name + len - 4, ".cpp") || !strcmp(name + len - 4, ".cxx"))) ||
               (len > 3 && !strcmp(name + len - 3, ".cc"));
    if (!code)
      continue;
    char *path = name[0] == '/' ? xstrdup(name) : xasprintf("%.*s/%s", dir_len, dir, name);
    size += file_size(path);
    free(path);
  }
  fclose(f);
  return size;
}

static uint64_t instruction_count(LLVMModuleRef module) {
  uint64_t count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        count++;
  return count;
}

static LLVMModuleRef read_bitcode(LLVMContextRef context, const char *path, char **message) {
  LLVMMemoryBufferRef buffer = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buffer, message))
    return NULL;
  LLVMModuleRef module = NULL;
  if (LLVMParseBitcodeInContext2(context, buffer, &module)) {
    *message = xstrdup("the front end's bitcode cannot be read");
    module = NULL;
  }
  LLVMDisposeMemoryBuffer(buffer);
  return module;
}

typedef enum outcome { SPLIT_DONE, SPLIT_FAILED, COMPILE_UNSPLIT } outcome;

static void print_diag(void *user, mtpc_severity severity, const char *message) {
  cli_print_diag(user, severity, message);
}

/* Splits the module the front end wrote; on success the object is written
 * to job->output. */
static outcome split_compile(const cc_settings *s, const cc_job *job, const char *bitcode,
                             const char *source) {
  LLVMContextRef context = LLVMContextCreate();
  char *message = NULL;
  LLVMModuleRef module = read_bitcode(context, bitcode, &message);
  if (!module) {
    cli_error("%s: %s", source, message);
    free(message);
    LLVMContextDispose(context);
    return SPLIT_FAILED;
  }
  uint64_t count = instruction_count(module);
  if (count < s->threshold) {
    char *text = xasprintf("%llu", (unsigned long long)count);
    note(s, "%s: %s IR instructions, below the threshold: compiled by the compiler", source,
         text);
    free(text);
    LLVMDisposeModule(module);
    LLVMContextDispose(context);
    return COMPILE_UNSPLIT;
  }
  mtpc_options o;
  mtpc_options_init(&o);
  cc_job_options(job, &o);
  o.jobs = s->jobs;
  o.partitions = s->partitions;
  o.diag = print_diag;
  o.collect_stats = s->verbose;
  o.fault_injection = cli_fault_injection();
  o.budget = cli_jobserver_budget(o.jobs);
  if (s->time_trace)
    mtpc_time_trace_start(0);
  mtpc_result *result = NULL;
  mtpc_status status = mtpc_compile_module(module, &o, &result);
  mtpc_budget_destroy(o.budget);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  outcome done = SPLIT_DONE;
  size_t size = 0;
  const void *object = mtpc_result_object(result, &size);
  if (status != MTPC_OK) {
    fprintf(stderr, "mtpc: warning: %s: %s; compiled by the compiler instead\n", source,
            mtpc_result_message(result));
    done = status == MTPC_ERR_NO_MEMORY ? SPLIT_FAILED : COMPILE_UNSPLIT;
  } else if (mtpc_write_file_atomic(job->output, object, size, o.fault_injection, &message)) {
    cli_error("%s", message);
    free(message);
    done = SPLIT_FAILED;
  } else if (s->time_trace && mtpc_time_trace_write(s->time_trace, &message) != MTPC_OK) {
    cli_error("cannot write the time trace: %s", message);
    free(message);
    done = SPLIT_FAILED;
  }
  if (done == SPLIT_DONE && s->verbose) {
    const mtpc_stats *st = mtpc_result_stats(result);
    char *text = xasprintf("%u partition%s", st->partitions, st->partitions == 1 ? "" : "s");
    note(s, "%s: split into %s", source, text);
    free(text);
  }
  mtpc_result_free(result);
  return done;
}

/* A temporary bitcode file; NULL (and an error) if none can be made. */
static char *temporary_bitcode(void) {
  const char *dir = getenv("TMPDIR");
  char *path = xasprintf("%s/mtpc-cc-XXXXXX.bc", dir && *dir ? dir : "/tmp");
  int fd = mkstemps(path, 3);
  if (fd < 0) {
    cli_error("cannot create a temporary file in %s: %s", dir && *dir ? dir : "/tmp",
              strerror(errno));
    free(path);
    return NULL;
  }
  close(fd);
  return path;
}

static int has_color_flag(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strstr(argv[i], "color-diagnostics") || strstr(argv[i], "-fdiagnostics-color"))
      return 1;
  return 0;
}

/* Whether the driver's version line names the LLVM mtpc reads bitcode of. */
static int same_llvm(const char *text) {
  const char *version = strstr(text, "clang version ");
  return version && atoi(version + strlen("clang version ")) == LLVM_VERSION_MAJOR;
}

/* The driver's -cc1 job for the command; NULL when it has none mtpc can
 * use. The caller frees *text (which the job's arguments point into). */
static char **driver_job(int argc, char **argv, int *count, char **text, char **warnings,
                         int *same_version) {
  char **args = xmalloc(((size_t)argc + 3) * sizeof(char *));
  memcpy(args, argv, (size_t)argc * sizeof(char *));
  int n = argc;
  args[n++] = "-###";
  /* The driver sees a pipe; the front end keeps the user's colours. */
  if (isatty(STDERR_FILENO) && !has_color_flag(argc, argv))
    args[n++] = "-fcolor-diagnostics";
  args[n] = NULL;
  int status = run_capturing_stderr(args, text);
  free(args);
  *warnings = NULL;
  if (status != 0)
    return NULL;
  *same_version = same_llvm(*text);
  int jobs = 0;
  char *line = job_line(*text, warnings, &jobs);
  return line ? split_job_line(line, count) : NULL;
}


static int compile(const cc_settings *s, int argc, char **argv, const char *source) {
  char *text = NULL, *warnings = NULL;
  int count = 0;
  int same_version = 0;
  char **job_args = driver_job(argc, argv, &count, &text, &warnings, &same_version);
  char *bitcode = job_args && same_version ? temporary_bitcode() : NULL;
  cc_job job = {0};
  char *owned = NULL;
  const char *reason = !job_args ? "the driver does not make one -cc1 job of it"
                       : !same_version ? "a clang of another LLVM version than mtpc's"
                       : !bitcode ? "no temporary file"
                                  : cc_read_job(job_args, count, bitcode, &job, &owned);
  int rc = -1;
  if (reason) {
    note(s, "%s: passed through: %s", source, reason);
  } else {
    fputs(warnings, stderr);
    rc = run(job.frontend);
    if (rc < 0) {
      cli_error("cannot run '%s': %s", job.frontend[0], strerror(errno));
      rc = 1;
    } else if (rc == 0) {
      outcome done = split_compile(s, &job, bitcode, source);
      rc = done == SPLIT_DONE ? 0 : done == SPLIT_FAILED ? 1 : -2;
    }
  }
  if (bitcode)
    unlink(bitcode);
  free(bitcode);
  free(owned);
  cc_job_free(&job);
  free(job_args);
  free(text);
  free(warnings);
  if (rc == -1)
    return run_compiler(argc, argv, NULL);
  /* The front end has shown its warnings once already. */
  if (rc == -2)
    return run_compiler(argc, argv, "-w");
  return rc;
}

static int parse_settings(cc_settings *s, int argc, char **argv, int *first) {
  const char *jobs = getenv("MTPC_CC_JOBS"), *verbose = getenv("MTPC_CC_VERBOSE");
  if (jobs && *jobs)
    s->jobs = cli_parse_unsigned(jobs, "MTPC_CC_JOBS");
  s->verbose = verbose && *verbose && strcmp(verbose, "0") != 0;
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    }
    if (!strcmp(arg, "--version")) {
      printf("%s\n", mtpc_version_string());
      return 0;
    }
    if (!strcmp(arg, "--verbose"))
      s->verbose = 1;
    else if (!strncmp(arg, "--jobs=", 7))
      s->jobs = cli_parse_unsigned(arg + 7, "--jobs");
    else if (!strcmp(arg, "-j") && i + 1 < argc)
      s->jobs = cli_parse_unsigned(argv[++i], "-j");
    else if (!strncmp(arg, "-j", 2) && arg[2])
      s->jobs = cli_parse_unsigned(arg + 2, "-j");
    else if (!strncmp(arg, "--threshold=", 12))
      s->threshold = cli_parse_unsigned(arg + 12, "--threshold");
    else if (!strncmp(arg, "--partitions=", 13))
      s->partitions = cli_parse_unsigned(arg + 13, "--partitions");
    else if (!strncmp(arg, "--time-trace=", 13))
      s->time_trace = arg + 13;
    else if (!strncmp(arg, "--min-source-size=", 18))
      s->min_source_size = cli_parse_size(arg + 18, "--min-source-size");
    else {
      cli_error("unknown option '%s' before the compiler; see 'mtpc cc --help'", arg);
      return 2;
    }
  }
  if (i == argc) {
    cli_error("no compiler; usage: mtpc cc [options] <compiler> <arguments...>");
    return 2;
  }
  *first = i;
  return -1;
}

int cli_cc(int argc, char **argv) {
  cc_settings s = {.min_source_size = 256 << 10, .threshold = 40000};
  int first = 0;
  int rc = parse_settings(&s, argc, argv, &first);
  if (rc >= 0)
    return rc;
  argc -= first;
  argv += first;
  const char *source = NULL;
  const char *reason = cc_check_command(argc, argv, &source);
  if (!reason && source_size(source, s.min_source_size) < s.min_source_size)
    reason = "a small source";
  if (reason) {
    note(&s, "%s: passed through: %s", source ? source : argv[0], reason);
    return run_compiler(argc, argv, NULL);
  }
  cli_report_crashes_on(source);
  return compile(&s, argc, argv, source);
}
