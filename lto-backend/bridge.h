/* The thin C++ bridge: what the LLVM-C API cannot do. Every function here is
 * extern "C"; every LLVM-version difference lives in bridge.cpp. */
#ifndef MTPC_BRIDGE_H
#define MTPC_BRIDGE_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/TargetMachine.h>
#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Turns a (possibly not yet materialized) function into a declaration. */
void mtpc_bridge_delete_body(LLVMValueRef function);

/* Materializes every function body still lazily held. 0 on success; else
 * *message (free()) says why. */
int mtpc_bridge_materialize_all(LLVMModuleRef module, char **message);

/* The same for a partition, whose declarations may still sit in COMDATs and
 * be aliased until the split rewrites them: materializeAll() would verify
 * such a module when it has debug info (UpgradeDebugInfo) and abort. */
int mtpc_bridge_materialize_bodies(LLVMModuleRef module, char **message);

/* Replaces an alias or ifunc with a declaration of the same name, type,
 * visibility and thread-local mode; returns the declaration. */
LLVMValueRef mtpc_bridge_replace_with_declaration(LLVMValueRef global);

/* Erases a global value that nothing uses any more (dead constant users are
 * dropped first). Returns 1 if erased, 0 if something still uses it. */
int mtpc_bridge_erase_if_unused(LLVMValueRef global);

/* Turns a defined global value into a declaration: a function loses its
 * body, a variable its initializer and COMDAT, an alias or ifunc is replaced
 * (see above). Linkage becomes external. Returns the declaration. */
LLVMValueRef mtpc_bridge_make_declaration(LLVMValueRef global);

/* Debug info of one partition: global variable declarations lose their !dbg,
 * each compile unit lists only the global variables defined here, and only
 * the primary partition keeps the unit's enums and retained types (the whole
 * module's, emitted once). */
void mtpc_bridge_trim_debug_info(LLVMModuleRef module, int primary);

/* Debug types shared between partitions: a named C struct or union at file
 * scope is described fully by one partition, its home (chosen by the plan),
 * and declared in the others, where gdb finds the definition by name. A key
 * names a type across contexts: "struct Vdbe at /src/sqlite3.c:22889". */
typedef struct mtpc_bridge_type_walk mtpc_bridge_type_walk;
typedef void mtpc_bridge_type_found(void *arg, const char *key);
mtpc_bridge_type_walk *mtpc_bridge_type_walk_create(void);
void mtpc_bridge_type_walk_free(mtpc_bridge_type_walk *walk);
/* Calls found() for each shareable type that the debug info of a function or
 * global variable describes and no earlier call on `walk` reported. */
void mtpc_bridge_walk_debug_types(mtpc_bridge_type_walk *walk, LLVMValueRef global,
                                  mtpc_bridge_type_found *found, void *arg);

/* In one partition: a shareable type whose home is `partition` is retained
 * by the first compile unit (so it is described even if its users are
 * optimized away); one whose home is another partition becomes a
 * declaration. home_of returns UINT32_MAX for a type without a home, which
 * stays as it is. */
typedef uint32_t mtpc_bridge_type_home(void *arg, const char *key);
void mtpc_bridge_share_debug_types(LLVMModuleRef module, uint32_t partition,
                                   mtpc_bridge_type_home *home_of, void *arg);

/* Removes a function's debug info: its subprogram, its instructions'
 * locations and variable records. */
void mtpc_bridge_strip_debug_info(LLVMValueRef function);

/* For the command-line tool: LLVM's out-of-memory reports (a malformed size
 * in bitcode) go to `handler`, which must not return. */
void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason));

/* 1 if the triple's object format is ELF. */
int mtpc_bridge_triple_is_elf(const char *triple);

/* 1 if the module asks for position-independent code ("PIC Level" flag). */
int mtpc_bridge_module_is_pic(LLVMModuleRef module);

typedef struct mtpc_bridge_target {
  const char *triple;
  const char *cpu;
  const char *features;
  const void *target_options; /* const llvm::TargetOptions *, or NULL for LTO's defaults */
  int function_sections;      /* used when target_options is NULL */
  int data_sections;
  int reloc;                  /* LLVMRelocMode */
  int code_model;             /* mtpc_code_model; 0 = the module's, else the target's */
  int codegen_level;          /* LLVMCodeGenOptLevel */
} mtpc_bridge_target;

/* A TargetMachine for one partition, with what LLVM-C cannot set
 * (TargetOptions, the module's code model and large-data threshold). NULL
 * and *message on failure. */
