// The program of tests/lld/cache-options.py: small, but with what lld's LTO
// options act on: virtual calls (whole-program devirtualization), loops
// (optimization levels, vectorization, unrolling), functions hot and cold
// (sample profiles), static functions and tables across two modules, and two
// functions alike but for their strings (codegen data).
#pragma once

struct Shape {
  virtual ~Shape() = default;
  virtual long area(long scale) const = 0;
  virtual const char *name() const = 0;
};

Shape *make_shape(int kind, long size);

extern "C" long checksum(const long *values, int count);
long hot_loop(int rounds);
long cold_path(int x);
long note_shapes(long x);
