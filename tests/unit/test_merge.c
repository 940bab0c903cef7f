/* The merge (lto-backend/merge/): two partition objects, one calling a
 * function the other defines under its promoted name, become one object in
 * which that function is a local symbol under its original name, in a
 * section named after it, and the call's relocation names it. Localizing in
 * place leaves an object it does not read unchanged. Two partitions that
 * both define a clone with debug info become one object in which the
 * discarded copy's addresses are DWARF's tombstone (dead_debug.h), on
 * x86-64 and AArch64. The same pair as COFF objects merges without a linker
 * (coff_merge.h), CodeView into one type stream, and a cut or foreign
 * object, or CodeView it cannot read, is refused with a message. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "check.h"
#include "lto-backend/elf/elf_object.h"
#include "lto-backend/merge/coff_merge.h"
#include "lto-backend/merge/coff_object.h"
#include "lto-backend/merge/dead_debug.h"
#include "lto-backend/merge/localize.h"
#include "lto-backend/merge/merge.h"
#include "support/support.h"

#define PROMOTED "helper.llvm.mtpc0123456789abcdef"

/* Partition 0 calls the helper partition 1 defines; both were given the
 * promoted name, hidden, as the split gives a local function two
 * partitions share. */
static const char *const partition_ir[2] = {
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "declare hidden i32 @\"" PROMOTED "\"(i32)\n"
    "define i32 @entry(i32 %x) {\n"
    "  %y = call i32 @\"" PROMOTED "\"(i32 %x)\n"
    "  ret i32 %y\n"
    "}\n",
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "define hidden i32 @\"" PROMOTED "\"(i32 %x) noinline section \".text." PROMOTED "\" {\n"
    "  %y = mul i32 %x, 7\n"
    "  ret i32 %y\n"
    "}\n"};

static int emit_object(const char *triple, const char *ir, void **object, size_t *size) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "p.ll");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  int failed = LLVMParseIRInContext(context, text, &module, &message);
  LLVMTargetRef target = NULL;
  if (!failed)
    failed = LLVMGetTargetFromTriple(triple, &target, &message);
  LLVMMemoryBufferRef buffer = NULL;
  if (!failed) {
    LLVMTargetMachineRef machine =
        LLVMCreateTargetMachine(target, triple, "", "", LLVMCodeGenLevelDefault,
                                LLVMRelocPIC, LLVMCodeModelDefault);
    failed = LLVMTargetMachineEmitToMemoryBuffer(machine, module, LLVMObjectFile, &message,
                                                 &buffer);
    LLVMDisposeTargetMachine(machine);
  }
  if (!failed) {
    *size = LLVMGetBufferSize(buffer);
    *object = malloc(*size);
    memcpy(*object, LLVMGetBufferStart(buffer), *size);
    LLVMDisposeMemoryBuffer(buffer);
  } else {
    fprintf(stderr, "emit: %s\n", message ? message : "?");
  }
  LLVMDisposeMessage(message);
  if (module)
    LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return failed;
}

static const char *symbol_name(const elf_object *o, uint32_t i) {
  return o->names.text + o->symbols[i].st_name;
}

static uint32_t find_symbol(const elf_object *o, const char *name) {
  for (uint32_t i = 1; i < o->symbol_count; i++)
    if (strcmp(symbol_name(o, i), name) == 0)
      return i;
  return 0;
}

static int has_section(const elf_object *o, const char *name) {
  for (uint32_t i = 0; i < o->section_count; i++)
    if (strcmp(o->section_names.text + o->sections[i].sh_name, name) == 0)
      return 1;
  return 0;
}

/* How many relocations of `section` name symbol `symbol`. */
static unsigned relocations_to(const elf_object *o, const char *section, uint32_t symbol) {
  unsigned count = 0;
  for (uint32_t i = 0; i < o->section_count; i++) {
    const Elf64_Shdr *s = &o->sections[i];
    if (s->sh_type != SHT_RELA || strcmp(o->section_names.text + s->sh_name, section) != 0)
      continue;
    const Elf64_Rela *rela = (const Elf64_Rela *)(o->data + s->sh_offset);
    for (size_t r = 0; r < s->sh_size / sizeof(Elf64_Rela); r++)
      count += ELF64_R_SYM(rela[r].r_info) == symbol;
  }
  return count;
}

