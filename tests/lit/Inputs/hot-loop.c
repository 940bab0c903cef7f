/* A program whose profile gives its calls counts: clang -O2 with it then
 * writes the "CG Profile" module flag (the call graph profile). */
#include <stdio.h>
static int square(int x) { return x * x; }
__attribute__((noinline)) int work(int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    sum += square(i) % 7;
    if (i % 3 == 0)
      sum ^= i;
  }
  return sum;
}
__attribute__((noinline)) int rare(int n) { return n * 3; }
int main(int argc, char **argv) {
  int s = work(argc * 100000);
  if (argc > 5)
    s += rare(argc);
  printf("%d\n", s);
  return 0;
}
