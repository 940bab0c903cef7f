/* Debug info of one partition, so that the split emits it about once, as a
 * serial compile would. (C++, debug_info.cpp.) */
#ifndef MTPC_DEBUG_INFO_H
#define MTPC_DEBUG_INFO_H

#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* 1 if every compile unit of the module is C, whose composite types carry no
 * ODR identifier: then a partition may read its debug info on demand
 * (mtpc_bridge_open_lazily). */
int mtpc_bridge_debug_info_is_c(LLVMModuleRef module);

/* Global variable declarations lose their !dbg, each compile unit lists only
 * the global variables defined here, and only the primary partition keeps the
 * unit's enums and retained types (the whole module's, emitted once). */
void mtpc_bridge_trim_debug_info(LLVMModuleRef module, int primary);

/* A shareable type (partitioner/debug_types.h) whose home is `partition` is
 * retained by the first compile unit (so it is described even if its users
 * are optimized away); one whose home is another partition becomes a
 * declaration. home_of returns UINT32_MAX for a type without a home, which
 * stays as it is. */
typedef uint32_t mtpc_bridge_type_home(void *arg, const char *key);
void mtpc_bridge_share_debug_types(LLVMModuleRef module, uint32_t partition,
                                   mtpc_bridge_type_home *home_of, void *arg);

/* Removes a function's debug info: its subprogram, its instructions'
 * locations and variable records. */
void mtpc_bridge_strip_debug_info(LLVMValueRef function);

#ifdef __cplusplus
}
#endif

#endif
