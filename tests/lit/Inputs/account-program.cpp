// For --stats=account: linkonce_odr functions that several partitions call
// and keep (noinline), so each defines a clone, and small external functions
// that callers in other partitions receive as available_externally copies.
#include <cstddef>

template <typename T> __attribute__((noinline)) T mix(const T *v, std::size_t n) {
  T h = 0;
  for (std::size_t i = 0; i < n; i++)
    h = h * 31 + (v[i] ^ (h >> 3));
  return h;
}

template <typename T> __attribute__((noinline)) void spread(T *v, std::size_t n, T seed) {
  for (std::size_t i = 0; i < n; i++)
    v[i] = seed = seed * 1103515245 + 12345;
}

int clamp(int x) { return x < 0 ? 0 : x > 255 ? 255 : x; }
long widen(int x) { return (long)x * 3 + clamp(x); }

long first(int s) {
  int v[16];
  spread(v, 16, s);
  return mix(v, 16) + widen(s);
}

long second(int s) {
  long v[8];
  spread(v, 8, (long)s);
  return mix(v, 8) + clamp(s);
}

long third(int s) {
  int v[4];
  spread(v, 4, s + 1);
  long w[4];
  spread(w, 4, (long)s);
  return mix(v, 4) * mix(w, 4) + widen(s + 2);
}

int main(int argc, char **) { return (first(argc) + second(argc) + third(argc)) == 0; }