/* Two partitions' objects, emitted from their IR and merged under a plan. */
typedef struct merged_pair {
  mtpc_job jobs[2];
  void *object;
  size_t size;
  int mapped;
} merged_pair;

/* 1 when both emit, merge, and the merged object opens as *o. */
static int merge_pair(const char *triple, const char *const ir[2], const mtpc_plan *plan,
                      merged_pair *m, elf_object *o) {
  memset(m, 0, sizeof(*m));
  for (int i = 0; i < 2; i++) {
    m->jobs[i].partition = (uint32_t)i;
    CHECK(emit_object(triple, ir[i], &m->jobs[i].object, &m->jobs[i].object_size) == 0);
  }
  char *message = NULL;
  CHECK(mtpc_merge_objects(plan, m->jobs, 2, 0, NULL, &m->object, &m->size, &m->mapped, &message) ==
        0);
  if (message)
    fprintf(stderr, "merge: %s\n", message);
  free(message);
  int opened = m->object && mtpc_elf_open(o, m->object, m->size);
  CHECK(opened);
  return opened;
}

static void release_pair(merged_pair *m) {
  if (m->mapped)
    munmap(m->object, m->size);
  else
    free(m->object);
  for (int i = 0; i < 2; i++)
    free(m->jobs[i].object);
}

static void test_merge_localizes_promoted(void) {
  mtpc_plan_node node = {.name = "helper", .promoted_name = PROMOTED, .owner = 1};
  mtpc_plan plan = {.partition_count = 2, .node_count = 1, .nodes = &node};
  merged_pair m;
  elf_object o;
  if (merge_pair("x86_64-pc-linux-gnu", partition_ir, &plan, &m, &o)) {
    uint32_t helper = find_symbol(&o, "helper");
    CHECK(helper != 0);
    CHECK(find_symbol(&o, PROMOTED) == 0);
    CHECK(helper < o.first_global);
    CHECK(ELF64_ST_BIND(o.symbols[helper].st_info) == STB_LOCAL);
    CHECK(ELF64_ST_VISIBILITY(o.symbols[helper].st_other) == STV_DEFAULT);
    CHECK(ELF64_ST_TYPE(o.symbols[helper].st_info) == STT_FUNC);
    CHECK(has_section(&o, ".text.helper"));
    CHECK(!has_section(&o, ".text." PROMOTED));
    CHECK(relocations_to(&o, ".rela.text", helper) == 1);
    uint32_t entry = find_symbol(&o, "entry");
    CHECK(entry >= o.first_global);
    CHECK(ELF64_ST_BIND(o.symbols[entry].st_info) == STB_GLOBAL);
  }
  release_pair(&m);
}

static void test_localize_leaves_foreign_objects(void) {
  uint8_t not_elf[64];
  memset(not_elf, 0x5a, sizeof(not_elf));
  uint8_t before[64];
  memcpy(before, not_elf, sizeof(not_elf));
  const char *names[] = {PROMOTED}, *originals[] = {"helper"};
  CHECK(mtpc_localize_in_place(not_elf, sizeof(not_elf), names, originals, 1, NULL, 0) ==
        MTPC_LOCALIZE_UNSUPPORTED);
  CHECK(memcmp(before, not_elf, sizeof(not_elf)) == 0);
}

/* Partition `p` of two that both define the clone @shared (a COMDAT of
 * its own) with its DWARF 5 subprogram, and call it. */
