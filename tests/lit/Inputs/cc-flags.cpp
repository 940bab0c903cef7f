// A C++ program for `mtpc cc`'s flag sets (cc-flags.test): classes with
// virtual functions, templates, an over-aligned type (aligned new), a
// lambda, containers; main prints what they compute.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

struct alignas(64) Block {
  double v[8];
};

struct Shape {
  virtual ~Shape() = default;
  virtual double area() const = 0;
  virtual std::string name() const = 0;
};

struct Rect : Shape {
  double w, h;
  Rect(double w, double h) : w(w), h(h) {}
  double area() const override { return w * h; }
  std::string name() const override { return "rect"; }
};

struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.14159265358979 * r * r; }
  std::string name() const override { return "circle"; }
};

template <typename T> T checksum(const std::vector<T> &v) {
  T h = 0;
  for (const T &x : v)
    h = h * 31 + x;
  return h;
}

template <typename K, typename V> V total(const std::map<K, V> &m) {
  V sum{};
  for (const auto &[k, v] : m)
    sum += v;
  return sum;
}

static std::vector<std::unique_ptr<Shape>> make_shapes(int n) {
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < n; i++) {
    if (i % 3)
      shapes.push_back(std::make_unique<Rect>(i, i + 1));
    else
      shapes.push_back(std::make_unique<Circle>(i * 0.5));
  }
  return shapes;
}

int main(int argc, char **) {
  auto shapes = make_shapes(20 + argc);
  std::map<std::string, double> by_name;
  for (const auto &s : shapes)
    by_name[s->name()] += s->area();
  std::vector<long> numbers(100 + argc);
  std::iota(numbers.begin(), numbers.end(), argc);
  std::sort(numbers.begin(), numbers.end(), [](long a, long b) { return (a % 7) < (b % 7) || ((a % 7) == (b % 7) && a < b); });
  auto blocks = std::make_unique<Block[]>(4);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++)
      blocks[i].v[j] = i * 8 + j;
  double block_sum = 0;
  for (int i = 0; i < 4; i++)
    block_sum += std::accumulate(blocks[i].v, blocks[i].v + 8, 0.0);
  std::printf("areas %.3f rect %.3f circle %.3f\n", total(by_name), by_name["rect"], by_name["circle"]);
  std::printf("checksum %ld first %ld last %ld\n", checksum(numbers), numbers.front(), numbers.back());
  std::printf("blocks %.1f aligned %d\n", block_sum,
              (int)(reinterpret_cast<unsigned long>(blocks.get()) % alignof(Block) == 0));
  return 0;
}
