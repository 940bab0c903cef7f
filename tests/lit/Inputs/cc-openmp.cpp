// OpenMP in C++: parallel loops in templates and member functions, lambdas
// in parallel regions, tasks over a tree of objects, a reduction into a
// class, exceptions caught inside a region (cc-openmp.test).
#include <algorithm>
#include <cstdio>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

unsigned mix(unsigned x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  return x;
}

template <typename T> T parallel_sum(const std::vector<T> &v) {
  T total{};
#pragma omp parallel for reduction(+ : total)
  for (long i = 0; i < (long)v.size(); i++)
    total += v[i];
  return total;
}

struct Tree {
  long value;
  std::unique_ptr<Tree> left, right;
  explicit Tree(int depth, unsigned seed) : value(mix(seed) % 100) {
    if (depth > 0) {
      left = std::make_unique<Tree>(depth - 1, seed * 2 + 1);
      right = std::make_unique<Tree>(depth - 1, seed * 2 + 2);
    }
  }
  long total() const {
    long l = 0, r = 0;
    if (left) {
#pragma omp task shared(l) if (value > 10)
      l = left->total();
#pragma omp task shared(r) if (value > 10)
      r = right->total();
#pragma omp taskwait
    }
    return value + l + r;
  }
};

class Grid {
  int width_, height_;
  std::vector<double> cells_;

public:
  Grid(int w, int h) : width_(w), height_(h), cells_((size_t)w * h) {
#pragma omp parallel for collapse(2)
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++)
        cells_[(size_t)y * w + x] = (double)(mix((unsigned)(y * w + x)) % 256);
  }
  Grid smooth() const {
    Grid out(width_, height_);
#pragma omp parallel for schedule(guided)
    for (int y = 1; y < height_ - 1; y++)
      for (int x = 1; x < width_ - 1; x++) {
        auto at = [&](int dx, int dy) { return cells_[(size_t)(y + dy) * width_ + x + dx]; };
        out.cells_[(size_t)y * width_ + x] = (at(-1, 0) + at(1, 0) + at(0, -1) + at(0, 1)) / 4;
      }
    return out;
  }
  double checksum() const {
    std::vector<double> rows(height_);
#pragma omp parallel for
    for (int y = 0; y < height_; y++)
      rows[y] = std::accumulate(cells_.begin() + (long)y * width_,
                                cells_.begin() + (long)(y + 1) * width_, 0.0);
    double s = 0;
    for (double r : rows)
      s += r;
    return s;
  }
};

int checked(int i) {
  if (i % 97 == 0)
    throw std::runtime_error("multiple of 97: " + std::to_string(i));
  return i;
}

} // namespace

int main() {
  std::vector<long> longs(50000);
  std::iota(longs.begin(), longs.end(), 1);
  std::printf("sum long %ld\n", parallel_sum(longs));
  std::vector<int> ints(30000);
  for (size_t i = 0; i < ints.size(); i++)
    ints[i] = (int)(mix((unsigned)i) % 1000);
  std::printf("sum int %d\n", parallel_sum(ints));

  Tree tree(12, 1);
  long total = 0;
#pragma omp parallel
#pragma omp single
  total = tree.total();
  std::printf("tree %ld\n", total);

  Grid g(300, 200);
  std::printf("grid %.1f smooth %.3f\n", g.checksum(), g.smooth().checksum());

  int failures = 0;
#pragma omp parallel for reduction(+ : failures)
  for (int i = 1; i < 1000; i++) {
    try {
      checked(i);
    } catch (const std::runtime_error &) {
      failures++;
    }
  }
  std::printf("failures %d\n", failures);

  std::vector<std::string> words;
  for (int i = 0; i < 64; i++)
    words.push_back("w" + std::to_string(mix((unsigned)i) % 1000));
  std::vector<size_t> lengths(words.size());
#pragma omp parallel for
  for (size_t i = 0; i < words.size(); i++)
    lengths[i] = words[i].size();
  std::sort(words.begin(), words.end());
  std::printf("words %s %s %zu\n", words.front().c_str(), words.back().c_str(),
              std::accumulate(lengths.begin(), lengths.end(), (size_t)0));
  return 0;
}
