#include "lowlevel.h"

ITEM(item_a, "alpha", 3);
ITEM(item_b, "beta", 5);

__attribute__((target_clones("avx2", "sse4.2", "default"))) int dot(const int *a, const int *b,
                                                                    int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

static int pick_small(int x) { return x + 1; }
static int pick_large(int x) { return x * 1000; }
extern "C" {
static int (*resolve_pick())(int) {
  __builtin_cpu_init();
  return __builtin_cpu_supports("sse2") ? pick_small : pick_large;
}
}
int pick(int x) __attribute__((ifunc("_ZL12resolve_pickv")));

int interpret(const unsigned char *code) {
  static const void *const table[] = {&&op_halt, &&op_inc, &&op_double, &&op_neg};
  int acc = 0;
#define NEXT goto *table[*code++]
  NEXT;
op_inc:
  acc++;
  NEXT;
op_double:
  acc *= 2;
  NEXT;
op_neg:
  acc = -acc;
  NEXT;
op_halt:
  return acc;
#undef NEXT
}

__attribute__((weak)) int weak_hook(int x) { return x; }
__attribute__((weak)) extern int never_defined(int);

int hidden_helper(int x) { return never_defined ? never_defined(x) : x - 1; }
