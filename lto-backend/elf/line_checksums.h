/* The MD5 fields of the file tables in DWARF 5 line table headers
 * (.debug_line, .debug_line.dwo), rewritten in place (line_checksums.c). */
#ifndef MTPC_LINE_CHECKSUMS_H
#define MTPC_LINE_CHECKSUMS_H

#include <stddef.h>
#include <stdint.h>

/* Called with each file's 16 checksum bytes, which it may rewrite. */
typedef void mtpc_line_checksum_fn(void *arg, uint8_t checksum[16]);

/* Calls `visit` on every DW_LNCT_MD5 field of every line table in the
 * section's bytes (little-endian DWARF). Tables of earlier versions have
 * none. 0 when every header was read; -1 at the first one this cannot read
 * (then the fields before it were visited). */
int mtpc_line_checksums(uint8_t *section, size_t size, mtpc_line_checksum_fn *visit, void *arg);

#endif
