/* The section groups an object's rewrite keeps as the compiler made them
 * (comdat_groups.c; C, called from the ObjCopy bridge, objects.cpp). */
#ifndef MTPC_COMDAT_GROUPS_H
#define MTPC_COMDAT_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Gives each section group of `after` (ObjCopy's rewrite of `before`, its
 * sections in the same order) the GRP_COMDAT flag its counterpart in
 * `before` had: ObjCopy drops it from a group whose signature symbol is
 * local, where the compiler's object deduplicates (a sanitizer's module
 * constructor). 0; 1 when either is not an ELF64 little-endian object this
 * reads or their groups differ in number (then `after` is as it was). */
int mtpc_elf_keep_comdat_groups(const uint8_t *before, size_t before_size, uint8_t *after,
                                size_t after_size);

#ifdef __cplusplus
}
#endif

#endif
