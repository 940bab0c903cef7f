// Virtual calls under -fwhole-program-vtables: the modules carry type tests
// (llvm.type.test), which ThinLTO uses for devirtualization. mtpc compiles
// such modules unsplit (the CLI warns; ld.lld leaves them to its own
// backend), so this program checks the fallback keeps behavior.
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