static char *clone_partition_ir(const char *triple, int p) {
  return mtpc_asprintf(
      "target triple = \"%s\"\n"
      "$shared = comdat any\n"
      "define linkonce_odr i32 @shared(i32 %%x) noinline comdat !dbg !5 {\n"
      "  %%y = mul i32 %%x, 7, !dbg !6\n"
      "  ret i32 %%y, !dbg !6\n"
      "}\n"
      "define i32 @entry%d(i32 %%x) !dbg !7 {\n"
      "  %%y = call i32 @shared(i32 %%x), !dbg !8\n"
      "  ret i32 %%y, !dbg !8\n"
      "}\n"
      "!llvm.dbg.cu = !{!0}\n"
      "!llvm.module.flags = !{!2, !3}\n"
      "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, "
      "producer: \"t\", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)\n"
      "!1 = !DIFile(filename: \"part%d.cpp\", directory: \"/t\")\n"
      "!2 = !{i32 7, !\"Dwarf Version\", i32 5}\n"
      "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
      "!4 = !DISubroutineType(types: !{})\n"
      "!5 = distinct !DISubprogram(name: \"shared\", scope: !1, file: !1, line: 1, type: !4, "
      "scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!6 = !DILocation(line: 2, scope: !5)\n"
      "!7 = distinct !DISubprogram(name: \"entry%d\", scope: !1, file: !1, line: 4, type: !4, "
      "scopeLine: 4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!8 = !DILocation(line: 5, scope: !7)\n",
      triple, p, p, p);
}

/* Relocations of the debug sections that hold addresses: those of type
 * `type` with addend -1 against a local absolute symbol of value 0 (the
 * tombstone), and those without a symbol or type (what ld.lld -r leaves of
 * one whose target it discarded). */
static void count_debug_addresses(const elf_object *o, uint32_t type, unsigned *tombstones,
                                  unsigned *unmarked) {
  *tombstones = *unmarked = 0;
  for (uint32_t i = 1; i < o->section_count; i++) {
    const Elf64_Shdr *s = &o->sections[i];
    const char *name = o->section_names.text + s->sh_name;
    if (s->sh_type != SHT_RELA ||
        (strcmp(name, ".rela.debug_addr") != 0 && strcmp(name, ".rela.debug_info") != 0))
      continue;
    const Elf64_Rela *rela = (const Elf64_Rela *)(o->data + s->sh_offset);
    for (size_t r = 0; r < s->sh_size / sizeof(Elf64_Rela); r++) {
      uint32_t symbol = ELF64_R_SYM(rela[r].r_info);
      *unmarked += rela[r].r_info == 0;
      *tombstones += ELF64_R_TYPE(rela[r].r_info) == type && rela[r].r_addend == -1 &&
                     symbol != 0 && symbol < o->first_global &&
                     o->symbols[symbol].st_shndx == SHN_ABS && o->symbols[symbol].st_value == 0;
    }
  }
}

static void test_merge_marks_discarded_debug(const char *triple, uint32_t absolute) {
  char *ir[2] = {clone_partition_ir(triple, 0), clone_partition_ir(triple, 1)};
  mtpc_plan plan = {.partition_count = 2};
  merged_pair m;
  elf_object o;
  if (merge_pair(triple, (const char *const *)ir, &plan, &m, &o)) {
    unsigned tombstones, unmarked;
    count_debug_addresses(&o, absolute, &tombstones, &unmarked);
    /* The second partition's copy of @shared: its subprogram's address. */
    CHECK(tombstones >= 1);
    CHECK(unmarked == 0);
    CHECK(mtpc_mark_dead_debug(m.object, m.size) == 0);
  }
  release_pair(&m);
  free(ir[0]);
  free(ir[1]);
}

/* The record index of the COFF symbol named `name`, or UINT32_MAX. */
static uint32_t find_coff_symbol(const coff_object *o, const char *name) {
  for (uint32_t r = 0; r < o->record_count; r += 1 + mtpc_coff_symbol(o, r).aux_count)
    if (mtpc_coff_name_is(mtpc_coff_symbol(o, r).name, name))
      return r;
  return UINT32_MAX;
}

static int coff_merge_pair(void *const objects[2], const size_t sizes[2], void **out,
                           size_t *size, char **message) {
  const char *names[] = {PROMOTED}, *originals[] = {"helper"};
  return mtpc_coff_merge((const void *const *)objects, sizes, 2, names, originals, 1, out, size,
                         message);
}

