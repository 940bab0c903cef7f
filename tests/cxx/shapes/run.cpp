#include "shapes.h"

#include <cstdio>
#include <map>
#include <thread>
#include <typeinfo>

namespace {
struct Announce {
  Announce() { init_log().push_back("run.cpp static constructor"); }
} announce;

template <typename K, typename V> std::string render(const std::map<K, V> &m) {
  std::string out;
  for (const auto &[k, v] : m)
    out += k + "=" + std::to_string(v) + ";";
  return out;
}
} // namespace

extern "C" int shapes_run(int argc) {
  for (const std::string &line : init_log())
    std::printf("init: %s\n", line.c_str());
  const char *specs[] = {"circle 1", "rect 2 3", "circle 2.5", "hexagon 4", "circle -1", "rect 1 1"};
  int failures = 0;
  for (const char *spec : specs) {
    try {
      global_registry().add(make_shape(spec));
    } catch (const BadShape &e) {
      std::printf("bad shape: %s\n", e.what());
      failures++;
    }
  }
  Registry<std::unique_ptr<Shape>> &r = global_registry();
  std::map<std::string, int> kinds;
  for (size_t i = 0; i < r.size(); i++) {
    const Shape &s = *r.at(i);
    kinds[s.name()]++;
    std::printf("%s | dynamic type %s | is rect: %d\n", s.describe().c_str(),
                typeid(s).name(), dynamic_cast<const Rect *>(&s) != nullptr);
  }
  try {
    r.at(99);
  } catch (const std::out_of_range &e) {
    std::printf("caught: %s\n", e.what());
  }
  std::printf("kinds: %s\n", render(kinds).c_str());
  std::printf("total area: %.6f\n", r.sum([](const std::unique_ptr<Shape> &s) { return s->area(); }));
  int other_thread_calls = -1;
  std::thread t([&] {
    make_shape("rect 1 2");
    other_thread_calls = calls_on_this_thread();
  });
  t.join();
  std::printf("calls here %d, on another thread %d\n", calls_on_this_thread(), other_thread_calls);
  std::printf("failures %d, checksum %d, argc %d\n", failures,
              checksum(render(kinds) + std::to_string(failures)), argc);
  return failures == 2 ? 0 : 1;
}
