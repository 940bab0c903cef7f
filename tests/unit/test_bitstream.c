/* The bitstream reader (lto-backend/bitcode/bitstream.h): it finds a
 * module's records with the bit position of each operand, so that a field
 * rewritten in place is what LLVM then reads; it stops on a truncated or
 * foreign input instead of reading past its end; and its VBR writer and
 * bit copy keep every other bit where it was. The metadata strings' walk
 * (md_strings.h) finds each string, module-wide and a function's own, where
 * the bytes hold it. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "lto-backend/bitcode/bitstream.h"
#include "lto-backend/bitcode/md_strings.h"

enum { MODULE_CODE_TRIPLE = 2 };
static const char triple[] = "x86_64-pc-linux-gnu";

/* The module's bitcode, malloc'ed; the module and its context disposed. */
static uint8_t *bitcode_of(LLVMModuleRef module, LLVMContextRef context, size_t *size) {
  LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(module);
  *size = LLVMGetBufferSize(buffer);
  uint8_t *data = malloc(*size);
  memcpy(data, LLVMGetBufferStart(buffer), *size);
  LLVMDisposeMemoryBuffer(buffer);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return data;
}

/* Bitcode of an empty module with `triple`, malloc'ed. */
static uint8_t *module_bitcode(size_t *size) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = LLVMModuleCreateWithNameInContext("m", context);
  LLVMSetTarget(module, triple);
  return bitcode_of(module, context, size);
}

/* Walks the module block's own records, skipping its sub-blocks, and keeps
 * the triple record's operands in *found. 0 when the walk reached the
 * block's end; non-zero when the reader stopped on malformed data. */
static int find_triple(const uint8_t *data, size_t size, mtpc_bs_record *found) {
  mtpc_bitstream bs;
  int failed = mtpc_bs_enter_module(&bs, data, size);
  mtpc_bs_record record = {0};
  while (!failed) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&bs, &id);
    if (kind == MTPC_BS_ENTRY_END)
      break;
    if (kind == MTPC_BS_ENTRY_ERROR)
      failed = 1;
    else if (kind == MTPC_BS_ENTRY_SUBBLOCK)
      failed = mtpc_bs_skip_block(&bs);
    else if (mtpc_bs_read_record(&bs, id, &record))
      failed = 1;
    else if (record.code == MODULE_CODE_TRIPLE && found) {
      found->count = record.count;
      found->ops = malloc(record.count * sizeof(mtpc_bs_operand));
      memcpy(found->ops, record.ops, record.count * sizeof(mtpc_bs_operand));
    }
  }
  failed |= bs.failed;
  mtpc_bs_record_free(&record);
  mtpc_bs_free(&bs);
  return failed;
}

static char *triple_llvm_reads(const uint8_t *data, size_t size) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMMemoryBufferRef buffer =
      LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, "m.bc");
  LLVMModuleRef module = NULL;
  char *read = NULL;
  if (!LLVMParseBitcodeInContext2(context, buffer, &module)) {
    read = strdup(LLVMGetTarget(module));
    LLVMDisposeModule(module);
  }
  LLVMDisposeMemoryBuffer(buffer);
  LLVMContextDispose(context);
  return read;
}

static void test_operands_at_their_bits(void) {
  size_t size;
  uint8_t *data = module_bitcode(&size);
  mtpc_bs_record found = {0};
  CHECK(find_triple(data, size, &found) == 0);
  CHECK_EQ_U(found.count, strlen(triple));
  for (uint32_t i = 0; i < found.count && i < strlen(triple); i++)
    CHECK_EQ_U(found.ops[i].value, (unsigned char)triple[i]);
  /* "pc" becomes "qc" where the reader said the 'p' is. */
  const char *p = strchr(triple, 'p');
  if (found.count == strlen(triple)) {
    mtpc_bs_operand op = found.ops[p - triple];
    CHECK(mtpc_bs_write_vbr(data, op.bit, op.width, 6, 'q') == 0);
  }
  char *read = triple_llvm_reads(data, size);
  CHECK(read && strcmp(read, "x86_64-qc-linux-gnu") == 0);
  free(read);
  free(found.ops);
  free(data);
}

