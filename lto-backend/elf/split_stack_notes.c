#include "split_stack_notes.h"

#include <string.h>

#include "elf_object.h"

static const char *const notes[] = {".note.GNU-split-stack", ".note.GNU-no-split-stack"};
static const char *const hidden[] = {".mtpc.GNU-split-stack", ".mtpc.GNU-no-split-stack"};
enum { NOTE_KINDS = 2, PREFIX_LENGTH = 5 /* ".note" and ".mtpc" */ };

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

/* Renames, in place, each section named from[k] to to[k] (the same length). */
static void rename_notes(uint8_t *data, size_t size, const char *const *from,
                         const char *const *to) {
  uint32_t count = 0;
  size_t names = 0, names_size = 0;
  const uint8_t *headers = mtpc_elf_section_headers(data, size, &count);
  if (!headers || !mtpc_elf_section_names(data, size, headers, count, &names, &names_size))
    return;
  for (uint32_t i = 1; i < count; i++) {
    uint32_t at = mtpc_elf_section_header(headers, i).sh_name;
    for (int k = 0; k < NOTE_KINDS; k++) {
      size_t length = strlen(from[k]) + 1;
      if (at < names_size && names_size - at >= length &&
          memcmp(data + names + at, from[k], length) == 0 &&
          name_unshared(headers, count, at, length))
        memcpy(data + names + at, to[k], PREFIX_LENGTH);
    }
  }
}

int mtpc_elf_has_split_stack_notes(const uint8_t *data, size_t size) {
  size_t offset, length;
  for (int k = 0; k < NOTE_KINDS; k++)
    if (mtpc_elf_find_section(data, size, notes[k], &offset, &length) == 1)
      return 1;
  return 0;
}

void mtpc_elf_hide_split_stack_notes(uint8_t *data, size_t size) {
  rename_notes(data, size, notes, hidden);
}

void mtpc_elf_restore_split_stack_notes(uint8_t *data, size_t size) {
  rename_notes(data, size, hidden, notes);
}
