/* Library calls the optimizers rewrite when they may assume the C library
 * (a zeroing loop into memset, a copy loop into memcpy, strlen of a
 * constant, printf of a plain string into puts, sqrt inline), and small
 * functions the inliner takes unless told not to: -fno-builtin,
 * -ffreestanding and -fno-inline each change this program's code. */
#include <math.h>
#include <stdio.h>
#include <string.h>

static char table[256];
static char copy[256];

void clear_table(void) {
  for (int i = 0; i < 256; i++)
    table[i] = 0;
}

void copy_table(void) {
  for (int i = 0; i < 256; i++)
    copy[i] = table[i];
}

size_t greeting_length(void) { return strlen("hello, partitions"); }

static int square(int x) { return x * x; }

int sum_squares(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += square(i) ^ table[i & 255];
  return s;
}

double root(double x) { return sqrt(x) + sqrt(x + 1.0); }

void fill(int seed) {
  for (int i = 0; i < 256; i++)
    table[i] = (char)(seed * i + 7);
}

int main(void) {
  clear_table();
  printf("hello\n");
  fill(3);
  copy_table();
  printf("%zu %d %d %.6f\n", greeting_length(), sum_squares(300), copy[17], root(2.0));
  return 0;
}
