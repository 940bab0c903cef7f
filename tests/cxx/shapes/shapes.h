// A small multi-file C++ program exercising what C++ puts in a module:
// templates (linkonce_odr in COMDATs), vtables and typeinfo, exceptions
// crossing modules, static constructors, constructor aliases, thread_local
// with dynamic initialization.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

struct Shape {
  explicit Shape(std::string name);
  virtual ~Shape();
  virtual double area() const = 0;
  virtual std::string describe() const;
  const std::string &name() const { return name_; }

private:
  std::string name_;
};

struct Circle : Shape {
  explicit Circle(double r);
  double area() const override;
  double r;
};

struct Rect : Shape {
  Rect(double w, double h);
  double area() const override;
  std::string describe() const override;
  double w, h;
};

struct BadShape : std::runtime_error {
  explicit BadShape(const std::string &what) : std::runtime_error(what) {}
};

template <typename T> class Registry {
public:
  void add(T value) { items_.push_back(std::move(value)); }
  template <typename F> double sum(F f) const {
    double s = 0;
    for (const T &item : items_)
      s += f(item);
    return s;
  }
  size_t size() const { return items_.size(); }
  const T &at(size_t i) const {
    if (i >= items_.size())
      throw std::out_of_range("registry index " + std::to_string(i));
    return items_[i];
  }

private:
  std::vector<T> items_;
};

std::unique_ptr<Shape> make_shape(const std::string &spec); // throws BadShape
Registry<std::unique_ptr<Shape>> &global_registry();
int &calls_on_this_thread();
std::vector<std::string> &init_log();
int checksum(const std::string &text);

#if defined(SHAPES_SHARED)
#define SHAPES_API __attribute__((visibility("default")))
#else
#define SHAPES_API
#endif
extern "C" SHAPES_API int shapes_run(int argc);
