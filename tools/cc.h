/* `mtpc cc`: which compiles the launcher splits, and how (cc_args.c), and
 * the launcher itself (cc.c). */
#ifndef MTPC_TOOLS_CC_H
#define MTPC_TOOLS_CC_H

#include "mtpc/mtpc.h"

/* Checks a compiler command line (argv[0] the compiler) before anything is
 * run: NULL when it may be split, else why it passes straight through.
 * *source is then the one source file. */
const char *cc_check_command(int argc, char *const *argv, const char **source);

/* What `clang -###` says its -cc1 job is, translated for mtpc. */
typedef struct cc_job {
  char **frontend;       /* the -cc1 job writing unoptimized bitcode to frontend_output */
  const char *output;    /* the object the job writes (its -o) */
  unsigned opt_level;    /* 1..3, or 2 for -Os */
  const char *pipeline;  /* "default<O2>", "default<Os>", ... */
  unsigned codegen_level;
  const char *cpu;
  char *features;        /* comma separated */
  int function_sections;
  int data_sections;
  const char *split_dwarf_file;
  const char *split_dwarf_output;
  const char **llvm_options;
  unsigned llvm_option_count;
} cc_job;

/* Reads the -cc1 job `args` (count of them, args[0] the clang binary).
 * Returns NULL and fills *job (its frontend writes to `bitcode`), or why
 * the job is not one mtpc reproduces (then the compile passes through);
 * the reason is static or, when *owned is set, malloc'ed. */
const char *cc_read_job(char **args, int count, const char *bitcode, cc_job *job, char **owned);
void cc_job_free(cc_job *job);

/* Copies of the compile's code-generation settings into mtpc's options. */
void cc_job_options(const cc_job *job, mtpc_options *options);

#endif
