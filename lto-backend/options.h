/* The options a compile runs with (options.c). */
#ifndef MTPC_OPTIONS_H
#define MTPC_OPTIONS_H

#include "mtpc/llvm.h"
#include "mtpc/mtpc.h"

/* Copies the caller's options into `whole`, and what an embedder lent
 * (`llvm_given`, NULL for none) into `llvm_whole`: every field this library
 * has, defaults for the ones the caller's header lacked. MTPC_OK if they
 * are valid, else MTPC_ERR_INVALID_ARGUMENT with what is wrong in *problem
 * (malloc'ed; NULL, and MTPC_ERR_NO_MEMORY, when memory ran out). */
mtpc_status mtpc_options_import(const mtpc_options *given, const mtpc_llvm_options *llvm_given,
                                mtpc_options *whole, mtpc_llvm_options *llvm_whole,
                                char **problem);

#endif
