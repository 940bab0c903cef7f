/* An embedder of libmtpc: builds a module with LLVM-C, as a JIT or a
 * compiler front end holds one, and gets one object for it from mtpc.
 *   embed <output.o> [jobs]
 * Built against an installed mtpc by examples/CMakeLists.txt
 * (find_package(mtpc)) or by pkg-config: cc embed.c $(pkg-config --cflags --libs mtpc). */
#include <stdio.h>
#include <stdlib.h>

#include <llvm-c/Core.h>
#include <mtpc/mtpc.h>

/* count functions; function i adds i to its argument and calls i + 1. */
static LLVMModuleRef build_module(LLVMContextRef context, unsigned count) {
  LLVMModuleRef module = LLVMModuleCreateWithNameInContext("embedded", context);
  LLVMSetTarget(module, "x86_64-pc-linux-gnu");
  LLVMTypeRef i64 = LLVMInt64TypeInContext(context);
  LLVMTypeRef type = LLVMFunctionType(i64, &i64, 1, 0);
  LLVMValueRef *functions = malloc(count * sizeof(LLVMValueRef));
  for (unsigned i = 0; i < count; i++) {
    char name[32];
    snprintf(name, sizeof name, "step%u", i);
    functions[i] = LLVMAddFunction(module, name, type);
  }
  LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
  for (unsigned i = 0; i < count; i++) {
    LLVMPositionBuilderAtEnd(builder, LLVMAppendBasicBlockInContext(context, functions[i], "entry"));
    LLVMValueRef value = LLVMBuildAdd(builder, LLVMGetParam(functions[i], 0),
                                      LLVMConstInt(i64, i, 0), "sum");
    if (i + 1 < count)
      value = LLVMBuildCall2(builder, type, functions[i + 1], &value, 1, "next");
    LLVMBuildRet(builder, value);
  }
  LLVMDisposeBuilder(builder);
  free(functions);
  return module;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: embed <output.o> [jobs]\n");
    return 2;
  }
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = build_module(context, 200);

  mtpc_options options;
  mtpc_options_init(&options);
  options.jobs = argc > 2 ? (unsigned)atoi(argv[2]) : 2;
  options.partitions = 4;
  options.collect_stats = 1;
  mtpc_result *result = NULL;
  mtpc_status status = mtpc_compile_module(module, &options, &result);
  int rc = 0;
  if (status != MTPC_OK) {
    fprintf(stderr, "embed: error: %s\n", mtpc_result_message(result));
    rc = 1;
  } else {
    size_t size = 0;
    const void *object = mtpc_result_object(result, &size);
    FILE *out = fopen(argv[1], "wb");
    if (!out || fwrite(object, 1, size, out) != size || fclose(out) != 0) {
      fprintf(stderr, "embed: error: cannot write '%s'\n", argv[1]);
      rc = 1;
    } else {
      printf("%s: %u partitions, %zu bytes\n", mtpc_version_string(),
             mtpc_result_stats(result)->partitions, size);
    }
  }
  mtpc_result_free(result);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return rc;
}
