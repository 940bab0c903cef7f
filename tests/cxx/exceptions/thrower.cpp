#include "errors.h"

#include <new>
#include <vector>

std::string &trace() {
  static std::string text;
  return text;
}

Guard::Guard(const char *name) : name(name) { trace() += std::string("+") + name; }
Guard::~Guard() { trace() += std::string("-") + name; }

__attribute__((noinline)) void throw_io(int code) {
  Guard g("io");
  if (code > 0)
    throw IoError("read failed", code);
}

__attribute__((noinline)) void throw_plain(int value) {
  Guard g("plain");
  std::vector<Guard> many;
  many.reserve(3);
  many.emplace_back("v1");
  many.emplace_back("v2");
  throw Plain{value};
}

__attribute__((noinline)) void throw_std(int which) {
  switch (which) {
  case 0:
    throw std::out_of_range("index");
  case 1:
    throw std::bad_alloc();
  default:
    throw std::string("a string");
  }
}

__attribute__((noinline)) void rethrow_wrapped(int code) {
  try {
    throw_io(code);
  } catch (...) {
    std::throw_with_nested(AppError("wrapped", code + 100));
  }
}

std::exception_ptr capture(int code) {
  try {
    throw_io(code);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

Widget::Widget(int size) try : size(size) {
  Guard g("widget");
  if (size < 0)
    throw AppError("negative widget", size);
} catch (const AppError &e) {
  trace() += "[ctor:" + std::string(e.what()) + "]";
}