static void test_truncated_and_foreign(void) {
  size_t size;
  uint8_t *data = module_bitcode(&size);
  /* Cut anywhere in the module block: its length says it goes on. */
  mtpc_bitstream bs;
  CHECK(mtpc_bs_enter_module(&bs, data, size) == 0);
  size_t start = bs.bit / 8, end = bs.scopes[bs.depth - 1].end_bit / 8;
  mtpc_bs_free(&bs);
  CHECK(start + 8 < end && end <= size);
  for (size_t cut = start; cut < end; cut += (end - start) / 7 + 1)
    CHECK(find_triple(data, cut, NULL) != 0);
  for (size_t cut = 0; cut < 8; cut += 3)
    CHECK(find_triple(data, cut, NULL) != 0);
  static const uint8_t not_bitcode[] = "ELF\x7f, not bitcode at all";
  CHECK(find_triple(not_bitcode, sizeof(not_bitcode), NULL) != 0);
  CHECK(find_triple(data, size, NULL) == 0);
  free(data);
}

static void test_vbr_write_and_bit_copy(void) {
  uint8_t field[8];
  memset(field, 0xa5, sizeof(field));
  /* 1000 in two 6-bit chunks, at bit 3; the bits around it stay. */
  CHECK(mtpc_bs_write_vbr(field, 3, 12, 6, 1000) == 0);
  mtpc_bitstream bs;
  mtpc_bs_init(&bs, field, sizeof(field));
  CHECK_EQ_U(mtpc_bs_fixed(&bs, 3), 0x5);
  CHECK_EQ_U(mtpc_bs_vbr(&bs, 6), 1000);
  CHECK_EQ_U(mtpc_bs_fixed(&bs, 1), (0xa5 >> 7) & 1);
  /* 5000 needs three chunks: the field is left as it was. */
  uint8_t before[8];
  memcpy(before, field, sizeof(field));
  CHECK(mtpc_bs_write_vbr(field, 3, 12, 6, 5000) != 0);
  CHECK(memcmp(before, field, sizeof(field)) == 0);

  uint8_t from[4] = {0x3c, 0xf0, 0x0f, 0x5a}, to[4] = {0xff, 0xff, 0xff, 0xff};
  mtpc_bs_copy_bits(to, 9, from, 5, 13);
  mtpc_bitstream a, b;
  mtpc_bs_init(&a, from, sizeof(from));
  mtpc_bs_init(&b, to, sizeof(to));
  mtpc_bs_fixed(&a, 5);
  CHECK_EQ_U(mtpc_bs_fixed(&b, 9), 0x1ff);
  CHECK_EQ_U(mtpc_bs_fixed(&b, 13), mtpc_bs_fixed(&a, 13));
  CHECK_EQ_U(mtpc_bs_fixed(&b, 10), 0x3ff);
}

/* A string of f's own (the writer puts it in f's metadata block) and two
 * of the module's. */
static const char strings_ir[] = "define void @f() {\n"
                                 "  call void @g(), !note !0\n"
                                 "  ret void\n"
                                 "}\n"
                                 "declare void @g()\n"
                                 "!named = !{!1}\n"
                                 "!0 = !{!\"only-in-f\"}\n"
                                 "!1 = !{!\"module-wide\", !\"second\"}\n";

static uint8_t *strings_bitcode(size_t *size) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMMemoryBufferRef ir =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(strings_ir, sizeof(strings_ir) - 1, "strings");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  CHECK(LLVMParseIRInContext(context, ir, &module, &message) == 0);
  return bitcode_of(module, context, size);
}

typedef struct seen_strings {
  const uint8_t *data;
  size_t size;
  int count, stop_at;
  size_t only_in_f; /* its offset, 0: not seen */
  int module_wide, second;
} seen_strings;

static int see_string(void *arg, const char *text, uint32_t length) {
  seen_strings *s = arg;
  CHECK((const uint8_t *)text > s->data && (const uint8_t *)text + length <= s->data + s->size);
  if (length == 9 && memcmp(text, "only-in-f", 9) == 0)
    s->only_in_f = (size_t)((const uint8_t *)text - s->data);
  s->module_wide += length == 11 && memcmp(text, "module-wide", 11) == 0;
  s->second += length == 6 && memcmp(text, "second", 6) == 0;
  return ++s->count == s->stop_at ? 7 : 0;
}

