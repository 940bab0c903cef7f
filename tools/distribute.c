/* `mtpc distribute`: a DTLTO distributor for LLVM 22's lld
 * (--thinlto-distributor=). lld writes a job file (JSON) and runs
 *   mtpc distribute [options] <job-file>
 * Each job is common.args + job.args (usually `mtpc backend ...`) and writes
 * outputs[0]. Jobs run here, largest input first, each holding a slot of GNU
 * make's jobserver: make's when there is one, else one this process makes.
 * The jobs see the same jobserver and take further slots from it for their
 * own partitions, so jobs and their threads together never exceed the slots. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "mtpc/mtpc.h"
#include "lto-backend/tools.h"
#include "json.h"
#include "signals.h"

extern char **environ;

static const char distribute_usage[] =
    "USAGE: mtpc distribute [options] <job-file.json>\n"
    "\n"
    "Runs the ThinLTO backend jobs of an LLVM 22 lld DTLTO job file on this\n"
    "machine (clang-22 -fthinlto-distributor=mtpc -Xthinlto-distributor=distribute).\n"
    "Jobs and the threads of `mtpc backend` jobs share the slots of GNU make's\n"
    "jobserver (make's, when run under make -jN), never more at once.\n"
    "\n"
    "OPTIONS:\n"
    "  -j <n>                     Slots when not under make's jobserver, and the\n"
    "                             most jobs at once (default: all hardware threads)\n"
    "  -v                         Print each job's command before running it\n"
    "  --help                     Print this help\n"
    "\n"
    "Exit status: 0 when every job succeeded, 1 when one failed (its error\n"
    "output is printed), 2 on a command-line error.\n";

typedef struct dist_job {
  char **argv;        /* common.args + job.args, NULL-terminated (strings owned by the JSON) */
  const char *input;  /* inputs[0]: the module, for ordering and messages */
  const char *output; /* outputs[0]: the object lld reads */
  off_t input_size;
  pid_t pid;
  char *log;          /* the job's captured stderr */
} dist_job;

typedef struct distributor {
  const char *job_file;
  unsigned slots;
  int verbose;
  dist_job *jobs;
  unsigned count;
  char *tmpdir;
  int own_jobserver_fd; /* -1 under make's */
  mtpc_budget *jobserver; /* the slots the jobs hold */
} distributor;

/* -1: go on; else the status the command exits with (0 after --help). */
static int parse_distribute_args(distributor *d, int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc && !status; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(distribute_usage, stdout);
      return 0;
    } else if (!strcmp(arg, "-v")) {
      d->verbose = 1;
    } else if (!strcmp(arg, "-j") && i + 1 < argc) {
      d->slots = cli_parse_unsigned(argv[++i], "-j", &status);
    } else if (!strncmp(arg, "-j", 2) && arg[2]) {
      d->slots = cli_parse_unsigned(arg + 2, "-j", &status);
    } else if (arg[0] == '-' && arg[1]) {
      cli_error("unknown option '%s'; see 'mtpc distribute --help'", arg);
      return CLI_USAGE_ERROR;
    } else if (d->job_file) {
      cli_error("more than one job file ('%s', '%s')", d->job_file, arg);
      return CLI_USAGE_ERROR;
    } else {
      d->job_file = arg;
    }
  }
  if (status)
    return status;
  if (!d->job_file) {
    cli_error("no job file");
    return CLI_USAGE_ERROR;
  }
  d->slots = mtpc_resolve_jobs(d->slots);
  return -1;
}

/* An array of strings, or NULL with *error naming `where`. */
static const json *string_array(const json *array, const char *where, int non_empty,
                                char **error) {
  int ok = array && array->kind == JSON_ARRAY && (!non_empty || array->count > 0);
  for (size_t i = 0; ok && i < array->count; i++)
    ok = array->items[i]->kind == JSON_STRING;
  if (ok)
    return array;
  if (!*error)
    *error = xasprintf("%s: expected %s array of strings", where,
                            non_empty ? "a non-empty" : "an");
  return NULL;
}

static char **command_line(const json *common, const json *own) {
  char **argv = xmalloc((common->count + own->count + 1) * sizeof(char *));
  size_t n = 0;
  for (size_t i = 0; i < common->count; i++)
    argv[n++] = common->items[i]->text;
  for (size_t i = 0; i < own->count; i++)
    argv[n++] = own->items[i]->text;
  argv[n] = NULL;
  return argv;
}

