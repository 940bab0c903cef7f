/*
 * mtpc: compile one large LLVM module on many cores.
 *
 * The module is split along its call graph into partitions; each partition is
 * optimized and code-generated on its own thread, in its own LLVMContext with
 * its own TargetMachine, and the partition objects are merged back into one
 * relocatable ELF object whose global and weak symbols are those a serial
 * compile of the module would have produced.
 *
 *   mtpc_options opts;
 *   mtpc_options_init(&opts);
 *   opts.jobs = 8;
 *   mtpc_result *res;
 *   if (mtpc_compile_bitcode(data, size, "in.bc", &opts, &res) != MTPC_OK)
 *     fprintf(stderr, "error: %s\n", mtpc_result_message(res));
 *   size_t size;
 *   const void *object = mtpc_result_object(res, &size);
 *   ...
 *   mtpc_result_free(res);
 *
 * Errors: a function that can fail returns an mtpc_status. Where a failure
 * has more to say than its status, the function also sets an mtpc_result
 * (whatever the status) whose mtpc_result_message is one line saying what
 * went wrong; free it with mtpc_result_free. Functions that cannot fail
 * return what they compute.
 *
 * Two layers: this header holds the stable C settings, results and
 * statistics; mtpc/llvm.h adds what C++ embedders that run LLVM's LTO lend
 * mtpc (an lto::Config, summaries, a module mtpc may change).
 *
 * Compatibility: within one ABI version (MTPC_ABI_VERSION) mtpc_options only
 * grows at its end, and mtpc_options_init records the size the caller was
 * compiled with, so a program built against an older header keeps working
 * with a newer library. A new ABI version renames mtpc_options_init's
 * symbol, so that a program built against another one does not link; what
 * it used and is gone fails to compile with a message saying what to use
 * instead (docs/api.rst, "From 0.4 to 0.5"). Results are opaque. Every
 * function may be called from several threads at once (docs/api.rst).
 */
#ifndef MTPC_MTPC_H
#define MTPC_MTPC_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MTPC_VERSION_MAJOR 0
#define MTPC_VERSION_MINOR 6
#define MTPC_VERSION_PATCH 0
#define MTPC_VERSION_STRING "0.6.0"
/* 2 since 0.5: the LLVM objects and fault injection left mtpc_options, and
 * every fallible function returns an mtpc_status. */
#define MTPC_ABI_VERSION 2

/* What a program written against an older header used and is gone: using
 * it is a compile error that says what to use instead. */
#if defined(__GNUC__) || defined(__clang__)
#define MTPC_GONE(what_instead) __attribute__((unavailable(what_instead)))
#define MTPC_GONE_FIELD(name, what_instead) \
  __extension__ char name[0] __attribute__((unavailable(what_instead)));
#else
#define MTPC_GONE(what_instead)
#define MTPC_GONE_FIELD(name, what_instead)
#endif

/* Passed as mtpc_options.partitions: one partition per group of tightly
 * coupled functions (the finest split the partitioner allows). */
#define MTPC_PARTITIONS_MAX 0xffffffffu
/* mtpc_options.import_instr_limit's default: chosen from the module, 100 (as
 * ThinLTO's importer) for C++ (inline functions and templates), 30 else. */
#define MTPC_IMPORT_LIMIT_BY_MODULE 0xffffffffu

/* Below this many IR instructions (after importing, not counting
 * available_externally functions) a ThinLTO backend (ld.lld, mtpc backend)
 * leaves a module to LLVM's own backend: about a 10K-line C file
 * (mtpc_should_split). */
#define MTPC_DEFAULT_THRESHOLD 20000u

typedef enum mtpc_status {
  MTPC_OK = 0,
  MTPC_ERR_INVALID_ARGUMENT, /* bad option value */
  MTPC_ERR_INPUT,            /* missing, truncated or corrupt bitcode */
  MTPC_ERR_TARGET,           /* unknown target, CPU or feature set */
  MTPC_ERR_WORKER,           /* optimizing or code-generating a partition failed */
  MTPC_ERR_MERGE,            /* merging or rewriting the partition objects failed */
  MTPC_ERR_OUTPUT,           /* writing the result failed */
  MTPC_ERR_NO_MEMORY         /* an allocation of mtpc's failed (LLVM's own allocations
                                end the process, as LLVM's out-of-memory handler does) */
} mtpc_status;