static void test_metadata_strings(void) {
  size_t size;
  uint8_t *data = strings_bitcode(&size);
  seen_strings seen = {.data = data, .size = size};
  CHECK(mtpc_md_strings_each(data, size, see_string, &seen) == 0);
  CHECK_EQ_U(seen.count, 3);
  CHECK(seen.only_in_f != 0 && seen.module_wide == 1 && seen.second == 1);

  /* The bytes it found are the string LLVM reads. */
  memcpy(data + seen.only_in_f, "ONLY-IN-F", 9);
  LLVMContextRef context = LLVMContextCreate();
  LLVMMemoryBufferRef buffer =
      LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, "edited");
  LLVMModuleRef module = NULL;
  CHECK(LLVMParseBitcodeInContext2(context, buffer, &module) == 0);
  char *text = module ? LLVMPrintModuleToString(module) : NULL;
  CHECK(text && strstr(text, "!\"ONLY-IN-F\"") && !strstr(text, "only-in-f"));
  LLVMDisposeMessage(text);
  LLVMDisposeModule(module);
  LLVMDisposeMemoryBuffer(buffer);
  LLVMContextDispose(context);

  /* A visitor's non-zero stops the walk and is its result. */
  seen_strings stopped = {.data = data, .size = size, .stop_at = 2};
  CHECK(mtpc_md_strings_each(data, size, see_string, &stopped) == 7);
  CHECK_EQ_U(stopped.count, 2);
  /* Cut short or not bitcode: -1. */
  seen_strings cut = {.data = data, .size = size};
  CHECK(mtpc_md_strings_each(data, seen.only_in_f, see_string, &cut) == -1);
  static const uint8_t not_bitcode[] = "ELF\x7f, not bitcode at all";
  CHECK(mtpc_md_strings_each(not_bitcode, sizeof(not_bitcode), see_string, &cut) == -1);
  free(data);
}

/* Passing over VBR fields lands where reading them one by one does, for
 * every chunk width, field count and starting bit (near the end of the data
 * too), and fails where reading fails: past the end, or on a field longer
 * than any 64-bit value. */
static void test_skipping_vbr_fields(void) {
  enum { SIZE = 96 };
  uint8_t data[SIZE];
  uint32_t seed = 12345;
  for (int round = 0; round < 40; round++) {
    for (int i = 0; i < SIZE; i++) {
      seed = seed * 1103515245u + 12345u;
      /* Some rounds mostly continuation bits: long fields. */
      data[i] = (uint8_t)(seed >> 16) | (round % 4 == 3 ? 0xdf : 0);
    }
    for (unsigned width = 2; width <= 32; width += 1 + (width >= 8) * 3) {
      for (uint64_t count = 1; count <= 40; count += 1 + count / 8) {
        for (uint64_t start = 0; start < SIZE * 8; start += 7) {
          mtpc_bitstream read = {.data = data, .size_bits = SIZE * 8, .bit = start};
          mtpc_bitstream skipped = read;
          for (uint64_t k = 0; k < count && !read.failed; k++)
            (void)mtpc_bs_vbr(&read, width);
          mtpc_bs_skip_vbrs(&skipped, width, count);
          if (read.failed != skipped.failed) {
            CHECK_EQ_U(skipped.failed, read.failed);
            return;
          }
          if (!read.failed && read.bit != skipped.bit) {
            CHECK_EQ_U(skipped.bit, read.bit);
            return;
          }
        }
      }
    }
  }
  uint8_t ones[SIZE];
  memset(ones, 0xff, sizeof(ones));
  mtpc_bitstream endless = {.data = ones, .size_bits = SIZE * 8};
  mtpc_bs_skip_vbrs(&endless, 6, 1);
  CHECK(endless.failed);
}

int main(void) {
  test_skipping_vbr_fields();
  test_operands_at_their_bits();
  test_metadata_strings();
  test_truncated_and_foreign();
  test_vbr_write_and_bit_copy();
  CHECK_SUMMARY();
}