LLVMTargetMachineRef mtpc_bridge_create_target_machine(const mtpc_bridge_target *target,
                                                       LLVMModuleRef module, char **message);

/* Runs the ThinLTO backend pipeline at `opt_level` as LLVM's LTO does (loop
 * and SLP vectorization above -O1), with the given pass plugins loaded. 0 on
 * success; else *message. */
int mtpc_bridge_optimize(LLVMModuleRef module, LLVMTargetMachineRef machine, unsigned opt_level,
                         const char *const *plugins, unsigned plugin_count, char **message);

/* Runs `ld.lld -r -o output inputs...` in this process. Calls are serialized;
 * never call this from inside a running lld. 0 on success; else *message. */
int mtpc_bridge_link_relocatable(const char *const *inputs, size_t input_count,
                                 const char *output, char **message);

/* Makes each symbol names[i] of an ELF relocatable object local and renames it
 * to new_names[i]. The result is malloc'ed. 0 on success; else *message. */
int mtpc_bridge_localize_symbols(const void *object, size_t size, const char *const *names,
                                 const char *const *new_names, size_t count, void **result,
                                 size_t *result_size, char **message);

/* --time-trace: the main thread starts the profiler; each worker thread of a
 * thread whose profiler is active starts and finishes its own; the main
 * thread writes the merged trace. */
void mtpc_bridge_time_trace_init(unsigned granularity_us);
int mtpc_bridge_time_trace_active(void);
void mtpc_bridge_time_trace_thread_init(void);
void mtpc_bridge_time_trace_thread_finish(void);
void mtpc_bridge_time_trace_begin(const char *name, const char *detail);
void mtpc_bridge_time_trace_end(void);
int mtpc_bridge_time_trace_write(const char *path, char **message);

/* One distributed ThinLTO backend job, as `clang -c -fthinlto-index=` runs
 * it: the module is read from `input` (its identifier is that path, as the
 * index names it), the modules the index imports from are loaded by the paths
 * it records, and LLVM's ThinLTO backend promotes, internalizes and imports.
 * Then `after_import` sees the module and the llvm::TargetOptions the job
 * uses: it returns 1 when it compiled the module itself (*object, malloc'ed),
 * 0 to let LLVM's backend optimize and code-generate it, -1 on failure
 * (*message). */
typedef int mtpc_bridge_after_import(void *arg, LLVMModuleRef module, const void *target_options,
                                     void **object, size_t *object_size, char **message);
typedef struct mtpc_bridge_backend_job {
  const char *input;
  const char *index;        /* the job's .thinlto.bc */
  mtpc_bridge_target target; /* triple NULL: the module's */
  unsigned opt_level;
  int addrsig;              /* -1: as clang's driver (on for ELF); 0: off; 1: on */
  mtpc_bridge_after_import *after_import;
  void *arg;
} mtpc_bridge_backend_job;

typedef enum mtpc_bridge_backend_outcome {
  MTPC_BACKEND_FAILED = -1,
  MTPC_BACKEND_COMPILED = 0, /* *object holds the object */
  MTPC_BACKEND_SKIP,         /* the index says nothing of the module is needed */
  MTPC_BACKEND_NO_INDEX      /* the index file is empty: compile the module as it is */
} mtpc_bridge_backend_outcome;

/* Runs the job; *triple (malloc'ed) is the module's target triple. For a
 * process that exits afterwards: the module, its context and the index stay
 * allocated, as clang leaves them (-disable-free). */
mtpc_bridge_backend_outcome mtpc_bridge_thin_backend(const mtpc_bridge_backend_job *job,
                                                     void **object, size_t *object_size,
                                                     char **triple, char **message);

/* "19.1.7" for the LLVM this library was built against. */
const char *mtpc_bridge_llvm_version(void);

/* GNU make's jobserver, named by MAKEFLAGS (LLVM 22's client; a small one of
 * mtpc's with LLVM 19). A slot is a token byte, or MTPC_BRIDGE_IMPLICIT_SLOT for the one the
 * process holds by being started. try_acquire never blocks: -1 if none. */
#define MTPC_BRIDGE_IMPLICIT_SLOT 256
int mtpc_bridge_jobserver_present(void);
int mtpc_bridge_jobserver_try_acquire(void);
void mtpc_bridge_jobserver_release(int slot);

#ifdef __cplusplus
}
#endif

#endif
