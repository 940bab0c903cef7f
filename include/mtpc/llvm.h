/*
 * mtpc for C++ embedders that run LLVM's LTO (a linker, a ThinLTO backend
 * job): what takes LLVM's own objects. The objects are passed as `void *`
 * so that the header needs no LLVM C++ header; each is the LLVM type named,
 * of the LLVM version mtpc was built against (mtpc_version_string).
 */
#ifndef MTPC_LLVM_H
#define MTPC_LLVM_H

#include "mtpc/mtpc.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies, from one `llvm::lto::Config` to another, every field that decides
 * how a partition is compiled or what it writes beside its object: what a
 * linker lends mtpc (mtpc_options.llvm_lto_config) when its own Config is
 * not at hand (the LTO object owns it, and a Config cannot be copied
 * whole). Hooks, the diagnostic handler and what only LLVM's LTO driver
 * reads are left as they are. */
void mtpc_copy_lto_config(const void *from, void *to);

#ifdef __cplusplus
}
#endif

#endif
