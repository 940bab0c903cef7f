/* The graph builder on IR text: nodes in module order, edges with calls
 * marked, flags, bonds, module asm pins. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

#include "check.h"
#include "partitioner/cost.h"
#include "partitioner/graph.h"

static LLVMModuleRef parse(LLVMContextRef ctx, const char *ir) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "test.ll");
  LLVMModuleRef m = NULL;
  char *error = NULL;
  if (LLVMParseIRInContext(ctx, buf, &m, &error)) {
    fprintf(stderr, "bad test IR: %s\n", error);
    exit(2);
  }
  return m;
}

static uint32_t node(const mtpc_graph *g, const char *name) {
  for (uint32_t i = 0; i < g->node_count; i++)
    if (!strcmp(g->nodes[i].name, name))
      return i;
  fprintf(stderr, "no node %s\n", name);
  exit(2);
}

/* The edge u -> v, or MTPC_NONE. */
static uint32_t edge(const mtpc_graph *g, uint32_t u, uint32_t v) {
  for (uint32_t e = g->edge_offsets[u]; e < g->edge_offsets[u + 1]; e++)
    if (g->edge_targets[e] == v)
      return e;
  return MTPC_NONE;
}

static int bonded(const mtpc_graph *g, uint32_t a, uint32_t b) {
  for (uint32_t i = 0; i < g->bond_count; i++)
    if ((g->bonds[i][0] == a && g->bonds[i][1] == b) || (g->bonds[i][0] == b && g->bonds[i][1] == a))
      return 1;
  return 0;
}

static const char module_ir[] =
    "module asm \"call asm_named\"\n"
    "$c = comdat any\n"
    "@table = internal constant [2 x ptr] [ptr @callee, ptr @asm_named]\n"
    "@labels = internal constant [1 x ptr] [ptr blockaddress(@interp, %l)]\n"
    "@tls = thread_local global i32 0\n"
    "@llvm.used = appending global [1 x ptr] [ptr @kept], section \"llvm.metadata\"\n"
    "@alias = alias void (), ptr @callee\n"
    "@ifn = ifunc void (), ptr @resolver\n"
    "define internal void @callee() { ret void }\n"
    "define void @caller() {\n"
    "  call void @callee()\n"
    "  call void @callee()\n"
    "  %p = load ptr, ptr getelementptr ([2 x ptr], ptr @table, i32 0, i32 1)\n"
    "  store ptr @callee, ptr %p\n"
    "  ret void\n"
    "}\n"
    "define i32 @interp() {\n"
    "entry:\n"
    "  %t = load ptr, ptr @labels\n"
    "  indirectbr ptr %t, [label %l]\n"
    "l:\n"
    "  ret i32 0\n"
    "}\n"
    "define linkonce_odr void @inl() comdat($c) { call void @member() ret void }\n"
    "define internal void @member() comdat($c) { ret void }\n"
    "define void @outsider() { call void @member() ret void }\n"
    "define internal void @kept() noinline { ret void }\n"
    "define internal void @asm_named() { ret void }\n"
    "define ptr @resolver() { ret ptr @callee }\n"
    "define void @uses_asm() { call void asm sideeffect \"call callee\", \"\"() ret void }\n"
    "declare void @external()\n";

