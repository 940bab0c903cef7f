#include "lowlevel.h"

ITEM(item_c, "gamma", 7);

int weak_hook(int x) { return x * 3; } // the strong definition wins

extern "C" __attribute__((used)) int scale_by_five(int x) { return 5 * x; }

asm(R"(
  .text
  .globl asm_triple
  .type asm_triple, @function
asm_triple:
  leal (%rdi,%rdi,2), %eax
  ret
  .size asm_triple, .-asm_triple

  .globl asm_calls_back
  .type asm_calls_back, @function
asm_calls_back:
  jmp scale_by_five
  .size asm_calls_back, .-asm_calls_back
)");
