/* The public C API on a module built in memory. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "check.h"
#include "mtpc/llvm.h"
#include "mtpc/mtpc.h"

/* n external functions f<i>, each calling an internal helper shared by all. */
static LLVMModuleRef make_module(LLVMContextRef ctx, unsigned n) {
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("api-test", ctx);
  LLVMSetTarget(m, "x86_64-pc-linux-gnu");
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef fn_type = LLVMFunctionType(i32, &i32, 1, 0);
  LLVMValueRef helper = LLVMAddFunction(m, "helper", fn_type);
  LLVMSetLinkage(helper, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, helper, "entry"));
  LLVMBuildRet(b, LLVMBuildMul(b, LLVMGetParam(helper, 0), LLVMConstInt(i32, 3, 0), "m"));
  for (unsigned i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof(name), "f%u", i);
    LLVMValueRef f = LLVMAddFunction(m, name, fn_type);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef x = LLVMGetParam(f, 0);
    for (unsigned k = 0; k < 5 + i; k++)
      x = LLVMBuildAdd(b, LLVMBuildMul(b, x, x, "sq"), LLVMConstInt(i32, k + 1, 0), "acc");
    LLVMValueRef args[1] = {x};
    LLVMBuildRet(b, LLVMBuildCall2(b, fn_type, helper, args, 1, "r"));
  }
  LLVMDisposeBuilder(b);
  return m;
}

static void test_compile_module_split_and_merged(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 6);
  mtpc_options o;
  mtpc_options_init(&o);
  o.partitions = 3;
  o.jobs = 2;
  o.collect_stats = 1;
  mtpc_result *r = NULL;
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  size_t size = 0;
  const char *object = mtpc_result_object(r, &size);
  CHECK(object && size > 64);
  CHECK(object && !memcmp(object, "\177ELF", 4));
  CHECK(strcmp(mtpc_result_message(r), "") == 0);
  const mtpc_stats *st = mtpc_result_stats(r);
  CHECK_EQ_U(st->partitions, 3);
  CHECK(st->split);
  CHECK(st->total_cost > 0);
  CHECK(mtpc_result_partition_stats(r, 2) && mtpc_result_partition_stats(r, 2)->functions > 0);
  CHECK(mtpc_result_partition_stats(r, 3) == NULL);
  CHECK(mtpc_result_projected_speedup(r, 16) >= 1.0);
  /* The caller's module is untouched: helper is still internal and named. */
  LLVMValueRef helper = LLVMGetNamedFunction(m, "helper");
  CHECK(helper && LLVMGetLinkage(helper) == LLVMInternalLinkage);
  /* Taking the object leaves the result without one. */
  size_t taken_size = 0;
  void *taken = mtpc_result_take_object(r, &taken_size);
  CHECK(taken && taken_size == size && mtpc_result_object(r, NULL) == NULL);
  free(taken);
  mtpc_result_free(r);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void test_unmerged_objects_and_bitcode(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(m);
  mtpc_options o;
  mtpc_options_init(&o);
  o.partitions = 2;
  o.merge = 0;
  mtpc_result *r = NULL;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r),
             MTPC_OK);
  CHECK(mtpc_result_object(r, NULL) == NULL);
  CHECK_EQ_U(mtpc_result_object_count(r), 2);
  for (unsigned i = 0; i < mtpc_result_object_count(r); i++) {
    size_t size = 0;
    const char *object = mtpc_result_object_at(r, i, &size);
    CHECK(size > 64 && !memcmp(object, "\177ELF", 4));
  }
  CHECK(mtpc_result_object_at(r, 2, NULL) == NULL);
  mtpc_result_free(r);

  /* The same bytes twice give the same object. */
  mtpc_result *r1 = NULL, *r2 = NULL;
  o.merge = 1;
  o.jobs = 1;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r1), MTPC_OK);
  o.jobs = 4;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r2), MTPC_OK);
  size_t size1 = 0, size2 = 0;
  const void *object1 = mtpc_result_object(r1, &size1), *object2 = mtpc_result_object(r2, &size2);
  CHECK(size1 == size2 && !memcmp(object1, object2, size1));
  mtpc_result_free(r1);
  mtpc_result_free(r2);
  LLVMDisposeMemoryBuffer(bc);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* The one answer to "split it or leave it to LLVM's backend": the target
 * and the count of the instructions a compile generates code for. */
