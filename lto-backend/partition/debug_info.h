/* Debug info of one partition, so that the split emits it about once, as a
 * serial compile would. (C++, debug_info.cpp.) */
#ifndef MTPC_DEBUG_INFO_H
#define MTPC_DEBUG_INFO_H

#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* Makes the context unique composite types by ODR identifier, as LTO's
 * contexts do, so that a partition finds the types it is home to by their
 * identifiers (before anything is loaded into it). */
void mtpc_bridge_unique_odr_types(LLVMContextRef context);

/* The ODR types a partition is home to (partition_bitcode.h), those it has
 * read: each takes its name back if its record had it cut off, and the first
 * compile unit retains it, so it is described even if its users are
 * optimized away. */
struct mtpc_odr_record;
void mtpc_bridge_home_odr_types(LLVMModuleRef module, const struct mtpc_odr_record *const *homed,
                                uint32_t count);

/* Removes a function's debug info: its subprogram, its instructions'
 * locations and variable records. */
void mtpc_bridge_strip_debug_info(LLVMValueRef function);
/* The same, but the function keeps a subprogram with nothing inside: its
 * name, type and code range, so that its callers' call-site entries have a
 * DW_AT_call_origin, at the cost of one small DIE. */
void mtpc_bridge_keep_subprogram_only(LLVMValueRef function);

/* Each source file the module's debug info names whose MD5 checksum (what
 * DWARF 5 line tables record) nothing else in the module's metadata holds:
 * a string of the checksum's text is that file's checksum, or the checksum
 * of another file with the same contents, and nothing more. `found` sees
 * the 32 hex digits, directory and name, in a fixed order, and returns 0,
 * or non-zero (memory ran out) to stop; returns that. */
typedef int mtpc_bridge_file_checksum(void *arg, const char *checksum, const char *directory,
                                      const char *name);
int mtpc_bridge_file_checksums(LLVMModuleRef module, mtpc_bridge_file_checksum *found, void *arg);

/* Numbers each function's Key Instructions atom groups 1, 2, ... in the
 * order its instructions name them (debug_atoms.cpp says why no object
 * changes); nothing before LLVM 21, which has no atom groups. */
void mtpc_bridge_renumber_atom_groups(LLVMModuleRef module);

#ifdef __cplusplus
}
#endif

#endif
