"""A C file of one large function, big(), and two small ones, for
partition-floor.test: big() alone is about 98% of the cost."""
print("volatile int sink;")
print("__attribute__((noinline)) void big(int x) {")
for i in range(3000):
    print(f"  if (x == {i}) sink = x * {i + 7} + sink;")
print("}")
for name in ("small_a", "small_b"):
    print(f"__attribute__((noinline)) void {name}(int x) {{ for (int i = 0; i < x; i++) sink += i; }}")
