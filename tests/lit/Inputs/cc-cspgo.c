/* Functions inlined into callers that use them differently: a
 * context-sensitive profile, recorded after the inliner, weighs each
 * inlined copy's branches by its caller's use. */
#include <stdio.h>
#include <stdlib.h>

static int classify(int x) {
  if (x % 3 == 0)
    return 1;
  if (x % 5 == 0)
    return 2;
  return x & 1 ? 3 : 0;
}

static int scale(int v, int k) {
  if (k > 100)
    return v * 3 + k;
  if (k < -100)
    return v / 2 - k;
  return v - k;
}

__attribute__((noinline)) int work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += classify(i) * scale(i, i % 7);
  return s;
}

__attribute__((noinline)) int other(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s ^= classify(i * 15) + scale(s, i * 200);
  return s;
}

__attribute__((noinline)) long spread(const int *v, int n) {
  long s = 0;
  for (int i = 0; i < n; i++)
    s += scale(v[i], v[i] - 50) + classify(v[i]);
  return s;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  int *v = malloc(sizeof(int) * (size_t)n);
  for (int i = 0; i < n; i++)
    v[i] = (i * 37) % 400 - 200;
  printf("%d %d %ld\n", work(n), other(n / 2), spread(v, n));
  free(v);
  return 0;
}
