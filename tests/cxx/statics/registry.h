// Static initialization: registrars in several translation units, a
// function-local static with a guard variable, an inline variable (C++17,
// linkonce_odr with its guard in a COMDAT), init_priority, destructors at
// exit, and thread_local objects with dynamic initialization used across
// translation units (TLS wrapper functions).
#pragma once
#include <cstdio>
#include <map>
#include <string>
#include <vector>

using Plugin = int (*)(int);

struct Registry {
  static Registry &get(); // function-local static
  void add(const char *name, Plugin fn) { plugins[name] = fn; }
  std::map<std::string, Plugin> plugins;
};

struct Log {
  inline static std::vector<std::string> lines; // one instance for all TUs
  static void say(const std::string &line) { lines.push_back(line); }
};

struct Registrar {
  Registrar(const char *name, Plugin fn) {
    Registry::get().add(name, fn);
    Log::say(std::string("registered ") + name);
  }
};

struct Noisy {
  explicit Noisy(const char *name) : name(name) { std::printf("construct %s\n", name); }
  ~Noisy() { std::printf("destroy %s\n", name); }
  const char *name;
};

struct Counter {
  Counter();
  int hits;
  int base;
};
extern thread_local Counter counter; // defined in plugins_b.cpp
int touch_counter();

template <typename T> struct Cache {
  static T &slot() {
    static T value = T(); // template static: linkonce_odr with a guard
    return value;
  }
};
