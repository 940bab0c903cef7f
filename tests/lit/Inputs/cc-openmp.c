/* An OpenMP program whose output does not depend on the number of threads:
 * worksharing loops with reductions, tasks, sections, critical sections,
 * atomics, a threadprivate counter, a user-defined reduction, ordered
 * output and a simd loop (cc-openmp.test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 20000

static int hits;
#pragma omp threadprivate(hits)

typedef struct {
  long lo, hi;
} range;

static range merge_range(range a, range b) {
  range r = {a.lo < b.lo ? a.lo : b.lo, a.hi > b.hi ? a.hi : b.hi};
  return r;
}
#pragma omp declare reduction(span : range : omp_out = merge_range(omp_out, omp_in)) \
    initializer(omp_priv = (range){1L << 40, -(1L << 40)})

unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  return x ^ (x >> 16);
}

long sum_of_mixes(int n) {
  long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic, 64)
  for (int i = 0; i < n; i++)
    total += mix((unsigned)i) % 1000;
  return total;
}

range span_of_mixes(int n) {
  range r = {1L << 40, -(1L << 40)};
#pragma omp parallel for reduction(span : r)
  for (int i = 0; i < n; i++) {
    long v = (long)(mix((unsigned)i * 7u) % 100000) - 50000;
    range one = {v, v};
    r = merge_range(r, one);
  }
  return r;
}

long fib(int n) {
  if (n < 16) {
    long a = 0, b = 1;
    for (int i = 0; i < n; i++) {
      long t = a + b;
      a = b;
      b = t;
    }
    return a;
  }
  long x, y;
#pragma omp task shared(x)
  x = fib(n - 1);
#pragma omp task shared(y)
  y = fib(n - 2);
#pragma omp taskwait
  return x + y;
}

long fib_tasks(int n) {
  long result = 0;
#pragma omp parallel
#pragma omp single
  result = fib(n);
  return result;
}

void histogram(int *bins, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    int bin = (int)(mix((unsigned)i + 99u) % 16);
#pragma omp critical(bins)
    bins[bin]++;
    hits++;
  }
}

long atomics(int n) {
  long count = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    if (mix((unsigned)i) & 1) {
#pragma omp atomic
      count++;
    }
  return count;
}

void sections(long out[3]) {
#pragma omp parallel sections
  {
#pragma omp section
    out[0] = sum_of_mixes(1000);
#pragma omp section
    out[1] = atomics(1000);
#pragma omp section
    out[2] = fib(20);
  }
}

float dot_simd(const float *a, const float *b, int n) {
  float s = 0;
#pragma omp simd reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

void ordered_squares(int n) {
#pragma omp parallel for ordered schedule(static, 1)
  for (int i = 0; i < n; i++) {
    int sq = i * i;
#pragma omp ordered
    printf("square %d %d\n", i, sq);
  }
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : N;
  printf("sum %ld\n", sum_of_mixes(n));
  range r = span_of_mixes(n);
  printf("span %ld %ld\n", r.lo, r.hi);
  printf("fib %ld\n", fib_tasks(27));
  int bins[16];
  memset(bins, 0, sizeof(bins));
  histogram(bins, n);
  for (int i = 0; i < 16; i++)
    printf("bin %d %d\n", i, bins[i]);
  long total_hits = 0;
#pragma omp parallel reduction(+ : total_hits)
  total_hits += hits;
  printf("hits %ld\n", total_hits);
  printf("odd %ld\n", atomics(n));
  long out[3];
  sections(out);
  printf("sections %ld %ld %ld\n", out[0], out[1], out[2]);
  float a[256], b[256];
  for (int i = 0; i < 256; i++) {
    a[i] = (float)(i % 7);
    b[i] = (float)(i % 5);
  }
  printf("dot %.1f\n", dot_simd(a, b, 256));
  ordered_squares(8);
  return 0;
}