static void test_coff_merge(void) {
  void *objects[2] = {NULL, NULL}, *out = NULL;
  size_t sizes[2], size = 0;
  for (int i = 0; i < 2; i++)
    CHECK(emit_object("x86_64-pc-windows-msvc", partition_ir[i], &objects[i], &sizes[i]) == 0);
  char *message = NULL;
  CHECK(coff_merge_pair(objects, sizes, &out, &size, &message) == 0);
  coff_object o;
  CHECK(out && mtpc_coff_open(&o, out, size));
  if (out && mtpc_coff_open(&o, out, size)) {
    uint32_t helper = find_coff_symbol(&o, "helper");
    CHECK(helper != UINT32_MAX);
    CHECK(find_coff_symbol(&o, PROMOTED) == UINT32_MAX);
    if (helper != UINT32_MAX) {
      coff_symbol s = mtpc_coff_symbol(&o, helper);
      CHECK_EQ_U(s.storage, COFF_CLASS_STATIC);
      CHECK(s.section > 0);
      unsigned calls = 0; /* entry's call names the static symbol */
      for (uint32_t i = 0; i < o.section_count; i++) {
        const uint8_t *relocations;
        uint32_t count;
        CHECK(mtpc_coff_section_relocations(&o, i, &relocations, &count) == 0);
        for (uint32_t k = 0; k < count; k++)
          calls += coff_rd32(relocations + (size_t)k * COFF_RELOCATION + 4) == helper;
      }
      CHECK(calls >= 1);
    }
  }
  free(out);
  /* Every cut of partition 1's object: one message, no object. */
  size_t whole = sizes[1];
  for (size_t cut = 0; cut < whole; cut += whole / 37 + 1) {
    sizes[1] = cut;
    out = NULL;
    message = NULL;
    CHECK(coff_merge_pair(objects, sizes, &out, &size, &message) == 1);
    CHECK(message && strstr(message, "partition 1's object: "));
    CHECK(out == NULL);
    free(message);
  }
  sizes[1] = whole;
  /* Another machine's object. */
  free(objects[1]);
  CHECK(emit_object("aarch64-pc-windows-msvc", partition_ir[1], &objects[1], &sizes[1]) == 0);
  message = NULL;
  CHECK(coff_merge_pair(objects, sizes, &out, &size, &message) == 1);
  CHECK(message && strstr(message, "machine"));
  free(message);
  free(objects[0]);
  free(objects[1]);
}

/* Partition `p` of two with CodeView: its own type stream (a struct type
 * both use), string table and checksums; partition 1 inlines a function
 * of a header. */
static char *codeview_partition_ir(int p) {
  return mtpc_asprintf(
      "target triple = \"x86_64-pc-windows-msvc\"\n"
      "define i32 @entry%d(ptr %%c) !dbg !7 {\n"
      "    #dbg_value(ptr %%c, !9, !DIExpression(), !8)\n"
      "  %%v = load i32, ptr %%c, !dbg !8\n"
      "  %%w = mul i32 %%v, %d, !dbg !12\n"
      "  ret i32 %%w, !dbg !8\n"
      "}\n"
      "!llvm.dbg.cu = !{!0}\n"
      "!llvm.module.flags = !{!2, !3}\n"
      "!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, producer: \"t\", "
      "isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)\n"
      "!1 = !DIFile(filename: \"part%d.c\", directory: \"/t\")\n"
      "!2 = !{i32 2, !\"CodeView\", i32 1}\n"
      "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
      "!4 = !DISubroutineType(types: !{!5, !6})\n"
      "!5 = !DIBasicType(name: \"int\", size: 32, encoding: DW_ATE_signed)\n"
      "!6 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !10, size: 64)\n"
      "!7 = distinct !DISubprogram(name: \"entry%d\", scope: !1, file: !1, line: 4, type: !4, "
      "scopeLine: 4, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!8 = !DILocation(line: 5, scope: !7)\n"
      "!9 = !DILocalVariable(name: \"c\", arg: 1, scope: !7, file: !1, line: 4, type: !6)\n"
      "!10 = !DICompositeType(tag: DW_TAG_structure_type, name: \"Cell\", file: !1, line: 1, "
      "size: 32, elements: !{!11})\n"
      "!11 = !DIDerivedType(tag: DW_TAG_member, name: \"value\", scope: !10, file: !1, "
      "line: 1, baseType: !5, size: 32)\n"
      "!12 = !DILocation(line: 2, scope: !13, inlinedAt: !8)\n"
      "!13 = distinct !DISubprogram(name: \"scale\", scope: !14, file: !14, line: 1, "
      "type: !4, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)\n"
      "!14 = !DIFile(filename: \"scale.h\", directory: \"/t\")\n",
      p, p + 2, p, p);
}

