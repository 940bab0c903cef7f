/* Files: whole reads, writes that never leave a partial file, directories. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fault.h"
#include "files.h"
#include "support.h"

static int write_all(int fd, const void *data, size_t size, const char *faults) {
  const char *p = data;
  if (mtpc_fault_write(faults)) {
    if (write(fd, p, size / 2) >= 0)
      errno = ENOSPC;
    return -1;
  }
  while (size > 0) {
    ssize_t n = write(fd, p, size);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return -1;
    p += n;
    size -= (size_t)n;
  }
  return 0;
}

/* Writes and closes what open() gave for `path`, or says why it could not. */
static int write_opened(int fd, const char *path, const void *data, size_t size,
                        const char *faults, char **message) {
  int failed = fd < 0 || write_all(fd, data, size, faults) != 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (failed)
    *message = mtpc_asprintf("cannot write '%s': %s", path, strerror(saved));
  return failed;
}

/* An output that is a device or a pipe (/dev/null, /dev/stdout) is written
 * in place: renaming onto it would replace it with a regular file. */
static int write_in_place(const char *path, const void *data, size_t size, const char *faults,
                          char **message) {
  return write_opened(open(path, O_WRONLY), path, data, size, faults, message);
}

int mtpc_write_file_atomic(const char *path, const void *data, size_t size, const char *faults,
                           char **message) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return write_in_place(path, data, size, faults, message);
  return mtpc_replace_file(path, data, size, faults, message);
}

/* A static, not a session's: like a signal handler, it is the process's. */
static mtpc_temporary_watcher *volatile temporary_watcher;

void mtpc_watch_temporaries(mtpc_temporary_watcher *watcher) { temporary_watcher = watcher; }

static void temporary_made(const char *temp) {
  mtpc_temporary_watcher *watcher = temporary_watcher;
  if (watcher)
    watcher(temp, 1);
}

void mtpc_temporary_gone(const char *temp) {
  mtpc_temporary_watcher *watcher = temporary_watcher;
  if (watcher)
    watcher(temp, 0);
}

int mtpc_write_temporary(const char *path, const void *data, size_t size, const char *faults,
                         char **temp, char **message) {
  *temp = mtpc_asprintf("%s.mtpc-tmp.XXXXXX", path);
  if (!*temp) {
    *message = NULL;
    return 1;
  }
  int fd = mkstemp(*temp);
  if (fd < 0) {
    *message = mtpc_asprintf("cannot create '%s': %s", path, strerror(errno));
    free(*temp);
    *temp = NULL;
    return 1;
  }
  temporary_made(*temp);
  int failed = write_all(fd, data, size, faults) != 0;
  int saved = errno;
  if (!failed && (fchmod(fd, 0644) != 0 || fsync(fd) != 0)) {
    failed = 1;
    saved = errno;
  }
  if (close(fd) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (failed) {
    *message = mtpc_asprintf("cannot write '%s': %s", path, strerror(saved));
    unlink(*temp);
    mtpc_temporary_gone(*temp);
    free(*temp);
    *temp = NULL;
  }
  return failed;
}

int mtpc_replace_file(const char *path, const void *data, size_t size, const char *faults,
                      char **message) {
  char *temp = NULL;
  if (mtpc_write_temporary(path, data, size, faults, &temp, message))
    return 1;
  int failed = rename(temp, path) != 0;
  if (failed) {
    *message = mtpc_asprintf("cannot write '%s': %s", path, strerror(errno));
    unlink(temp);
  }
  mtpc_temporary_gone(temp);
  free(temp);
  return failed;
}

int mtpc_write_stream(FILE *stream, const char *name, const void *data, size_t size,
                      char **message) {
  if (fwrite(data, 1, size, stream) == size && fflush(stream) == 0)
    return 0;
  *message = mtpc_asprintf("cannot write to %s: %s", name, strerror(errno));
  return 1;
}

int mtpc_make_directories(const char *path, char **message) {
  char *partial = mtpc_strdup(path);
  int failed = !partial;
  if (failed)
    *message = NULL;
  for (char *slash = partial; slash && !failed;) {
    slash = strchr(slash + 1, '/');
    if (slash)
      *slash = 0;
    if (mkdir(partial, 0777) != 0 && errno != EEXIST) {
      *message = mtpc_asprintf("cannot create '%s': %s", partial, strerror(errno));
      failed = 1;
    }
    if (slash)
      *slash = '/';
  }
  free(partial);
  return failed;
}

int mtpc_write_scratch_file(const char *path, const void *data, size_t size, const char *faults,
                            char **message) {
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  return write_opened(fd, path, data, size, faults, message);
}

int mtpc_map_file(const char *path, void **data, size_t *size, char **message) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || st.st_size == 0) {
    *message = mtpc_asprintf("cannot map '%s': %s", path, fd < 0 ? strerror(errno) : "empty");
    if (fd >= 0)
      close(fd);
    return 1;
  }
  void *mapped = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
  int saved = errno;
  close(fd);
  if (mapped == MAP_FAILED) {
    *message = mtpc_asprintf("cannot map '%s': %s", path, strerror(saved));
    return 1;
  }
  *data = mapped;
  *size = (size_t)st.st_size;
  return 0;
}

void mtpc_release_buffer(void *data, size_t size, int mapped) {
  if (mapped)
    munmap(data, size);
  else
    free(data);
}

int mtpc_read_file(const char *path, void **data, size_t *size, char **message) {
  /* Without blocking: opening a FIFO for reading would wait for a writer. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    *message = mtpc_asprintf("cannot open '%s': %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return 1;
  }
  if (!S_ISREG(st.st_mode)) {
    *message = mtpc_asprintf("'%s' is not a regular file", path);
    close(fd);
    return 1;
  }
  size_t total = (size_t)st.st_size;
  char *buffer = mtpc_alloc(total, 1);
  if (!buffer) {
    *message = NULL;
    close(fd);
    return 1;
  }
  size_t got = 0;
  while (got < total) {
    ssize_t n = read(fd, buffer + got, total - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      *message = mtpc_asprintf("cannot read '%s': %s", path, n < 0 ? strerror(errno) : "file shrank");
      free(buffer);
      close(fd);
      return 1;
    }
    got += (size_t)n;
  }
  close(fd);
  *data = buffer;
  *size = total;
  return 0;
}

