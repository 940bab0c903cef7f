/* A whole module: its bitcode, and its release. */
#include <string.h>

#include <llvm-c/BitWriter.h>

#include "module.h"
#include "support/support.h"

void *mtpc_module_bitcode(LLVMModuleRef module, size_t *size) {
  LLVMMemoryBufferRef buffer = LLVMWriteBitcodeToMemoryBuffer(module);
  *size = LLVMGetBufferSize(buffer);
  void *bitcode = mtpc_alloc(*size, 1);
  if (bitcode)
    memcpy(bitcode, LLVMGetBufferStart(buffer), *size);
  LLVMDisposeMemoryBuffer(buffer);
  return bitcode;
}

void mtpc_release_context(LLVMContextRef context, LLVMModuleRef module) {
  if (module)
    LLVMDisposeModule(module);
  LLVMContextDispose(context);
  mtpc_release_free_memory();
}
