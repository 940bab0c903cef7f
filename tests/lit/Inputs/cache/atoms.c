static int square(int x) { return x * x; }
static int twice(int x) { return x + x; }

int first(int x) {
  int y = square(x) + twice(x);
  return y - 1;
}

int second(int x) {
  int y = square(x + 1);
  return y + twice(y);
}

int third(int x) {
  int y = twice(x) * square(x - 1);
  return y ^ 5;
}
