/* Recursion through several functions with large frames, deeper than a
 * 1 MB stack holds: built with -fsplit-stack, the stack grows in segments
 * (cc-flags.test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int walk_a(int depth, unsigned seed);
int walk_b(int depth, unsigned seed);
int walk_c(int depth, unsigned seed);

static unsigned step(unsigned x) { return x * 1103515245u + 12345u; }

__attribute__((noinline)) int leaf(unsigned x) { return (int)(x >> 16) & 7; }

int walk_a(int depth, unsigned seed) {
  volatile char frame[400];
  memset((char *)frame, (int)seed, sizeof(frame));
  if (depth == 0)
    return leaf(seed);
  return walk_b(depth - 1, step(seed)) + frame[depth % 400] % 3;
}

int walk_b(int depth, unsigned seed) {
  volatile char frame[300];
  memset((char *)frame, (int)(seed >> 8), sizeof(frame));
  if (depth == 0)
    return leaf(seed);
  return walk_c(depth - 1, step(seed)) - frame[depth % 300] % 5;
}

int walk_c(int depth, unsigned seed) {
  volatile char frame[500];
  memset((char *)frame, (int)(seed >> 4), sizeof(frame));
  if (depth == 0)
    return leaf(seed);
  return (depth % 2 ? walk_a : walk_b)(depth - 1, step(seed)) ^ (frame[depth % 500] & 1);
}

int main(int argc, char **argv) {
  int depth = argc > 1 ? atoi(argv[1]) : 12000;
  printf("walk %d: %d\n", depth, walk_a(depth, 7u));
  return 0;
}
