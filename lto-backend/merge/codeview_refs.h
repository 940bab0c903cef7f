/* Where a CodeView record holds type indices: LLVM's table of every type
 * and symbol record kind, which the COFF merge needs to map each
 * partition's indices into the merged type stream. (C++, codeview_refs.cpp.) */
#ifndef MTPC_CODEVIEW_REFS_H
#define MTPC_CODEVIEW_REFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* `count` type indices, 4 bytes each, from `offset` bytes past the start
 * of the record (its length and kind included). */
typedef struct mtpc_cv_refs {
  uint32_t offset;
  uint32_t count;
} mtpc_cv_refs;

/* The spans of type indices in one record: `record` starts with the
 * record's length and kind, and zeros follow it (LLVM reads a name to its
 * NUL). At most `cap` spans are written; returns how many the record has,
 * or -1 for a type record LLVM's reader refuses or a symbol kind it does
 * not know. */
int mtpc_cv_type_record_refs(const uint8_t *record, size_t size, mtpc_cv_refs *refs, size_t cap);
int mtpc_cv_symbol_record_refs(const uint8_t *record, size_t size, mtpc_cv_refs *refs,
                               size_t cap);

#ifdef __cplusplus
}
#endif

#endif
