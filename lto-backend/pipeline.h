/* A partition's target machine and optimization pipeline, as LLVM's LTO
 * backend sets them up; what LLVM-C cannot set (TargetOptions, pass plugins,
 * the ThinLTO pipeline). (C++, pipeline.cpp.) */
#ifndef MTPC_PIPELINE_H
#define MTPC_PIPELINE_H

#include <llvm-c/TargetMachine.h>
#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtpc_bridge_target {
  const char *triple;
  const char *cpu;
  const char *features;
  const void *target_options; /* const llvm::TargetOptions *, or NULL for LTO's defaults */
  int function_sections;      /* used when target_options is NULL */
  int data_sections;
  int reloc;                  /* LLVMRelocMode */
  int code_model;             /* mtpc_code_model; 0 = the module's, else the target's */
  int codegen_level;          /* LLVMCodeGenOptLevel */
} mtpc_bridge_target;

/* A TargetMachine for one partition, with what LLVM-C cannot set
 * (TargetOptions, the module's code model and large-data threshold). NULL
 * and *message on failure. */
LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_target *target,
                                                       LLVMModuleRef module, char **message);

/* Runs the ThinLTO backend pipeline at `opt_level` as LLVM's LTO does (loop
 * and SLP vectorization above -O1), with the given pass plugins loaded. 0 on
 * success; else *message. */
int mtpc_bridge_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, unsigned opt_level,
                         const char *const *plugins, unsigned plugin_count, char **message);

#ifdef __cplusplus
}

#include <optional>

#include "llvm/Support/CodeGen.h"

namespace mtpc_pipeline {
// LLVMCodeGenOptLevel -> CodeGenOptLevel.
llvm::CodeGenOptLevel codegen_level(int level);
// LLVMRelocMode -> Reloc::Model; nullopt for LLVMRelocDefault.
std::optional<llvm::Reloc::Model> reloc_model(int reloc);
} // namespace mtpc_pipeline
#endif

#endif
