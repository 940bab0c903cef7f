/* The copy of the bitcode the plan is read from (lto-backend/bitcode/plan_bitcode.h):
 * LLVM reads it without a debug location or debug record, each function
 * keeps its subprogram, each body's debug records are counted, and a module
 * without debug info, a cut-short module or noise gets no copy. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "lto-backend/bitcode/plan_bitcode.h"
#include "partitioner/debug_types.h"

/* Two bodies with locations; @twice has two debug records, @once one, and
 * the declaration @ext none (it has no body). */
static const char *debug_module =
    "declare void @ext(i32)\n"
    "define i32 @twice(i32 %x) !dbg !10 {\n"
    "  #dbg_value(i32 %x, !12, !DIExpression(), !13)\n"
    "  %y = add i32 %x, 1, !dbg !13\n"
    "  #dbg_value(i32 %y, !12, !DIExpression(), !13)\n"
    "  call void @ext(i32 %y), !dbg !13\n"
    "  ret i32 %y, !dbg !13\n"
    "}\n"
    "define i32 @once(i32 %x) !dbg !20 {\n"
    "  #dbg_value(i32 %x, !22, !DIExpression(), !23)\n"
    "  ret i32 %x, !dbg !23\n"
    "}\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!5, !6}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", "
    "isOptimized: true, emissionKind: FullDebug)\n"
    "!1 = !DIFile(filename: \"a.c\", directory: \"/src\")\n"
    "!5 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!6 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
    "!7 = !DISubroutineType(types: !8)\n"
    "!8 = !{!9, !9}\n"
    "!9 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
    "!10 = distinct !DISubprogram(name: \"twice\", scope: !1, file: !1, line: 1, type: !7, "
    "spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !11)\n"
    "!11 = !{!12}\n"
    "!12 = !DILocalVariable(name: \"x\", arg: 1, scope: !10, file: !1, line: 1, type: !9)\n"
    "!13 = !DILocation(line: 2, column: 3, scope: !10)\n"
    "!20 = distinct !DISubprogram(name: \"once\", scope: !1, file: !1, line: 5, type: !7, "
    "spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21)\n"
    "!21 = !{!22}\n"
    "!22 = !DILocalVariable(name: \"x\", arg: 1, scope: !20, file: !1, line: 5, type: !9)\n"
    "!23 = !DILocation(line: 6, column: 3, scope: !20)\n";

static const char *plain_module = "define i32 @f(i32 %x) {\n"
                                  "  ret i32 %x\n"
                                  "}\n";

static LLVMMemoryBufferRef bitcode_of(const char *ir) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "t.ll");
  LLVMModuleRef m = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(ctx, text, &m, &error)) {
    fprintf(stderr, "%s\n", error);
    exit(2);
  }
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return bitcode;
}

static unsigned located_instructions(LLVMValueRef f) {
  unsigned located = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      located += LLVMInstructionGetDebugLoc(i) != NULL;
  return located;
}

static void copy_reads_without_debug_records(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(debug_module);
  mtpc_plan_bitcode pb;
  CHECK(mtpc_plan_bitcode_make(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode), &pb) == 0);
  CHECK(pb.data != NULL);
  CHECK_EQ_U(pb.body_count, 2);
  if (pb.body_count == 2) {
    CHECK_EQ_U(pb.debug_records[0], 2);
    CHECK_EQ_U(pb.debug_records[1], 1);
  }
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef copy =
      LLVMCreateMemoryBufferWithMemoryRange((const char *)pb.data, pb.size, "copy", 0);
  LLVMModuleRef m = NULL;
  CHECK(pb.data && LLVMParseBitcodeInContext2(ctx, copy, &m) == 0);
  for (LLVMValueRef f = m ? LLVMGetFirstFunction(m) : NULL; f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    CHECK(LLVMGetSubprogram(f) != NULL);
    CHECK_EQ_U(mtpc_debug_record_count(f), 0); /* llvm-c has no walk of them in LLVM 19 */
    CHECK_EQ_U(located_instructions(f), 0);
  }
  if (m)
    LLVMDisposeModule(m);
  LLVMDisposeMemoryBuffer(copy);
  LLVMContextDispose(ctx);
  mtpc_plan_bitcode_free(&pb);
  CHECK(pb.data == NULL && pb.debug_records == NULL);
  LLVMDisposeMemoryBuffer(bitcode);
}

static void no_copy_without_debug_info(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(plain_module);
  mtpc_plan_bitcode pb;
  CHECK(mtpc_plan_bitcode_make(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode), &pb) == 0);
  CHECK(pb.data == NULL && pb.debug_records == NULL);
  LLVMDisposeMemoryBuffer(bitcode);
}

static void no_copy_of_bitcode_it_cannot_read(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(debug_module);
  const char *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  mtpc_plan_bitcode pb;
  /* Cut short inside the module block (the string table follows it). */
  for (size_t cut_at = 0; cut_at < size * 3 / 4; cut_at += 1 + size / 97) {
    CHECK(mtpc_plan_bitcode_make(data, cut_at, &pb) == 0);
    CHECK(pb.data == NULL);
  }
  char *garbage = malloc(size);
  memcpy(garbage, data, size);
  for (size_t i = 4; i < size; i++)
    garbage[i] = (char)(i * 2654435761u >> 13); /* a bitcode magic, then noise */
  CHECK(mtpc_plan_bitcode_make(garbage, size, &pb) == 0);
  CHECK(pb.data == NULL);
  free(garbage);
  LLVMDisposeMemoryBuffer(bitcode);
}

int main(void) {
  copy_reads_without_debug_records();
  no_copy_without_debug_info();
  no_copy_of_bitcode_it_cannot_read();
  CHECK_SUMMARY();
}
