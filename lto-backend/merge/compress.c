#include "compress.h"

#include <elf.h>
#include <string.h>

#include "lto-backend/elf/objects.h"

int mtpc_compresses(const char *kind) { return kind && *kind && strcmp(kind, "none") != 0; }

int mtpc_compress_debug(const char *kind, const void *data, size_t size, void **out,
                        size_t *out_size, char **message) {
  *out = NULL;
  *out_size = 0;
  if (!mtpc_compresses(kind) || size < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0)
    return 0;
  return mtpc_bridge_compress_debug_sections(data, size, kind, out, out_size, message);
}
