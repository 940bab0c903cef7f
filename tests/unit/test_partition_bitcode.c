/* What each partition loads (lto-backend/bitcode/partition_bitcode.h): later
 * partitions read a copy of the bitcode whose compile units' module-wide
 * lists are cut off; ODR types are described by their home partition and
 * declared elsewhere; the scan finds exactly the module's named ODR type
 * definitions, and reads no bitcode it does not understand. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "lto-backend/bitcode/ir_edit.h"
#include "lto-backend/bitcode/metadata_scan.h"
#include "lto-backend/bitcode/partition_bitcode.h"
#include "lto-backend/bitcode/function_types.h"
#include "lto-backend/bitcode/global_names.h"
#include "lto-backend/partition/debug_info.h"
#include "lto-backend/partition/partition.h"
#include "partitioner/graph.h"
#include "partitioner/plan.h"

/* A C unit with every list a partition after the first does without. */
static const char *c_module =
    "define i32 @get() !dbg !20 {\n"
    "  %v = load i32, ptr @counter, align 4, !dbg !22\n"
    "  ret i32 %v, !dbg !22\n"
    "}\n"
    "define i32 @put() !dbg !24 {\n"
    "  ret i32 2, !dbg !25\n"
    "}\n"
    "@counter = global i32 0, align 4, !dbg !30\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!9, !10}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", "
    "isOptimized: true, emissionKind: FullDebug, enums: !2, retainedTypes: !6, globals: !7, "
    "imports: !40)\n"
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
    "!24 = distinct !DISubprogram(name: \"put\", scope: !1, file: !1, line: 5, type: !21, "
    "scopeLine: 5, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
    "!25 = !DILocation(line: 6, scope: !24)\n"
    "!30 = !DIGlobalVariableExpression(var: !31, expr: !DIExpression())\n"
    "!31 = distinct !DIGlobalVariable(name: \"counter\", scope: !0, file: !1, line: 1, "
    "type: !23, isLocal: false, isDefinition: true)\n"
    "!40 = !{!41}\n"
    "!41 = !DIImportedEntity(tag: DW_TAG_imported_declaration, scope: !0, entity: !42, "
    "file: !1, line: 7)\n"
    "!42 = !DISubprogram(name: \"imported_decl\", scope: !1, file: !1, line: 8, type: !21, "
    "spFlags: DISPFlagOptimized)\n";

/* C++: `Shared` is used by both functions (the module's metadata block),
 * `Local` by @second alone (its body's block). @first, the larger, goes to
 * partition 0. */
static const char *cxx_module =
    "define i32 @first(ptr %s) !dbg !20 {\n"
    "    #dbg_value(ptr %s, !23, !DIExpression(), !24)\n"
    "  %a = load i32, ptr %s, align 4, !dbg !24\n"
    "  %b = add i32 %a, 1, !dbg !24\n"
    "  %c = mul i32 %b, %a, !dbg !24\n"
    "  ret i32 %c, !dbg !24\n"
    "}\n"
    "define i32 @second(ptr %s, i32 %l) !dbg !30 {\n"
    "    #dbg_value(ptr %s, !33, !DIExpression(), !34)\n"
    "    #dbg_value(i32 %l, !35, !DIExpression(), !34)\n"
    "  ret i32 2, !dbg !34\n"
    "}\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!9, !10}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: \"t\", "
    "isOptimized: true, emissionKind: FullDebug)\n"
    "!1 = !DIFile(filename: \"a.cpp\", directory: \"/src\")\n"
    "!9 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
    "!10 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!11 = distinct !DICompositeType(tag: DW_TAG_class_type, name: \"Shared\", file: !1, "
    "line: 1, size: 32, elements: !12, identifier: \"_ZTS6Shared\")\n"
    "!12 = !{!13}\n"
    "!13 = !DIDerivedType(tag: DW_TAG_member, name: \"x\", scope: !11, file: !1, line: 1, "
    "baseType: !14, size: 32)\n"
    "!14 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
    "!15 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !11, size: 64)\n"
    "!20 = distinct !DISubprogram(name: \"first\", scope: !1, file: !1, line: 3, type: !21, "
    "scopeLine: 3, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
    "!21 = !DISubroutineType(types: !{!14})\n"
    "!23 = !DILocalVariable(name: \"s\", arg: 1, scope: !20, file: !1, line: 3, type: !15)\n"
    "!24 = !DILocation(line: 4, scope: !20)\n"
    "!30 = distinct !DISubprogram(name: \"second\", scope: !1, file: !1, line: 5, type: !21, "
    "scopeLine: 5, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
    "!33 = !DILocalVariable(name: \"s\", arg: 1, scope: !30, file: !1, line: 5, type: !15)\n"
    "!34 = !DILocation(line: 6, scope: !30)\n"
    "!35 = !DILocalVariable(name: \"l\", arg: 2, scope: !30, file: !1, line: 5, type: !36)\n"
    "!36 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: \"Local\", file: !1, "
    "line: 2, size: 32, elements: !37, identifier: \"_ZTS5Local\")\n"
    "!37 = !{!38}\n"
    "!38 = !DIDerivedType(tag: DW_TAG_member, name: \"q\", scope: !36, file: !1, line: 2, "
    "baseType: !14, size: 32)\n";

