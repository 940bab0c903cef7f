#include "registry.h"

Registry &Registry::get() {
  static Registry instance;
  return instance;
}

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

static Registrar a1("twice", twice);
static Registrar a2("square", square);

__attribute__((init_priority(1000))) Noisy early("early-a");
Noisy late_a("late-a");

int bump_cache() { return ++Cache<int>::slot(); }