static uint32_t count_sections_named(const coff_object *o, const char *name) {
  uint32_t count = 0;
  for (uint32_t i = 0; i < o->section_count; i++)
    count += mtpc_coff_name_is(mtpc_coff_section_name(o, i), name);
  return count;
}

/* The partitions' CodeView merges into one type stream; any byte of
 * partition 1's CodeView sections changed gives an object or one message
 * that names the partition, never a crash or a partial object. */
static void test_coff_merge_codeview(void) {
  void *objects[2] = {NULL, NULL}, *out = NULL;
  size_t sizes[2], size = 0;
  char *ir[2] = {codeview_partition_ir(0), codeview_partition_ir(1)};
  for (int i = 0; i < 2; i++)
    CHECK(emit_object("x86_64-pc-windows-msvc", ir[i], &objects[i], &sizes[i]) == 0);
  char *message = NULL;
  CHECK(coff_merge_pair(objects, sizes, &out, &size, &message) == 0);
  coff_object o;
  CHECK(out && mtpc_coff_open(&o, out, size));
  if (out && mtpc_coff_open(&o, out, size)) {
    CHECK_EQ_U(count_sections_named(&o, ".debug$T"), 1);
    CHECK_EQ_U(count_sections_named(&o, ".debug$S"), 2);
  }
  free(out);
  coff_object in;
  CHECK(mtpc_coff_open(&in, objects[1], sizes[1]));
  unsigned refused = 0;
  for (uint32_t i = 0; i < in.section_count; i++) {
    coff_name name = mtpc_coff_section_name(&in, i);
    const uint8_t *data;
    uint32_t length;
    if ((!mtpc_coff_name_is(name, ".debug$S") && !mtpc_coff_name_is(name, ".debug$T")) ||
        mtpc_coff_section_data(&in, i, &data, &length))
      continue;
    size_t start = (size_t)(data - (const uint8_t *)objects[1]);
    for (size_t at = start; at < start + length; at++) {
      uint8_t *bytes = objects[1], was = bytes[at];
      bytes[at] = (uint8_t)~was;
      out = NULL;
      message = NULL;
      int failed = coff_merge_pair(objects, sizes, &out, &size, &message);
      CHECK(failed ? message && strstr(message, "partition 1's object: ") && !out : !message);
      refused += failed;
      free(out);
      free(message);
      bytes[at] = was;
    }
  }
  CHECK(refused > 0);
  for (int i = 0; i < 2; i++) {
    free(objects[i]);
    free(ir[i]);
  }
}

int main(void) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  LLVMInitializeAArch64TargetInfo();
  LLVMInitializeAArch64Target();
  LLVMInitializeAArch64TargetMC();
  LLVMInitializeAArch64AsmPrinter();
  test_merge_localizes_promoted();
  test_localize_leaves_foreign_objects();
  test_merge_marks_discarded_debug("x86_64-pc-linux-gnu", R_X86_64_64);
  test_merge_marks_discarded_debug("aarch64-unknown-linux-gnu", R_AARCH64_ABS64);
  test_coff_merge();
  test_coff_merge_codeview();
  CHECK_SUMMARY();
}
