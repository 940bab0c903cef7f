// work() is static: the split promotes it, and a cache masks its promoted name.
// hot_a() and hot_b() call it from partitions of their own.
static __attribute__((noinline)) int work(int x) {
  int s = 0;
  for (int i = 0; i < x; i++)
    s += i * x;
  return s;
}
__attribute__((noinline)) int hot_a(int x) { return work(x) + 1; }
__attribute__((noinline)) int hot_b(int x) { return work(x + 1) * 3; }
int main(int argc, char **argv) {
  int t = 0;
  for (int i = 0; i < 1000; i++)
    t += hot_a(i & 7) + hot_b(argc);
  return t & 1;
}
