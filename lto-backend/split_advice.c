/* Whether a module should be split: the one answer every caller that can
 * leave a module to LLVM's own backend asks for (ld.lld's ThinLTO and
 * regular LTO hooks, `mtpc backend`, `mtpc cc`). */
#include "split_advice.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <llvm-c/Core.h>

#include "support/llvm_support.h"

const char *mtpc_target_unsplit_reason(const char *triple) {
  if (!triple || !*triple || mtpc_bridge_triple_is_elf(triple) || mtpc_bridge_triple_is_coff(triple))
    return NULL;
  return "the target's object format is neither ELF nor COFF";
}

int mtpc_target_writes_coff(const char *triple) {
  return triple && mtpc_bridge_triple_is_coff(triple);
}

/* What a compile of the module generates code for: its definitions, without
 * the available_externally copies that are only there to be inlined. */
static uint64_t compiled_instructions(LLVMModuleRef module) {
  uint64_t count = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(module); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) == LLVMAvailableExternallyLinkage)
      continue;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        count++;
  }
  return count;
}

int mtpc_should_split(LLVMModuleRef module, const mtpc_options *options,
                      uint64_t min_instructions, mtpc_split_advice *advice) {
  mtpc_split_advice local;
  mtpc_split_advice *a = advice ? advice : &local;
  mtpc_init_llvm();
  const char *triple = options && options->triple ? options->triple : LLVMGetTarget(module);
  const char *target_problem = mtpc_target_unsplit_reason(triple);
  a->instructions = compiled_instructions(module);
  a->reason[0] = '\0';
  if (target_problem)
    snprintf(a->reason, sizeof(a->reason), "%s", target_problem);
  else if (a->instructions < min_instructions)
    snprintf(a->reason, sizeof(a->reason), "%" PRIu64 " IR instructions, below the threshold %" PRIu64,
             a->instructions, min_instructions);
  return a->reason[0] == '\0';
}
