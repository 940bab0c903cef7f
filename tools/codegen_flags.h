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
  int call_site_info;          /* -debug-info-kind= constructor or more (-cc1's), or
                                  the driver's -g that asks for it (codegen_flags_debug_level) */
  int variables;               /* -debug-info-kind= limited or more (-cc1's) */
} codegen_flags;

/* Whether `arg` is one of them (then read into *flags). */
int codegen_flags_read(codegen_flags *flags, const char *arg);

/* What the driver's -g flag `arg` asks of the debug info: 2 types and
 * variables (-g, -g2, -gdwarf-N, -glldb, ...), 1 line tables only (-g1,
 * -gline-tables-only, -gmlt), 0 none (-g0), -1 no level (-gsplit-dwarf,
 * -gz, ...). The last level given is the compile's, as clang's driver takes
 * it. */
int codegen_flags_debug_level(const char *arg);

/* Gives *options what *flags hold. */
void codegen_flags_apply(const codegen_flags *flags, mtpc_options *options);

#endif
