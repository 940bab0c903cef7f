#include "errors.h"

#include <cstdio>

__attribute__((noinline)) int call_through(void (*fn)(int), int arg) {
  Guard g("call");
  try {
    fn(arg);
  } catch (const IoError &e) {
    std::printf("IoError %s code %d kind %s\n", e.what(), e.code, e.kind().c_str());
    return 1;
  } catch (const AppError &e) {
    std::printf("AppError %s code %d\n", e.what(), e.code);
    return 2;
  } catch (const Plain &p) {
    std::printf("Plain %d\n", p.value);
    throw; // to main
  }
  return 0;
}
