// scale() is linkonce_odr and kept (noinline); first(), second() and third()
// each call it from a partition of their own, so each defines a copy, and
// the first of those partitions describes it. An edit of first() on its
// own line that stops calling scale() hands the description to second()'s
// partition, whose module the edit leaves as it was.
inline __attribute__((noinline)) int scale(int x) { return x * 3 + 1; }
int first(int x) { int y = x * x + 3; y ^= y >> 3; return scale(y) + y; }
int second(int x) { return scale(x + 2) * 7; }
int third(int x) { return scale(x - 9) * 5 + 1; }