/* What a call produced: a compile's object(s) and statistics, and for any
 * call that failed, the message saying why. Owned by the caller; release
 * with mtpc_result_free. */
typedef struct mtpc_result mtpc_result;

/* A short, static description of a status code. */
const char *mtpc_status_string(mtpc_status status);

typedef enum mtpc_reloc_model {
  MTPC_RELOC_DEFAULT = 0, /* from the module's "PIC Level" flag, as LLVM's LTO does */
  MTPC_RELOC_STATIC,
  MTPC_RELOC_PIC,
  MTPC_RELOC_DYNAMIC_NO_PIC
} mtpc_reloc_model;

typedef enum mtpc_severity { MTPC_NOTE, MTPC_WARNING } mtpc_severity;

/* Called for warnings and notes (for example when a module falls back to an
 * unsplit compile). May be called from any thread, one call at a time. */
typedef void (*mtpc_diag_fn)(void *user, mtpc_severity severity, const char *message);
/* Called on the calling thread as each phase begins: "read" (parsing the
 * input bitcode; mtpc_compile_bitcode only), "plan", "compile" (partitions
 * compiled and merged). */
typedef void (*mtpc_phase_fn)(void *user, const char *phase);

/* mtpc_options.collect_stats: figures (1), and where the CPU goes (2). */
#define MTPC_STATS_ACCOUNT 2

/* Per-partition figures, filled when mtpc_options.collect_stats is set. New
 * fields are only appended. */
typedef struct mtpc_partition_stats {
  uint64_t cost;           /* planned cost of the owned definitions */
  uint64_t imported_cost;  /* cost of available_externally copies it received */
  unsigned functions;      /* definitions owned */
  double load_seconds;     /* lazy load, materialize and rewrite */
  double opt_seconds;      /* optimization pipeline */
  double codegen_seconds;  /* code generation to an object */
  uint64_t rss_bytes;      /* process RSS when its object was done */
  size_t object_bytes;
  int cache_hit;           /* its object came from the partition cache */
  double release_seconds;  /* freeing its context once its object was done */
  uint64_t memory_bytes;   /* memory its thread used while it ran: the peak of
                              what it allocated less what it freed when the
                              program links jemalloc (mtpc and ld.lld do),
                              else what it brought in from the system (page
                              faults times the page size) */
  /* With collect_stats = MTPC_STATS_ACCOUNT, thread CPU seconds (the fields
   * above are wall seconds): */
  double cpu_seconds;        /* the whole job, load to release (less the
                                account's own measurements) */
  double target_cpu_seconds; /* creating its TargetMachine */
  double opt_own_cpu_seconds;    /* optimization passes on its own definitions, */
  double opt_copy_cpu_seconds;   /* on available_externally copies, */
  double opt_clone_cpu_seconds;  /* on clones of discardable definitions, */
  double opt_module_cpu_seconds; /* on the module as a whole */
  double codegen_cpu_seconds;    /* code generation, and of it: */
  double codegen_clone_cpu_seconds; /* the clones' (the same module's code
                                       generation without them, subtracted) */
  double load_cpu_seconds;    /* reading and forming its module (load_seconds) */
  double release_cpu_seconds; /* freeing its context (release_seconds) */
  unsigned clones_dropped;    /* clones left to a partition compiled before it */
  unsigned dead_dropped;      /* of those drops, promoted locals no partition uses */
  unsigned reloaded;          /* 1: loaded twice, the second time with every
                                 function record whole (docs/design.rst, step 3) */
} mtpc_partition_stats;

/* Whole-compile figures, filled when mtpc_options.collect_stats is set. New
 * fields are only appended. */
typedef struct mtpc_stats {
  unsigned partitions;
  unsigned jobs;
  int split;                  /* 0 when the module was compiled unsplit */
  double read_seconds;        /* parsing the input bitcode */
  double plan_seconds;        /* call graph and plan */
  double bitcode_seconds;     /* writing the module's bitcode once */
  double parallel_seconds;    /* wall time of the parallel phase */
  double merge_seconds;       /* lld -r and symbol localization */
  double total_seconds;
  uint64_t peak_rss_bytes;
  uint64_t total_cost;
  uint64_t duplicated_cost;   /* cost of all available_externally copies */
  uint64_t memory_waits;      /* worker threads that waited for the memory limit */
  unsigned cache_hits;        /* partitions whose object came from cache_dir */
  unsigned cache_misses;      /* partitions compiled and stored there */
  const char *unsplit_reason; /* why it was compiled unsplit (the result's), or NULL */
  double whole_program_seconds; /* the whole-module passes before the split (full_lto's,
                                   lower_instrprof's) */
} mtpc_stats;

