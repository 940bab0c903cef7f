/* CodeView in a merged COFF object. Each partition's object has its own
 * type stream (.debug$T), string table and file checksums (subsections of
 * its .debug$S), and a linker reads one of each per object. The merge
 * makes one type stream (equal records once, as LLVM's own type table
 * keeps them, each partition's indices mapped into it), one string table
 * and one checksum table, and rewrites every .debug$S section for them:
 * its type indices, its checksum and string offsets, and the records only
 * one object holds (its name and compiler's, kept from partition 0). */
#ifndef MTPC_COFF_CODEVIEW_H
#define MTPC_COFF_CODEVIEW_H

#include <stddef.h>
#include <stdint.h>

#include "coff_contents.h"

typedef struct coff_codeview coff_codeview;

/* type_bytes: the inputs' .debug$T sizes summed (the merged stream is
 * never larger). NULL when memory runs out. */
coff_codeview *mtpc_cv_new(uint32_t inputs, size_t type_bytes);
void mtpc_cv_free(coff_codeview *cv);

/* Pass 1, inputs in order: input j's type stream, then the string table
 * and checksums of each of its .debug$S sections. */
coff_append_status mtpc_cv_add_types(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                     size_t size);
coff_append_status mtpc_cv_add_files(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                     size_t size);

/* The merged .debug$T section's bytes (owned by cv). */
const uint8_t *mtpc_cv_types(const coff_codeview *cv, size_t *size);

/* Where the bytes of a rewritten section moved: relocations follow. */
typedef struct cv_piece {
  uint32_t from, to, size; /* size 0: resized, no relocation may point into it */
} cv_piece;
typedef struct cv_moves {
  cv_piece *pieces;
  size_t count, cap;
} cv_moves;
/* A relocation's new offset, UINT32_MAX when its bytes were dropped. */
uint32_t mtpc_cv_moved(const cv_moves *moves, uint32_t offset);

enum {
  CV_REWRITE_OBJECT_RECORDS = 1, /* keep the object's name, compiler and build records */
  CV_REWRITE_TABLES = 2,         /* append the merged checksums and string table */
  CV_REWRITE_ONCE = 4            /* keep one of equal type names and constants (not COMDAT) */
};

/* Whether the relocation at `offset` of the section names a symbol the
 * split promoted (a local function in the serial compile). */
typedef int cv_promoted_at(void *context, uint32_t offset);

/* Pass 2: input j's .debug$S section, rewritten, appended to *out. */
coff_append_status mtpc_cv_rewrite_symbols(coff_codeview *cv, uint32_t j, const uint8_t *data,
                                           size_t size, unsigned flags,
                                           cv_promoted_at *promoted, void *context,
                                           coff_bytes *out, cv_moves *moves);

#endif
