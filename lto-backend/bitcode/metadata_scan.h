/* What a partition's bitcode is made from (partition_bitcode.h): one pass
 * over the module's metadata records, in the module's metadata block and in
 * each function body's, that finds
 *
 * - each compile unit's module-wide lists (enums, retained types, imported
 *   entities, macros), which only partition 0 describes;
 * - each composite type definition with an ODR identifier and a name (a C++
 *   class, struct, union or enum). Read with metadata on demand, as ThinLTO's
 *   importer reads a module, such a type becomes a declaration; a partition
 *   that is the type's home reads its record with the name cut off instead,
 *   which makes it a definition, and puts the name back.
 *
 * - the module's global declaration attachments (a variable's !dbg, its
 *   DIGlobalVariableExpression) and the operands of the compile units'
 *   global variable lists, so that a partition reads only the expressions
 *   of the variables it defines (variable_debug.h).
 *
 * The writer puts metadata that one function alone uses in that function's
 * block; those types are homed where the function is. */
#ifndef MTPC_METADATA_SCAN_H
#define MTPC_METADATA_SCAN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A VBR6 operand at `bit`, `width` bits long. */
typedef struct mtpc_bit_field {
  uint64_t bit, width;
} mtpc_bit_field;

/* A string of the module's metadata: bytes of the bitcode, not terminated. */
typedef struct mtpc_md_string {
  const char *text;
  uint32_t length;
} mtpc_md_string;

typedef struct mtpc_odr_record {
  uint32_t function;    /* the function body (counted in module order) whose
                           block holds it, or UINT32_MAX: the module's block */
  mtpc_bit_field name;  /* the record's name operand */
  mtpc_md_string name_text;
  mtpc_md_string identifier;
} mtpc_odr_record;

/* A METADATA_GLOBAL_DECL_ATTACHMENT record: [value ID, (kind, metadata)...],
 * unabbreviated. */
typedef struct mtpc_md_attachment {
  uint32_t value;      /* the global's value ID (variables first, then functions) */
  uint64_t start, end; /* its bits, from its abbreviation ID on */
  uint64_t code_bit;   /* its code, a VBR6 field of code_width bits */
  uint32_t code_width;
  uint32_t first, count; /* its metadata IDs: attached[first .. first + count) */
} mtpc_md_attachment;

/* A metadata operand (its value is the ID plus one, 0 for none). */
typedef struct mtpc_md_operand {
  uint64_t value;
  mtpc_bit_field field;
} mtpc_md_operand;

typedef struct mtpc_metadata_scan {
  mtpc_bit_field *unit_lists; /* non-empty list fields of compile units */
  size_t unit_list_count;
  /* The attachment records, one contiguous run at the end of the module's
   * block, and the operands of the units' global variable lists. Both
   * empty when the module has none, or they are not laid out so. */
  mtpc_md_attachment *attachments;
  size_t attachment_count;
  uint32_t *attached;
  size_t attached_count;
  mtpc_md_operand *unit_globals;
  size_t unit_global_count;
  mtpc_odr_record *odr;       /* in bitcode order */
  size_t odr_count;
  uint32_t function_bodies;
} mtpc_metadata_scan;

typedef enum mtpc_scan_status {
  MTPC_SCAN_OK,
  MTPC_SCAN_UNREADABLE, /* not laid out as LLVM writes bitcode; nothing to free */
  MTPC_SCAN_NO_MEMORY   /* nothing to free */
} mtpc_scan_status;

/* Scans the first module of `bitcode`, which must outlive the scan. */
mtpc_scan_status mtpc_scan_metadata(const void *bitcode, size_t size, mtpc_metadata_scan *scan);
void mtpc_metadata_scan_free(mtpc_metadata_scan *scan);

/* Rewrites a VBR6 field as the value 0 in the same number of bits, so that
 * every other recorded bit offset still holds. */
void mtpc_clear_field(uint8_t *data, mtpc_bit_field field);

#ifdef __cplusplus
}
#endif

#endif
