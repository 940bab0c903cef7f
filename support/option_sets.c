/* Which LLVM option set is applied, and who is inside it (llvm_options.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "llvm_options.h"
#include "support.h"

static struct {
  pthread_mutex_t lock;
  pthread_cond_t left;
  char *current;                     /* the applied set, '\n'-joined; NULL: the process's */
  unsigned users;
  mtpc_bridge_option_list *changed;  /* what it moved off the process's values */
} sets = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, 0, NULL};

/* The set's key in *key (NULL for no options); non-zero when memory runs out. */
static int key_of(const char *const *args, unsigned count, char **key) {
  *key = NULL;
  if (count == 0)
    return 0;
  size_t length = 1;
  for (unsigned i = 0; i < count; i++)
    length += strlen(args[i]) + 1;
  char *end = *key = mtpc_alloc(length, 1);
  if (!end)
    return -1;
  *end = '\0';
  for (unsigned i = 0; i < count; i++)
    end = stpcpy(stpcpy(end, args[i]), "\n");
  return 0;
}

static int same_key(const char *a, const char *b) { return a == b || (a && b && !strcmp(a, b)); }

static void restore(void) {
  mtpc_bridge_llvm_options_restore(sets.changed);
  sets.changed = NULL;
  free(sets.current);
  sets.current = NULL;
}

int mtpc_llvm_options_enter(const char *const *args, unsigned count, char **message) {
  char *key;
  if (key_of(args, count, &key)) {
    *message = NULL;
    return 1;
  }
  pthread_mutex_lock(&sets.lock);
  while (sets.users > 0 && !same_key(sets.current, key))
    pthread_cond_wait(&sets.left, &sets.lock);
  if (!same_key(sets.current, key)) {
    restore();
    if (key && !(sets.changed = mtpc_bridge_llvm_options_apply(args, count, message))) {
      pthread_cond_broadcast(&sets.left);
      pthread_mutex_unlock(&sets.lock);
      free(key);
      return 1;
    }
    sets.current = key;
    key = NULL;
  }
  sets.users++;
  pthread_mutex_unlock(&sets.lock);
  free(key);
  return 0;
}

void mtpc_llvm_options_leave(void) {
  pthread_mutex_lock(&sets.lock);
  if (--sets.users == 0) {
    restore();
    pthread_cond_broadcast(&sets.left);
  }
  pthread_mutex_unlock(&sets.lock);
}

mtpc_bridge_option_list *mtpc_llvm_options_shield_begin(void) {
  pthread_mutex_lock(&sets.lock);
  return mtpc_bridge_llvm_options_hide_given();
}

void mtpc_llvm_options_shield_end(mtpc_bridge_option_list *shield) {
  mtpc_bridge_llvm_options_unhide(shield);
  pthread_mutex_unlock(&sets.lock);
}
