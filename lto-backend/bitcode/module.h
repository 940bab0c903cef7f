/* A whole module: its bitcode, and its release. */
#ifndef MTPC_MODULE_H
#define MTPC_MODULE_H

#include <stddef.h>

#include <llvm-c/Core.h>

/* Frees a module (or NULL) and its context, and with glibc's malloc hands
 * the freed memory back to the system, so that the peak RSS is that of what
 * still runs (jemalloc, which the programs link, returns it on its own). */
void mtpc_release_context(LLVMContextRef context, LLVMModuleRef module);

/* The module's bitcode, malloc'ed; NULL when memory runs out. */
void *mtpc_module_bitcode(LLVMModuleRef module, size_t *size);

#endif
