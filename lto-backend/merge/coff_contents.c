#include "coff_contents.h"

#include <string.h>
#include <strings.h>

#include "support/leb128.h"
#include "support/support.h"

coff_content mtpc_coff_content_of(coff_name name, uint32_t characteristics) {
  if (mtpc_coff_name_is(name, ".debug$S")) /* a COMDAT function's are associative */
    return COFF_CONTENT_CV_SYMBOLS;
  if (mtpc_coff_name_is(name, ".debug$T"))
    return COFF_CONTENT_CV_TYPES;
  if (mtpc_coff_name_is(name, ".debug$H"))
    return COFF_CONTENT_CV_HASHES;
  if (characteristics & COFF_SCN_LNK_COMDAT)
    return COFF_CONTENT_PLAIN;
  if (mtpc_coff_name_is(name, ".drectve"))
    return COFF_CONTENT_DIRECTIVES;
  if (mtpc_coff_name_is(name, ".llvm_addrsig"))
    return COFF_CONTENT_ADDRSIG;
  if (mtpc_coff_name_is(name, ".llvm.call-graph-profile"))
    return COFF_CONTENT_CALL_GRAPH;
  if (mtpc_coff_name_is(name, ".sxdata"))
    return COFF_CONTENT_SXDATA;
  if (mtpc_coff_name_is(name, ".gfids$y") || mtpc_coff_name_is(name, ".giats$y") ||
      mtpc_coff_name_is(name, ".gljmp$y") || mtpc_coff_name_is(name, ".gehcont$y"))
    return COFF_CONTENT_GUARD;
  return COFF_CONTENT_PLAIN;
}

int mtpc_coff_content_combined(coff_content content) {
  return content == COFF_CONTENT_DIRECTIVES || content == COFF_CONTENT_ADDRSIG ||
         content == COFF_CONTENT_CALL_GRAPH || content == COFF_CONTENT_SXDATA ||
         content == COFF_CONTENT_CV_TYPES;
}

uint8_t *mtpc_coff_reserve(coff_bytes *bytes, size_t n) {
  if (mtpc_grow((void **)&bytes->data, &bytes->cap, bytes->size + n, 1))
    return NULL;
  uint8_t *at = bytes->data + bytes->size;
  memset(at, 0, n);
  bytes->size += n;
  return at;
}

static coff_append_status append(coff_bytes *out, const void *data, size_t size) {
  uint8_t *at = mtpc_coff_reserve(out, size);
  if (!at)
    return COFF_NO_MEMORY;
  memcpy(at, data, size);
  return COFF_APPENDED;
}

/* A directive's symbol when it is "-exclude-symbols:<name>" (or
 * "/exclude-symbols:", quoted or not), else a name of length 0. */
static coff_name excluded_symbol(const char *token, size_t len) {
  static const char option[] = "exclude-symbols:";
  size_t option_len = sizeof(option) - 1;
  if (len <= option_len + 1 || (token[0] != '-' && token[0] != '/') ||
      strncasecmp(token + 1, option, option_len) != 0)
    return (coff_name){"", 0};
  coff_name value = {token + 1 + option_len, len - 1 - option_len};
  if (value.len >= 2 && value.text[0] == '"' && value.text[value.len - 1] == '"')
    value = (coff_name){value.text + 1, value.len - 2};
  return value;
}

/* Directives are separated by white space outside double quotes; each one
 * kept is written after a space, as LLVM writes them. */
static coff_append_status append_directives(coff_bytes *out, const uint8_t *data, size_t size,
                                            const coff_renumbering *r) {
  const char *text = (const char *)data;
  size_t i = 0;
  while (i < size) {
    while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
                        text[i] == '\0'))
      i++;
    size_t start = i;
    int quoted = 0;
    while (i < size && text[i] != '\0' &&
           (quoted || (text[i] != ' ' && text[i] != '\t' && text[i] != '\n' && text[i] != '\r'))) {
      quoted ^= text[i] == '"';
      i++;
    }
    if (i == start)
      continue;
    coff_name excluded = excluded_symbol(text + start, i - start);
    if (excluded.len && r->drops_exclusion(r->context, excluded))
      continue;
    if (append(out, " ", 1) != COFF_APPENDED || append(out, text + start, i - start) != COFF_APPENDED)
      return COFF_NO_MEMORY;
  }
  return COFF_APPENDED;
}

static coff_append_status append_uleb(coff_bytes *out, uint32_t value) {
  uint8_t encoded[5];
  size_t n = mtpc_uleb_size(value);
  mtpc_uleb_encode(encoded, value, n);
  return append(out, encoded, n);
}

static coff_append_status append_addrsig(coff_bytes *out, const uint8_t *data, size_t size,
                                         const coff_renumbering *r) {
  for (size_t i = 0; i < size;) {
    uint64_t value;
    if (!mtpc_uleb_decode(data, size, &i, &value))
      return COFF_MALFORMED;
    uint32_t index = value > UINT32_MAX ? UINT32_MAX : r->index(r->context, (uint32_t)value);
    if (index == UINT32_MAX)
      return COFF_MALFORMED;
    if (append_uleb(out, index) != COFF_APPENDED)
      return COFF_NO_MEMORY;
  }
  return COFF_APPENDED;
}

/* Records of `record` bytes whose first `indices` words are symbol indices. */
static coff_append_status append_indexed(coff_bytes *out, const uint8_t *data, size_t size,
                                         size_t record, unsigned indices,
                                         const coff_renumbering *r) {
  if (size % record)
    return COFF_MALFORMED;
  uint8_t *at = mtpc_coff_reserve(out, size);
  if (!at)
    return COFF_NO_MEMORY;
  memcpy(at, data, size);
  for (size_t i = 0; i < size; i += record)
    for (unsigned k = 0; k < indices; k++) {
      uint32_t index = r->index(r->context, coff_rd32(at + i + 4 * k));
      if (index == UINT32_MAX)
        return COFF_MALFORMED;
      coff_wr32(at + i + 4 * k, index);
    }
  return COFF_APPENDED;
}

coff_append_status mtpc_coff_append_content(coff_bytes *out, coff_content content,
                                            const uint8_t *data, size_t size,
                                            const coff_renumbering *renumbering) {
  switch (content) {
  case COFF_CONTENT_DIRECTIVES:
    return append_directives(out, data, size, renumbering);
  case COFF_CONTENT_ADDRSIG:
    return append_addrsig(out, data, size, renumbering);
  case COFF_CONTENT_CALL_GRAPH:
    return append_indexed(out, data, size, 16, 2, renumbering);
  case COFF_CONTENT_SXDATA:
  case COFF_CONTENT_GUARD:
    return append_indexed(out, data, size, 4, 1, renumbering);
  case COFF_CONTENT_PLAIN:
  case COFF_CONTENT_CV_SYMBOLS: /* coff_codeview.h */
  case COFF_CONTENT_CV_TYPES:
  case COFF_CONTENT_CV_HASHES:
  case COFF_CONTENT_KINDS:
    break;
  }
  return append(out, data, size);
}
