#define _GNU_SOURCE
#include "merge.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../partitioner/support.h"
#include "objects.h"
#include "fault.h"

static int write_all(int fd, const void *data, size_t size) {
  const char *p = data;
  if (mtpc_fault_write()) {
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

/* An output that is a device or a pipe (/dev/null, /dev/stdout) is written
 * in place: renaming onto it would replace it with a regular file. */
static int write_in_place(const char *path, const void *data, size_t size, char **message) {
  int fd = open(path, O_WRONLY);
  int failed = fd < 0 || write_all(fd, data, size) != 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (failed)
    *message = mtpc_xasprintf("cannot write '%s': %s", path, strerror(saved));
  return failed;
}

int mtpc_write_file_atomic(const char *path, const void *data, size_t size, char **message) {
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
    return write_in_place(path, data, size, message);
  char *temp = mtpc_xasprintf("%s.mtpc-tmp.XXXXXX", path);
  int fd = mkstemp(temp);
  if (fd < 0) {
    *message = mtpc_xasprintf("cannot create '%s': %s", path, strerror(errno));
    free(temp);
    return 1;
  }
  int failed = write_all(fd, data, size) != 0;
  int saved = errno;
  if (!failed)
    failed = fchmod(fd, 0644) != 0 || fsync(fd) != 0;
  if (!failed)
    saved = errno;
  if (close(fd) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (!failed && rename(temp, path) != 0) {
    failed = 1;
    saved = errno;
  }
  if (failed) {
    *message = mtpc_xasprintf("cannot write '%s': %s", path, strerror(saved));
    unlink(temp);
  }
  free(temp);
  return failed;
}

int mtpc_make_directories(const char *path, char **message) {
  char *partial = mtpc_xstrdup(path);
  int failed = 0;
  for (char *slash = partial; slash && !failed;) {
    slash = strchr(slash + 1, '/');
    if (slash)
      *slash = 0;
    if (mkdir(partial, 0777) != 0 && errno != EEXIST) {
      *message = mtpc_xasprintf("cannot create '%s': %s", partial, strerror(errno));
      failed = 1;
    }
    if (slash)
      *slash = '/';
  }
  free(partial);
  return failed;
}

int mtpc_read_file(const char *path, void **data, size_t *size, char **message) {
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    *message = mtpc_xasprintf("cannot open '%s': %s", path, strerror(errno));
    if (fd >= 0)
      close(fd);
    return 1;
  }
  if (!S_ISREG(st.st_mode)) {
    *message = mtpc_xasprintf("'%s' is not a regular file", path);
    close(fd);
    return 1;
  }
  size_t total = (size_t)st.st_size;
  char *buffer = mtpc_xmalloc(total ? total : 1);
  size_t got = 0;
  while (got < total) {
    ssize_t n = read(fd, buffer + got, total - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      *message = mtpc_xasprintf("cannot read '%s': %s", path, n < 0 ? strerror(errno) : "file shrank");
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

static char *make_temp_dir(char **message) {
  const char *base = getenv("TMPDIR");
  char *dir = mtpc_xasprintf("%s/mtpc.XXXXXX", base && *base ? base : "/tmp");
  if (!mkdtemp(dir)) {
    *message = mtpc_xasprintf("cannot create a temporary directory in '%s': %s",
                              base && *base ? base : "/tmp", strerror(errno));
    free(dir);
    return NULL;
  }
  return dir;
}

static int link_in_dir(const char *dir, const mtpc_job *jobs, uint32_t count, void **merged,
                       size_t *merged_size, char **message) {
  char **inputs = mtpc_xcalloc(count, sizeof(char *));
  int failed = 0;
  uint32_t written = 0;
  for (; written < count && !failed; written++) {
    inputs[written] = mtpc_xasprintf("%s/part%u.o", dir, written);
    failed = mtpc_write_file_atomic(inputs[written], jobs[written].object,
                                    jobs[written].object_size, message);
  }
  char *output = mtpc_xasprintf("%s/merged.o", dir);
  if (!failed)
    failed = mtpc_bridge_link_relocatable((const char *const *)inputs, count, output, message);
  if (!failed)
    failed = mtpc_read_file(output, merged, merged_size, message);
  unlink(output);
  free(output);
  for (uint32_t i = 0; i < written; i++) {
    unlink(inputs[i]);
    free(inputs[i]);
  }
  free(inputs);
  return failed;
}

static int localize_promoted(const mtpc_plan *plan, void *merged, size_t merged_size,
                             void **object, size_t *object_size, char **message) {
  const char **names = mtpc_xmalloc((plan->node_count ? plan->node_count : 1) * sizeof(char *));
  const char **originals = mtpc_xmalloc((plan->node_count ? plan->node_count : 1) * sizeof(char *));
  size_t count = 0;
  for (uint32_t i = 0; i < plan->node_count; i++) {
    const mtpc_plan_node *n = &plan->nodes[i];
    if (!n->promoted_name)
      continue;
    names[count] = n->promoted_name;
    originals[count] = n->name[0] ? n->name : n->promoted_name;
    count++;
  }
  int failed = mtpc_bridge_localize_symbols(merged, merged_size, names, originals, count, object,
                                            object_size, message);
  free(names);
  free(originals);
  return failed;
}

int mtpc_merge_objects(const mtpc_plan *plan, const mtpc_job *jobs, uint32_t count,
                       void **object, size_t *object_size, char **message) {
  char *dir = make_temp_dir(message);
  if (!dir)
    return 1;
  void *merged = NULL;
  size_t merged_size = 0;
  int failed = link_in_dir(dir, jobs, count, &merged, &merged_size, message);
  rmdir(dir);
  free(dir);
  if (!failed)
    failed = localize_promoted(plan, merged, merged_size, object, object_size, message);
  free(merged);
  return failed;
}
