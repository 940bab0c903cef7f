/* mtpc_options.sanitizers read: which sanitizer's passes each partition's
 * pipeline ends with, and their settings (sanitizer_spec.c). */
#ifndef MTPC_SANITIZER_SPEC_H
#define MTPC_SANITIZER_SPEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mtpc_sanitizer {
  MTPC_SANITIZER_NONE,
  MTPC_SANITIZER_THREAD,
  MTPC_SANITIZER_ADDRESS,
  MTPC_SANITIZER_MEMORY,
  MTPC_SANITIZER_DATAFLOW
} mtpc_sanitizer;

/* Each setting starts as clang's default for Linux. */
typedef struct mtpc_sanitizer_spec {
  mtpc_sanitizer kind;
  int recover;          /* ASan, MSan: go on after a report */
  int use_after_scope;  /* ASan: 1 */
  int use_after_return; /* ASan: 0 never, 1 runtime (the default), 2 always */
  int odr_indicator;    /* ASan: 1 */
  int globals_gc;       /* ASan: globals in their own sections, dead stripped: 1 */
  int global_destructor; /* ASan: 1; 0 with destructor=none */
  int track_origins;    /* MSan: 0, 1 or 2 */
  int eager_checks;     /* MSan: noundef parameters and returns checked: 1 */
} mtpc_sanitizer_spec;

/* Reads `text` (NULL or "" for none):
 *   thread
 *   address[<setting;...>]  recover, no-use-after-scope,
 *                           use-after-return=never|runtime|always,
 *                           no-odr-indicator, no-globals-gc, destructor=none
 *   memory[<setting;...>]   recover, track-origins=0|1|2, no-eager-checks
 *   dataflow                (its ABI lists: mtpc_options.dfsan_abilists)
 * Returns 0, or 1 with what is wrong in `why`. */
int mtpc_sanitizer_spec_read(const char *text, mtpc_sanitizer_spec *spec, char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
