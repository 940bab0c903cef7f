#ifndef MTPC_FAULT_H
#define MTPC_FAULT_H

/* Fault injection for tests: a spec (the tools take it from MTPC_FAULT and
 * compile with mtpc_compile_with_faults, lto-backend/tools.h) lists, comma
 * separated, the places that fail on purpose:
 *   codegen=K  code generation of partition K fails (K = "all": every one);
 *   write      every file write fails halfway, as on a full disk (ENOSPC);
 *   cache      every write to the partition cache fails so;
 *   reload=K   partition K (or "all") loads again with every function record
 *              whole, as when it keeps a function whose record its view changed;
 *   hold       a tool waits for a signal with its outputs written under
 *              their temporary names, just before it renames them.
 * Tests use it to check that a failure there gives one error and leaves no
 * output and no temporary files, and that a reload gives the same object. A NULL spec injects nothing. */
int mtpc_fault_codegen(const char *spec, unsigned partition);
int mtpc_fault_write(const char *spec);
int mtpc_fault_cache(const char *spec);
int mtpc_fault_reload(const char *spec, unsigned partition);
int mtpc_fault_hold(const char *spec);

#endif
