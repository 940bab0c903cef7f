/* DataFlowSanitizer across partitions (cc-dfsan.test): `scale` is a static
 * whose callers are in other partitions, so the split promotes it;
 * `passthrough` is a static the ABI list names uninstrumented, whose
 * address two partitions take (its wrapper, dfsw$passthrough, must stay
 * one local function); labels flow through both. (Not compared: the two
 * hooks. DFSan gives instrumented code the wrapper's address, but not in a
 * comparison the optimizer already folded to the function's own address,
 * which clang's object does here and a split that keeps second_hook in
 * another partition does not.) */
#include <sanitizer/dfsan_interface.h>
#include <stdio.h>

int factor = 3;

__attribute__((noinline)) static int scale(int x) { return x * factor; }
__attribute__((noinline)) static int passthrough(int x) { return x + 1; }

int (*first_hook)(int) = passthrough;

__attribute__((noinline)) int through_scale(int a) { return scale(a) + 2; }
__attribute__((noinline)) int through_both(int a) { return scale(a + 1) - passthrough(a); }
__attribute__((noinline)) int (*second_hook(void))(int) { return passthrough; }
__attribute__((noinline)) int through_hook(int a) { return first_hook(a) * 2; }

int main(void) {
  int tainted = 5, clean = 7;
  dfsan_set_label(1, &tainted, sizeof(tainted));
  int a = through_scale(tainted), b = through_both(tainted), c = through_hook(clean);
  int d = passthrough(tainted), e = second_hook()(tainted);
  printf("a=%d label=%d\n", a, (int)dfsan_get_label(a));
  printf("b=%d label=%d\n", b, (int)dfsan_get_label(b));
  printf("c=%d label=%d\n", c, (int)dfsan_get_label(c));
  printf("d=%d label=%d\n", d, (int)dfsan_get_label(d));
  printf("e=%d label=%d\n", e, (int)dfsan_get_label(e));
  return 0;
}
