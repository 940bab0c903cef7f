/* A Windows program without a C runtime (entry point `start`), for the
 * lld-link tests: integer workloads whose answers it prints. Each workload
 * is exported (EXPORTED), so that ThinLTO keeps it a function of its own
 * that libmtpc can put in a partition of its own; each translation unit has
 * a static `mix` (promoted names must not collide). */
#include "win32.h"

static unsigned state;

static unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  return x * 0x846ca68bU;
}

static unsigned next_random(void) {
  state = state * 1103515245U + 12345U;
  return mix(state);
}

EXPORTED void put_text(const char *text) {
  unsigned long length = 0, written;
  while (text[length])
    length++;
  WriteFile(GetStdHandle(STD_OUTPUT_HANDLE), text, length, &written, 0);
}

EXPORTED void put_number(const char *label, unsigned long long value) {
  char digits[24];
  int i = 23;
  digits[i] = '\0';
  do {
    digits[--i] = (char)('0' + value % 10);
    value /= 10;
  } while (value);
  put_text(label);
  put_text(": ");
  put_text(&digits[i]);
  put_text("\n");
}

static unsigned char sieve[200000];

EXPORTED unsigned count_primes(unsigned limit) {
  unsigned count = 0;
  for (unsigned i = 2; i < limit; i++) {
    if (sieve[i])
      continue;
    count++;
    for (unsigned j = i * 2; j < limit; j += i)
      sieve[j] = 1;
  }
  return count;
}

static unsigned crc_table[256];

EXPORTED void make_crc_table(void) {
  for (unsigned n = 0; n < 256; n++) {
    unsigned c = n;
    for (int k = 0; k < 8; k++)
      c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

EXPORTED unsigned crc32(const unsigned char *data, unsigned size) {
  unsigned c = 0xffffffffU;
  for (unsigned i = 0; i < size; i++)
    c = crc_table[(c ^ data[i]) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffU;
}

static unsigned values[50000];

static void sort(unsigned *v, int low, int high) {
  while (low < high) {
    unsigned pivot = v[(low + high) / 2];
    int i = low, j = high;
    while (i <= j) {
      while (v[i] < pivot)
        i++;
      while (v[j] > pivot)
        j--;
      if (i <= j) {
        unsigned t = v[i];
        v[i++] = v[j];
        v[j--] = t;
      }
    }
    if (j - low < high - i) {
      sort(v, low, j);
      low = i;
    } else {
      sort(v, i, high);
      high = j;
    }
  }
}

EXPORTED unsigned long long sorted_checksum(void) {
  for (unsigned i = 0; i < 50000; i++)
    values[i] = next_random();
  sort(values, 0, 49999);
  unsigned long long sum = 0;
  for (unsigned i = 0; i < 50000; i++)
    sum = sum * 31 + values[i] * (unsigned long long)(i + 1);
  return sum;
}

EXPORTED unsigned collatz_longest(unsigned limit) {
  unsigned best = 0, best_start = 0;
  for (unsigned start = 1; start < limit; start++) {
    unsigned long long n = start;
    unsigned steps = 0;
    while (n != 1) {
      n = n & 1 ? 3 * n + 1 : n / 2;
      steps++;
    }
    if (steps > best) {
      best = steps;
      best_start = start;
    }
  }
  return best_start;
}

/* A tiny stack machine: the program computes a polynomial for each x. */
enum op { PUSH, LOAD_X, ADD, MUL, SUB, END };
static const int program[] = {LOAD_X, LOAD_X, MUL, PUSH, 7, MUL, LOAD_X, PUSH, 3, MUL, SUB, PUSH, 11, ADD, END};

EXPORTED long long run_machine(long long x) {
  long long stack[16];
  int sp = 0;
  for (int pc = 0;;) {
    switch (program[pc++]) {
    case PUSH: stack[sp++] = program[pc++]; break;
    case LOAD_X: stack[sp++] = x; break;
    case ADD: sp--; stack[sp - 1] += stack[sp]; break;
    case MUL: sp--; stack[sp - 1] *= stack[sp]; break;
    case SUB: sp--; stack[sp - 1] -= stack[sp]; break;
    case END: return stack[sp - 1];
    }
  }
}

void __stdcall start(void) {
  state = 42;
  put_number("primes below 200000", count_primes(200000));
  make_crc_table();
  put_number("crc32 of the sieve", crc32(sieve, sizeof(sieve)));
  put_number("sorted checksum", sorted_checksum());
  put_number("longest collatz below 100000", collatz_longest(100000));
  long long total = 0;
  for (long long x = -500; x <= 500; x++)
    total += run_machine(x);
  put_number("machine total", (unsigned long long)total);
  put_number("table work", table_work(mix(7)));
  ExitProcess(0);
}
