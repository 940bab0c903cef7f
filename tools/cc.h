/* `mtpc cc` and `mtpc-cc`: the launcher's options and the first look at a
 * command (cc_check.c, libc only, shared with mtpc-cc's cc_launch.c), the
 * second look at clang's -cc1 job (cc_args.c), the split (cc.c). */
#ifndef MTPC_TOOLS_CC_H
#define MTPC_TOOLS_CC_H

#include <stdint.h>

#include "codegen_flags.h"
#include "mtpc/mtpc.h"

/* Sources under this many bytes pass through without running anything. */
#define CC_MIN_SOURCE_SIZE (256u << 10)
/* Modules under this many unoptimized IR instructions are compiled by the
 * compiler: about twice MTPC_DEFAULT_THRESHOLD's optimized ones. */
#define CC_THRESHOLD 40000u

typedef struct cc_settings {
  unsigned jobs;            /* 0: all hardware threads */
  unsigned partitions;      /* 0: from the module's size */
  uint64_t min_source_size;
  unsigned threshold;
  int verbose;
  int quiet;                /* no note for a large compile a flag keeps unsplit */
  const char *time_trace;   /* NULL: none */
} cc_settings;

typedef enum cc_settings_status {
  CC_SETTINGS_OK,
  CC_SETTINGS_HELP,
  CC_SETTINGS_VERSION,
  CC_SETTINGS_BAD           /* the error is printed */
} cc_settings_status;

extern const char cc_usage_text[];

/* The launcher's own options, before the compiler (and from MTPC_CC_JOBS
 * and MTPC_CC_VERBOSE); *first is the compiler's index in argv. */
cc_settings_status cc_parse_settings(cc_settings *s, int argc, char *const *argv, int *first);

int cc_has_prefix(const char *s, const char *prefix);

/* Checks a compiler command line (argv[0] the compiler) before anything is
 * run: NULL when it may be split, else why it passes straight through.
 * *source is then the one source file; *loud when only a flag (a sanitizer,
 * a profile, ...) keeps a compile that could be split unsplit. */
const char *cc_check_command(int argc, char *const *argv, const char **source, int *loud);

/* The source's size, with those of the C and C++ files it includes by name
 * (a unity build's source is a list of those); counting stops at `enough`. */
uint64_t cc_source_size(const char *source, uint64_t enough);

/* Why a command passes straight through (cc_check_command, or a source
 * under the settings' size), or NULL; *source and *loud as cc_check_command
 * sets them (a small source is never loud). */
const char *cc_pass_through_reason(const cc_settings *s, int argc, char *const *argv,
                                   const char **source, int *loud);
/* Says why a compile passes through: with --verbose always; else once, on
 * stderr, when `loud` (a flag kept a large compile unsplit), unless quiet. */
void cc_report_pass_through(const cc_settings *s, const char *source, const char *reason,
                            int loud);
/* 1 if every sanitizer of a -fsanitize= list (after the '=') is one a split
 * compile reproduces: UndefinedBehaviorSanitizer's checks (and its groups),
 * which clang's front end writes into the IR, libFuzzer's (SanitizerCoverage,
 * which the -cc1 job asks for apart), and ThreadSanitizer,
 * AddressSanitizer, MemorySanitizer and DataFlowSanitizer, whose passes
 * the library adds where clang adds them (*passes gets CC_SANITIZE_* of
 * every name in the list); 0 when one of them is another sanitizer with
 * passes (HWASan, ...). */
enum {
  CC_SANITIZE_THREAD = 1,
  CC_SANITIZE_ADDRESS = 2,
  CC_SANITIZE_MEMORY = 4,
  CC_SANITIZE_DATAFLOW = 8
};
int cc_split_sanitizers(const char *list, unsigned *passes);
/* "mtpc: note: ..." on stderr, with --verbose. */
void cc_note(const cc_settings *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Runs the compiler (argv[0]), with `extra` appended unless NULL, in place
 * of this process; returns 1 only when it cannot be run. */
int cc_run_compiler(int argc, char *const *argv, const char *extra);

/* What `clang -###` says its -cc1 job is, translated for mtpc. */
typedef struct cc_job {
  char **frontend;       /* the -cc1 job, writing unoptimized bitcode instead of the object */
  const char *output;    /* the object the job writes (its -o) */
  const char *input;     /* its source, as clang names its module after it */
  unsigned opt_level;    /* 1..3, or 2 for -Os; the code generation level too */
  const char *pipeline;  /* "default<O2>", "default<Os>", ... */
  const char *triple;    /* -triple */
  int tls_descriptors;   /* -enable-tlsdesc */
  int ctors_section;     /* -fno-use-init-array */
  const char *object_file_name; /* -object-file-name= (CodeView's S_OBJNAME) */
  const char *exception_model; /* -exception-model= */
  const char *cpu;
  const char *abi;       /* -target-abi, or NULL */
  const char *sample_profile; /* -fprofile-sample-use=, or NULL */
  unsigned sanitizer_passes; /* CC_SANITIZE_* of the -fsanitize= lists */
  /* Their settings, as the -cc1 job gives them. */
  unsigned recovering_sanitizers; /* CC_SANITIZE_* of -fsanitize-recover= */
  int asan_use_after_scope, asan_globals_gc, asan_no_odr_indicator, asan_no_destructor;
  const char *asan_use_after_return; /* "never", "runtime", "always", or NULL */
  int msan_track_origins, msan_no_eager_checks;
  char sanitizer_spec[160]; /* mtpc_options.sanitizers for them, or "" */
  /* -fsanitize-ignorelist= files, then (once the job is read)
   * -fsanitize-system-ignorelist= ones: DataFlowSanitizer's ABI lists, in
   * the order clang gives its pass them. */
  const char **ignorelists, **system_ignorelists;
  unsigned ignorelist_count, system_ignorelist_count;
  /* SanitizerCoverage: mtpc_options.sanitizer_coverage, made of the job's
   * -fsanitize-coverage-type= and kinds, and its lists. */
  int coverage_level;    /* 0 none, 1 func, 2 bb, 3 edge */
  char coverage_kinds[256]; /* comma separated */
  char sanitizer_coverage[272];
  const char *coverage_allowlist, *coverage_ignorelist;
  int loop_vectorize;    /* 1 with -vectorize-loops, else -1 (mtpc_options') */
  int slp_vectorize;     /* 1 with -vectorize-slp, else -1 */
  int loop_unroll;       /* 1 from -O2 or with -funroll-loops, -1 at -O1 or with
                            -fno-unroll-loops (mtpc_options') */
  int instrprof;         /* -fprofile-instrument=clang: lowered before the split */
  int ir_profile_generate;     /* -fprofile-instrument=llvm */
  const char *ir_profile_use;  /* an IR instrumentation profile, or NULL */
  int cs_profile_use;          /* ir_profile_use has context-sensitive records */
  int cs_profile_generate;     /* -fprofile-instrument=csllvm */
  const char *instrprof_output; /* -fprofile-instrument-path=, or NULL */
  int instrprof_atomic;  /* -fprofile-update=atomic (clang's counters and gcov's) */
  unsigned gcov;         /* MTPC_GCOV_NOTES, _DATA: -coverage-notes-file=, -data-file= */
  int no_red_zone;       /* -disable-red-zone */
  char *features;        /* comma separated */
  int function_sections;
  int addrsig;
  codegen_flags codegen;        /* the TargetOptions of mtpc_options' */
  int instrument_functions;    /* -finstrument-functions */
  int debug_info_for_profiling; /* -fdebug-info-for-profiling */
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