/* A pool of compile slots shared by everything that compiles in a process
 * (for example a linker's ThinLTO backend threads and mtpc's workers), so
 * that busy threads never exceed its size. Each partition holds one slot
 * while it is loaded, optimized and code-generated. */
typedef struct mtpc_budget mtpc_budget;
/* A budget of `slots` slots in *budget: MTPC_OK, or MTPC_ERR_NO_MEMORY. */
mtpc_status mtpc_budget_new(unsigned slots, mtpc_budget **budget);
void mtpc_budget_destroy(mtpc_budget *budget); /* NULL is allowed */
/* Blocks until a slot is free and no costlier job waits for one: slots go to
 * the waiting job of the largest `cost` (mtpc's partitions give their planned
 * cost, about one unit per IR instruction), the first to wait among equals. */
void mtpc_budget_acquire_for(mtpc_budget *budget, uint64_t cost);
void mtpc_budget_acquire(mtpc_budget *budget); /* mtpc_budget_acquire_for(budget, 0) */
int mtpc_budget_try_acquire(mtpc_budget *budget); /* 1: got one; 0: none free or one waits */
void mtpc_budget_release(mtpc_budget *budget);
/* A budget whose slots are GNU make's jobserver's (the one MAKEFLAGS names):
 * the process's own implicit slot, then tokens as make has them free, at most
 * `max_slots` at once. MTPC_OK with *budget NULL when MAKEFLAGS names no
 * jobserver or make closed its descriptors; MTPC_ERR_INPUT, with the result's
 * message saying why, when it names one that is neither a FIFO nor a pair of
 * pipe descriptors (a regular file, say) or that cannot be opened. */
mtpc_status mtpc_budget_new_jobserver(unsigned max_slots, mtpc_budget **budget,
                                      mtpc_result **result);

MTPC_GONE("use mtpc_budget_new(slots, &budget), which returns an mtpc_status")
mtpc_budget *mtpc_budget_create(unsigned slots);
MTPC_GONE("use mtpc_budget_new_jobserver(max_slots, &budget, &result)")
mtpc_budget *mtpc_budget_create_jobserver(unsigned max_slots);
MTPC_GONE("use mtpc_budget_new_jobserver(max_slots, &budget, &result); the problem is "
          "mtpc_result_message(result)")
mtpc_budget *mtpc_budget_open_jobserver(unsigned max_slots, char **problem);

typedef enum mtpc_code_model {
  MTPC_CODE_MODEL_DEFAULT = 0, /* the module's, else the target's default */
  MTPC_CODE_MODEL_TINY,
  MTPC_CODE_MODEL_SMALL,
  MTPC_CODE_MODEL_KERNEL,
  MTPC_CODE_MODEL_MEDIUM,
  MTPC_CODE_MODEL_LARGE
} mtpc_code_model;

