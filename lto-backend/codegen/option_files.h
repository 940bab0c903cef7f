/* Files that LLVM options name (option_files.c): an option such as
 * -sample-profile-remapping-file=F or -codegen-data-use-path=F makes a
 * compile read F, so a key of that compile holds F's contents, not only the
 * option's text. */
#ifndef MTPC_OPTION_FILES_H
#define MTPC_OPTION_FILES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mtpc_option_file {
  MTPC_OPTION_NAMES_NO_FILE,   /* its value is no regular file (or it has none) */
  MTPC_OPTION_NAMES_FILE,      /* *digest holds the file's contents' XXH3-64 */
  MTPC_OPTION_FILE_UNREADABLE  /* a regular file that could not be read */
} mtpc_option_file;

/* Whether the LLVM option `arg` (as given: "-name=value", or a bare value
 * that follows an option) names a regular file, and its digest: an option's
 * value after its first '=', or the whole argument when it does not start
 * with '-' (a path, '=' in it or not). Relative paths are taken from the
 * working directory, as LLVM takes them. */
mtpc_option_file mtpc_option_file_digest(const char *arg, uint64_t *digest);

#ifdef __cplusplus
}
#endif

#endif
