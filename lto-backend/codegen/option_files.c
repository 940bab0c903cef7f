/* Files that LLVM options name (option_files.h). */
#include "option_files.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "support/files.h"

/* An option's value follows its first '='; a bare value (a path, which
 * may hold '=' itself) is the whole argument. */
static const char *option_value(const char *arg) {
  if (arg[0] != '-')
    return arg;
  const char *equals = strchr(arg, '=');
  return equals ? equals + 1 : NULL;
}

mtpc_option_file mtpc_option_file_digest(const char *arg, uint64_t *digest) {
  const char *value = option_value(arg);
  struct stat st;
  if (!value || !*value || stat(value, &st) != 0 || !S_ISREG(st.st_mode))
    return MTPC_OPTION_NAMES_NO_FILE;
  void *data = NULL;
  size_t size = 0;
  char *message = NULL;
  if (mtpc_read_file(value, &data, &size, &message) != 0) {
    free(message);
    return MTPC_OPTION_FILE_UNREADABLE;
  }
  *digest = XXH3_64bits(data, size);
  free(data);
  return MTPC_OPTION_NAMES_FILE;
}
