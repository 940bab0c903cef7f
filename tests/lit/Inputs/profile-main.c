/* Calls many-functions.c's entry() for one input in sixteen: a profile of
 * this program gives its functions counts (and the rest of the loop). */
#include <stdint.h>
#include <stdio.h>
uint32_t entry(uint32_t x);
int main(int argc, char **argv) {
  (void)argv;
  uint32_t sum = 0;
  for (uint32_t i = 0; i < 100000u * (uint32_t)argc; i++)
    sum += i % 16 == 0 ? entry(i) : i;
  printf("%u\n", sum);
  return 0;
}
