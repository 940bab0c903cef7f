// A C++ program for gdb on a split object: the class is used by several
// functions, so its home is partition 0; its methods land elsewhere.
#include <string>
#include <vector>

namespace shop {
class Inventory {
public:
  explicit Inventory(std::string name) : name_(std::move(name)) {}
  void add(int weight);
  int heaviest() const;
  std::string name_;
  std::vector<int> weights_;
};

__attribute__((noinline)) void Inventory::add(int weight) { weights_.push_back(weight); }

__attribute__((noinline)) int Inventory::heaviest() const {
  int best = 0;
  for (int weight : weights_)
    if (weight > best)
      best = weight;
  return best;
}
} // namespace shop

int main() {
  shop::Inventory tools("tools");
  tools.add(3);
  tools.add(7);
  tools.add(5);
  return tools.heaviest() == 7 ? 0 : 1;
}
