/* UndefinedBehaviorSanitizer for `mtpc cc` (cc-flags.test): a signed
 * overflow and a misaligned load in functions of their own, each reported
 * (and recovered from) with its file, line and column. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

int grow(int x) { return x + INT_MAX; }

int load(const char *bytes) { return *(const int *)(bytes + 1); }

int main(int argc, char **argv) {
  (void)argv;
  char buffer[16];
  memset(buffer, argc, sizeof(buffer));
  printf("%d %d\n", grow(argc), load(buffer));
  return 0;
}
