/* A step's output files, all or nothing (support/files.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "files.h"
#include "support.h"

typedef struct output {
  char *path;
  char *temp; /* NULL: written at commit, in place, from `data` */
  void *data;
  size_t size;
  const char *faults;
} output;

struct mtpc_outputs {
  output *files;
  size_t count, cap;
  size_t committed; /* the first `committed` files are in place */
};

mtpc_outputs *mtpc_outputs_new(void) { return calloc(1, sizeof(mtpc_outputs)); }

static int written_in_place(const char *path) {
  struct stat st;
  return strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode));
}

int mtpc_outputs_add(mtpc_outputs *o, const char *path, const void *data, size_t size,
                     const char *faults, char **message) {
  output f = {mtpc_strdup(path), NULL, NULL, 0, faults};
  *message = NULL;
  int failed = !f.path;
  if (!failed && written_in_place(path)) {
    f.data = mtpc_alloc(size, 1);
    failed = !f.data;
    if (!failed) {
      memcpy(f.data, data, size);
      f.size = size;
    }
  } else if (!failed) {
    failed = mtpc_write_temporary(path, data, size, faults, &f.temp, message);
  }
  if (!failed && MTPC_PUSH(o->files, o->count, o->cap, f))
    failed = 1;
  if (failed) {
    if (f.temp) {
      unlink(f.temp);
      mtpc_temporary_gone(f.temp);
    }
    free(f.temp);
    free(f.path);
    free(f.data);
  }
  return failed;
}

static int commit_one(const output *f, char **message) {
  if (f->temp) {
    if (rename(f->temp, f->path) == 0) {
      mtpc_temporary_gone(f->temp);
      return 0;
    }
    *message = mtpc_asprintf("cannot write '%s': %s", f->path, strerror(errno));
    return 1;
  }
  if (strcmp(f->path, "-") == 0)
    return mtpc_write_stream(stdout, "standard output", f->data, f->size, message);
  return mtpc_write_file_atomic(f->path, f->data, f->size, f->faults, message);
}

int mtpc_outputs_commit(mtpc_outputs *o, char **message) {
  for (; o->committed < o->count; o->committed++)
    if (commit_one(&o->files[o->committed], message))
      return 1;
  return 0;
}

void mtpc_outputs_free(mtpc_outputs *o) {
  if (!o)
    return;
  for (size_t i = 0; i < o->count; i++) {
    if (o->files[i].temp && i >= o->committed) {
      unlink(o->files[i].temp);
      mtpc_temporary_gone(o->files[i].temp);
    }
    free(o->files[i].temp);
    free(o->files[i].path);
    free(o->files[i].data);
  }
  free(o->files);
  free(o);
}