static LLVMModuleRef parse(LLVMContextRef ctx, const char *ir) {
  LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "t.ll");
  LLVMModuleRef m = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(ctx, text, &m, &error)) {
    fprintf(stderr, "bad test IR: %s\n", error);
    exit(2);
  }
  return m;
}

/* The bitcode of `ir`, written from a context of its own. */
static LLVMMemoryBufferRef bitcode_of(const char *ir) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx, ir);
  LLVMMemoryBufferRef bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return bitcode;
}

/* The module's bitcode and its plan with one partition per function. */
typedef struct fixture {
  LLVMContextRef ctx;
  LLVMMemoryBufferRef bitcode;
  mtpc_plan plan;
  mtpc_graph_edges references;
  mtpc_partition_bitcode *pb;
} fixture;

/* With the graph's references: later partitions cut attribute lists too. */
static void set_up_with(fixture *f, const char *ir, int references) {
  f->ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(f->ctx, ir);
  f->bitcode = LLVMWriteBitcodeToMemoryBuffer(m);
  mtpc_graph g;
  CHECK(mtpc_graph_build(&g, m) == MTPC_OK);
  mtpc_plan_options o;
  mtpc_plan_options_init(&o);
  o.partitions = MTPC_PLAN_FINEST;
  CHECK(mtpc_plan_build(&g, &o, &f->plan) == MTPC_OK);
  memset(&f->references, 0, sizeof(f->references));
  if (references)
    mtpc_graph_move_references(&g, &f->references);
  mtpc_graph_free(&g);
  LLVMDisposeModule(m);
  CHECK(mtpc_partition_bitcode_create(LLVMGetBufferStart(f->bitcode),
                                      LLVMGetBufferSize(f->bitcode), &f->pb) == 0);
  CHECK(mtpc_partition_bitcode_plan(f->pb, &f->plan, references ? &f->references : NULL) == 0);
}

static void set_up(fixture *f, const char *ir) { set_up_with(f, ir, 0); }

static void tear_down(fixture *f) {
  mtpc_partition_bitcode_free(f->pb);
  mtpc_graph_edges_free(&f->references);
  mtpc_plan_free(&f->plan);
  LLVMDisposeMemoryBuffer(f->bitcode);
  LLVMContextDispose(f->ctx);
}

static uint32_t owner_of(const mtpc_plan *plan, const char *name) {
  for (uint32_t i = 0; i < plan->node_count; i++)
    if (strcmp(plan->nodes[i].name, name) == 0)
      return plan->nodes[i].owner;
  return MTPC_NONE;
}

/* Partition q's module as its worker reads it (with its function's body and
 * its homed types kept), printed; NULL when it does not load. */
static char *load_view(const fixture *f, uint32_t q, const char *function, int home) {
  mtpc_bitcode_view view;
  char *message = NULL;
  CHECK(mtpc_bitcode_view_open(f->pb, q, 0, &view, &message) == 0);
  LLVMContextRef ctx = LLVMContextCreate();
  if (view.odr_types)
    mtpc_bridge_unique_odr_types(ctx);
  LLVMModuleRef m = NULL;
  char *text = NULL;
  if (mtpc_bridge_open_lazily(ctx, view.data, view.size, "view", view.metadata_on_demand, &m,
                              &message) == 0) {
    CHECK(mtpc_bridge_materialize(LLVMGetNamedFunction(m, function), &message) == 0);
    if (home)
      mtpc_bridge_home_odr_types(m, view.homed, view.homed_count);
    text = LLVMPrintModuleToString(m);
    LLVMDisposeModule(m);
  }
  free(message);
  LLVMContextDispose(ctx);
  mtpc_bitcode_view_close(&view);
  return text;
}

