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
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm/Config/llvm-config.h>

#include "cc.h"
#include "cli.h"
#include "commands.h"
#include "signals.h"
#include "mtpc/mtpc.h"
#include "lto-backend/tools.h"

extern char **environ;

/* Waits for a child; its exit status, or 1 if a signal ended it. */
static int wait_for(pid_t pid) {
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
    ;
  cli_forget_child(pid);
  return waited < 0 || !WIFEXITED(status) ? 1 : WEXITSTATUS(status);
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
  if (!failed)
    cli_track_child(pid);
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
  cli_track_child(pid);
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
static char *job_line(char *text, char **warnings) {
  char *job = NULL;
  int jobs = 0;
  *warnings = xstrdup("");
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    if (line[0] == ' ' && line[1] == '"') {
      job = line;
      jobs++;
    } else if (strstr(line, ": warning: ") || strstr(line, ": note: ")) {
      char *more = xasprintf("%s%s\n", *warnings, line);
      free(*warnings);
      *warnings = more;
    }
  }
  return jobs == 1 ? job : NULL;
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

/* How a compile ends: done here (with an exit status), or by the compiler,
 * from the start or (its warnings shown once already) with -w. */
typedef enum finish { FINISHED, PASS_THROUGH, COMPILE_QUIETLY } finish;

/* Splits the module the front end wrote; on success the object is written
 * to job->output. */
static finish split_compile(const cc_settings *s, const cc_job *job, const char *bitcode,
                            const char *source, int *status) {
  LLVMContextRef context = LLVMContextCreate();
  char *message = NULL;
  LLVMModuleRef module = read_bitcode(context, bitcode, &message);
  if (!module) {
    fprintf(stderr, "mtpc: warning: %s: %s; compiled by the compiler instead\n", source, message);
    free(message);
    LLVMContextDispose(context);
    return COMPILE_QUIETLY;
  }
  /* Named as clang names it: ASan's reports without debug information say
   * where a global is defined by the module's name. */
  LLVMSetModuleIdentifier(module, job->input, strlen(job->input));
  mtpc_options o;
  mtpc_options_init(&o);
  cc_job_options(job, &o);
  mtpc_split_advice advice;
  if (!mtpc_should_split(module, &o, s->threshold, &advice)) {
    /* Large enough, so the target keeps it whole (COFF: no one object). */
    if (advice.instructions >= s->threshold)
      cc_report_pass_through(s, source, advice.reason, 1);
    else
      cc_note(s, "%s: %s: compiled by the compiler", source, advice.reason);
    LLVMDisposeModule(module);
    LLVMContextDispose(context);
    return COMPILE_QUIETLY;
  }
  o.jobs = s->jobs;
  o.partitions = s->partitions;
  o.diag = cli_print_diag;
  o.collect_stats = s->verbose;
  o.budget = cli_jobserver_budget(o.jobs);
  o.defer_files = 1; /* cli_write_outputs writes them with the object */
  if (s->time_trace)
    mtpc_time_trace_start(0);
  mtpc_result *result = NULL;
  mtpc_status compiled =
      mtpc_compile_with_faults(module, NULL, 0, NULL, &o, NULL, cli_fault_injection(), &result);
  mtpc_budget_destroy(o.budget);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  finish done = FINISHED;
  *status = 0;
  size_t size = 0;
  const void *object = mtpc_result_object(result, &size);
  if (compiled == MTPC_ERR_NO_MEMORY) {
    cli_error("%s: %s", source, mtpc_result_message(result));
    *status = 1;
  } else if (compiled != MTPC_OK) {
    fprintf(stderr, "mtpc: warning: %s: %s; compiled by the compiler instead\n", source,
            mtpc_result_message(result));
    done = COMPILE_QUIETLY;
  } else {
    *status = cli_write_outputs(result, job->output, object, size, s->time_trace);
  }
  if (done == FINISHED && *status == 0 && s->verbose) {
    const mtpc_stats *st = mtpc_result_stats(result);
    cc_note(s, "%s: split into %u partition%s", source, st->partitions,
            st->partitions == 1 ? "" : "s");
  }
  mtpc_result_free(result);
  return done;
}

/* A temporary bitcode file, or NULL. */
static char *temporary_bitcode(void) {
  const char *dir = getenv("TMPDIR");
  char *path = xasprintf("%s/mtpc-cc-XXXXXX.bc", dir && *dir ? dir : "/tmp");
  int fd = mkstemps(path, 3);
  if (fd < 0) {
    free(path);
    return NULL;
  }
  close(fd);
  cli_remove_on_signal(path);
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
  char *line = job_line(*text, warnings);
  return line ? split_job_line(line, count) : NULL;
}


/* The launcher's part of a compile that may be split: the driver's job,
 * its front end, the split. */
static finish try_split(const cc_settings *s, int argc, char **argv, const char *source,
                        int *status) {
  char *text = NULL, *warnings = NULL;
  int count = 0, same_version = 0;
  char **job_args = driver_job(argc, argv, &count, &text, &warnings, &same_version);
  char *bitcode = job_args && same_version ? temporary_bitcode() : NULL;
  cc_job job = {0};
  char *owned = NULL;
  const char *reason = !job_args ? "the driver does not make one -cc1 job of it"
                       : !same_version ? "a clang of another LLVM version than mtpc's"
                       : !bitcode ? "no temporary file can be made"
                                  : cc_read_job(job_args, count, bitcode, &job, &owned);
  finish done = PASS_THROUGH;
  if (reason) {
    /* A large compile clang would optimize; when the driver makes no job of
     * it (a missing file), clang's own errors say why. */
    cc_report_pass_through(s, source, reason, job_args != NULL);
  } else {
    fputs(warnings, stderr);
    done = FINISHED;
    *status = run(job.frontend);
    if (*status < 0) {
      cli_error("cannot run '%s': %s", job.frontend[0], strerror(errno));
      *status = 1;
    } else if (*status == 0) {
      done = split_compile(s, &job, bitcode, source, status);
    }
  }
  if (bitcode)
    cli_remove_now(bitcode);
  free(bitcode);
  free(owned);
  cc_job_free(&job);
  free(job_args);
  free(text);
  free(warnings);
  return done;
}

static int compile(const cc_settings *s, int argc, char **argv, const char *source) {
  int status = 0;
  switch (try_split(s, argc, argv, source, &status)) {
  case PASS_THROUGH:
    return cc_run_compiler(argc, argv, NULL);
  case COMPILE_QUIETLY:
    return cc_run_compiler(argc, argv, "-w");
  case FINISHED:
    break;
  }
  return status;
}

int cli_cc(int argc, char **argv) {
  cc_settings s;
  int first = 0;
  switch (cc_parse_settings(&s, argc, argv, &first)) {
  case CC_SETTINGS_HELP:
    fputs(cc_usage_text, stdout);
    return 0;
  case CC_SETTINGS_VERSION:
    printf("%s\n", mtpc_version_string());
    return 0;
  case CC_SETTINGS_BAD:
    return 2;
  case CC_SETTINGS_OK:
    break;
  }
  argc -= first;
  argv += first;
  const char *source = NULL;
  int loud = 0;
  const char *reason = cc_pass_through_reason(&s, argc, argv, &source, &loud);
  if (reason) {
    cc_report_pass_through(&s, source ? source : argv[0], reason, loud);
    return cc_run_compiler(argc, argv, NULL);
  }
  cli_report_crashes_on(source);
  return compile(&s, argc, argv, source);
}
