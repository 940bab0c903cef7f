#ifndef MTPC_FAULT_H
#define MTPC_FAULT_H

/* Fault injection for tests. The environment variable MTPC_FAULT lists, comma
 * separated, the places that fail on purpose:
 *   codegen=K  code generation of partition K fails (K = "all": every one);
 *   write      every file write fails halfway, as on a full disk (ENOSPC).
 * Tests use it to check that a failure there gives one error and leaves no
 * output and no temporary files. */
int mtpc_fault_codegen(unsigned partition);
int mtpc_fault_write(void);

#endif
