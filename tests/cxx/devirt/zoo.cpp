#include "animals.h"

__attribute__((noinline)) int total_legs(Animal *const *animals, int count) {
  int sum = 0;
  for (int i = 0; i < count; i++)
    sum += animals[i]->legs() * animals[i]->id();
  return sum;
}