/* The printed DICompositeType line that names `name`. */
static const char *type_line(const char *ir, const char *name, char *line, size_t size) {
  char needle[64];
  snprintf(needle, sizeof(needle), "name: \"%s\"", name);
  const char *at = ir ? strstr(ir, needle) : NULL;
  if (!at)
    return NULL;
  const char *start = at, *end = strchr(at, '\n');
  while (start > ir && start[-1] != '\n')
    start--;
  size_t length = (size_t)((end ? end : at + strlen(at)) - start);
  if (length >= size)
    length = size - 1;
  memcpy(line, start, length);
  line[length] = '\0';
  return line;
}

static int described(const char *ir, const char *name) {
  char line[512];
  return type_line(ir, name, line, sizeof(line)) && !strstr(line, "DIFlagFwdDecl") &&
         strstr(line, "elements:");
}

static int declared(const char *ir, const char *name) {
  char line[512];
  return type_line(ir, name, line, sizeof(line)) && strstr(line, "DIFlagFwdDecl") &&
         !strstr(line, "elements:");
}

static void cuts_the_unit_lists(void) {
  fixture f;
  set_up(&f, c_module);
  uint32_t later = owner_of(&f.plan, "put");
  CHECK(f.plan.partition_count >= 2 && later != 0 && later != MTPC_NONE);
  char *first = load_view(&f, 0, "get", 0);
  char *other = later == MTPC_NONE ? NULL : load_view(&f, later, "put", 0);
  CHECK(first && other);
  if (first && other) {
    CHECK(strstr(first, "enums: ") && strstr(first, "retainedTypes: ") &&
          strstr(first, "imports: "));
    CHECK(!strstr(other, "enums: ") && !strstr(other, "retainedTypes: ") &&
          !strstr(other, "imports: "));
    /* Nothing the lists alone reached was read. */
    CHECK(!strstr(other, "\"colour\"") && !strstr(other, "\"kept\"") &&
          !strstr(other, "imported_decl"));
    CHECK(strstr(other, "globals: ") != NULL);
    CHECK(strstr(other, "distinct !DISubprogram(name: \"put\"") != NULL);
  }
  LLVMDisposeMessage(first);
  LLVMDisposeMessage(other);
  tear_down(&f);
}

static void homes_odr_types(void) {
  fixture f;
  set_up(&f, cxx_module);
  uint32_t second = owner_of(&f.plan, "second");
  CHECK(f.plan.partition_count >= 2 && second != 0 && second != MTPC_NONE);
  if (second == 0 || second == MTPC_NONE) {
    tear_down(&f);
    return;
  }
  /* Partition 0 reads the module's block whole: it describes Shared. */
  char *first = load_view(&f, 0, "first", 1);
  CHECK(described(first, "Shared"));
  CHECK(strstr(first ? first : "", "retainedTypes: ") != NULL);
  /* @second's partition declares Shared and describes Local, its own,
   * under its name; unpatched, Local would be a declaration too. */
  char *home = load_view(&f, second, "second", 1);
  CHECK(declared(home, "Shared"));
  CHECK(described(home, "Local"));
  mtpc_bitcode_view view;
  char *message = NULL;
  CHECK(mtpc_bitcode_view_open(f.pb, second, 0, &view, &message) == 0);
  CHECK_EQ_U(view.homed_count, 1);
  mtpc_bitcode_view_close(&view);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  CHECK(mtpc_bridge_open_lazily(ctx, LLVMGetBufferStart(f.bitcode), LLVMGetBufferSize(f.bitcode),
                                "plain", 1, &m, &message) == 0);
  if (m) {
    CHECK(mtpc_bridge_materialize(LLVMGetNamedFunction(m, "second"), &message) == 0);
    char *plain = LLVMPrintModuleToString(m);
    CHECK(declared(plain, "Local"));
    LLVMDisposeMessage(plain);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  LLVMDisposeMessage(first);
  LLVMDisposeMessage(home);
  tear_down(&f);
}

static void scan_finds_the_odr_definitions(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(cxx_module);
  mtpc_metadata_scan scan;
  CHECK(mtpc_scan_metadata(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode), &scan) ==
        MTPC_SCAN_OK);
  CHECK_EQ_U(scan.odr_count, 2);
  CHECK_EQ_U(scan.function_bodies, 2);
  for (size_t i = 0; i < scan.odr_count; i++) {
    const mtpc_odr_record *r = &scan.odr[i];
    int shared = r->name_text.length == 6 && memcmp(r->name_text.text, "Shared", 6) == 0;
    int local = r->name_text.length == 5 && memcmp(r->name_text.text, "Local", 5) == 0;
    CHECK(shared || local);
    CHECK(r->function == (shared ? UINT32_MAX : 1));
    CHECK(r->identifier.length == (shared ? 11u : 10u));
  }
  mtpc_metadata_scan_free(&scan);
  LLVMDisposeMemoryBuffer(bitcode);
}

