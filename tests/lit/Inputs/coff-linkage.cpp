// Every kind of symbol a COFF object of a split C++ module holds, without a
// C++ runtime (none is installed for Windows targets here): promoted
// statics, hidden and dllexported functions in different partitions, a weak
// function, COMDAT inline functions and vtables with their associated
// unwind tables, an undefined function several partitions call.
extern "C" int printf(const char *, ...);
extern "C" void *malloc(__SIZE_TYPE__);
extern "C" void free(void *);
extern "C" void abort(void);
void *operator new(__SIZE_TYPE__ n) { return malloc(n); }
void operator delete(void *p) noexcept { free(p); }
void operator delete(void *p, __SIZE_TYPE__) noexcept { free(p); }
extern "C" void __cxa_pure_virtual() { abort(); }

struct Shape {
  virtual ~Shape() {}
  virtual double area() const = 0;
  virtual const char *name() const { return "shape"; }
};
struct Square : Shape {
  double s;
  explicit Square(double s) : s(s) {}
  double area() const override { return s * s; }
  const char *name() const override { return "square"; }
};
struct Circle : Shape {
  double r;
  explicit Circle(double r) : r(r) {}
  double area() const override { return 3.14159 * r * r; }
};
template <typename T> static T twice(T x) { return x + x; }
template <typename T> T thrice(T x) { return x + x + x; }
static int counter;
static __attribute__((noinline)) int bump(int x) {
  counter += x;
  printf("bump %d\n", counter);
  return counter;
}
__attribute__((weak)) int weak_hook(int x) { return x * 5; }
__declspec(dllexport) int exported_a(int x) { return bump(x) + twice(x); }
__declspec(dllexport) int exported_b(int x) { return bump(twice(x)) + thrice(x); }
__attribute__((visibility("hidden"))) int hidden_fn(int x) { return bump(x) - 1; }
double run_shapes(int n) {
  Shape *v[64];
  for (int i = 0; i < n; i++)
    v[i] = i % 2 ? (Shape *)new Square(i) : (Shape *)new Circle(i);
  double total = 0;
  for (int i = 0; i < n; i++) {
    total += v[i]->area();
    printf("%s %.2f\n", v[i]->name(), v[i]->area());
  }
  for (int i = 0; i < n; i++)
    delete v[i];
  return total;
}
int main(int argc, char **) {
  double t = run_shapes(10 + argc);
  int u = exported_a(argc) + exported_b(argc) + weak_hook(argc) + hidden_fn(argc) +
          twice(argc) + thrice(argc);
  printf("total %.2f %d counter %d\n", t, u, counter);
  return 0;
}
