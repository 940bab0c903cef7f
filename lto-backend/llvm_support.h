/* Small questions to LLVM itself: its version, a triple's object format, and
 * its out-of-memory handler. (C++, llvm_support.cpp.) */
#ifndef MTPC_LLVM_SUPPORT_H
#define MTPC_LLVM_SUPPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/* "19.1.7" for the LLVM this library was built against. */
const char *mtpc_bridge_llvm_version(void);

/* 1 if the triple's object format is ELF. */
int mtpc_bridge_triple_is_elf(const char *triple);

/* For the command-line tool: LLVM's out-of-memory reports (a malformed size
 * in bitcode) go to `handler`, which must not return. */
void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason));

#ifdef __cplusplus
}
#endif

#endif
