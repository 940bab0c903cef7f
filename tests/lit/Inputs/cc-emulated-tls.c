/* Thread-local variables, static and global, with and without initializers,
 * each thread's own: through __emutls_get_address with -femulated-tls. */
#include <pthread.h>
#include <stdio.h>

static __thread int counter = 5;
static __thread char buf[64];
__thread long shared_total;
static _Thread_local const char *label = "main";

__attribute__((noinline)) static int bump(int k) {
  counter += k;
  return counter;
}

__attribute__((noinline)) int step(int k) {
  int r = bump(k);
  buf[k % 64] = (char)r;
  shared_total += r;
  return r;
}

__attribute__((noinline)) int peek(void) { return counter + buf[3]; }
__attribute__((noinline)) void name_it(const char *s) { label = s; }
__attribute__((noinline)) const char *named(void) { return label; }

static void *worker(void *arg) {
  long n = *(const long *)arg;
  name_it("worker");
  for (int i = 0; i < n; i++)
    step(i);
  printf("%s %ld: %d %d %ld\n", named(), n, counter, peek(), shared_total);
  return 0;
}

int main(void) {
  for (long i = 0; i < 3; i++) {
    long n = i * 7 + 3;
    pthread_t t;
    pthread_create(&t, 0, worker, &n);
    pthread_join(t, 0);
  }
  step(2);
  printf("%s: %d %d %ld\n", named(), counter, peek(), shared_total);
  return 0;
}
