/* Sizes as every mtpc command line takes them (mtpc_parse_size). Alone in
 * its file so that mtpc-cc, which links nothing of LLVM, compiles it too. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "mtpc/mtpc.h"

/* The shift of a K, M or G suffix; -1 for anything else. */
static int suffix_shift(char suffix) {
  switch (suffix) {
  case 'K': case 'k': return 10;
  case 'M': case 'm': return 20;
  case 'G': case 'g': return 30;
  default: return -1;
  }
}

mtpc_status mtpc_parse_size(const char *text, uint64_t *bytes) {
  if (!text || text[0] < '0' || text[0] > '9')
    return MTPC_ERR_INVALID_ARGUMENT;
  char *end = NULL;
  errno = 0;
  unsigned long long number = strtoull(text, &end, 10);
  int shift = *end ? suffix_shift(*end) : 0;
  if (errno || shift < 0 || (*end && end[1]) || number > (UINT64_MAX >> shift))
    return MTPC_ERR_INVALID_ARGUMENT;
  *bytes = (uint64_t)number << shift;
  return MTPC_OK;
}
