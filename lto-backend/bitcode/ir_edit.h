/* IR surgery LLVM-C cannot do: materializing lazily loaded bodies, deleting
 * bodies, turning definitions (aliases and ifuncs included) into
 * declarations. (C++, ir_edit.cpp.) */
#ifndef MTPC_IR_EDIT_H
#define MTPC_IR_EDIT_H

#include <stddef.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Opens `bitcode` lazily in `context`: bodies wait for materializing. With
 * metadata_on_demand, module-level metadata also waits until something
 * loaded refers to it (as LLVM's ThinLTO importer reads a source module),
 * so a partition reads only its own functions' debug info. LLVM then turns
 * named composite types with an ODR identifier into declarations, unless
 * their record has no name (partition_bitcode.h homes them). Named metadata
 * (module flags, compile units) is there on return either way.
 * 0 on success; else *message (free()) says why. */
int mtpc_bridge_open_lazily(LLVMContextRef context, const void *bitcode, size_t size,
                            const char *name, int metadata_on_demand, LLVMModuleRef *module,
                            char **message);

/* Turns a (possibly not yet materialized) function into a declaration. */
void mtpc_bridge_delete_body(LLVMValueRef function);

/* Materializes one lazily held function body (nothing to do for any other
 * global value). 0 on success; else *message (free()) says why. */
int mtpc_bridge_materialize(LLVMValueRef global, char **message);

/* Materializes every function body still lazily held. *verified says
 * whether LLVM verified the whole module on the way, as it does one with
 * debug info of the current version (UpgradeDebugInfo) unless
 * -disable-auto-upgrade-debug-info is set, so that a second verifier run
 * would only repeat it. 0 on success; else *message (free()) says why. */
int mtpc_bridge_materialize_all(LLVMModuleRef module, int *verified, char **message);

/* The same for a partition, whose declarations may still sit in COMDATs and
 * be aliased until the split rewrites them: materializeAll() would verify
 * such a module when it has debug info (UpgradeDebugInfo) and abort. */
int mtpc_bridge_materialize_bodies(LLVMModuleRef module, char **message);

/* Replaces an alias or ifunc with a declaration of the same name, type,
 * visibility and thread-local mode; returns the declaration. */
LLVMValueRef mtpc_bridge_replace_with_declaration(LLVMValueRef global);

/* Erases a global value that nothing uses any more (dead constant users are
 * dropped first). Returns 1 if erased, 0 if something still uses it. */
int mtpc_bridge_erase_if_unused(LLVMValueRef global);

/* Turns a defined global value into a declaration: a function loses its
 * body, a variable its initializer and COMDAT, an alias or ifunc is replaced
 * (see above). Linkage becomes external. `coff`: the module's target is
 * COFF (mtpc_bridge_triple_is_coff), asked once by the caller because parsing the
 * triple for each of a partition's thousands of declarations cost 0.4% of
 * sqlite3.c's compile. Returns the declaration. */
LLVMValueRef mtpc_bridge_make_declaration(LLVMValueRef global, int coff);

/* 1 if a text of the module's own that can name a symbol or a section of
 * its object (global value names, sections, section pragmas, COMDATs,
 * module and inline assembly) contains one of `texts`. */
int mtpc_bridge_module_mentions(LLVMModuleRef module, const char *const *texts, size_t count);

/* The module's bitcode with the order of every value's uses, as clang's
 * bitcode output keeps it (-emit-llvm-uselists): a module read back from
 * it walks uses, and so lays code out, as the module written did. */
LLVMMemoryBufferRef mtpc_bridge_write_bitcode_in_use_order(LLVMModuleRef module);

/* Erases the module's named metadata `name`, if it has one. */
void mtpc_bridge_erase_named_metadata(LLVMModuleRef module, const char *name);

#ifdef __cplusplus
}
#endif

#endif
