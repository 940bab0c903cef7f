/* What a partition's cache key leaves out: the parts of its module that
 * change with edits elsewhere in the module, or with the module's path, but
 * reach its object only in a few known places (cache_masks.c). The
 * partition is keyed with placeholders for them, its object is stored with
 * the placeholders, and it gets the real ones back, exactly where the
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
 *    changes with any edit of the file. The key reads the partition's
 *    bitcode with a placeholder (from the file's directory and name) in
 *    the text of each checksum that nothing else in the module holds; the
 *    module itself is compiled as it came. The object's line tables are
 *    stored with the placeholders in their MD5 fields and get the real
 *    ones back.
 *  - Atom groups (LLVM 21 and later, with checksums). The passes that copy
 *    code number the copies' Key Instructions groups from one counter per
 *    module, so an added statement renumbers later functions' groups; each function's are
 *    numbered from 1 instead, which no object shows. */
#ifndef MTPC_CACHE_MASKS_H
#define MTPC_CACHE_MASKS_H

#include <stddef.h>

#include <llvm-c/Types.h>

typedef struct mtpc_cache_masks mtpc_cache_masks;

/* The length of a promoted suffix's placeholder (".llvm.mtpc.s" and
 * digits) at the end of name; 0 when there is none. */
size_t mtpc_cache_suffix_placeholder_length(const char *name, size_t length);

/* Renames the partition's masked names to their placeholders (with `names`)
 * and notes the files whose checksums the key masks and gives its
 * functions their own atom group numbers (with `checksums`). 0 and *masks
 * (NULL when nothing is masked); non-zero when memory runs out. */
int mtpc_cache_mask_module(LLVMModuleRef module, int names, int checksums,
                           mtpc_cache_masks **masks);
/* The partition's bitcode as its key reads it, handed to `piece` a part at
 * a time: the masked files' checksums replaced by their placeholders. */
typedef void mtpc_cache_piece(void *arg, const void *data, size_t size);
void mtpc_cache_masks_key_bitcode(const mtpc_cache_masks *masks, const void *bitcode, size_t size,
                                  mtpc_cache_piece *piece, void *arg);
void mtpc_cache_masks_free(mtpc_cache_masks *masks);

/* The object and .dwo of the unmasked module, as the cache stores them: the
 * placeholder checksums in their line tables. Non-zero when one is not an
 * object this reads. */
int mtpc_cache_mask_object(const mtpc_cache_masks *masks, void *object, size_t object_size,
                           void *dwo, size_t dwo_size);

/* What a compile of the unmasked partition gives: the checksums back in the
 * line tables of the object and the .dwo, then the names (*object
 * replaced). 0 on success; else *message (NULL: out of memory). */
int mtpc_cache_unmask_object(const mtpc_cache_masks *masks, void **object, size_t *object_size,
                             void *dwo, size_t dwo_size, char **message);

#endif
