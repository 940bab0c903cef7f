// Two linkonce_odr functions that two partitions call and keep (noinline):
// each partition defines a copy (a clone) and describes it.
inline __attribute__((noinline)) int scale(int x) { return x * 3 + 1; }
inline __attribute__((noinline)) int shift(int x) { return x + 7; }
int first(int x) { return scale(x) + shift(x); }
int second(int x) { return scale(x + 2) * shift(x); }
int main(int argc, char **) { return first(argc) + second(argc) == 0; }
