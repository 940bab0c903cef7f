// Exceptions thrown in one translation unit (and partition) and caught in
// another: class hierarchies, values, rethrow, nested exceptions,
// exception_ptr, function-try-blocks and unwinding through destructors.
#pragma once
#include <stdexcept>
#include <string>

struct AppError : std::runtime_error {
  AppError(const std::string &what, int code) : std::runtime_error(what), code(code) {}
  virtual std::string kind() const { return "AppError"; }
  int code;
};

struct IoError : AppError {
  using AppError::AppError;
  std::string kind() const override { return "IoError"; }
};

struct Plain {
  int value;
};

std::string &trace();

struct Guard {
  explicit Guard(const char *name);
  ~Guard();
  const char *name;
};

void throw_io(int code);
void throw_plain(int value);
void throw_std(int which);
void rethrow_wrapped(int code);
int call_through(void (*fn)(int), int arg);
std::exception_ptr capture(int code);

struct Widget {
  explicit Widget(int size); // function-try-block that rethrows
  int size;
};