static void test_should_split(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 2);
  mtpc_options o;
  mtpc_options_init(&o);
  mtpc_split_advice advice;
  /* helper: mul, ret; f0: 5 mul-add pairs, call, ret; f1: 6 pairs, call, ret */
  const uint64_t count = 2 + 12 + 14;
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.reason[0] == '\0');
  CHECK_EQ_U(advice.instructions, count);
  CHECK(mtpc_should_split(m, NULL, count, NULL));
  CHECK(!mtpc_should_split(m, &o, count + 1, &advice));
  CHECK(strstr(advice.reason, "28 IR instructions, below the threshold 29"));
  /* available_externally copies are not compiled, so not counted */
  LLVMSetLinkage(LLVMGetNamedFunction(m, "f1"), LLVMAvailableExternallyLinkage);
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.instructions == count - 14);
  LLVMSetLinkage(LLVMGetNamedFunction(m, "f1"), LLVMExternalLinkage);
  o.triple = "x86_64-apple-macosx";
  CHECK(!mtpc_should_split(m, &o, 0, &advice));
  CHECK(strstr(advice.reason, "neither ELF nor COFF"));
  o.triple = NULL;
  /* COFF: split, merged by mtpc or apart (lld-link's case), CodeView too
   * (the merge makes one type stream of the partitions'). */
  LLVMSetTarget(m, "x86_64-pc-windows-msvc");
  CHECK(mtpc_should_split(m, NULL, 0, &advice) && advice.reason[0] == '\0');
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.reason[0] == '\0');
  LLVMAddModuleFlag(m, LLVMModuleFlagBehaviorWarning, "CodeView", strlen("CodeView"),
                    LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0)));
  CHECK(mtpc_should_split(m, NULL, 0, &advice) && advice.reason[0] == '\0');
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.reason[0] == '\0');
  o.merge = 0;
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.reason[0] == '\0');
  o.merge = 1;
  LLVMSetTarget(m, "x86_64-pc-linux-gnu");
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef params[2] = {ptr, LLVMMetadataTypeInContext(ctx)};
  LLVMValueRef type_test =
      LLVMAddFunction(m, "llvm.type.test", LLVMFunctionType(LLVMInt1TypeInContext(ctx), params, 2, 0));
  LLVMValueRef user = LLVMAddFunction(m, "user", LLVMFunctionType(LLVMInt1TypeInContext(ctx), &ptr, 1, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, user, "entry"));
  LLVMValueRef args[2] = {LLVMGetParam(user, 0),
                          LLVMMetadataAsValue(ctx, LLVMMDStringInContext2(ctx, "T", 1))};
  LLVMBuildRet(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(type_test), type_test, args, 2, "t"));
  LLVMDisposeBuilder(b);
  /* Type tests split too (their summary-driven passes run first). */
  CHECK(mtpc_should_split(m, &o, 0, &advice) && advice.reason[0] == '\0');
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* Sizes as every command line takes them, and "0 jobs". */
static void test_sizes_and_jobs(void) {
  uint64_t bytes = 0;
  CHECK(mtpc_parse_size("4096", &bytes) == MTPC_OK && bytes == 4096);
  CHECK(mtpc_parse_size("3k", &bytes) == MTPC_OK && bytes == 3072);
  CHECK(mtpc_parse_size("2M", &bytes) == MTPC_OK && bytes == 2u << 20);
  CHECK(mtpc_parse_size("5g", &bytes) == MTPC_OK && bytes == 5ull << 30);
  CHECK(mtpc_parse_size("17179869183G", &bytes) == MTPC_OK);
  const char *bad[] = {"", "-1", "+1", " 1", "1T", "1KB", "K", "17179869184G", "99999999999999999999"};
  for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
    CHECK(mtpc_parse_size(bad[i], &bytes) == MTPC_ERR_INVALID_ARGUMENT);
  CHECK(mtpc_parse_size(NULL, &bytes) == MTPC_ERR_INVALID_ARGUMENT);
  CHECK_EQ_U(mtpc_resolve_jobs(3), 3);
  CHECK(mtpc_resolve_jobs(0) >= 1);
}

