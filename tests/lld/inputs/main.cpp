#include <stdio.h>
#include <string.h>

#include "shapes.h"

__attribute__((noinline)) long note_main(long x) {
  printf("main: %ld\n", x);
  printf("main, thrice: %ld\n", x * 3);
  return x + 1;
}

static __attribute__((noinline)) long total_area(Shape **shapes, int n, long scale) {
  long sum = 0;
  for (int i = 0; i < n; i++)
    sum += shapes[i]->area(scale) + (long)strlen(shapes[i]->name());
  return sum;
}

int main(int argc, char **argv) {
  Shape *shapes[12];
  long values[12];
  for (int i = 0; i < 12; i++)
    shapes[i] = make_shape(i + argc, i * 7 + 1);
  for (int i = 0; i < 12; i++)
    values[i] = total_area(shapes, i + 1, argc + i);
  long result = checksum(values, 12) + hot_loop(100 * argc);
  if (argc > 5)
    for (int i = 0; i < argc * 20000; i++)
      result += cold_path(i);
  result += note_main(argc) + note_shapes(argc);
  printf("%ld\n", result);
  for (int i = 0; i < 12; i++)
    delete shapes[i];
  return 0;
}
