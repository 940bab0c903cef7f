#include "registry.h"

static int seed_value() {
  Log::say("seed computed");
  return 17;
}
static const int seed = seed_value(); // dynamic initialization

Counter::Counter() : hits(0), base(seed) {}
thread_local Counter counter;

int touch_counter() { return counter.base + ++counter.hits; }

static int negate(int x) { return -x; }
static Registrar b1("negate", negate);
Noisy late_b("late-b");

int bump_cache_b() { return ++Cache<int>::slot() * 10; }
