/* The sections of a COFF object whose bytes name symbols: by their index in
 * the object's symbol table (address-significance, call graph profile,
 * SafeSEH and control-flow guard tables) or by name (the linker's
 * directives). Merging objects renumbers them, and makes one section of
 * those a linker reads once per object (it keeps the last it sees).
 * CodeView's sections, which name each other's records, are the merge's
 * too (coff_codeview.h). */
#ifndef MTPC_COFF_CONTENTS_H
#define MTPC_COFF_CONTENTS_H

#include <stddef.h>
#include <stdint.h>

#include "coff_object.h"

typedef enum coff_content {
  COFF_CONTENT_PLAIN,
  COFF_CONTENT_DIRECTIVES, /* .drectve: the linker's options, as text */
  COFF_CONTENT_ADDRSIG,    /* .llvm_addrsig: ULEB128 indices */
  COFF_CONTENT_CALL_GRAPH, /* .llvm.call-graph-profile: u32 from, u32 to, u64 count */
  COFF_CONTENT_SXDATA,     /* .sxdata: u32 indices of SEH handlers */
  COFF_CONTENT_GUARD,      /* .gfids$y, .giats$y, .gljmp$y, .gehcont$y: u32 indices */
  COFF_CONTENT_CV_SYMBOLS, /* .debug$S: CodeView symbols, lines and their tables */
  COFF_CONTENT_CV_TYPES,   /* .debug$T: the CodeView type stream .debug$S indexes */
  COFF_CONTENT_CV_HASHES,  /* .debug$H: the type stream's hashes, left to the linker */
  COFF_CONTENT_KINDS
} coff_content;

coff_content mtpc_coff_content_of(coff_name name, uint32_t characteristics);
/* The linker reads one such section per object: the merge makes one. */
int mtpc_coff_content_combined(coff_content content);

/* A growable byte buffer. */
typedef struct coff_bytes {
  uint8_t *data;
  size_t size, cap;
} coff_bytes;

/* n zeroed bytes appended: where they start, NULL when memory runs out. */
uint8_t *mtpc_coff_reserve(coff_bytes *bytes, size_t n);

typedef struct coff_renumbering {
  /* A symbol's index in the merged object, UINT32_MAX when it has none. */
  uint32_t (*index)(void *context, uint32_t old_index);
  /* Whether an -exclude-symbols: directive names a symbol that is no
   * longer external (a promoted one made static again). */
  int (*drops_exclusion)(void *context, coff_name symbol);
  void *context;
} coff_renumbering;

typedef enum coff_append_status {
  COFF_APPENDED,
  COFF_MALFORMED,
  COFF_NO_MEMORY
} coff_append_status;

/* Appends a section's bytes of kind `content` to *out, renumbered. */
coff_append_status mtpc_coff_append_content(coff_bytes *out, coff_content content,
                                            const uint8_t *data, size_t size,
                                            const coff_renumbering *renumbering);

#endif
