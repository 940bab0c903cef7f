/* Memory errors for AddressSanitizer through `mtpc cc` (cc-asan.test): the
 * first argument picks one. The statics are used from functions that land in
 * different partitions, so the split promotes them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int table[8];
static char names[4][16] = {"alpha", "beta", "gamma", "delta"};

__attribute__((noinline)) int get(int i) { return table[i]; }
__attribute__((noinline)) void put(int i, int v) { table[i] = v; }
__attribute__((noinline)) const char *name(int i) { return names[i & 3]; }

__attribute__((noinline)) int heap(int n) {
  int *p = malloc(n * sizeof(int));
  for (int i = 0; i <= n; i++)
    p[i] = i;
  int s = p[0];
  free(p);
  return s;
}

__attribute__((noinline)) int scope(int n) {
  int *escaped;
  {
    int local[4] = {n, n + 1, n + 2, n + 3};
    escaped = local;
  }
  return escaped[n & 3];
}

int main(int argc, char **argv) {
  put(1, 2);
  printf("%s %d\n", name(argc), get(1));
  const char *which = argc > 1 ? argv[1] : "";
  if (!strcmp(which, "global"))
    printf("%d\n", get(argc + 6));
  if (!strcmp(which, "heap"))
    printf("%d\n", heap(argc + 2));
  if (!strcmp(which, "scope"))
    printf("%d\n", scope(argc));
  return 0;
}