static void test_module_graph(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx, module_ir);
  mtpc_graph g;
  CHECK(mtpc_graph_build(&g, m) == MTPC_OK);
  /* functions first, in module order */
  CHECK_EQ_U(node(&g, "callee"), 0);
  CHECK(g.nodes[0].kind == MTPC_FUNCTION && g.nodes[node(&g, "table")].kind == MTPC_VARIABLE);
  CHECK(g.nodes[node(&g, "alias")].kind == MTPC_ALIAS && g.nodes[node(&g, "ifn")].kind == MTPC_IFUNC);
  CHECK(node(&g, "alias") < node(&g, "ifn") && node(&g, "tls") < node(&g, "alias"));

  uint32_t caller = node(&g, "caller"), callee = node(&g, "callee"), table = node(&g, "table");
  uint32_t e = edge(&g, caller, callee);
  CHECK(e != MTPC_NONE);
  CHECK_EQ_U(g.edge_weights[e], 3); /* two calls and a stored address */
  CHECK_EQ_U(g.edge_calls[e], 2);
  e = edge(&g, caller, table); /* through a constant expression */
  CHECK(e != MTPC_NONE && g.edge_calls[e] == 0);
  CHECK(edge(&g, table, callee) != MTPC_NONE);
  CHECK(g.nodes[callee].cost == 2 && g.nodes[caller].cost == 6);

  CHECK(g.nodes[callee].flags & MTPC_N_LOCAL);
  CHECK(g.nodes[node(&g, "tls")].flags & MTPC_N_THREAD_LOCAL);
  CHECK(g.nodes[table].flags & MTPC_N_CONSTANT);
  CHECK(g.nodes[node(&g, "kept")].flags & MTPC_N_IN_USED_LIST);
  CHECK(g.nodes[node(&g, "kept")].flags & MTPC_N_NOINLINE);
  CHECK(g.nodes[node(&g, "llvm.used")].flags & MTPC_N_USED_LIST);
  CHECK(g.nodes[node(&g, "external")].flags & MTPC_N_DECLARATION_ONLY);
  CHECK(g.nodes[node(&g, "inl")].flags & MTPC_N_DISCARDABLE);

  uint32_t interp = node(&g, "interp"), labels = node(&g, "labels");
  CHECK(g.nodes[interp].flags & MTPC_N_BLOCKADDRESS_TAKEN);
  CHECK(g.nodes[labels].flags & MTPC_N_USES_BLOCKADDRESS);
  CHECK(bonded(&g, interp, labels));
  CHECK(bonded(&g, node(&g, "alias"), callee));
  CHECK(bonded(&g, node(&g, "ifn"), node(&g, "resolver")));
  CHECK(bonded(&g, node(&g, "inl"), node(&g, "member")));
  /* naming a local member of a COMDAT from outside it */
  CHECK(bonded(&g, node(&g, "outsider"), node(&g, "member")));
  CHECK(g.nodes[node(&g, "outsider")].flags & MTPC_N_REFS_LOCAL_COMDAT);
  /* inline asm names the local callee: every user of callee is bonded to it */
  CHECK(g.nodes[node(&g, "uses_asm")].flags & MTPC_N_ASM_NAMES_SYMBOL);
  CHECK(bonded(&g, caller, callee));
  CHECK(bonded(&g, table, callee));
  /* module asm names asm_named: it and the users of it are pinned */
  CHECK(g.nodes[node(&g, "asm_named")].flags & MTPC_N_PINNED_PRIMARY);
  CHECK(g.nodes[table].flags & MTPC_N_PINNED_PRIMARY);
  CHECK(!(g.nodes[interp].flags & MTPC_N_PINNED_PRIMARY));
  mtpc_graph_free(&g);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void test_finalize_merges_duplicate_edges(void) {
  mtpc_graph g;
  mtpc_graph_init(&g, "m");
  uint32_t a = mtpc_graph_add_node(&g, MTPC_FUNCTION, "a", 1, MTPC_N_DEFINITION, MTPC_NONE, 1);
  uint32_t b = mtpc_graph_add_node(&g, MTPC_FUNCTION, "b", 1, MTPC_N_DEFINITION, MTPC_NONE, 1);
  mtpc_graph_add_edge(&g, b, a, MTPC_REF);
  mtpc_graph_add_edge(&g, a, b, MTPC_CALL);
  mtpc_graph_add_edge(&g, a, b, MTPC_REF);
  mtpc_graph_add_edge(&g, a, b, MTPC_CALL);
  CHECK(mtpc_graph_finalize(&g) == MTPC_OK);
  CHECK_EQ_U(g.edge_offsets[a + 1] - g.edge_offsets[a], 1);
  uint32_t e = edge(&g, a, b);
  CHECK(e != MTPC_NONE && g.edge_weights[e] == 3 && g.edge_calls[e] == 2);
  e = edge(&g, b, a);
  CHECK(e != MTPC_NONE && g.edge_weights[e] == 1 && g.edge_calls[e] == 0);
  mtpc_graph_free(&g);
}

/* Appends "[<count> x <type>] [<type> <element>, ...]" to ir. */
static void append_array(char *ir, size_t cap, unsigned count, const char *type, const char *element) {
  size_t len = strlen(ir);
  len += (size_t)snprintf(ir + len, cap - len, "[%u x %s] [", count, type);
  for (unsigned i = 0; i < count; i++)
    len += (size_t)snprintf(ir + len, cap - len, "%s%s %s", i ? ", " : "", type, element);
  snprintf(ir + len, cap - len, "]\n");
}