typedef struct mtpc_options {
  size_t struct_size;   /* set by mtpc_options_init; leave as it is */
  unsigned jobs;        /* worker threads; 0 = hardware threads. Never changes the output. */
  unsigned partitions;  /* 0 = derived from the module's size; MTPC_PARTITIONS_MAX = finest */
  unsigned opt_level;   /* 0..3, the ThinLTO backend pipeline level */
  unsigned codegen_opt_level; /* 0..3; default 2, like LLVM's LTO */
  const char *triple;   /* NULL = the module's */
  const char *cpu;      /* NULL = generic; per-function attributes still apply */
  const char *features;
  mtpc_reloc_model reloc_model;
  int function_sections;
  int data_sections;
  unsigned import_instr_limit; /* callees up to this size get available_externally copies;
                                  MTPC_IMPORT_LIMIT_BY_MODULE (the default) */
  int merge;            /* 1 (default): one merged object; 0: keep partition objects apart */
  int collect_stats;    /* fill mtpc_result_stats; MTPC_STATS_ACCOUNT also the CPU
                           account (which code-generates each partition twice) */
  int verify;           /* run the IR verifier on each partition before optimizing (default 1) */
  const char *emit_partitions_dir; /* write each partition's rewritten IR and the plan here */
  mtpc_diag_fn diag;
  void *diag_user;
  mtpc_code_model code_model;
  mtpc_budget *budget;  /* optional: slots shared with the caller's other compiles */
  /* The calling thread holds one slot of `budget` (a linker's backend task):
   * mtpc gives it up when its workers start, or when it returns before that,
   * and does not take it back. */
  int caller_holds_slot;
  /* Pass plugins (paths) loaded into every partition's pipeline. */
  const char *const *pass_plugins;
  unsigned pass_plugin_count;
  mtpc_phase_fn phase;  /* optional */
  void *phase_user;

  /* Split DWARF. The .dwo goes to split_dwarf_output and every skeleton
   * unit records split_dwarf_file (NULL: the output's name): merged (merge
   * = 1), one .dwo holds every partition's split unit, as a serial compile
   * writes it; with merge = 0, partition K > 0 uses the same names with
   * ".part<K>" before ".dwo". With split_dwarf_file alone the .dwo sections
   * stay in the object. */
  const char *split_dwarf_file;
  const char *split_dwarf_output;
  /* Profiles, as LLVM's ThinLTO backend takes them. */
  const char *sample_profile;  /* AutoFDO / sample profile (-fprofile-sample-use) */
  const char *cs_profile;      /* context-sensitive IR profile to use, or with
                                  cs_profile_generate the .profraw to write */
  int cs_profile_generate;     /* instrument for a context-sensitive profile */
  /* A pass pipeline (opt's -passes syntax) instead of the ThinLTO backend's,
   * and an alias-analysis pipeline. A per-module default pipeline
   * ("default<O2>", ... "default<Oz>") is built as clang builds it, with
   * the vectorizers loop_vectorize and slp_vectorize say. */
  const char *opt_pipeline;
  const char *aa_pipeline;
  int emit_assembly;           /* assembly instead of an object (merge = 0 only) */
  /* Optimized bitcode instead of an object (as lld's --lto-emit-llvm): each
   * partition's module before code generation; merged, the partitions'
   * modules linked into one, whose promoted symbols are local again. */
  int emit_llvm;
  /* Optimization remarks of every partition, in partition order, to one file. */
  const char *remarks_file;
  const char *remarks_format;  /* "yaml" (default) or "bitstream" */
  const char *remarks_passes;  /* regular expression over pass names */
  int remarks_with_hotness;
  int debug_pass_manager;      /* print each partition's passes (partitions then run one at a time) */
  /* Write each partition's module as formed, optimized and before code
   * generation to <prefix>part<K>.{3.import,4.opt,5.precodegen}.bc. */
  const char *save_temps_prefix;

  /* Added in 0.2. */
  /* LLVM options for this compile only, as one would pass them with -mllvm
   * ("-unroll-threshold=100"). Compiles with the same list run together;
   * one with another list waits until they are done. Afterwards the
   * process's own option values are back. An option the process has set
   * itself cannot be given here (MTPC_ERR_INVALID_ARGUMENT). */
  const char *const *llvm_options;
  unsigned llvm_option_count;
  /* Bytes of resident memory the compile may use: a partition starts only
   * while the process's memory at the start of the parallel phase plus the
   * estimates of the running partitions stays under it (one always runs).
   * 0: no limit. Never changes the output. */
  uint64_t memory_limit;
  /* Time trace granularity (microseconds) of the worker and reader threads when the
   * calling thread records a trace (mtpc_time_trace_start); 0 = 500. */
  unsigned time_trace_granularity;
  /* A directory of partition objects, each found by a hash of the
   * partition's module and of every option that shapes its object: a
   * partition whose entry is there is not compiled again, and the output is
   * the same bytes. Entries are written atomically, so compiles may share
   * the directory; a corrupt entry is compiled and written again, and a
   * directory that cannot be written warns and is skipped. Not used with
   * a lent lto::Config (mtpc/llvm.h), remarks, save_temps_prefix or
   * debug_pass_manager.
   * NULL: no cache. */
  const char *cache_dir;

  /* Added in 0.3. */
  /* Full LTO: the module is a whole program merged for link-time
   * optimization (as a linker hands it over after internalization). The
   * passes that need the whole program (global DCE, CFI, whole-program
   * devirtualization, type-test lowering; docs/design.rst, Full LTO) run on
   * the whole module first; each partition then runs the full LTO pipeline
   * at opt_level instead of the ThinLTO backend's. mtpc_compile_module runs
   * them on a copy of the module; mtpc_llvm_compile_module (mtpc/llvm.h) on
   * the module itself. */
  int full_lto;

  /* Added in 0.4. */
  /* The files a compile writes besides the object (split DWARF .dwo files,
   * the remarks file) are written under temporary names beside their
   * destinations, and renamed into place only once the whole compile has
   * succeeded: before it returns MTPC_OK, or with defer_files by
   * mtpc_result_commit_files, so that a caller can have them appear with
   * its own outputs (the object, say) or not at all. mtpc_result_free
   * removes the temporaries of files never committed. */
  int defer_files;

  /* Gone in 0.5 (ABI 2); these take no space. */
  MTPC_GONE_FIELD(llvm_lto_config, "moved to mtpc_llvm_options.lto_config (mtpc/llvm.h): "
                                   "compile with mtpc_llvm_compile_module")
  MTPC_GONE_FIELD(llvm_lto_task, "moved to mtpc_llvm_options.lto_task (mtpc/llvm.h)")
  MTPC_GONE_FIELD(llvm_import_summary, "moved to mtpc_llvm_options.import_summary "
                                       "(mtpc/llvm.h): compile with mtpc_llvm_compile_module")
  MTPC_GONE_FIELD(llvm_export_summary, "moved to mtpc_llvm_options.export_summary "
                                       "(mtpc/llvm.h): compile with mtpc_llvm_compile_module")
  MTPC_GONE_FIELD(fault_injection, "fault injection is for mtpc's own tests: the tools "
                                   "take it from the environment variable MTPC_FAULT")

  /* Added in 0.6. */
  /* The ABI name code generation uses (clang's -target-abi,
   * MCTargetOptions::ABIName: "aapcs", "lp64d", ...); NULL: the target's
   * default for the triple. */
  const char *target_abi;
  /* Clang's own profile instrumentation (-fprofile-instr-generate,
   * -fcoverage-mapping): the module's llvm.instrprof intrinsics are lowered
   * to counters on the whole module before the split, where clang's
   * pipeline lowers them first, so that a function has one set of counters
   * whichever partitions inline it. */
  int lower_instrprof;
  const char *instrprof_output; /* the .profraw a run writes by default
                                   (-fprofile-instr-generate=FILE); NULL: the runtime's */
  int instrprof_atomic;         /* atomic counter updates (-fprofile-update=atomic) */
  /* The loop and SLP vectorizers of the partitions' pipelines: 0, as the
   * opt_level (on from 2, as LLVM's LTO); 1 on; -1 off (clang's -Oz,
   * -fno-vectorize, -fno-slp-vectorize). */
  int loop_vectorize;
  int slp_vectorize;
  /* Sanitizers whose passes clang adds at the end of its module
   * optimization pipeline, which each partition's pipeline then runs at the
   * same point (the front end marks the functions they instrument):
   * "thread" (ThreadSanitizer), "address" (AddressSanitizer) or "memory"
   * (MemorySanitizer), each with clang's Linux settings unless settings
   * follow in LLVM's spelling of pass parameters: "address<recover;
   * use-after-return=always>", "memory<track-origins=2;no-eager-checks>"
   * (docs/cli.rst lists them), or "dataflow" (DataFlowSanitizer, with
   * dfsan_abilists). A promoted static is described, and matched by the
   * ABI lists, by its source name. NULL: none. */
  const char *sanitizers;
  /* gcov's instrumentation (clang's --coverage, -ftest-coverage,
   * -fprofile-arcs): MTPC_GCOV_* flags. Its pass runs on the whole module
   * before the split, first, as clang's pipeline runs it, and writes the
   * notes file the module's llvm.gcov metadata names; counter updates are
   * atomic with instrprof_atomic. 0: none. */
  unsigned gcov;
  /* Loop unrolling and interleaving in the partitions' pipelines (clang
   * sets both from -funroll-loops): 0 on, as LLVM's LTO; 1 on; -1 off
   * (clang's -O1, -fno-unroll-loops). */
  int loop_unroll;
  /* IR profile instrumentation (clang's -fprofile-generate) and the use of
   * its profiles (-fprofile-use): clang's pipeline instruments the module,
   * or reads the profile into it, after its early simplification and a
   * pre-inliner have run on the whole module; that part of the per-module
   * pipeline (opt_pipeline "default<ON>", else opt_level's) runs on the
   * whole module before the split, and each partition runs the rest. A
   * run of the program writes instrprof_output (NULL:
   * "default_%m.profraw"); counter updates are atomic with
   * instrprof_atomic. Not at opt_level 0. */
  int ir_profile_generate;
  const char *ir_profile_use; /* the indexed profile's path, or NULL */
  /* An address-significance table in the object (clang's -faddrsig, its
   * driver's default for ELF and COFF): the symbols whose address the code
   * takes, which a linker's safe identical code folding (ld.lld
   * --icf=safe) leaves apart. The merged object's table is made from the
   * partitions' (docs/design.rst). 0 (default): none, as LLVM's
   * TargetOptions. */
  int addrsig;
  /* Code generation settings clang takes from its command line into
   * TargetOptions, which no IR carries: a .stack_sizes section
   * (-fstack-size-section); sections of one kind all named alike, told
   * apart by their unique IDs (-fno-unique-section-names; 0: named after
   * their functions and variables, as LLVM's default); zero-initialized
   * variables in .data rather than .bss (-fno-zero-initialized-in-bss);
   * loops aligned to loop_alignment bytes (-falign-loops=N; 0: the
   * target's); and the debugger the debug info is tuned for
   * (-ggdb/-glldb/-gsce/-gdbx: "gdb", "lldb", "sce" or "dbx"; NULL: the
   * target's). */
  int stack_size_section;
  int no_unique_section_names;
  int no_zeros_in_bss;
  unsigned loop_alignment;
  const char *debugger_tuning;
  /* clang's -finstrument-functions: the calls to the entry and exit hooks
   * the front end asks for (its instrument-function-entry and -exit
   * attributes) are made on the whole module before the split, first,
   * where clang's pipeline makes them, before anything is inlined. */
  int instrument_functions;
  /* Code generation's sections and maps of basic blocks, as clang's
   * -fbasic-block-sections= and -fbasic-block-address-map, and its
   * function splitting, -fsplit-machine-functions (which moves the blocks a
   * profile calls cold to .text.split. sections). basic_block_sections:
   * "all" (a section for every block), "labels" (LLVM 19; LLVM 22, as its
   * clang, takes it for the address map), "none", or the path of a list of
   * functions and blocks (Propeller's; clang's list=<path>); NULL: none.
   * basic_block_address_map: a .llvm_bb_addr_map entry for every function,
   * which profile converters read. */
  const char *basic_block_sections;
  int basic_block_address_map;
  int split_machine_functions;
  /* The values of a call's parameters at its call site in the debug info
   * (DW_TAG_call_site_parameter, which debuggers read to show parameters
   * the optimizer dropped), as clang describes them for -g (not
   * -gline-tables-only) at -O1 and above, on the architectures it does so
   * for: x86, AArch64, ARM, MIPS, and RISC-V with LLVM 22; elsewhere it is
   * ignored. 0 (default): none, as LLVM's LTO. */
  int call_site_info;
  /* clang's assignment tracking of variables' locations: the first pass of
   * its pipeline turns each variable's declaration into the assignments
   * the optimizers then keep track of (clang's default with -g at -O1 and
   * above, unless tuned for LLDB). With opt_pipeline "default<ON>", at the
   * start of every partition's pipeline. 0 (default): none, as LLVM's LTO. */
  int assignment_tracking;
  /* clang's -fdebug-info-for-profiling: the debug information a sample
   * profiler needs (AutoFDO), to which the pipeline adds the line
   * discriminators, per function, before any other pass of a default<ON>
   * pipeline, as clang's does; the front end marks the compile unit. 0
   * (default): none, as LLVM's LTO (whose pre-link pipeline adds them). */
  int debug_info_for_profiling;
  /* SanitizerCoverage (clang's -fsanitize-coverage=, which -fsanitize=fuzzer
   * sets too): its pass ends every partition's module optimization
   * pipeline, before a sanitizer's, where clang's adds it. The values are
   * clang's, comma separated: a level (func, bb, edge) and the kinds
   * (trace-pc-guard, inline-8bit-counters, pc-table, trace-cmp, ...;
   * docs/cli.rst lists them). The allowlist and ignorelist are special case
   * lists of the functions and files to instrument and to leave alone
   * (clang's -fsanitize-coverage-allowlist=, -ignorelist=). NULL: none. */
  const char *sanitizer_coverage;
  const char *sanitizer_coverage_allowlist;
  const char *sanitizer_coverage_ignorelist;
  /* The object's debug sections compressed, as clang's -gz= and ld.lld's
   * --compress-debug-sections= say: "zlib", "zstd" or "none" (NULL: none).
   * The partitions' objects are merged as they are and the merged object's
   * .debug_* sections compressed last, as are the split DWARF file's. ELF
   * only: LLVM's COFF writer ignores the setting, and so does mtpc. */
  const char *compress_debug_sections;
  /* The object's name in its CodeView debug information (the S_OBJNAME
   * record), as clang's -object-file-name=, which its driver passes with
   * -gcodeview: every partition's records name it, and the merged object
   * keeps one. NULL: empty, as LLVM's LTO writes it. */
  const char *object_file_name;
  /* Thread-local variables through the runtime's __emutls_get_address
   * (clang's -femulated-tls, its driver's default on Android before API
   * 29, OpenBSD, Cygwin and OHOS) instead of the target's TLS: 1 on, -1
   * off, 0 (default) the module's target's default, as llc's and LLVM's
   * LTO. A lent lto_config's setting stands. */
  int emulated_tls;
  /* DataFlowSanitizer's ABI lists (sanitizers "dataflow"): the special case
   * lists that say which functions are uninstrumented, custom or
   * discarded, in clang's order (its -fsanitize-ignorelist= files, then
   * its -fsanitize-system-ignorelist= ones, the driver's
   * dfsan_abilist.txt). Their contents key the partition cache. */
  const char *const *dfsan_abilists;
  unsigned dfsan_abilist_count;
} mtpc_options;

