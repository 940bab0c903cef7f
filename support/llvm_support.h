/* Small questions to LLVM itself: its version, its compressors, a triple's
 * object format, and its out-of-memory handler. (C++, llvm_support.cpp.) */
#ifndef MTPC_LLVM_SUPPORT_H
#define MTPC_LLVM_SUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Registers LLVM's targets, once; every entry point calls it first
 * (compile.c). */
void mtpc_init_llvm(void);

/* "19.1.7" for the LLVM this library was built against. */
const char *mtpc_bridge_llvm_version(void);

/* 1 if this LLVM can compress with `kind` ("none", "zlib" or "zstd"). */
int mtpc_bridge_compression_available(const char *kind);

/* 1 if the triple's object format is ELF. */
int mtpc_bridge_triple_is_elf(const char *triple);
/* 1 if the triple's object format is COFF. */
int mtpc_bridge_triple_is_coff(const char *triple);
/* 1 if its objects are ELF64 little-endian (what elf_object.h reads). */
int mtpc_bridge_triple_is_elf64_le(const char *triple);

/* LLVM's out-of-memory handler calls `handler` (which must not return). */
void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason));

#ifdef __cplusplus
}

#include "llvm/Support/Compression.h"

/* A compression's name ("zlib", "zstd") as MC's and ObjCopy's setting;
 * NULL, "none" or any other name is None. */
llvm::DebugCompressionType mtpc_compression_type(const char *kind);
#endif

#endif
