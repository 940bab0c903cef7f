#include <stdio.h>

#include "shapes.h"

namespace {
struct Square final : Shape {
  long side;
  explicit Square(long s) : side(s) {}
  long area(long scale) const override { return side * side * scale; }
  const char *name() const override { return "square"; }
};
struct Rect : Shape {
  long w, h;
  Rect(long a, long b) : w(a), h(b) {}
  long area(long scale) const override { return w * h * scale; }
  const char *name() const override { return "rect"; }
};
struct Triangle : Shape {
  long b, h;
  Triangle(long x, long y) : b(x), h(y) {}
  long area(long scale) const override { return b * h * scale / 2; }
  const char *name() const override { return "triangle"; }
};
} // namespace

static long table[64];

static __attribute__((noinline)) long fill(long seed) {
  for (int i = 0; i < 64; i++)
    table[i] = seed = seed * 6364136223846793005L + 1442695040888963407L;
  return seed;
}

Shape *make_shape(int kind, long size) {
  fill(size);
  switch (kind % 3) {
  case 0: return new Square(size);
  case 1: return new Rect(size, table[size & 63] & 15);
  default: return new Triangle(size, size + 3);
  }
}

extern "C" long checksum(const long *values, int count) {
  long sum = 0;
  for (int i = 0; i < count; i++)
    sum += values[i] * (i + 1) ^ (sum >> 3);
  return sum;
}

__attribute__((noinline)) long hot_loop(int rounds) {
  long acc = 0;
  for (int r = 0; r < rounds; r++)
    for (int i = 0; i < 64; i++)
      acc += table[i] * r + (acc >> 7);
  return acc;
}

__attribute__((noinline)) long cold_path(int x) {
  long v = x;
  for (int i = 0; i < 5; i++)
    v = v * 31 + table[(v + i) & 63];
  return v;
}

// Alike but for its strings, as note_main is (codegen data merges them).
__attribute__((noinline)) long note_shapes(long x) {
  printf("shapes: %ld\n", x);
  printf("shapes, thrice: %ld\n", x * 3);
  return x + 1;
}
