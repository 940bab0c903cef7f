/* mtpc_budget: a counting semaphore over compile slots, either the caller's
 * own count or GNU make's jobserver. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "../partitioner/support.h"
#include "jobserver.h"
#include "mtpc/mtpc.h"

struct mtpc_budget {
  pthread_mutex_t mutex;
  pthread_cond_t freed;
  unsigned free_slots;
  int jobserver;
  /* With a jobserver: the slots this process holds, to give back. */
  int *held;
  unsigned held_count;
};

mtpc_budget *mtpc_budget_create(unsigned slots) {
  mtpc_budget *b = mtpc_xmalloc(sizeof(*b));
  pthread_mutex_init(&b->mutex, NULL);
  pthread_cond_init(&b->freed, NULL);
  b->free_slots = slots ? slots : 1;
  b->jobserver = 0;
  b->held = NULL;
  b->held_count = 0;
  return b;
}

mtpc_budget *mtpc_budget_create_jobserver(unsigned max_slots) {
  if (!mtpc_bridge_jobserver_present())
    return NULL;
  mtpc_budget *b = mtpc_budget_create(1);
  b->jobserver = 1;
  b->held = mtpc_xmalloc((max_slots ? max_slots : 1) * sizeof(int));
  b->free_slots = max_slots ? max_slots : 1;
  return b;
}

void mtpc_budget_destroy(mtpc_budget *b) {
  if (!b)
    return;
  pthread_mutex_destroy(&b->mutex);
  pthread_cond_destroy(&b->freed);
  free(b->held);
  free(b);
}

static void wait_a_little(mtpc_budget *b) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_nsec += 5 * 1000 * 1000;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  while (pthread_cond_timedwait(&b->freed, &b->mutex, &until) == EINTR)
    ;
}

/* The jobserver cannot wake a waiter, so waiters poll it. */
static void acquire_from_jobserver(mtpc_budget *b) {
  for (;;) {
    if (b->free_slots > 0) {
      int slot = mtpc_bridge_jobserver_try_acquire();
      if (slot >= 0) {
        b->free_slots--;
        b->held[b->held_count++] = slot;
        return;
      }
    }
    wait_a_little(b);
  }
}

void mtpc_budget_acquire(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  if (b->jobserver) {
    acquire_from_jobserver(b);
  } else {
    while (b->free_slots == 0)
      pthread_cond_wait(&b->freed, &b->mutex);
    b->free_slots--;
  }
  pthread_mutex_unlock(&b->mutex);
}

/* Tokens go back to make first; the implicit slot is this process's alone. */
static void release_to_jobserver(mtpc_budget *b) {
  unsigned pick = 0;
  for (unsigned i = 0; i < b->held_count; i++)
    if (b->held[i] != MTPC_BRIDGE_IMPLICIT_SLOT)
      pick = i;
  mtpc_bridge_jobserver_release(b->held[pick]);
  b->held[pick] = b->held[--b->held_count];
}

void mtpc_budget_release(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  if (b->jobserver)
    release_to_jobserver(b);
  b->free_slots++;
  pthread_cond_signal(&b->freed);
  pthread_mutex_unlock(&b->mutex);
}