static void reads_nothing_it_does_not_understand(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(cxx_module);
  const char *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  mtpc_metadata_scan scan;
  /* Cut short inside the module block (the string table follows it). */
  for (size_t cut_at = 0; cut_at < size * 3 / 4; cut_at += 1 + size / 97)
    CHECK(mtpc_scan_metadata(data, cut_at, &scan) == MTPC_SCAN_UNREADABLE);
  char *garbage = malloc(size);
  memcpy(garbage, data, size);
  for (size_t i = 4; i < size; i++)
    garbage[i] = (char)(i * 2654435761u >> 13); /* a bitcode magic, then noise */
  CHECK(mtpc_scan_metadata(garbage, size, &scan) == MTPC_SCAN_UNREADABLE);
  free(garbage);
  LLVMDisposeMemoryBuffer(bitcode);
}

/* Ten variables with debug info, v0..v4 read by @low, v5..v9 by @high, and
 * a constant the unit lists without a variable: enough metadata that the
 * writer indexes it (more than 25 records), as LLVM reads it on demand. */
static char *variables_module(void) {
  size_t size = 8192, used = 0;
  char *ir = malloc(size);
  CHECK(ir != NULL);
#define EMIT(...) used += (size_t)snprintf(ir + used, size - used, __VA_ARGS__)
  for (int v = 0; v < 10; v++)
    EMIT("@v%d = global i32 %d, align 4, !dbg !%d\n", v, v, 100 + 2 * v);
  for (int half = 0; half < 2; half++) {
    EMIT("define i32 @%s() !dbg !%d {\n", half ? "high" : "low", 20 + half);
    for (int v = 5 * half; v < 5 * half + 5; v++)
      EMIT("  %%l%d = load i32, ptr @v%d, align 4, !dbg !%d\n", v, v, 22 + half);
    EMIT("  ret i32 %%l%d, !dbg !%d\n}\n", 5 * half, 22 + half);
  }
  EMIT("!llvm.dbg.cu = !{!0}\n!llvm.module.flags = !{!9, !10}\n"
       "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", "
       "isOptimized: true, emissionKind: FullDebug, globals: !2)\n"
       "!1 = !DIFile(filename: \"v.c\", directory: \"/src\")\n!2 = !{");
  for (int v = 0; v < 10; v++)
    EMIT("!%d, ", 100 + 2 * v);
  EMIT("!3}\n!3 = !DIGlobalVariableExpression(var: !4, expr: !DIExpression(DW_OP_constu, 7, "
       "DW_OP_stack_value))\n"
       "!4 = distinct !DIGlobalVariable(name: \"folded\", scope: !0, file: !1, line: 1, "
       "type: !5, isLocal: true, isDefinition: true)\n"
       "!5 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
       "!9 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
       "!10 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
       "!11 = !DISubroutineType(types: !{!5})\n");
  for (int half = 0; half < 2; half++)
    EMIT("!%d = distinct !DISubprogram(name: \"%s\", scope: !1, file: !1, line: %d, type: !11, "
         "scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
         "!%d = !DILocation(line: %d, scope: !%d)\n",
         20 + half, half ? "high" : "low", 2 + half, 22 + half, 5 + half, 20 + half);
  for (int v = 0; v < 10; v++)
    EMIT("!%d = !DIGlobalVariableExpression(var: !%d, expr: !DIExpression())\n"
         "!%d = distinct !DIGlobalVariable(name: \"v%d\", scope: !0, file: !1, line: %d, "
         "type: !5, isLocal: false, isDefinition: true)\n",
         100 + 2 * v, 101 + 2 * v, 101 + 2 * v, v, 10 + v);
#undef EMIT
  CHECK(used < size);
  return ir;
}

