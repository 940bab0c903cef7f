/* What a partition's cache key leaves out: the parts of its module that
 * change with edits elsewhere in the module, or with the module's path, but
 * reach its object only in a few known places (cache_masks.c).
 *
 *  - Names. A global variable named by a counter (clang's ".str.N", LLVM's
 *    "name.N" for a clash) is renumbered by a literal added anywhere before
 *    it; a ".llvm.<hash>" suffix (ThinLTO's promoted names, with the hash of
 *    the module that promoted them, and mtpc's, with the module's path)
 *    changes with that module. The partition is keyed and compiled with
 *    placeholders (".mtpc.v<i>" for the counter's name, ".llvm.mtpc.s<j>"
 *    for the suffix, numbered in module order), and its object's symbol and
 *    section names get the real ones back.
 *  - Source checksums. With -g, every file's MD5 (DWARF 5 line tables)
 *    changes with any edit of the file. The key reads a placeholder per
 *    file (from its directory and name) instead; the object is stored with
 *    the placeholder in its line table and patched back, in place: the
 *    field has a fixed size. */
#ifndef MTPC_CACHE_MASKS_H
#define MTPC_CACHE_MASKS_H

#include <stddef.h>

#include <llvm-c/Types.h>

typedef struct mtpc_cache_masks mtpc_cache_masks;

/* Renames the partition's masked names to their placeholders and notes its
 * files' checksums. 0 and *masks (NULL when nothing is masked); non-zero
 * when memory runs out. */
int mtpc_cache_mask_module(LLVMModuleRef module, mtpc_cache_masks **masks);
void mtpc_cache_masks_free(mtpc_cache_masks *masks);

/* The bitcode as keyed: each checksum replaced by its placeholder, in place. */
void mtpc_cache_mask_bitcode(const mtpc_cache_masks *masks, char *bitcode, size_t size);
/* The object and .dwo as stored: their line tables' checksums replaced by
 * the placeholders, in place. Non-zero when an object with checksums to
 * mask is not an ELF64 little-endian one: it must not be stored, since its
 * key holds no checksum that a hit could patch back. */
int mtpc_cache_mask_object(const mtpc_cache_masks *masks, void *object, size_t object_size,
                           void *dwo, size_t dwo_size);
/* What a compile of the unmasked partition gives: the checksums back in
 * place, then the names (*object replaced). 0 on success; else *message
 * (NULL: out of memory). */
int mtpc_cache_unmask_object(const mtpc_cache_masks *masks, void **object, size_t *object_size,
                             void *dwo, size_t dwo_size, char **message);

#endif