/* cost.h's weights: data by elements, bytes and addresses; debug records. */
static void test_costs(void) {
  size_t cap = 1 << 20;
  char *ir = calloc(cap, 1);
  strcat(ir, "@ints = constant ");
  append_array(ir, cap, 2048, "i32", "7"); /* 2048 units */
  strcat(ir, "@pointers = constant ");
  append_array(ir, cap, 64, "ptr", "@f"); /* 64 addresses: 1024 units */
  strcat(ir, "@few = constant ");
  append_array(ir, cap, 255, "i32", "7"); /* under one instruction */
  strcat(ir, "@bytes = constant [4096 x i8] c\"");
  for (int i = 0; i < 4096; i++)
    strcat(ir, "\\01");
  strcat(ir, "\"\n"); /* 512 units */
  strcat(ir, "@zeros = global [1000000 x i32] zeroinitializer\n"
             "@mixed = constant { [256 x i16], [16 x ptr] } { [256 x i16] zeroinitializer, [16 x ptr] [");
  for (int i = 0; i < 16; i++)
    strcat(ir, i ? ", ptr @ints" : "ptr @ints");
  strcat(ir, "] }\n"
             "@external = external global [100 x i32]\n"
             "define i32 @f(i32 %x) !dbg !5 {\n"
             "  call void @llvm.dbg.value(metadata i32 %x, metadata !9, metadata !DIExpression()), !dbg !10\n"
             "  %y = add i32 %x, 1\n"
             "  call void @llvm.dbg.value(metadata i32 %y, metadata !9, metadata !DIExpression()), !dbg !10\n"
             "  %z = mul i32 %y, 3\n"
             "  call void @llvm.dbg.value(metadata i32 %z, metadata !9, metadata !DIExpression()), !dbg !10\n"
             "  call void @llvm.dbg.value(metadata i32 %z, metadata !9, metadata !DIExpression(DW_OP_plus_uconst, 1)), !dbg !10\n"
             "  ret i32 %z, !dbg !10\n"
             "}\n"
             "declare void @llvm.dbg.value(metadata, metadata, metadata)\n"
             "!llvm.dbg.cu = !{!0}\n"
             "!llvm.module.flags = !{!3, !4}\n"
             "!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: \"t\", isOptimized: true, "
             "runtimeVersion: 0, emissionKind: FullDebug)\n"
             "!1 = !DIFile(filename: \"t.c\", directory: \"/\")\n"
             "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
             "!4 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
             "!5 = distinct !DISubprogram(name: \"f\", scope: !1, file: !1, line: 1, type: !6, unit: !0, "
             "spFlags: DISPFlagDefinition | DISPFlagOptimized)\n"
             "!6 = !DISubroutineType(types: !7)\n"
             "!7 = !{!8, !8}\n"
             "!8 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
             "!9 = !DILocalVariable(name: \"v\", scope: !5, file: !1, line: 1, type: !8)\n"
             "!10 = !DILocation(line: 1, scope: !5)\n");
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx, ir);
  free(ir);
  mtpc_graph g;
  CHECK(mtpc_graph_build(&g, m) == MTPC_OK);
  CHECK_EQ_U(g.nodes[node(&g, "ints")].cost, 2048 / MTPC_DATA_UNITS_PER_COST);
  CHECK_EQ_U(g.nodes[node(&g, "pointers")].cost, 64 * MTPC_RELOCATION_UNITS / MTPC_DATA_UNITS_PER_COST);
  CHECK_EQ_U(g.nodes[node(&g, "few")].cost, 0);
  CHECK_EQ_U(g.nodes[node(&g, "bytes")].cost, 4096 / 8 / MTPC_DATA_UNITS_PER_COST);
  CHECK_EQ_U(g.nodes[node(&g, "zeros")].cost, 0);
  CHECK_EQ_U(g.nodes[node(&g, "mixed")].cost, 16 * MTPC_RELOCATION_UNITS / MTPC_DATA_UNITS_PER_COST);
  CHECK_EQ_U(g.nodes[node(&g, "external")].cost, 0);
  /* three instructions, four debug records, and one for the function */
  CHECK_EQ_U(g.nodes[node(&g, "f")].cost, 3 + 1 + 4 * MTPC_DEBUG_RECORD_TENTHS / 10);
  /* the copy limits weigh instructions only, so -g copies what a build without it does */
  CHECK_EQ_U(g.nodes[node(&g, "f")].size, 3 + 1);
  CHECK_EQ_U(g.nodes[node(&g, "ints")].size, 0);
  mtpc_graph_free(&g);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

int main(void) {
  test_module_graph();
  test_finalize_merges_duplicate_edges();
  test_costs();
  CHECK_SUMMARY();
}
