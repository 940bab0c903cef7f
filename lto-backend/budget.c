/* mtpc_budget: a counting semaphore over compile slots. */
#include <pthread.h>
#include <stdlib.h>

#include "../partitioner/support.h"
#include "mtpc/mtpc.h"

struct mtpc_budget {
  pthread_mutex_t mutex;
  pthread_cond_t freed;
  unsigned free_slots;
};

mtpc_budget *mtpc_budget_create(unsigned slots) {
  mtpc_budget *b = mtpc_xmalloc(sizeof(*b));
  pthread_mutex_init(&b->mutex, NULL);
  pthread_cond_init(&b->freed, NULL);
  b->free_slots = slots ? slots : 1;
  return b;
}

void mtpc_budget_destroy(mtpc_budget *b) {
  if (!b)
    return;
  pthread_mutex_destroy(&b->mutex);
  pthread_cond_destroy(&b->freed);
  free(b);
}

void mtpc_budget_acquire(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  while (b->free_slots == 0)
    pthread_cond_wait(&b->freed, &b->mutex);
  b->free_slots--;
  pthread_mutex_unlock(&b->mutex);
}

void mtpc_budget_release(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  b->free_slots++;
  pthread_cond_signal(&b->freed);
  pthread_mutex_unlock(&b->mutex);
}
