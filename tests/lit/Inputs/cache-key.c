/* cache-key.test edits first() and then moves last(); middle() is the
 * partition that must not notice. */
int printf(const char *, ...);
int puts(const char *);

__attribute__((noinline)) void first(int x) {
  /* EDIT-FIRST */
  if (x)
    puts("first: one");
  else
    puts("first: two");
}

void last(int x);

__attribute__((noinline)) void middle(int x) {
  puts("middle: one");
  for (int i = 0; i < x; i++)
    printf("middle: %d of %d\n", i, x);
  last(x);
}
/* MOVE-LAST */
__attribute__((noinline)) void last(int x) {
  for (int i = 0; i < x; i++) {
    if (i % 3 == 0)
      printf("last: %d\n", i * 7 + x);
    else if (i % 5 == 1)
      printf("last: %d %d\n", i, x * x);
    else
      printf("last: %d %d %d\n", i, x, i ^ x);
  }
  puts("last: done");
}