enum {
  MTPC_GCOV_NOTES = 1,      /* write the .gcno file (-ftest-coverage) */
  MTPC_GCOV_DATA = 2,       /* count arcs, written to the .gcda at exit (-fprofile-arcs) */
  MTPC_GCOV_NO_RED_ZONE = 4 /* the counters' code avoids the red zone (-mno-red-zone) */
};

/* Fills every field with its default; use mtpc_options_init. The symbol
 * names the ABI version (a program built against another does not link). */
void mtpc_options_init_abi2(mtpc_options *options, size_t struct_size);
static inline void mtpc_options_init(mtpc_options *options) {
  mtpc_options_init_abi2(options, sizeof(*options));
}

/* Compiles a bitcode buffer. The buffer is only read and must stay valid
 * during the call. `name` is the module identifier used for diagnostics and
 * for the names of promoted symbols (NULL means "<buffer>"). *result is set
 * whatever the status (NULL only when even it could not be allocated). */
mtpc_status mtpc_compile_bitcode(const void *data, size_t size, const char *name,
                                 const mtpc_options *options, mtpc_result **result);

/* Compiles an in-memory module. The module is only read (with full_lto or
 * lower_instrprof, a copy is changed); it stays owned by the caller, and no
 * other thread may use its context during the call. */
