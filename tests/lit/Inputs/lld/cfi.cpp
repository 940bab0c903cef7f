// Control-flow integrity (-fsanitize=cfi): with an argument, main makes a bad
// cast and the virtual call through it must trap.
#include <cstdio>

struct Shape {
  virtual ~Shape() {}
  virtual int area() const = 0;
};
struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
};
struct Circle : Shape {
  int radius;
  explicit Circle(int r) : radius(r) {}
  int area() const override { return 3 * radius * radius; }
};
struct Unrelated {
  virtual ~Unrelated() {}
  virtual int weight() const { return 7; }
};

__attribute__((noinline)) int total(Shape **shapes, int n) {
  int sum = 0;
  for (int i = 0; i < n; i++)
    sum += shapes[i]->area();
  return sum;
}

int main(int argc, char **) {
  Shape *shapes[3] = {new Square(3), new Circle(2), new Square(1)};
  if (argc > 1)
    shapes[1] = reinterpret_cast<Shape *>(new Unrelated);
  int sum = total(shapes, 3);
  std::printf("%d\n", sum);
  return sum == 22 ? 0 : 1;
}
