#include "shapes.h"

#include <cmath>
#include <cstdio>
#include <sstream>

std::vector<std::string> &init_log() {
  static std::vector<std::string> log;
  return log;
}

namespace {
struct Announce {
  explicit Announce(const char *what) { init_log().push_back(what); }
};
Announce first("shapes.cpp static constructor 1");
Announce second("shapes.cpp static constructor 2");
} // namespace

Shape::Shape(std::string name) : name_(std::move(name)) {}
Shape::~Shape() = default;
std::string Shape::describe() const {
  std::ostringstream os;
  os << name_ << " with area " << area();
  return os.str();
}

Circle::Circle(double r) : Shape("circle"), r(r) {
  if (r < 0)
    throw BadShape("negative radius");
}
double Circle::area() const { return M_PI * r * r; }

Rect::Rect(double w, double h) : Shape("rect"), w(w), h(h) {}
double Rect::area() const { return w * h; }
std::string Rect::describe() const { return "rect " + std::to_string(w) + "x" + std::to_string(h); }

static int seed_calls() { return static_cast<int>(init_log().size()) * 100; }
thread_local int calls = seed_calls(); // dynamic initialization: a TLS wrapper
int &calls_on_this_thread() { return calls; }

std::unique_ptr<Shape> make_shape(const std::string &spec) {
  ++calls;
  std::istringstream in(spec);
  std::string kind;
  in >> kind;
  if (kind == "circle") {
    double r;
    in >> r;
    return std::make_unique<Circle>(r);
  }
  if (kind == "rect") {
    double w, h;
    in >> w >> h;
    return std::make_unique<Rect>(w, h);
  }
  throw BadShape("unknown shape '" + kind + "'");
}

Registry<std::unique_ptr<Shape>> &global_registry() {
  static Registry<std::unique_ptr<Shape>> registry;
  return registry;
}

int checksum(const std::string &text) {
  unsigned h = 2166136261u;
  for (unsigned char c : text)
    h = (h ^ c) * 16777619u;
  return static_cast<int>(h & 0x7fffffff);
}