mtpc_status mtpc_compile_module(LLVMModuleRef module, const mtpc_options *options,
                                mtpc_result **result);

/* The merged object (merge = 1), or NULL. */
const void *mtpc_result_object(const mtpc_result *result, size_t *size);
/* The merged object, handed over: the caller frees it with free(), and the
 * result has none afterwards. */
void *mtpc_result_take_object(mtpc_result *result, size_t *size);
/* With merge = 0: one object per partition, in partition order. */
unsigned mtpc_result_object_count(const mtpc_result *result);
const void *mtpc_result_object_at(const mtpc_result *result, unsigned index, size_t *size);
/* On failure: one line saying what went wrong ("" on success). */
const char *mtpc_result_message(const mtpc_result *result);
/* With collect_stats; the stats of partition `index` < stats->partitions. */
const mtpc_stats *mtpc_result_stats(const mtpc_result *result);
const mtpc_partition_stats *mtpc_result_partition_stats(const mtpc_result *result,
                                                        unsigned index);

/* Whether a caller that can leave a module to LLVM's own backend (a
 * linker's ThinLTO backend, `mtpc backend`, `mtpc cc`) should compile it
 * with mtpc: the options' target (else the module's) writes ELF or COFF
 * (CodeView debug info included), and the module has at least
 * `min_instructions` IR instructions in the functions it compiles
 * (definitions that are not available_externally). The answer is 1 or 0,
 * and *advice (when not NULL) says why, with the count. */
