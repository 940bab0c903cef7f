/* clang's flags for the code generation settings no IR carries
 * (mtpc_options' TargetOptions), read the same way by `mtpc cc` (from the
 * -cc1 job) and `mtpc backend` (from the driver's command line): the two
 * spell them alike, but for the debugger tuning. */
#ifndef MTPC_TOOLS_CODEGEN_FLAGS_H
#define MTPC_TOOLS_CODEGEN_FLAGS_H

#include "mtpc/mtpc.h"

typedef struct codegen_flags {
  int stack_size_section;      /* -fstack-size-section */
  int no_unique_section_names; /* -fno-unique-section-names */
  int no_zeros_in_bss;         /* -fno-zero-initialized-in-bss */
  unsigned loop_alignment;     /* -falign-loops=<n> */
  const char *debugger_tuning; /* -debugger-tuning=<d> (-cc1), -ggdb/-glldb/-gsce/-gdbx */
  const char *basic_block_sections; /* -fbasic-block-sections=: all, labels, none or a path */
  int basic_block_address_map; /* -fbasic-block-address-map */
  int split_machine_functions; /* -fsplit-machine-functions */
  /* --compress-debug-sections=<c> (-cc1), -gz[=<c>] (the driver's) */
  const char *compress_debug_sections;
  /* -femulated-tls 1, -fno-emulated-tls -1 (the driver's), else 0 */
  int emulated_tls;
  /* The debug information describes types and variables: -cc1's
   * -debug-info-kind= from "constructor" up, or the driver's last -g level
   * (-g, -g2, -gdwarf-N, -glldb, ... and not -g0, -g1, -gline-tables-only,
   * -gmlt), as clang's driver takes it. */
  int debug_variables;
} codegen_flags;

/* Whether `arg` is one of them (then read into *flags). */
int codegen_flags_read(codegen_flags *flags, const char *arg);

/* Gives *options what *flags hold (options->opt_level set first): with
 * debug_variables above -O0, the call sites' parameters clang describes. */
void codegen_flags_apply(const codegen_flags *flags, mtpc_options *options);

#endif
