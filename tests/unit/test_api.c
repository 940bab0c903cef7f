/* The public C API on a module built in memory. */
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>

#include "check.h"
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
  mtpc_result r;
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  CHECK(r.object && r.object_size > 64);
  CHECK(r.object && !memcmp(r.object, "\177ELF", 4));
  CHECK_EQ_U(r.stats.partitions, 3);
  CHECK(r.stats.split);
  CHECK(r.stats.total_cost > 0);
  CHECK(mtpc_stats_projected_speedup(&r.stats, 16) >= 1.0);
  /* The caller's module is untouched: helper is still internal and named. */
  LLVMValueRef helper = LLVMGetNamedFunction(m, "helper");
  CHECK(helper && LLVMGetLinkage(helper) == LLVMInternalLinkage);
  mtpc_result_free(&r);
  CHECK(r.object == NULL && r.message == NULL);
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
  mtpc_result r;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r),
             MTPC_OK);
  CHECK(r.object == NULL);
  CHECK_EQ_U(r.object_count, 2);
  for (unsigned i = 0; i < r.object_count; i++)
    CHECK(r.objects[i].size > 64 && !memcmp(r.objects[i].data, "\177ELF", 4));
  mtpc_result_free(&r);

  /* The same bytes twice give the same object. */
  mtpc_result r1, r2;
  o.merge = 1;
  o.jobs = 1;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r1), MTPC_OK);
  o.jobs = 4;
  CHECK_EQ_U(mtpc_compile_bitcode(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), "api.bc", &o, &r2), MTPC_OK);
  CHECK(r1.object_size == r2.object_size && !memcmp(r1.object, r2.object, r1.object_size));
  mtpc_result_free(&r1);
  mtpc_result_free(&r2);
  LLVMDisposeMemoryBuffer(bc);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void test_can_split(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 2);
  mtpc_options o;
  mtpc_options_init(&o);
  char *reason = NULL;
  CHECK(mtpc_module_can_split(m, &o, &reason) && reason == NULL);
  o.triple = "x86_64-apple-macosx";
  CHECK(!mtpc_module_can_split(m, &o, &reason));
  CHECK(reason && strstr(reason, "not ELF"));
  free(reason);
  o.triple = NULL;
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
  CHECK(mtpc_module_can_split(m, &o, &reason) && reason == NULL);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* A caller holding the only slot of a budget hands it to the workers: the
 * compile finishes, and the slot is free again afterwards (a leak would
 * block the acquire below until the test times out). */
static void test_caller_slot(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 4);
  mtpc_budget *budget = mtpc_budget_create(1);
  mtpc_options o;
  mtpc_options_init(&o);
  o.partitions = 3;
  o.jobs = 2;
  o.budget = budget;
  o.caller_holds_slot = 1;
  mtpc_result r;
  mtpc_budget_acquire(budget);
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_OK);
  mtpc_result_free(&r);
  mtpc_budget_acquire(budget);
  o.triple = "no-such-target"; /* an early failure gives the slot up too */
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_TARGET);
  mtpc_result_free(&r);
  mtpc_budget_acquire(budget);
  o.triple = NULL;
  o.opt_level = 9;
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  mtpc_result_free(&r);
  mtpc_budget_acquire(budget);
  mtpc_budget_release(budget);
  CHECK(1); /* reached: no slot leaked */
  mtpc_budget_destroy(budget);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

static void test_errors(void) {
  mtpc_options o;
  mtpc_options_init(&o);
  mtpc_result r;
  o.opt_level = 7;
  CHECK_EQ_U(mtpc_compile_bitcode("BC", 2, "x.bc", &o, &r), MTPC_ERR_INVALID_ARGUMENT);
  CHECK(r.message && strstr(r.message, "optimization level 7"));
  mtpc_result_free(&r);
  mtpc_options_init(&o);
  CHECK_EQ_U(mtpc_compile_bitcode("not bitcode", 11, "x.bc", &o, &r), MTPC_ERR_INPUT);
  CHECK(r.message && strstr(r.message, "x.bc: invalid bitcode"));
  CHECK(r.object == NULL);
  mtpc_result_free(&r);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = make_module(ctx, 2);
  o.triple = "no-such-target";
  CHECK_EQ_U(mtpc_compile_module(m, &o, &r), MTPC_ERR_TARGET);
  CHECK(r.message && strstr(r.message, "unknown target triple 'no-such-target'"));
  mtpc_result_free(&r);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  CHECK(strcmp(mtpc_status_string(MTPC_ERR_WORKER), "compiling a partition failed") == 0);
  CHECK(strstr(mtpc_version_string(), MTPC_VERSION_STRING) != NULL);
}

int main(void) {
  test_compile_module_split_and_merged();
  test_unmerged_objects_and_bitcode();
  test_can_split();
  test_caller_slot();
  test_errors();
  CHECK_SUMMARY();
}