/* Whether the printed `ir` has @v<v> with a !dbg attachment, and whether it
 * read the variable's description at all. */
static int attached(const char *ir, int v) {
  char needle[32];
  snprintf(needle, sizeof(needle), "@v%d = global", v);
  const char *at = strstr(ir, needle);
  const char *end = at ? strchr(at, '\n') : NULL;
  const char *dbg = at ? strstr(at, "!dbg") : NULL;
  return dbg && (!end || dbg < end);
}

static int described_variable(const char *ir, int v) {
  char needle[32];
  snprintf(needle, sizeof(needle), "name: \"v%d\"", v);
  return strstr(ir, needle) != NULL;
}

static void reads_only_its_variables(void) {
  char *ir = variables_module();
  fixture f;
  set_up(&f, ir);
  uint32_t low = owner_of(&f.plan, "low"), high = owner_of(&f.plan, "high");
  CHECK(low != MTPC_NONE && high != MTPC_NONE && low != high);
  CHECK(owner_of(&f.plan, "v0") == low && owner_of(&f.plan, "v9") == high);
  uint32_t later = low == 0 ? high : low;
  int later_first = later == low ? 0 : 5;
  char *first = load_view(&f, 0, later == low ? "high" : "low", 0);
  char *other = load_view(&f, later, later == low ? "low" : "high", 0);
  CHECK(first && other);
  for (int v = 0; first && other && v < 10; v++) {
    int own = v >= later_first && v < later_first + 5;
    CHECK(attached(first, v) && described_variable(first, v));
    CHECK(attached(other, v) == own);
    CHECK(described_variable(other, v) == own);
  }
  CHECK(first && strstr(first, "\"folded\""));
  CHECK(other && !strstr(other, "\"folded\""));
  LLVMDisposeMessage(first);
  LLVMDisposeMessage(other);
  tear_down(&f);
  free(ir);
}

/* @caller calls @callee, which it cannot inline; @unused and @table are
 * nobody's business but their owners'. One partition per function. */
static const char *calls_module =
    "@table = global [2 x i32] [i32 1, i32 2]\n"
    "define i32 @caller(i32 %x) {\n"
    "  %r = call i32 @callee(i32 %x)\n"
    "  ret i32 %r\n"
    "}\n"
    "define i32 @callee(i32 %x) noinline {\n"
    "  %a = mul i32 %x, %x\n"
    "  %b = add i32 %a, 3\n"
    "  %c = xor i32 %b, %x\n"
    "  ret i32 %c\n"
    "}\n"
    "define i32 @unused() {\n"
    "  %p = getelementptr [2 x i32], ptr @table, i64 0, i64 1\n"
    "  %v = load i32, ptr %p\n"
    "  ret i32 %v\n"
    "}\n";

static int unnamed_globals(LLVMModuleRef m) {
  int count = 0;
  size_t length;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    count += (LLVMGetValueName2(f, &length), length == 0);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    count += (LLVMGetValueName2(g, &length), length == 0);
  return count;
}

/* Partition q's module, read lazily from its view (`keep_records`: every
 * record whole), in a context of its own; close_view releases the three. */
static LLVMModuleRef open_view(const fixture *f, uint32_t q, int keep_records,
                               mtpc_bitcode_view *view, LLVMContextRef *ctx) {
  char *message = NULL;
  CHECK(mtpc_bitcode_view_open(f->pb, q, keep_records, view, &message) == 0);
  *ctx = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  CHECK(mtpc_bridge_open_lazily(*ctx, view->data, view->size, "view", view->metadata_on_demand,
                                &m, &message) == 0);
  free(message);
  return m;
}

static void close_view(LLVMModuleRef m, LLVMContextRef ctx, mtpc_bitcode_view *view) {
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  mtpc_bitcode_view_close(view);
}

/* A later partition reads the globals it has no use for without their
 * names, and its module names what its code still calls as the module
 * did. */
