// CodeView across partitions (tests/lit/cli/coff-merge.test): each
// function below noinline, so that `--partitions max` cuts between them,
// calling the header's inline functions (inlinee lines, and a file change
// inside an inline site from codeview-body.inc), a type every partition
// uses, a promoted static, a global and a constant local.
#include "codeview-files.h"
int total;
static __attribute__((noinline)) int step(int x) { return spans(x) + 1; }
#define USE(n)                                                                 \
  __attribute__((noinline)) int use##n(int x) {                                \
    const int limit = 40 + n;                                                  \
    Pair p{x, n};                                                                 \
    total += scaled(p, limit) + spans(x + n) + step(x) + largest<long>(x, n);  \
    return largest(x, limit) + total;                                          \
  }
USE(1) USE(2) USE(3) USE(4) USE(5) USE(6)
int run_all(int x) { return use1(x) + use2(x) + use3(x) + use4(x) + use5(x) + use6(x); }
// Only the .cpp and the .inc in its partition: the file change names
// another checksum offset there than in the merged table.
inline int twist(int x) {
  x -= 1;
#include "codeview-body.inc"
  return x;
}
__attribute__((noinline)) int twisted(int x) { return twist(x) * 2; }
// A class every partition's code uses (a type name in each), and a local
// whose member is a known constant in several functions (a constant in
// each procedure's scope).
struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
  int id = 3;
};
struct Square : Shape {
  int side;
  Square(int s) : side(s) {}
  int area() const override { return side * side + spans(side); }
};
#define AREA(n)                                                                \
  __attribute__((noinline)) int area##n(int x) { Square q(x + n); return q.area() + q.id; }
AREA(1) AREA(2) AREA(3)
// A type name several partitions write (each function's parameter has the
// type): one is kept.
typedef struct Cell {
  int value, weight;
} Cell;
#define WEIGH(n)                                                               \
  __attribute__((noinline)) int weigh##n(Cell *c) { return c->value * n + c->weight; }
WEIGH(1) WEIGH(2) WEIGH(3)
