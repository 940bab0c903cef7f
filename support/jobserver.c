/* GNU make's jobserver as MAKEFLAGS names it: a FIFO (make 4.4), or a pipe's
 * two descriptors (make 4.3), which make closes for recipes it does not know
 * to be recursive. Reads never block, on a description of our own (a pipe
 * reopened through /proc), so make's stays as it is. Anything else (a
 * regular file, descriptors open on one) is not a jobserver: reading and
 * writing tokens there would change someone's file. */
#define _GNU_SOURCE
#include "jobserver.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "support.h"

struct mtpc_jobserver {
  int read_fd;
  int write_fd; /* the FIFO's read_fd, or make's own pipe end */
  atomic_bool implicit_free;
};

/* The value of the last --jobserver-auth= (or older --jobserver-fds=). */
static const char *auth_value(const char *flags, size_t *len) {
  const char *value = NULL;
  *len = 0;
  for (const char *p = flags; p && *p;) {
    size_t word = strcspn(p, " ");
    static const char *const prefixes[] = {"--jobserver-auth=", "--jobserver-fds="};
    for (size_t i = 0; i < 2; i++) {
      size_t n = strlen(prefixes[i]);
      if (word > n && strncmp(p, prefixes[i], n) == 0) {
        value = p + n;
        *len = word - n;
      }
    }
    p += word + (p[word] == ' ');
  }
  return value;
}

/* make's FIFO (make 4.4): opened once, for reading and writing. */
static int open_fifo(const char *path, char **problem) {
  int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0) {
    *problem = mtpc_asprintf("cannot open '%s': %s", path, strerror(errno));
    return -1;
  }
  if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) {
    close(fd);
    *problem = mtpc_asprintf("'%s' is not a FIFO", path);
    return -1;
  }
  return fd;
}

static int is_pipe(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
}

/* make's pipe (make 4.3): our own description of its read end, and its
 * write end as it is. -1 without a word when make closed them. */
static int open_pipe(int read_fd, int write_fd, char **problem) {
  if (fcntl(read_fd, F_GETFD) == -1 || fcntl(write_fd, F_GETFD) == -1)
    return -1;
  if (!is_pipe(read_fd) || !is_pipe(write_fd)) {
    *problem = mtpc_asprintf("descriptors %d,%d are not pipes", read_fd, write_fd);
    return -1;
  }
  char pipe[64];
  snprintf(pipe, sizeof pipe, "/proc/self/fd/%d", read_fd);
  int fd = open(pipe, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    *problem = mtpc_asprintf("cannot open '%s': %s", pipe, strerror(errno));
  return fd;
}

mtpc_jobserver *mtpc_jobserver_open(char **problem) {
  *problem = NULL;
  size_t len;
  const char *value = auth_value(getenv("MAKEFLAGS"), &len);
  if (!value)
    return NULL;
  char *auth = strndup(value, len);
  if (!auth)
    return NULL;
  int read_fd = -1, write_fd = -1;
  if (strncmp(auth, "fifo:", 5) == 0)
    read_fd = write_fd = open_fifo(auth + 5, problem);
  else if (sscanf(auth, "%d,%d", &read_fd, &write_fd) == 2)
    read_fd = open_pipe(read_fd, write_fd, problem);
  else {
    read_fd = -1;
    *problem = mtpc_asprintf("cannot read --jobserver-auth=%s", auth);
  }
  free(auth);
  mtpc_jobserver *c = read_fd >= 0 ? malloc(sizeof(*c)) : NULL;
  if (!c) {
    if (read_fd >= 0)
      close(read_fd);
    return NULL;
  }
  c->read_fd = read_fd;
  c->write_fd = write_fd;
  atomic_store(&c->implicit_free, 1);
  return c;
}

void mtpc_jobserver_close(mtpc_jobserver *c) {
  if (!c)
    return;
  close(c->read_fd); /* a FIFO's one descriptor, or our reopening of make's pipe */
  free(c);
}

int mtpc_jobserver_try_acquire(mtpc_jobserver *c) {
  if (atomic_exchange(&c->implicit_free, 0))
    return MTPC_JOBSERVER_IMPLICIT_SLOT;
  unsigned char token;
  return read(c->read_fd, &token, 1) == 1 ? token : -1;
}

void mtpc_jobserver_release(mtpc_jobserver *c, int slot) {
  if (slot == MTPC_JOBSERVER_IMPLICIT_SLOT) {
    atomic_store(&c->implicit_free, 1);
    return;
  }
  unsigned char byte = (unsigned char)slot;
  while (write(c->write_fd, &byte, 1) < 0 && errno == EINTR)
    ;
}
