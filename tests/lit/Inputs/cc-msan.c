/* Reads of uninitialized memory for MemorySanitizer through `mtpc cc`
 * (cc-msan.test): the first argument picks one. The static helpers are
 * used from functions that land in different partitions, so the split
 * promotes them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int table[8];

static __attribute__((noinline)) int sum(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

__attribute__((noinline)) int stack(int n) {
  int local[8];
  memset(local, 0, (size_t)n * sizeof(int));
  return sum(local, 8) > 3 ? 1 : 0;
}

__attribute__((noinline)) int heap(int n) {
  int *p = malloc(8 * sizeof(int));
  for (int i = 0; i < n; i++)
    p[i] = i;
  int hot = sum(p, 8) > 10;
  free(p);
  return hot;
}

__attribute__((noinline)) static int twice(int v) { return v * 2; }

__attribute__((noinline)) int param(int n) {
  int *maybe = malloc(sizeof(int));
  if (n > 5)
    *maybe = n;
  int v = twice(*maybe) + table[n & 7];
  free(maybe);
  return v;
}

int main(int argc, char **argv) {
  table[1] = sum(table, 8) + argc;
  printf("%d\n", table[1]);
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "stack"))
    printf("%d\n", stack(argc));
  if (!strcmp(which, "heap"))
    printf("%d\n", heap(argc + 1));
  if (!strcmp(which, "param") && param(argc) > 0)
    printf("positive\n");
  printf("done\n");
  return 0;
}
