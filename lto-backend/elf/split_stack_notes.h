/* Split stacks' notes across ld.lld -r. Code generation marks an object
 * whose functions check their stack (-fsplit-stack) with an empty
 * .note.GNU-split-stack section, and one with functions that need no check
 * with .note.GNU-no-split-stack too; a final link reads them to adjust
 * calls into code without checks. ld.lld -r refuses the first ("cannot mix
 * split-stack and non-split-stack"), so the merge hides both under another
 * name of the same length, which ld.lld -r keeps as a plain section, and
 * gives the merged object's back their names. */
#ifndef MTPC_SPLIT_STACK_NOTES_H
#define MTPC_SPLIT_STACK_NOTES_H

#include <stddef.h>
#include <stdint.h>

/* Whether an ELF64 object has either note. */
int mtpc_elf_has_split_stack_notes(const uint8_t *data, size_t size);
/* Renames the notes in place: hidden (.mtpc.GNU-...) or back (.note.GNU-...).
 * A name that another section's name shares bytes with is left as it is. */
void mtpc_elf_hide_split_stack_notes(uint8_t *data, size_t size);
void mtpc_elf_restore_split_stack_notes(uint8_t *data, size_t size);

#endif
