#include "errors.h"

#include <cstdio>
#include <new>

static void show_nested(const std::exception &e, int depth) {
  std::printf("%*s%s\n", depth * 2, "", e.what());
  try {
    std::rethrow_if_nested(e);
  } catch (const std::exception &inner) {
    show_nested(inner, depth + 1);
  }
}

int main() {
  int sum = call_through(throw_io, 7) + call_through(throw_io, 0);
  try {
    call_through(throw_plain, 42);
  } catch (const Plain &p) {
    std::printf("main got Plain %d\n", p.value);
    sum += p.value;
  }
  for (int which = 0; which < 3; which++) {
    try {
      throw_std(which);
    } catch (const std::out_of_range &e) {
      std::printf("out_of_range %s\n", e.what());
    } catch (const std::bad_alloc &) {
      std::printf("bad_alloc\n");
    } catch (const std::string &s) {
      std::printf("string %s\n", s.c_str());
    }
  }
  try {
    rethrow_wrapped(5);
  } catch (const AppError &e) {
    show_nested(e, 0);
  }
  std::exception_ptr p = capture(9);
  try {
    std::rethrow_exception(p);
  } catch (const AppError &e) {
    std::printf("from exception_ptr: %s %d %s\n", e.what(), e.code, e.kind().c_str());
  }
  try {
    Widget w(-3);
  } catch (const AppError &e) {
    std::printf("widget rethrown: %s\n", e.what());
  }
  Widget ok(4);
  std::printf("trace %s\nsum %d size %d\n", trace().c_str(), sum, ok.size);
  return sum == 43 ? 0 : 1;
}
