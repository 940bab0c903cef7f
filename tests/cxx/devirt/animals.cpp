#include "animals.h"

int Dog::legs() const { return 4; }
const char *Dog::sound() const { return "woof"; }
int Bird::legs() const { return 2; }
const char *Bird::sound() const { return "tweet"; }

Animal *make_animal(int which) {
  if (which % 2)
    return new Bird;
  return new Dog;
}
