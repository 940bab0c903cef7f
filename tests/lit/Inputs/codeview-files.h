// Inline functions from a header: their lines name this file's checksum.
struct Pair {
  int first, second;
};
inline int scaled(const Pair &p, int by) { return p.first * by + p.second; }
inline int spans(int x) {
  x += 3;
#include "codeview-body.inc"
  return x;
}
template <class T> __attribute__((noinline)) T largest(T a, T b) {
  return a > b ? a : scaled({(int)a, (int)b}, 2);
}
