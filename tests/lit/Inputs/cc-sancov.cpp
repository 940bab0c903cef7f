// A libFuzzer target (cc-sancov.test): templates the partitions each keep a
// copy of, statics used across them, and a planted bug behind a magic
// prefix that libFuzzer's comparison tracing finds.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

template <typename T> static T checksum(const std::vector<T> &values) {
  T sum = 0;
  for (T v : values)
    sum = sum * 31 + v;
  return sum;
}

static int classify(uint8_t byte) {
  if (byte >= '0' && byte <= '9')
    return 1;
  if ((byte | 32) >= 'a' && (byte | 32) <= 'z')
    return 2;
  return byte == ' ' ? 3 : 0;
}

static std::map<int, int> histogram(const uint8_t *data, size_t size) {
  std::map<int, int> counts;
  for (size_t i = 0; i < size; i++)
    counts[classify(data[i])]++;
  return counts;
}

// Used across partitions, so promoted there (an allowlist names it).
__attribute__((noinline)) static int tally(const uint8_t *data, size_t size, uint8_t byte) {
  int count = 0;
  for (size_t i = 0; i < size; i++)
    count += data[i] == byte;
  return count;
}

int count_spaces(const uint8_t *data, size_t size) { return tally(data, size, ' '); }

int table[8];
volatile int sink;

static int planted(const uint8_t *data, size_t size) {
  if (size >= 6 && memcmp(data, "CRASH", 5) == 0)
    return table[data[5] - '0' + 8]; // past the end: ASan's global-buffer-overflow
  return 0;
}

int parse_number(const std::string &text) {
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9')
      return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<int> values(data, data + size);
  std::map<int, int> counts = histogram(data, size);
  int sum = checksum(values) + counts[1] + parse_number(std::string(data, data + size)) +
            tally(data, size, 'x') + count_spaces(data, size);
  if (getenv("SANCOV_PRINT"))
    printf("%zu bytes: %d digits, %d letters, checksum %d\n", size, counts[1], counts[2], sum);
  sink = planted(data, size);
  return 0;
}
