/* The named C types of a module's debug info, for the plan's type homes.
 * (C++ on LLVM's debug-info classes: LLVM-C cannot walk metadata graphs.)
 *
 * A named C struct or union at file scope has no ODR identifier, so every
 * partition that uses it would describe it in full; the plan instead gives
 * each such type a home partition that describes it, and the others declare
 * it. A key names a type across contexts: "struct Vdbe at /src/sqlite3.c:22889". */
#ifndef MTPC_DEBUG_TYPES_H
#define MTPC_DEBUG_TYPES_H

#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mtpc_type_walk mtpc_type_walk;
typedef void mtpc_type_found(void *arg, const char *key);

mtpc_type_walk *mtpc_type_walk_create(void);
void mtpc_type_walk_free(mtpc_type_walk *walk);
/* Calls found() for each shareable type that the debug info of a function or
 * global variable describes and no earlier call on `walk` reported. */
void mtpc_walk_debug_types(mtpc_type_walk *walk, LLVMValueRef global, mtpc_type_found *found,
                           void *arg);

/* The name, linkage name (empty in C) and the DIFlags a declaration may
 * carry of a function's DISubprogram, which LLVM-C cannot read; 0 when it has
 * none. The strings live as long as the module's context. */
int mtpc_subprogram_names(LLVMValueRef function, const char **name, size_t *name_len,
                          const char **linkage_name, size_t *linkage_len, unsigned *flags);

/* The entries of every compile unit's retained-type and enum lists. */
uint64_t mtpc_unit_type_list_entries(LLVMModuleRef module);

/* The debug records (#dbg_value, #dbg_declare, #dbg_assign) of a function's
 * instructions, which LLVM-C cannot iterate. */
uint64_t mtpc_debug_record_count(LLVMValueRef function);

#ifdef __cplusplus
}
#endif

#endif