/* mtpc_compile_module only reads the module, full_lto too (it compiles a
 * copy); mtpc_llvm_compile_module runs the whole-module passes on the
 * module itself. */
static void test_full_lto_reads_only(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  LLVMSetLinkage(LLVMGetNamedFunction(m, "f3"), LLVMInternalLinkage); /* dead: DCE removes it */
  char *before = LLVMPrintModuleToString(m);
  mtpc_options o;
  mtpc_options_init(&o);
  o.full_lto = 1;
  o.partitions = 2;
  mtpc_result *r = NULL;
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  char *after = LLVMPrintModuleToString(m);
  CHECK(strcmp(before, after) == 0);
  size_t size = 0;
  CHECK(mtpc_result_object(r, &size) && size > 0);
  mtpc_result_free(r);
  CHECK_EQ_U(mtpc_llvm_compile_module(m, &o, NULL, &r), MTPC_OK);
  CHECK(LLVMGetNamedFunction(m, "f3") == NULL);
  mtpc_result_free(r);
  LLVMDisposeMessage(before);
  LLVMDisposeMessage(after);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* What an embedder lends is checked like the options. */
static void test_llvm_options(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 2);
  mtpc_options o;
  mtpc_options_init(&o);
  mtpc_llvm_options lent;
  mtpc_llvm_options_init(&lent);
  CHECK_EQ_U(lent.struct_size, sizeof(lent));
  int index_stand_in = 0;
  lent.export_summary = &index_stand_in; /* refused before it is ever read */
  mtpc_result *r = NULL;
  CHECK_EQ_U(mtpc_llvm_compile_module(m, &o, &lent, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "an export summary without full_lto"));
  mtpc_result_free(r);
  mtpc_llvm_options garbage;
  memset(&garbage, 0, sizeof(garbage));
  CHECK_EQ_U(mtpc_llvm_compile_module(m, &o, &garbage, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "mtpc_llvm_options_init"));
  mtpc_result_free(r);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* Calls that are not compiles follow the same convention: a status, and
 * the message in a result the caller may decline. */
static void test_error_convention(void) {
  mtpc_options o;
  mtpc_options_init(&o);
  mtpc_result *r = NULL;
  FILE *out = tmpfile();
  CHECK_EQ_U(mtpc_plan_write_bitcode("not bitcode", 11, "p.bc", &o, out, &r), MTPC_ERR_INPUT);
  CHECK(strstr(mtpc_result_message(r), "p.bc: invalid bitcode"));
  mtpc_result_free(r);
  CHECK_EQ_U(mtpc_plan_write_bitcode("not bitcode", 11, "p.bc", &o, out, NULL), MTPC_ERR_INPUT);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  CHECK_EQ_U(mtpc_plan_write(m, &o, out, &r), MTPC_OK);
  CHECK(strcmp(mtpc_result_message(r), "") == 0);
  mtpc_result_free(r);
  CHECK(ftell(out) > 0);
  fclose(out);
  mtpc_time_trace_start(0);
  CHECK_EQ_U(mtpc_time_trace_save("/nonexistent-dir/trace.json", &r), MTPC_ERR_OUTPUT);
  CHECK(strstr(mtpc_result_message(r), "/nonexistent-dir/trace.json"));
  mtpc_result_free(r);
  mtpc_budget *budget = NULL;
  CHECK_EQ_U(mtpc_budget_new(2, &budget), MTPC_OK);
  CHECK(budget && mtpc_budget_try_acquire(budget) && mtpc_budget_try_acquire(budget));
  CHECK(!mtpc_budget_try_acquire(budget));
  mtpc_budget_destroy(budget);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* A caller holding the only slot of a budget hands it to the workers: the
 * compile finishes, and the slot is free again afterwards (a leak would
 * block the acquire below until the test times out). */
static void test_caller_slot(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  mtpc_budget *budget = NULL;
  CHECK_EQ_U(mtpc_budget_new(1, &budget), MTPC_OK);
  mtpc_options o;
  mtpc_options_init(&o);
  o.partitions = 3;
  o.jobs = 2;
  o.budget = budget;
  o.caller_holds_slot = 1;
  mtpc_result *r = NULL;
  mtpc_budget_acquire(budget);
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  mtpc_result_free(r);
  mtpc_budget_acquire(budget);
  o.triple = "no-such-target"; /* an early failure gives the slot up too */
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_TARGET);
  mtpc_result_free(r);
  mtpc_budget_acquire(budget);
  o.triple = NULL;
  o.opt_level = 9;
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  mtpc_result_free(r);
  mtpc_budget_acquire(budget);
  CHECK(!mtpc_budget_try_acquire(budget)); /* the one slot is held */
  mtpc_budget_release(budget);
  CHECK(mtpc_budget_try_acquire(budget));
  mtpc_budget_release(budget);
  mtpc_budget_destroy(budget);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void test_errors(void) {
  mtpc_options o;
  mtpc_options_init(&o);
  mtpc_result *r = NULL;
  o.opt_level = 7;
  CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "optimization level 7"));
  mtpc_result_free(r);
  /* Sanitizers by name, their settings in LLVM's spelling of pass parameters. */
  static const struct {
    const char *spec, *message;
  } sanitizers[] = {
      {"hwaddress",
       "sanitizers 'hwaddress': mtpc runs \"address\", \"memory\", \"thread\" or \"dataflow\""},
      {"dataflow<recover>", "unknown sanitizer setting 'recover'"},
      {"memory<track-origins=3>", "unknown sanitizer setting 'track-origins=3'"},
      {"address<track-origins=1>", "unknown sanitizer setting 'track-origins=1'"},
      {"thread<recover>", "unknown sanitizer setting 'recover'"},
      {"memory<recover", "sanitizer settings 'recover' do not end with '>'"},
  };
  for (size_t i = 0; i < sizeof(sanitizers) / sizeof(*sanitizers); i++) {
    mtpc_options_init(&o);
    o.sanitizers = sanitizers[i].spec;
    CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
    CHECK(strstr(mtpc_result_message(r), sanitizers[i].message));
    mtpc_result_free(r);
  }
  /* DataFlowSanitizer's ABI lists need it. */
  static const char *const abilist[] = {"abilist.txt"};
  mtpc_options_init(&o);
  o.sanitizers = "address";
  o.dfsan_abilists = abilist;
  o.dfsan_abilist_count = 1;
  CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "ABI lists without the \"dataflow\" sanitizer"));
  mtpc_result_free(r);
  mtpc_options_init(&o);
  o.sanitizers = "memory<track-origins=2;recover;no-eager-checks>";
  CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
  mtpc_result_free(r);
  o.sanitizers = "address<recover;use-after-return=always;no-odr-indicator;destructor=none>";
  CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
  mtpc_result_free(r);
  /* The debugger code generation tunes debug info for, by its -g name. */
  mtpc_options_init(&o);
  o.debugger_tuning = "vi";
  CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "unknown debugger tuning 'vi' (gdb, lldb, sce, dbx)"));
  mtpc_result_free(r);
  o.debugger_tuning = "lldb";
  CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
  mtpc_result_free(r);
  /* Debug section compression, by its -gz= name. */
  mtpc_options_init(&o);
  o.compress_debug_sections = "lz4";
  CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "unknown debug section compression 'lz4' (none, zlib, zstd)"));
  mtpc_result_free(r);
  const char *const compressions[] = {"none", "zlib", "zstd"};
  for (size_t i = 0; i < sizeof(compressions) / sizeof(*compressions); i++) {
    o.compress_debug_sections = compressions[i];
    CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
    mtpc_result_free(r);
  }
  mtpc_options_init(&o);
  CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
  CHECK(strstr(mtpc_result_message(r), "x.bc: invalid bitcode"));
  CHECK(mtpc_result_object(r, NULL) == NULL);
  mtpc_result_free(r);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 2);
  o.triple = "no-such-target";
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_TARGET);
  CHECK(strstr(mtpc_result_message(r), "unknown target triple 'no-such-target'"));
  mtpc_result_free(r);
  /* A basic block sections list that cannot be read: the option's value is
   * bad, and the message names the file. */
  o.triple = NULL;
  o.basic_block_sections = "/nonexistent-dir/blocks.txt";
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "/nonexistent-dir/blocks.txt: cannot read the basic"));
  CHECK(mtpc_result_object(r, NULL) == NULL);
  mtpc_result_free(r);
  o.basic_block_sections = "all";
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  mtpc_result_free(r);
  o.basic_block_sections = NULL;
  CHECK(strcmp(mtpc_result_message(NULL), "out of memory") == 0);
  mtpc_result_free(NULL);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  CHECK(strcmp(mtpc_status_string(MTPC_ERR_WORKER), "compiling a partition failed") == 0);
  CHECK(strstr(mtpc_version_string(), MTPC_VERSION_STRING) != NULL);
}

