/* Two threads that update statics without a lock, for ThreadSanitizer
 * through `mtpc cc` (cc-tsan.test): bump, worker, total and main land in
 * different partitions, so the statics are shared across them. */
#include <pthread.h>
#include <stdio.h>
static int counter;
static int shared[4];
__attribute__((noinline)) static void bump(int i) { shared[i & 3] += i; counter++; }
static void *worker(void *arg) {
  for (int i = 0; i < 1000; i++)
    bump(i + (int)(long)arg);
  return NULL;
}
int total(void) { return counter + shared[0] + shared[1] + shared[2] + shared[3]; }
int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)1);
  pthread_create(&b, NULL, worker, (void *)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  printf("done %d\n", total() > 0);
  return 0;
}