/* Checks the job file's shape and builds the jobs. 0, or 1 with *error. */
static int load_jobs(distributor *d, const json *root, char **error) {
  static const json no_strings = {.kind = JSON_ARRAY};
  const json *common = json_get(root, "common");
  const json *common_args = string_array(json_get(common, "args"), "common.args", 1, error);
  const json *jobs = json_get(root, "jobs");
  if (!common_args)
    return 1;
  if (!jobs || jobs->kind != JSON_ARRAY) {
    *error = xstrdup("jobs: expected an array");
    return 1;
  }
  d->jobs = calloc(jobs->count ? jobs->count : 1, sizeof(dist_job));
  for (size_t i = 0; i < jobs->count; i++, d->count++) {
    char where[64];
    const json *job = jobs->items[i];
    snprintf(where, sizeof(where), "jobs[%zu].args", i);
    const json *args = string_array(json_get(job, "args"), where, 1, error);
    snprintf(where, sizeof(where), "jobs[%zu].outputs", i);
    const json *outputs = string_array(json_get(job, "outputs"), where, 1, error);
    snprintf(where, sizeof(where), "jobs[%zu].inputs", i);
    const json *listed = json_get(job, "inputs"); /* optional */
    const json *inputs = listed ? string_array(listed, where, 0, error) : &no_strings;
    if (!args || !outputs || !inputs)
      return 1;
    dist_job *j = &d->jobs[i];
    j->argv = command_line(common_args, args);
    j->output = outputs->items[0]->text;
    j->input = inputs->count ? inputs->items[0]->text : args->items[0]->text;
    struct stat st;
    j->input_size = stat(j->input, &st) == 0 ? st.st_size : 0;
  }
  return 0;
}

/* A jobserver of our own: a FIFO holding slots - 1 tokens (the last slot is
 * the one this process holds), named in MAKEFLAGS for us and the jobs. */
static int make_jobserver(distributor *d, char **error) {
  char *fifo = xasprintf("%s/jobserver", d->tmpdir);
  int fd = -1;
  cli_remove_on_signal(fifo);
  if (mkfifo(fifo, 0600) != 0 || (fd = open(fifo, O_RDWR | O_CLOEXEC)) < 0) {
    *error = xasprintf("cannot make a jobserver FIFO '%s': %s", fifo, strerror(errno));
    free(fifo);
    return 1;
  }
  for (unsigned i = 1; i < d->slots; i++)
    if (write(fd, "+", 1) != 1)
      break;
  char *flags = xasprintf("-j%u --jobserver-auth=fifo:%s", d->slots, fifo);
  setenv("MAKEFLAGS", flags, 1);
  free(flags);
  free(fifo);
  d->own_jobserver_fd = fd;
  return 0;
}

static int start_job(distributor *d, dist_job *j, unsigned index, char **error) {
  if (d->verbose) {
    for (char **a = j->argv; *a; a++)
      fprintf(stderr, "%s%s", a == j->argv ? "" : " ", *a);
    fputc('\n', stderr);
  }
  j->log = xasprintf("%s/job%u.log", d->tmpdir, index);
  cli_remove_on_signal(j->log);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, j->log,
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  int rc = posix_spawnp(&j->pid, j->argv[0], &actions, NULL, j->argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    *error = xasprintf("cannot run '%s' for '%s': %s", j->argv[0], j->input, strerror(rc));
  else
    cli_track_child(j->pid);
  return rc != 0;
}

static void replay_log(const dist_job *j) {
  FILE *log = fopen(j->log, "r");
  if (!log)
    return;
  char buffer[4096];
  size_t n;
  while ((n = fread(buffer, 1, sizeof(buffer), log)) > 0)
    fwrite(buffer, 1, n, stderr);
  fclose(log);
}

/* A finished job: its slot back, its messages out. 0 if it succeeded. */
static int finish_job(distributor *d, dist_job *j, int status, char **error) {
  mtpc_budget_release(d->jobserver);
  cli_forget_child(j->pid);
  j->pid = 0;
  replay_log(j);
  /* Replayed: no longer needed, and one slot of the signal registry back. */
  cli_remove_now(j->log);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    if (access(j->output, F_OK) == 0)
      return 0;
    *error = xasprintf("the backend job for '%s' succeeded but wrote no '%s'", j->input,
                            j->output);
  } else if (WIFEXITED(status)) {
    *error = xasprintf("the backend job for '%s' failed (exit code %d)", j->input,
                            WEXITSTATUS(status));
  } else {
    *error = xasprintf("the backend job for '%s' was killed by signal %d", j->input,
                            WTERMSIG(status));
  }
  return 1;
}

