// Virtual calls under -fwhole-program-vtables: the modules carry type tests
// (llvm.type.test), which ThinLTO's backend resolves with the combined index
// before anything else; mtpc runs those passes on the whole module, then
// splits it, so the calls the stock backend devirtualizes stay direct.
#pragma once

struct Animal {
  virtual ~Animal() = default;
  virtual int legs() const = 0;
  virtual const char *sound() const = 0;
  virtual int id() const { return 1; } // one implementation: devirtualized
};

struct Dog : Animal {
  int legs() const override;
  const char *sound() const override;
};

struct Bird : Animal {
  int legs() const override;
  const char *sound() const override;
};

Animal *make_animal(int which);
int total_legs(Animal *const *animals, int count);
