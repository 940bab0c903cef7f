/* The bitcode later partitions load (lto-backend/unit_lists.h): each compile
 * unit's enum and retained type lists are cut off in place, the rest of the
 * module reads back unchanged, and anything else is left alone. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "../../lto-backend/ir_edit.h"
#include "../../lto-backend/unit_lists.h"
#include "check.h"

static const char *with_lists =
    "define i32 @get() !dbg !20 {\n"
    "  %v = load i32, ptr @counter, align 4, !dbg !22\n"
    "  ret i32 %v, !dbg !22\n"
    "}\n"
    "@counter = global i32 0, align 4, !dbg !30\n"
    "!llvm.dbg.cu = !{!0, !40}\n"
    "!llvm.module.flags = !{!9, !10}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", "
    "isOptimized: true, emissionKind: FullDebug, enums: !2, retainedTypes: !6, globals: !7)\n"
    "!1 = !DIFile(filename: \"a.c\", directory: \"/src\")\n"
    "!2 = !{!3}\n"
    "!3 = !DICompositeType(tag: DW_TAG_enumeration_type, name: \"colour\", file: !1, line: 1, "
    "baseType: !5, size: 32, elements: !4)\n"
    "!4 = !{!8}\n"
    "!5 = !DIBasicType(name: \"unsigned int\", size: 32, encoding: DW_ATE_unsigned)\n"
    "!6 = !{!11}\n"
    "!7 = !{!30}\n"
    "!8 = !DIEnumerator(name: \"RED\", value: 0, isUnsigned: true)\n"
    "!9 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
    "!10 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!11 = !DICompositeType(tag: DW_TAG_structure_type, name: \"kept\", file: !1, line: 2, "
    "size: 32, elements: !12)\n"
    "!12 = !{}\n"
    "!20 = distinct !DISubprogram(name: \"get\", scope: !1, file: !1, line: 3, type: !21, "
    "scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
    "!21 = !DISubroutineType(types: !{!23})\n"
    "!22 = !DILocation(line: 4, scope: !20)\n"
    "!23 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
    "!30 = !DIGlobalVariableExpression(var: !31, expr: !DIExpression())\n"
    "!31 = distinct !DIGlobalVariable(name: \"counter\", scope: !0, file: !1, line: 1, "
    "type: !23, isLocal: false, isDefinition: true)\n"
    "!40 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", "
    "isOptimized: true, emissionKind: FullDebug, retainedTypes: !6)\n";

static const char *without_lists =
    "define i32 @get() {\n"
    "  ret i32 1\n"
    "}\n";

static LLVMMemoryBufferRef bitcode_of(LLVMContextRef ctx, const char *ir) {
  LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "t.ll");
  LLVMModuleRef m = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(ctx, text, &m, &error)) {
    fprintf(stderr, "bad test IR: %s\n", error);
    exit(2);
  }
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  LLVMDisposeModule(m);
  return bitcode;
}

/* The module in `bitcode`, printed; NULL when it does not parse. */
static char *printed(LLVMContextRef ctx, const void *bitcode, size_t size) {
  LLVMMemoryBufferRef buffer = LLVMCreateMemoryBufferWithMemoryRange(bitcode, size, "p", 0);
  LLVMModuleRef m = NULL;
  int failed = LLVMParseBitcodeInContext2(ctx, buffer, &m);
  LLVMDisposeMemoryBuffer(buffer);
  if (failed)
    return NULL;
  char *text = LLVMPrintModuleToString(m);
  LLVMDisposeModule(m);
  return text;
}

static void cuts_the_lists(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef bitcode = bitcode_of(ctx, with_lists);
  size_t size = LLVMGetBufferSize(bitcode);
  uint8_t *cut = mtpc_without_unit_type_lists(LLVMGetBufferStart(bitcode), size);
  CHECK(cut != NULL);
  if (!cut) {
    LLVMDisposeMemoryBuffer(bitcode);
    LLVMContextDispose(ctx);
    return;
  }
  char *before = printed(ctx, LLVMGetBufferStart(bitcode), size);
  char *after = printed(ctx, cut, size);
  CHECK(before && after);
  if (before && after) {
    CHECK(strstr(before, "enums: ") && strstr(before, "retainedTypes: "));
    CHECK(!strstr(after, "enums: ") && !strstr(after, "retainedTypes: "));
    CHECK(!strstr(after, "name: \"colour\"") && !strstr(after, "name: \"kept\""));
    /* Everything else reads back as it was. */
    CHECK(strstr(after, "globals: ") != NULL);
    CHECK(strstr(after, "@counter = global i32 0, align 4, !dbg") != NULL);
    CHECK(strstr(after, "load i32, ptr @counter") != NULL);
    CHECK(strstr(after, "distinct !DISubprogram(name: \"get\"") != NULL);
    CHECK(strstr(after, "!\"Debug Info Version\", i32 3") != NULL);
  }
  LLVMDisposeMessage(before);
  LLVMDisposeMessage(after);

  /* A partition opens it with metadata on demand and materializes a body. */
  LLVMContextRef other = LLVMContextCreate();
  LLVMModuleRef lazy = NULL;
  char *message = NULL;
  CHECK(mtpc_bridge_open_lazily(other, cut, size, "cut", 1, &lazy, &message) == 0);
  if (lazy) {
    CHECK(mtpc_bridge_materialize_bodies(lazy, &message) == 0);
    CHECK(LLVMCountBasicBlocks(LLVMGetNamedFunction(lazy, "get")) == 1);
    LLVMDisposeModule(lazy);
  }
  free(message);
  LLVMContextDispose(other);
  free(cut);
  LLVMDisposeMemoryBuffer(bitcode);
  LLVMContextDispose(ctx);
}

static void leaves_the_rest(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef bitcode = bitcode_of(ctx, without_lists);
  const char *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  CHECK(mtpc_without_unit_type_lists(data, size) == NULL); /* nothing to cut */
  LLVMDisposeMemoryBuffer(bitcode);

  bitcode = bitcode_of(ctx, with_lists);
  data = LLVMGetBufferStart(bitcode);
  size = LLVMGetBufferSize(bitcode);
  /* Cut short inside the module block (the string table follows it). */
  for (size_t cut_at = 0; cut_at < size * 3 / 4; cut_at += 1 + size / 64)
    CHECK(mtpc_without_unit_type_lists(data, cut_at) == NULL);
  char *garbage = malloc(size);
  memcpy(garbage, data, size);
  memset(garbage + 4, 0xa5, size - 4); /* a bitcode magic, then noise */
  CHECK(mtpc_without_unit_type_lists(garbage, size) == NULL);
  free(garbage);
  LLVMDisposeMemoryBuffer(bitcode);
  LLVMContextDispose(ctx);
}

int main(void) {
  cuts_the_lists();
  leaves_the_rest();
  CHECK_SUMMARY();
}
