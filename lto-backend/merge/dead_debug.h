#ifndef MTPC_DEAD_DEBUG_H
#define MTPC_DEAD_DEBUG_H

#include <stddef.h>
#include <stdint.h>

/* The debug info of a copy that the merge discarded, marked dead, in place.
 *
 * Every partition that defines a linkonce_odr function (a clone) describes
 * it, since a caller's DW_TAG_call_site needs the callee's subprogram and
 * any copy may be the one kept: the first partition whose optimizer left
 * it. ld.lld -r keeps one COMDAT group of each name and turns the
 * relocations that pointed into the others into R_*_NONE, so their
 * addresses read 0, and the discarded functions of one unit overlap there.
 * This gives each such address in .debug_addr (DWARF 5) and .debug_info
 * (DW_FORM_addr) DWARF's tombstone instead, all ones, which LLVM's readers
 * and gdb skip: an absolute relocation with addend -1 against a local
 * absolute symbol of value 0, so that the object reads -1 and so does the
 * program linked from it. x86-64 and AArch64; other objects are left as
 * ld.lld -r wrote them. Returns how many addresses it marked. */
size_t mtpc_mark_dead_debug(uint8_t *object, size_t size);

#endif
