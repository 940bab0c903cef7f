#include "animals.h"

#include <cstdio>

int main(int argc, char **) {
  Animal *zoo[5];
  for (int i = 0; i < 5; i++)
    zoo[i] = make_animal(i + argc);
  for (Animal *a : zoo)
    std::printf("%s ", a->sound());
  int legs = total_legs(zoo, 5);
  std::printf("\nlegs %d\n", legs);
  for (Animal *a : zoo)
    delete a;
  return legs == 14 ? 0 : 1;
}
