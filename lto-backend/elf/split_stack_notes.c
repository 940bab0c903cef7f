#include "split_stack_notes.h"

#include <string.h>

#include "elf_object.h"

static const char *const notes[] = {".note.GNU-split-stack", ".note.GNU-no-split-stack"};
static const char *const hidden[] = {".mtpc.GNU-split-stack", ".mtpc.GNU-no-split-stack"};
enum { NOTE_KINDS = 2, PREFIX_LENGTH = 5 /* ".note" and ".mtpc" */ };

/* The section names' table of an ELF64 object: its bytes' offset and size. */
static int section_names(const uint8_t *data, size_t size, const uint8_t *headers,
                         uint32_t count, size_t *offset, size_t *length) {
  uint32_t index = mtpc_elf_section_names_index(data, headers);
  if (index == 0 || index >= count)
    return 0;
  Elf64_Shdr names = mtpc_elf_section_header(headers, index);
  if (names.sh_offset > size || names.sh_size > size - names.sh_offset)
    return 0;
  *offset = names.sh_offset;
  *length = names.sh_size;
  return 1;
}

/* Whether the name at `at` (of `length` bytes) is only its own section's:
 * no other section's name starts inside it. */
static int name_unshared(const uint8_t *headers, uint32_t count, uint32_t at, size_t length) {
  uint32_t users = 0;
  for (uint32_t i = 1; i < count; i++) {
    uint32_t name = mtpc_elf_section_header(headers, i).sh_name;
    users += name >= at && name < at + length;
  }
  return users == 1;
}

/* Renames each section named from[k] to to[k] (the same length); the count
 * of sections that have one of from's names. */
static unsigned rename_notes(uint8_t *data, size_t size, const char *const *from,
                             const char *const *to, int write) {
  uint32_t count = 0;
  size_t names = 0, names_size = 0;
  const uint8_t *headers = mtpc_elf_section_headers(data, size, &count);
  if (!headers || !section_names(data, size, headers, count, &names, &names_size))
    return 0;
  unsigned found = 0;
  for (uint32_t i = 1; i < count; i++) {
    uint32_t at = mtpc_elf_section_header(headers, i).sh_name;
    for (int k = 0; k < NOTE_KINDS; k++) {
      size_t length = strlen(from[k]) + 1;
      if (at >= names_size || names_size - at < length ||
          memcmp(data + names + at, from[k], length) != 0)
        continue;
      found++;
      if (write && name_unshared(headers, count, at, length))
        memcpy(data + names + at, to[k], PREFIX_LENGTH);
    }
  }
  return found;
}

int mtpc_elf_has_split_stack_notes(const uint8_t *data, size_t size) {
  return rename_notes((uint8_t *)data, size, notes, hidden, 0) != 0;
}

void mtpc_elf_hide_split_stack_notes(uint8_t *data, size_t size) {
  rename_notes(data, size, notes, hidden, 1);
}

void mtpc_elf_restore_split_stack_notes(uint8_t *data, size_t size) {
  rename_notes(data, size, hidden, notes, 1);
}
