#include "codegen_flags.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The driver's -g<debugger>: -ggdb3 and the like are levels, not tunings. */
static const char *driver_debugger(const char *arg) {
  static const char *const names[] = {"gdb", "lldb", "sce", "dbx"};
  for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
    if (arg[0] == '-' && arg[1] == 'g' && !strcmp(arg + 2, names[i]))
      return names[i];
  return NULL;
}

/* The -cc1 kinds from "constructor" up: clang describes call sites for them. */
static int describes_types(const char *kind) {
  return !strcmp(kind, "constructor") || !strcmp(kind, "limited") ||
         !strcmp(kind, "standalone") || !strcmp(kind, "unused-types");
}

/* What the driver's -g flag `arg` asks of the debug info: 2 types and
 * variables, 1 line tables only, 0 none, -1 no level (-gsplit-dwarf, -gz,
 * ...). */
static int debug_level(const char *arg) {
  static const char *const full[] = {"-g", "-g2", "-g3", "-ggdb", "-ggdb2", "-ggdb3",
                                     "-glldb", "-gsce", "-gdbx", "-gdwarf", "-gfull", "-gused"};
  static const char *const lines[] = {"-g1", "-ggdb1", "-gline-tables-only", "-gmlt",
                                      "-gline-directives-only"};
  for (size_t i = 0; i < sizeof(full) / sizeof(*full); i++)
    if (!strcmp(arg, full[i]))
      return 2;
  if (cli_after_prefix(arg, "-gdwarf-"))
    return 2;
  for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++)
    if (!strcmp(arg, lines[i]))
      return 1;
  return !strcmp(arg, "-g0") || !strcmp(arg, "-ggdb0") ? 0 : -1;
}

int codegen_flags_read(codegen_flags *f, const char *arg) {
  const char *v;
  int level = debug_level(arg);
  if (level >= 0) {
    f->debug_variables = level == 2;
    if ((v = driver_debugger(arg)))
      f->debugger_tuning = v;
  } else if ((v = cli_after_prefix(arg, "-debug-info-kind=")))
    f->debug_variables = describes_types(v);
  else if (!strcmp(arg, "-fstack-size-section"))
    f->stack_size_section = 1;
  else if (!strcmp(arg, "-fno-unique-section-names"))
    f->no_unique_section_names = 1;
  else if (!strcmp(arg, "-fno-zero-initialized-in-bss"))
    f->no_zeros_in_bss = 1;
  else if ((v = cli_after_prefix(arg, "-falign-loops=")))
    f->loop_alignment = (unsigned)strtoul(v, NULL, 10);
  else if ((v = cli_after_prefix(arg, "-debugger-tuning=")))
    f->debugger_tuning = v;
  else if ((v = cli_after_prefix(arg, "-fbasic-block-sections=list=")))
    f->basic_block_sections = v;
  else if ((v = cli_after_prefix(arg, "-fbasic-block-sections=")))
    f->basic_block_sections = v;
  else if (!strcmp(arg, "-fbasic-block-address-map"))
    f->basic_block_address_map = 1;
  else if (!strcmp(arg, "-fsplit-machine-functions"))
    f->split_machine_functions = 1;
  else if (!strcmp(arg, "-femulated-tls") || !strcmp(arg, "-fno-emulated-tls"))
    f->emulated_tls = arg[2] == 'n' ? -1 : 1;
  else if ((v = cli_after_prefix(arg, "--compress-debug-sections=")))
    f->compress_debug_sections = v;
  else if (!strcmp(arg, "-gz"))
    f->compress_debug_sections = "zlib";
  else if ((v = cli_after_prefix(arg, "-gz=")))
    f->compress_debug_sections = v;
  else
    return 0;
  return 1;
}

void codegen_flags_apply(const codegen_flags *f, mtpc_options *o) {
  o->stack_size_section = f->stack_size_section;
  o->no_unique_section_names = f->no_unique_section_names;
  o->no_zeros_in_bss = f->no_zeros_in_bss;
  o->loop_alignment = f->loop_alignment;
  o->debugger_tuning = f->debugger_tuning;
  o->basic_block_sections = f->basic_block_sections;
  o->basic_block_address_map = f->basic_block_address_map;
  o->split_machine_functions = f->split_machine_functions;
  o->compress_debug_sections = f->compress_debug_sections;
  o->emulated_tls = f->emulated_tls;
  o->call_site_info = f->debug_variables && o->opt_level > 0;
}