static void cuts_unneeded_names(void) {
  fixture f;
  set_up(&f, calls_module);
  uint32_t q = owner_of(&f.plan, "caller");
  CHECK(q != MTPC_NONE && owner_of(&f.plan, "callee") != q &&
        owner_of(&f.plan, "unused") != q && owner_of(&f.plan, "table") != q);
  if (q == 0) { /* partition 0 reads the module's own bitcode */
    tear_down(&f);
    CHECK(!"the caller's partition is the first");
    return;
  }
  mtpc_bitcode_view view;
  LLVMContextRef ctx;
  LLVMModuleRef m = open_view(&f, q, 0, &view, &ctx);
  char *message = NULL;
  CHECK_EQ_U(unnamed_globals(m), 3); /* @callee, @unused, @table */
  CHECK(LLVMGetNamedFunction(m, "caller") != NULL);
  CHECK(mtpc_make_partition(m, &f.plan, q, 1, &view, &message) == 0);
  CHECK_EQ_U(unnamed_globals(m), 0);
  LLVMValueRef callee = LLVMGetNamedFunction(m, "callee");
  CHECK(callee && LLVMIsDeclaration(callee));
  CHECK(!LLVMGetNamedFunction(m, "unused") && !LLVMGetNamedGlobal(m, "table"));
  free(message);
  close_view(m, ctx, &view);
  tear_down(&f);
}

/* The name fields are found for each function and variable, in order, and
 * truncated bitcode is refused. */
static void finds_the_name_fields(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(calls_module);
  const char *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  mtpc_global_names names;
  CHECK(mtpc_scan_global_names(data, size, &names) == MTPC_NAMES_OK);
  CHECK_EQ_U(names.function_count, 3);
  CHECK_EQ_U(names.variable_count, 1);
  mtpc_global_names_free(&names);
  for (size_t cut_at = 0; cut_at < size / 4; cut_at += 1 + size / 97)
    CHECK(mtpc_scan_global_names(data, cut_at, &names) == MTPC_NAMES_UNREADABLE);
  LLVMDisposeMemoryBuffer(bitcode);
}

/* Each function and the call with attributes of their own. */
static const char *attributes_module =
    "define i32 @caller(i32 %x) #0 {\n"
    "  %r = call i32 @callee(i32 %x) #3\n"
    "  ret i32 %r\n"
    "}\n"
    "define i32 @callee(i32 noundef %x) #1 {\n"
    "  %a = mul i32 %x, %x\n"
    "  %b = add i32 %a, 3\n"
    "  %c = xor i32 %b, %x\n"
    "  ret i32 %c\n"
    "}\n"
    "define i32 @unused(i32 noundef %y) #2 {\n"
    "  ret i32 %y\n"
    "}\n"
    "attributes #0 = { \"caller-attr\" }\n"
    "attributes #1 = { noinline \"callee-attr\" }\n"
    "attributes #2 = { cold \"unused-attr\" }\n"
    "attributes #3 = { \"call-attr\" }\n";

static uint32_t node_of(const mtpc_plan *plan, const char *name) {
  for (uint32_t i = 0; i < plan->node_count; i++)
    if (strcmp(plan->nodes[i].name, name) == 0)
      return i;
  CHECK(!"no such node");
  return 0;
}

static int has_string_attribute(LLVMValueRef f, const char *kind) {
  return LLVMGetStringAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind,
                                       (unsigned)strlen(kind)) != NULL;
}

/* A later partition reads empty the attribute lists of the functions it
 * neither keeps nor names, and keeps its own, those of what it calls, and
 * its calls'. A function whose list it emptied and that it keeps after
 * all (the graph missed a reference) asks for a reload. */