/* Reaps every finished job. Returns how many finished; sets *error on the
 * first failure. */
static unsigned reap_jobs(distributor *d, char **error) {
  unsigned finished = 0;
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    for (unsigned i = 0; i < d->count; i++) {
      if (d->jobs[i].pid != pid)
        continue;
      char *failure = NULL;
      if (finish_job(d, &d->jobs[i], status, &failure) && !*error)
        *error = failure;
      else
        free(failure);
      finished++;
    }
  }
  return finished;
}

static int larger_input_first(const void *a, const void *b, void *arg) {
  const distributor *d = arg;
  unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
  off_t sx = d->jobs[x].input_size, sy = d->jobs[y].input_size;
  if (sx != sy)
    return sx > sy ? -1 : 1;
  return x < y ? -1 : (x > y);
}

/* After a failure no job starts; the running ones finish, so none is left
 * half-written. */
static int run_jobs(distributor *d, char **error) {
  unsigned *order = xmalloc((d->count ? d->count : 1) * sizeof(unsigned));
  for (unsigned i = 0; i < d->count; i++)
    order[i] = i;
  qsort_r(order, d->count, sizeof(unsigned), larger_input_first, d);
  unsigned next = 0, running = 0;
  while ((next < d->count && !*error) || running > 0) {
    unsigned finished = reap_jobs(d, error);
    running -= finished;
    /* The budget holds at most d->slots, so it also bounds `running`. */
    if (next < d->count && !*error && mtpc_budget_try_acquire(d->jobserver)) {
      dist_job *j = &d->jobs[order[next]];
      if (start_job(d, j, order[next], error)) {
        mtpc_budget_release(d->jobserver);
        continue;
      }
      next++;
      running++;
      continue;
    }
    if (!finished)
      nanosleep(&(struct timespec){0, 2 * 1000 * 1000}, NULL);
  }
  free(order);
  return *error != NULL;
}

static void remove_tmpdir(distributor *d) {
  if (!d->tmpdir)
    return;
  for (unsigned i = 0; i < d->count; i++)
    if (d->jobs[i].log)
      cli_remove_now(d->jobs[i].log);
  char *fifo = xasprintf("%s/jobserver", d->tmpdir);
  cli_remove_now(fifo);
  free(fifo);
  cli_remove_now(d->tmpdir);
}

static int set_up(distributor *d, char **error) {
  const char *tmp = getenv("TMPDIR");
  d->tmpdir = xasprintf("%s/mtpc-distribute.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(d->tmpdir)) {
    *error = xasprintf("cannot make a directory '%s': %s", d->tmpdir, strerror(errno));
    free(d->tmpdir);
    d->tmpdir = NULL;
    return 1;
  }
  cli_remove_on_signal(d->tmpdir);
  d->jobserver = cli_jobserver_budget(d->slots);
  if (!d->jobserver && make_jobserver(d, error))
    return 1;
  if (!d->jobserver)
    d->jobserver = cli_jobserver_budget(d->slots);
  if (!d->jobserver) {
    *error = xasprintf("cannot use the jobserver MAKEFLAGS names ('%s')", getenv("MAKEFLAGS"));
    return 1;
  }
  return 0;
}

int cli_distribute(int argc, char **argv) {
  distributor d = {.own_jobserver_fd = -1};
  int parsed = parse_distribute_args(&d, argc, argv);
  if (parsed >= 0)
    return parsed;
  void *text = NULL;
  size_t size = 0;
  char *error = NULL;
  json *root = NULL;
  if (mtpc_read_file(d.job_file, &text, &size, &error) == 0) {
    char *where = NULL;
    root = json_parse(text, size, &where);
    if (!root || load_jobs(&d, root, &where)) {
      error = xasprintf("%s: %s", d.job_file, where);
      free(where);
    }
    free(text);
  }
  if (!error && set_up(&d, &error) == 0)
    run_jobs(&d, &error);
  if (error)
    cli_error("%s", error);
  remove_tmpdir(&d);
  mtpc_budget_destroy(d.jobserver);
  if (d.own_jobserver_fd >= 0)
    close(d.own_jobserver_fd);
  for (unsigned i = 0; i < d.count; i++) {
    free(d.jobs[i].argv);
    free(d.jobs[i].log);
  }
  free(d.jobs);
  free(d.tmpdir);
  json_free(root);
  int failed = error != NULL;
  free(error);
  return failed;
}
