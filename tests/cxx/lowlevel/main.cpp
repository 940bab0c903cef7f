#include "lowlevel.h"

#include <cstdio>

extern "C" const Item __start_mtpc_items[], __stop_mtpc_items[];

int sum_items() {
  int sum = 0;
  for (const Item *i = __start_mtpc_items; i != __stop_mtpc_items; i++)
    sum += i->weight;
  return sum;
}

int main() {
  const int a[] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int b[] = {9, 8, 7, 6, 5, 4, 3, 2, 1};
  const unsigned char program[] = {1, 1, 1, 2, 3, 2, 0};
  int results[] = {sum_items(),          dot(a, b, 9),   pick(41),
                   interpret(program),   weak_hook(5),   hidden_helper(10),
                   asm_triple(14),       asm_calls_back(6)};
  const int expected[] = {15, 165, 42, -12, 15, 9, 42, 30};
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    std::printf("%d ", results[i]);
    bad += results[i] != expected[i];
  }
  std::printf("\n%d items in mtpc_items\n", (int)(__stop_mtpc_items - __start_mtpc_items));
  return bad;
}