/* Options from an older header (smaller, without the newest fields) still
 * work and get defaults for what they lack; a newer header's fields this
 * library lacks are refused only when set. */
static void test_options_sizes(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  mtpc_options full;
  mtpc_options_init(&full);
  CHECK_EQ_U(full.struct_size, sizeof(mtpc_options));
  full.partitions = 2;
  mtpc_result *expected = NULL, *r = NULL;
  CHECK_EQ_U(mtpc_compile_module(m, &full, &expected), MTPC_OK);

  size_t old_size = offsetof(mtpc_options, llvm_options); /* 0.1's fields */
  unsigned char *old = malloc(old_size);
  mtpc_options_init_abi2((mtpc_options *)old, old_size);
  CHECK_EQ_U(((mtpc_options *)old)->opt_level, 2);
  ((mtpc_options *)old)->partitions = 2;
  CHECK_EQ_U(mtpc_compile_module(m, (mtpc_options *)old, &r), MTPC_OK);
  size_t a = 0, b = 0;
  const void *oa = mtpc_result_object(expected, &a), *ob = mtpc_result_object(r, &b);
  CHECK(a == b && !memcmp(oa, ob, a));
  mtpc_result_free(r);
  free(old);

  size_t new_size = sizeof(mtpc_options) + 16;
  unsigned char *newer = calloc(1, new_size);
  mtpc_options_init_abi2((mtpc_options *)newer, new_size);
  ((mtpc_options *)newer)->partitions = 2;
  CHECK_EQ_U(mtpc_compile_module(m, (mtpc_options *)newer, &r), MTPC_OK);
  mtpc_result_free(r);
  newer[sizeof(mtpc_options) + 3] = 1; /* a field this library does not know */
  CHECK_EQ_U(mtpc_compile_module(m, (mtpc_options *)newer, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "does not have"));
  mtpc_result_free(r);
  free(newer);

  mtpc_options garbage;
  memset(&garbage, 0, sizeof garbage);
  CHECK_EQ_U(mtpc_compile_module(m, &garbage, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(strstr(mtpc_result_message(r), "mtpc_options_init"));
  mtpc_result_free(r);
  mtpc_result_free(expected);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

int main(void) {
  test_compile_module_split_and_merged();
  test_unmerged_objects_and_bitcode();
  test_should_split();
  test_sizes_and_jobs();
  test_full_lto_reads_only();
  test_llvm_options();
  test_error_convention();
  test_caller_slot();
  test_errors();
  test_options_sizes();
  CHECK_SUMMARY();
}
