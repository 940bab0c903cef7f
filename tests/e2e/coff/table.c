/* The second translation unit: a hash table of generated keys, with its own
 * static `mix`. */
#include "win32.h"

static unsigned mix(unsigned x) {
  x = (x ^ 61) ^ (x >> 16);
  x += x << 3;
  x ^= x >> 4;
  return x * 0x27d4eb2dU;
}

#define SLOTS 4096
static unsigned keys[SLOTS];
static unsigned counts[SLOTS];

static unsigned insert(unsigned key) {
  unsigned slot = mix(key) & (SLOTS - 1);
  while (keys[slot] && keys[slot] != key)
    slot = (slot + 1) & (SLOTS - 1);
  keys[slot] = key;
  return ++counts[slot];
}

static unsigned long long fnv(const char *text) {
  unsigned long long h = 1469598103934665603ULL;
  while (*text)
    h = (h ^ (unsigned char)*text++) * 1099511628211ULL;
  return h;
}

EXPORTED unsigned long long table_work(unsigned seed) {
  unsigned max_count = 0;
  for (unsigned i = 0; i < 3000; i++) {
    unsigned c = insert(1 + (mix(seed + i) % 2000));
    if (c > max_count)
      max_count = c;
  }
  char word[8] = "aaaaaaa";
  unsigned long long h = 0;
  for (int i = 0; i < 500; i++) {
    word[i % 7] = (char)('a' + (mix(i) % 26));
    h ^= fnv(word);
  }
  return h + max_count;
}
