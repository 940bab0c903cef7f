/* What a signal that ends an mtpc command takes with it (signals.h). */
#define _GNU_SOURCE
#include "signals.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "lto-backend/tools.h"

/* The registry is statics, not a session's: a signal handler reaches
 * nothing else. Fixed slots, so the handler never reads an array being
 * grown; a slot's word is written whole, and taken and given back by
 * compare-and-swap, as worker threads register the temporaries of the
 * files they write. More live paths than slots (a distribution with more
 * jobs running than that) go unregistered. */
#define SLOTS 1024

static char *volatile paths[SLOTS];
static volatile pid_t children[SLOTS];

static const int ending_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define ENDING_SIGNALS (sizeof ending_signals / sizeof ending_signals[0])

void cli_remove_registered_files(void) {
  int saved = errno;
  /* Files first, then the directories they were in: unlink refuses a
   * directory and rmdir a file. */
  for (size_t i = SLOTS; i-- > 0;)
    if (paths[i])
      unlink(paths[i]);
  for (size_t i = SLOTS; i-- > 0;)
    if (paths[i])
      rmdir(paths[i]);
  errno = saved;
}

static void stop_children(int signal_number) {
  for (size_t i = 0; i < SLOTS; i++)
    if (children[i] > 0)
      kill(children[i], signal_number);
  /* A child still writing into a directory would keep it from going. */
  for (size_t i = 0; i < SLOTS; i++)
    if (children[i] > 0)
      while (waitpid(children[i], NULL, 0) < 0 && errno == EINTR)
        ;
}

static void on_ending_signal(int signal_number) {
  stop_children(signal_number);
  cli_remove_registered_files();
  /* Ends the process as the signal would have: make and shells tell an
   * interrupted command by how it died. Delivered when the handler returns. */
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

static void install_handlers(void) {
  struct sigaction action = {0};
  action.sa_handler = on_ending_signal;
  sigemptyset(&action.sa_mask);
  for (size_t i = 0; i < ENDING_SIGNALS; i++)
    sigaddset(&action.sa_mask, ending_signals[i]);
  action.sa_flags = SA_RESTART;
  for (size_t i = 0; i < ENDING_SIGNALS; i++) {
    struct sigaction old;
    /* nohup's SIGHUP, a background shell's SIGINT: still not ours. */
    if (sigaction(ending_signals[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(ending_signals[i], &action, NULL);
  }
}

static pthread_once_t handlers_once = PTHREAD_ONCE_INIT;

void cli_remove_on_signal(const char *path) {
  pthread_once(&handlers_once, install_handlers);
  char *copy = xstrdup(path);
  for (size_t i = 0; i < SLOTS; i++) {
    char *empty = NULL;
    if (__atomic_compare_exchange_n(&paths[i], &empty, copy, 0, __ATOMIC_SEQ_CST,
                                    __ATOMIC_SEQ_CST))
      return;
  }
  free(copy);
}

/* `path` is no longer removed on a signal. */
static void forget_path(const char *path) {
  for (size_t i = SLOTS; i-- > 0;) {
    char *p = paths[i];
    if (p && strcmp(p, path) == 0 &&
        __atomic_compare_exchange_n(&paths[i], &p, NULL, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
      free(p);
      return;
    }
  }
}

static void watch_temporary(const char *temp, int made) {
  if (made)
    cli_remove_on_signal(temp);
  else
    forget_path(temp);
}

void cli_remove_temporaries_on_signal(void) { mtpc_watch_temporaries(watch_temporary); }

void cli_remove_now(const char *path) {
  /* Removed before it is forgotten: a signal between the two finds it gone. */
  if (unlink(path) != 0)
    rmdir(path);
  forget_path(path);
}

void cli_track_child(pid_t pid) {
  pthread_once(&handlers_once, install_handlers);
  for (size_t i = 0; i < SLOTS; i++) {
    if (children[i] == 0) {
      children[i] = pid;
      return;
    }
  }
}

void cli_forget_child(pid_t pid) {
  for (size_t i = 0; i < SLOTS; i++)
    if (children[i] == pid)
      children[i] = 0;
}