typedef struct mtpc_split_advice {
  uint64_t instructions;
  char reason[160]; /* when the answer is 0: why, one line; else "" */
} mtpc_split_advice;
int mtpc_should_split(LLVMModuleRef module, const mtpc_options *options,
                      uint64_t min_instructions, mtpc_split_advice *advice);

/* The worker threads a compile with mtpc_options.jobs = `jobs` runs: `jobs`,
 * or with 0 the hardware threads. */
unsigned mtpc_resolve_jobs(unsigned jobs);

/* A size in bytes, as mtpc's tools and ld.lld's --thinlto-mtpc-memory-limit
 * take it: a decimal number, optionally followed by K, M or G (binary
 * multiples, either case). MTPC_OK, or MTPC_ERR_INVALID_ARGUMENT. */
mtpc_status mtpc_parse_size(const char *text, uint64_t *bytes);

MTPC_GONE("use mtpc_should_split(module, options, 0, &advice): advice.reason says why not")
int mtpc_module_can_split(LLVMModuleRef module, const mtpc_options *options, char **reason);

/* With defer_files: renames the files the compile wrote into place (each
 * .dwo in partition order, then the remarks). MTPC_OK, or MTPC_ERR_OUTPUT
 * with mtpc_result_message saying why (the files before it are in place). */
