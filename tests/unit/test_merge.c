/* The merge (lto-backend/merge/): two partition objects, one calling a
 * function the other defines under its promoted name, become one object in
 * which that function is a local symbol under its original name, in a
 * section named after it, and the call's relocation names it. Localizing in
 * place leaves an object it does not read unchanged. */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>

#include "check.h"
#include "lto-backend/elf/elf_object.h"
#include "lto-backend/merge/localize.h"
#include "lto-backend/merge/merge.h"

#define PROMOTED "helper.llvm.mtpc0123456789abcdef"

/* Partition 0 calls the helper partition 1 defines; both were given the
 * promoted name, hidden, as the split gives a local function two
 * partitions share. */
static const char *partition_ir[2] = {
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

static int emit_object(const char *ir, void **object, size_t *size) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMMemoryBufferRef text = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "p.ll");
  LLVMModuleRef module = NULL;
  char *message = NULL;
  int failed = LLVMParseIRInContext(context, text, &module, &message);
  LLVMTargetRef target = NULL;
  if (!failed)
    failed = LLVMGetTargetFromTriple("x86_64-pc-linux-gnu", &target, &message);
  LLVMMemoryBufferRef buffer = NULL;
  if (!failed) {
    LLVMTargetMachineRef machine =
        LLVMCreateTargetMachine(target, "x86_64-pc-linux-gnu", "", "", LLVMCodeGenLevelDefault,
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

static void test_merge_localizes_promoted(void) {
  mtpc_job jobs[2];
  memset(jobs, 0, sizeof(jobs));
  for (int i = 0; i < 2; i++) {
    jobs[i].partition = (uint32_t)i;
    CHECK(emit_object(partition_ir[i], &jobs[i].object, &jobs[i].object_size) == 0);
  }
  mtpc_plan_node node = {.name = "helper", .promoted_name = PROMOTED, .owner = 1};
  mtpc_plan plan = {.partition_count = 2, .node_count = 1, .nodes = &node};
  void *merged = NULL;
  size_t size = 0;
  int mapped = 0;
  char *message = NULL;
  CHECK(mtpc_merge_objects(&plan, jobs, 2, NULL, &merged, &size, &mapped, &message) == 0);
  if (message)
    fprintf(stderr, "merge: %s\n", message);
  free(message);
  elf_object o;
  CHECK(merged && mtpc_elf_open(&o, merged, size));
  if (merged && mtpc_elf_open(&o, merged, size)) {
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
  if (mapped)
    munmap(merged, size);
  else
    free(merged);
  for (int i = 0; i < 2; i++)
    free(jobs[i].object);
}

static void test_localize_leaves_foreign_objects(void) {
  uint8_t not_elf[64];
  memset(not_elf, 0x5a, sizeof(not_elf));
  uint8_t before[64];
  memcpy(before, not_elf, sizeof(not_elf));
  const char *names[] = {PROMOTED}, *originals[] = {"helper"};
  CHECK(mtpc_localize_in_place(not_elf, sizeof(not_elf), names, originals, 1) ==
        MTPC_LOCALIZE_UNSUPPORTED);
  CHECK(memcmp(before, not_elf, sizeof(not_elf)) == 0);
}

int main(void) {
  LLVMInitializeX86TargetInfo();
  LLVMInitializeX86Target();
  LLVMInitializeX86TargetMC();
  LLVMInitializeX86AsmPrinter();
  test_merge_localizes_promoted();
  test_localize_leaves_foreign_objects();
  CHECK_SUMMARY();
}