static void cuts_unneeded_attribute_lists(void) {
  fixture f;
  set_up_with(&f, attributes_module, 1);
  uint32_t q = owner_of(&f.plan, "caller");
  CHECK(q != 0 && q != MTPC_NONE && owner_of(&f.plan, "unused") != q);
  for (int missed = 0; missed < 2 && q != 0; missed++) {
    mtpc_bitcode_view view;
    LLVMContextRef ctx;
    LLVMModuleRef m = open_view(&f, q, 0, &view, &ctx);
    char *message = NULL;
    /* In module order; the names of the others may be cut. */
    LLVMValueRef caller = LLVMGetFirstFunction(m);
    LLVMValueRef callee = caller ? LLVMGetNextFunction(caller) : NULL;
    LLVMValueRef unused = callee ? LLVMGetNextFunction(callee) : NULL;
    CHECK(caller && callee && unused);
    CHECK(has_string_attribute(caller, "caller-attr"));
    CHECK(has_string_attribute(callee, "callee-attr"));
    CHECK_EQ_U(LLVMGetAttributeCountAtIndex(unused, LLVMAttributeFunctionIndex), 0);
    CHECK_EQ_U(LLVMGetAttributeCountAtIndex(unused, 1), 0);
    CHECK(mtpc_bridge_materialize(caller, &message) == 0);
    LLVMValueRef call = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(caller));
    CHECK(LLVMGetCallSiteStringAttribute(call, LLVMAttributeFunctionIndex, "call-attr", 9));
    CHECK(view.records_cut != NULL);
    if (missed) /* as if the graph had not said that the caller names it */
      view.records_cut[node_of(&f.plan, "callee")] = 1;
    int formed = mtpc_make_partition(m, &f.plan, q, 1, &view, &message);
    CHECK_EQ_U(formed, missed ? MTPC_PARTITION_RELOAD : 0);
    free(message);
    close_view(m, ctx, &view);
  }
  tear_down(&f);
}

/* Functions of as many parameters as there are reasons to keep a type: a
 * callee, one a variable names, one nobody here uses, the fewest, and two
 * whose blockaddress code takes (every partition parses their bodies). */
static const char *types_module =
    "@table = global ptr @virtual_one\n"
    "define i32 @caller(i32 %x) {\n"
    "  %r = call i32 @callee(i32 %x, i32 %x, i32 1)\n"
    "  ret i32 %r\n"
    "}\n"
    "define i32 @callee(i32 %x, i32 %y, i32 %z) noinline {\n"
    "  %a = mul i32 %x, %y\n"
    "  %b = add i32 %a, %z\n"
    "  %c = xor i32 %b, %x\n"
    "  %d = mul i32 %c, %c\n"
    "  ret i32 %d\n"
    "}\n"
    "define i32 @unused(i32 noundef %a, i32 %b, i64 %c, ptr nonnull %d) {\n"
    "  ret i32 %a\n"
    "}\n"
    "define i32 @virtual_one(i32 %a, i32 %b) {\n"
    "  ret i32 %b\n"
    "}\n"
    "define void @tiny() {\n"
    "  ret void\n"
    "}\n"
    "define i32 @jumps(i32 %a) {\n"
    "entry:\n"
    "  %to = select i1 true, ptr blockaddress(@jumps, %one), ptr blockaddress(@jumps, %two)\n"
    "  indirectbr ptr %to, [label %one, label %two]\n"
    "one:\n"
    "  ret i32 %a\n"
    "two:\n"
    "  ret i32 0\n"
    "}\n"
    "define ptr @far() {\n"
    "  ret ptr blockaddress(@target, %l)\n"
    "}\n"
    "define i32 @target(i32 %a) {\n"
    "entry:\n"
    "  br label %l\n"
    "l:\n"
    "  ret i32 %a\n"
    "}\n";

static unsigned parameters_of(LLVMValueRef f) { return LLVMCountParams(f); }

/* A later partition reads the functions it erases, and that nothing it
 * reads names, with the module's fewest parameters; the callee it
 * declares, and what a variable names, keep theirs. Its partition forms
 * as from the module itself, and a cut function it keeps after all (the
 * graph missed a reference) asks for a reload. */