mtpc_status mtpc_result_commit_files(mtpc_result *result);

/* Releases everything a result holds (NULL is allowed), and removes the
 * temporaries of files not committed. */
void mtpc_result_free(mtpc_result *result);

/* Prints the plan for `module` (partitions, their definitions and costs, the
 * duplicated cost) as text to `out`. `result` may be NULL when the status is
 * enough. */
mtpc_status mtpc_plan_write(LLVMModuleRef module, const mtpc_options *options, FILE *out,
                            mtpc_result **result);

/* The same for a bitcode buffer (`name` as in mtpc_compile_bitcode). */
mtpc_status mtpc_plan_write_bitcode(const void *data, size_t size, const char *name,
                                    const mtpc_options *options, FILE *out,
                                    mtpc_result **result);

MTPC_GONE("use mtpc_plan_write(module, options, out, &result); the message is "
          "mtpc_result_message(result)")
mtpc_status mtpc_print_plan(LLVMModuleRef module, const mtpc_options *options, FILE *out,
                            char **message);
MTPC_GONE("use mtpc_plan_write_bitcode(data, size, name, options, out, &result); the message "
          "is mtpc_result_message(result)")
mtpc_status mtpc_print_plan_bitcode(const void *data, size_t size, const char *name,
                                    const mtpc_options *options, FILE *out, char **message);

/* Speedup that the measured partition times would give on `cores` cores, with
 * the serial phases (plan, bitcode, merge) kept serial: the time of the same
 * partitions run one after another divided by their list-scheduled time. */
double mtpc_result_projected_speedup(const mtpc_result *result, unsigned cores);

/* Starts LLVM's time-trace profiler on the calling thread; compiles started
 * from this thread then record their partitions, optimization passes and code
 * generation (at the options' time_trace_granularity). Write the trace
 * (Chrome JSON) from the same thread with mtpc_time_trace_save, which ends
 * it. LLVM keeps one trace per process: trace one compile at a time.
 * `result` may be NULL. */
void mtpc_time_trace_start(unsigned granularity_us);
mtpc_status mtpc_time_trace_save(const char *path, mtpc_result **result);

MTPC_GONE("use mtpc_time_trace_save(path, &result); the message is mtpc_result_message(result)")
mtpc_status mtpc_time_trace_write(const char *path, char **message);

/* "mtpc 0.6.0 (LLVM 19.1.7)" */
const char *mtpc_version_string(void);

#ifdef __cplusplus
}
#endif

#endif
