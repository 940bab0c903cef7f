int table[16];

int first(int x) {
  int s = 0;
  for (int i = 0; i < 2; i++)
    s += table[i] * x;
  return s;
}

int second(int x) {
  int s = 1;
  for (int i = 0; i < 6; i++)
    s ^= (table[i + 2] + x) * (table[i + 3] - s);
  return s;
}

int third(int x) {
  int s = 2;
  for (int i = 0; i < 6; i++)
    s += (table[i + 8] - x) * (table[i + 9] + s);
  return s;
}
