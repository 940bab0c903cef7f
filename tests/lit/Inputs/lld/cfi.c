typedef int (*op_fn)(int);
static int twice(int x) { return 2 * x; }
static int negate(int x) { return -x; }
op_fn ops[2] = {twice, negate};
int apply(int which, int x) { return ops[which & 1](x); }
int main(int argc, char **argv) { return apply(argc, 21) == 42 ? 0 : 1; }
