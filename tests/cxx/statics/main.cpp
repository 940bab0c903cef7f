#include "registry.h"

#include <thread>

int bump_cache();
int bump_cache_b();

static thread_local std::string greeting = "hello from " + std::to_string(touch_counter());

int main() {
  for (const std::string &line : Log::lines)
    std::printf("log: %s\n", line.c_str());
  int sum = 0;
  for (const auto &[name, fn] : Registry::get().plugins) {
    std::printf("%s(7) = %d\n", name.c_str(), fn(7));
    sum += fn(7);
  }
  int here = touch_counter() + touch_counter();
  int there = 0;
  std::string there_greeting;
  std::thread t([&] {
    there = touch_counter();
    there_greeting = greeting;
  });
  t.join();
  std::printf("counter here %d, there %d, greeting %s / %s\n", here, there, greeting.c_str(),
              there_greeting.c_str());
  int c1 = bump_cache();
  int c2 = bump_cache_b();
  int c3 = bump_cache();
  std::printf("cache %d %d %d\n", c1, c2, c3);
  std::printf("sum %d\n", sum);
  return sum == 56 ? 0 : 1;
}
