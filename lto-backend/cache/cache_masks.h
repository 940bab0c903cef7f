/* What a partition's cache key leaves out: the parts of its module that
 * change with edits elsewhere in the module, or with the module's path, but
 * reach its object only in a few known places (cache_masks.c). The
 * partition is keyed and compiled with placeholders for them, and its
 * object (stored as compiled) gets the real ones back, exactly where the
 * placeholders went.
 *
 *  - Names. A global variable named by a counter (clang's ".str.N", LLVM's
 *    "name.N" for a clash) is renumbered by a literal added anywhere before
 *    it; a ".llvm.<hash>" suffix (ThinLTO's promoted names, with the hash of
 *    the module that promoted them, and mtpc's, with the module's path)
 *    changes with that module. Placeholders: ".mtpc.v<i>" for the counter's
 *    name, ".llvm.mtpc.s<j>" for the suffix, numbered in module order; the
 *    object's symbol and section names get the real ones back. Only where
 *    no text of the partition's own that can name a symbol or section holds
 *    a placeholder's token, so that every token in the object is one of
 *    these, and only when asked (nothing in the compile reads names).
 *  - Source checksums. With -g, every file's MD5 (DWARF 5 line tables)
 *    changes with any edit of the file. Each file's debug info names a file
 *    with a placeholder checksum instead (from its directory and name); the
 *    MD5 fields of the object's line tables get the real ones back.
 *  - Atom groups (LLVM 21 and later, with checksums). The passes that copy
 *    code number the copies' Key Instructions groups from one counter per
 *    module, so an added statement renumbers later functions' groups; each function's are
 *    numbered from 1 instead, which no object shows. */
#ifndef MTPC_CACHE_MASKS_H
#define MTPC_CACHE_MASKS_H

#include <stddef.h>

#include <llvm-c/Types.h>

typedef struct mtpc_cache_masks mtpc_cache_masks;

/* Renames the partition's masked names to their placeholders (with `names`)
 * and gives its files placeholder checksums and its functions their own
 * atom group numbers (with `checksums`). 0 and *masks
 * (NULL when nothing is masked); non-zero when memory runs out. */
int mtpc_cache_mask_module(LLVMModuleRef module, int names, int checksums,
                           mtpc_cache_masks **masks);
void mtpc_cache_masks_free(mtpc_cache_masks *masks);

/* What a compile of the unmasked partition gives: the checksums back in the
 * line tables of the object and the .dwo, then the names (*object
 * replaced). 0 on success; else *message (NULL: out of memory). */
int mtpc_cache_unmask_object(const mtpc_cache_masks *masks, void **object, size_t *object_size,
                             void *dwo, size_t dwo_size, char **message);

#endif