static void gives_erased_functions_the_fewest_parameters(void) {
  fixture f;
  set_up_with(&f, types_module, 1);
  uint32_t q = owner_of(&f.plan, "caller");
  CHECK(q != 0 && q != MTPC_NONE && owner_of(&f.plan, "unused") != q &&
        owner_of(&f.plan, "virtual_one") != q);
  for (int missed = 0; missed < 2 && q != 0 && q != MTPC_NONE; missed++) {
    mtpc_bitcode_view view;
    LLVMContextRef ctx;
    LLVMModuleRef m = open_view(&f, q, 0, &view, &ctx);
    char *message = NULL;
    /* In module order; the names of the others may be cut. */
    LLVMValueRef caller = LLVMGetFirstFunction(m);
    LLVMValueRef callee = caller ? LLVMGetNextFunction(caller) : NULL;
    LLVMValueRef unused = callee ? LLVMGetNextFunction(callee) : NULL;
    LLVMValueRef virtual_one = unused ? LLVMGetNextFunction(unused) : NULL;
    CHECK(caller && callee && unused && virtual_one);
    CHECK_EQ_U(parameters_of(caller), 1);
    CHECK_EQ_U(parameters_of(callee), 3);
    CHECK_EQ_U(parameters_of(unused), 0);
    CHECK_EQ_U(parameters_of(virtual_one), 2);
    CHECK(view.records_cut && view.records_cut[node_of(&f.plan, "unused")]);
    CHECK(!view.records_cut[node_of(&f.plan, "callee")]);
    CHECK(!view.records_cut[node_of(&f.plan, "jumps")]);
    CHECK(!view.records_cut[node_of(&f.plan, "target")]);
    if (missed) /* as if the graph had not said that the caller names it */
      view.records_cut[node_of(&f.plan, "callee")] = 1;
    int formed = mtpc_make_partition(m, &f.plan, q, 1, &view, &message);
    CHECK_EQ_U(formed, missed ? MTPC_PARTITION_RELOAD : 0);
    if (!missed) {
      char *report = NULL;
      CHECK(LLVMVerifyModule(m, LLVMReturnStatusAction, &report) == 0);
      LLVMDisposeMessage(report);
      CHECK(!LLVMGetNamedFunction(m, "unused"));
      LLVMValueRef declared = LLVMGetNamedFunction(m, "callee");
      CHECK(declared && LLVMIsDeclaration(declared) && parameters_of(declared) == 3);
    }
    free(message);
    close_view(m, ctx, &view);
  }
  /* With every record kept, as a reload reads it. */
  mtpc_bitcode_view view;
  LLVMContextRef ctx;
  LLVMModuleRef m = open_view(&f, q, 1, &view, &ctx);
  LLVMValueRef unused = m ? LLVMGetNextFunction(LLVMGetNextFunction(LLVMGetFirstFunction(m)))
                          : NULL;
  CHECK(unused && parameters_of(unused) == 4 && view.records_cut == NULL);
  close_view(m, ctx, &view);
  tear_down(&f);
}

/* Each function record's type field is found, in order, with the
 * parameters of each type; truncated bitcode is refused. */
static void finds_the_function_types(void) {
  LLVMMemoryBufferRef bitcode = bitcode_of(types_module);
  const char *data = LLVMGetBufferStart(bitcode);
  size_t size = LLVMGetBufferSize(bitcode);
  mtpc_function_types types;
  CHECK(mtpc_scan_function_types(data, size, &types) == MTPC_TYPES_OK);
  CHECK_EQ_U(types.function_count, 8);
  static const unsigned expected[] = {1, 3, 4, 2, 0, 1, 0, 1};
  for (uint32_t i = 0; i < types.function_count && i < 8; i++)
    CHECK_EQ_U(types.parameters[types.fields[i].value], expected[i]);
  CHECK_EQ_U(types.parameters[types.fewest], 0);
  /* Cutting a copy: the tiny one already has the fewest. */
  uint8_t *copy = malloc(size);
  CHECK(copy != NULL);
  if (copy) {
    memcpy(copy, data, size);
    CHECK(mtpc_cut_function_type(copy, &types, 4) != 0);
    CHECK(memcmp(copy, data, size) == 0);
    CHECK(mtpc_cut_function_type(copy, &types, 2) == 0);
    CHECK(memcmp(copy, data, size) != 0);
    mtpc_function_types cut;
    CHECK(mtpc_scan_function_types(copy, size, &cut) == MTPC_TYPES_OK);
    CHECK_EQ_U(cut.fields[2].value, types.fewest);
    CHECK_EQ_U(cut.fields[1].value, types.fields[1].value);
    mtpc_function_types_free(&cut);
    free(copy);
  }
  mtpc_function_types_free(&types);
  for (size_t cut_at = 0; cut_at < size / 4; cut_at += 1 + size / 97)
    CHECK(mtpc_scan_function_types(data, cut_at, &types) == MTPC_TYPES_UNREADABLE);
  LLVMDisposeMemoryBuffer(bitcode);
}

int main(void) {
  cuts_the_unit_lists();
  homes_odr_types();
  reads_only_its_variables();
  scan_finds_the_odr_definitions();
  reads_nothing_it_does_not_understand();
  cuts_unneeded_names();
  finds_the_name_fields();
  cuts_unneeded_attribute_lists();
  gives_erased_functions_the_fewest_parameters();
  finds_the_function_types();
  CHECK_SUMMARY();
}
