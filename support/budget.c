/* mtpc_budget: a counting semaphore over compile slots, either the caller's
 * own count or GNU make's jobserver. A free slot goes to the waiter with the
 * costliest job (the first to wait among equals): compiles that share a
 * budget then start their largest partitions first, as one compile does,
 * and no core idles at the end while one long partition finishes. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "budget.h"
#include "jobserver.h"

/* A thread waiting for a slot; it lives on the waiting thread's stack. */
typedef struct waiter {
  uint64_t cost;
  struct waiter *next;
} waiter;

struct mtpc_budget {
  pthread_mutex_t mutex;
  pthread_cond_t freed;
  unsigned free_slots;
  waiter *waiting; /* costliest first; the head takes the next free slot */
  mtpc_jobserver *jobserver;
  /* With a jobserver: the slots this process holds, to give back. */
  int *held;
  unsigned held_count;
};

mtpc_status mtpc_budget_new(unsigned slots, mtpc_budget **budget) {
  mtpc_budget *b = *budget = calloc(1, sizeof(*b));
  if (!b)
    return MTPC_ERR_NO_MEMORY;
  pthread_mutex_init(&b->mutex, NULL);
  pthread_cond_init(&b->freed, NULL);
  b->free_slots = slots ? slots : 1;
  return MTPC_OK;
}

mtpc_budget *mtpc_budget_join_jobserver(unsigned max_slots, char **problem, int *no_memory) {
  *problem = NULL;
  *no_memory = 0;
  mtpc_jobserver *jobserver = mtpc_jobserver_open(problem);
  if (!jobserver)
    return NULL;
  mtpc_budget *b = NULL;
  mtpc_budget_new(max_slots, &b);
  int *held = calloc(max_slots ? max_slots : 1, sizeof(int));
  if (!b || !held) {
    free(held);
    mtpc_budget_destroy(b);
    mtpc_jobserver_close(jobserver);
    *no_memory = 1;
    return NULL;
  }
  b->jobserver = jobserver;
  b->held = held;
  return b;
}

void mtpc_budget_destroy(mtpc_budget *b) {
  if (!b)
    return;
  pthread_mutex_destroy(&b->mutex);
  pthread_cond_destroy(&b->freed);
  mtpc_jobserver_close(b->jobserver);
  free(b->held);
  free(b);
}

/* The jobserver cannot wake a waiter, so waiters poll it. */
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

static int take_slot(mtpc_budget *b) {
  if (b->free_slots == 0)
    return 0;
  if (b->jobserver) {
    int slot = mtpc_jobserver_try_acquire(b->jobserver);
    if (slot < 0)
      return 0;
    b->held[b->held_count++] = slot;
  }
  b->free_slots--;
  return 1;
}

static void join_queue(mtpc_budget *b, waiter *w) {
  waiter **at = &b->waiting;
  while (*at && (*at)->cost >= w->cost)
    at = &(*at)->next;
  w->next = *at;
  *at = w;
}

void mtpc_budget_acquire_for(mtpc_budget *b, uint64_t cost) {
  waiter me = {.cost = cost};
  pthread_mutex_lock(&b->mutex);
  join_queue(b, &me);
  while (b->waiting != &me || !take_slot(b)) {
    if (b->jobserver)
      wait_a_little(b);
    else
      pthread_cond_wait(&b->freed, &b->mutex);
  }
  b->waiting = me.next;
  /* The next in line may find a slot free too. */
  if (b->waiting)
    pthread_cond_broadcast(&b->freed);
  pthread_mutex_unlock(&b->mutex);
}

void mtpc_budget_acquire(mtpc_budget *b) { mtpc_budget_acquire_for(b, 0); }

unsigned mtpc_budget_waiting(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  unsigned count = 0;
  for (const waiter *w = b->waiting; w; w = w->next)
    count++;
  pthread_mutex_unlock(&b->mutex);
  return count;
}

int mtpc_budget_try_acquire(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  int got = !b->waiting && take_slot(b);
  pthread_mutex_unlock(&b->mutex);
  return got;
}

/* Tokens go back to make first; the implicit slot is this process's alone. */
static void release_to_jobserver(mtpc_budget *b) {
  unsigned pick = 0;
  for (unsigned i = 0; i < b->held_count; i++)
    if (b->held[i] != MTPC_JOBSERVER_IMPLICIT_SLOT)
      pick = i;
  mtpc_jobserver_release(b->jobserver, b->held[pick]);
  b->held[pick] = b->held[--b->held_count];
}

void mtpc_budget_release(mtpc_budget *b) {
  pthread_mutex_lock(&b->mutex);
  if (b->jobserver)
    release_to_jobserver(b);
  b->free_slots++;
  /* Only the head of the queue may take it, and any waiter may be woken. */
  pthread_cond_broadcast(&b->freed);
  pthread_mutex_unlock(&b->mutex);
}
