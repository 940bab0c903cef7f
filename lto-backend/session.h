/* One compile: what the stages of a session share. compile.c runs them
 * in the order of the data flow: read (session_read.c), plan, then the
 * partitions' objects and the one object (session_objects.c). */
#ifndef MTPC_SESSION_H
#define MTPC_SESSION_H

#include <llvm-c/Core.h>

#include "lto-backend/bitcode/partition_bitcode.h"
#include "lto-backend/bitcode/read.h"
#include "lto-backend/cache/cache.h"
#include "lto-backend/codegen/pipeline.h"
#include "partitioner/plan.h"
#include "result.h"
#include "support/diag.h"
#include "mtpc/llvm.h"
#include "mtpc/mtpc.h"

/* Everything one compile needs besides its options and result. */
typedef struct session {
  mtpc_options options;   /* the caller's, made whole */
  const mtpc_options *o;  /* &options */
  mtpc_llvm_options llvm; /* what an embedder lent (mtpc/llvm.h), made whole */
  const char *faults;     /* injected faults (support/fault.h); NULL: none */
  mtpc_result *r;
  mtpc_reporter reporter;
  int in_option_set;      /* entered the options' LLVM option set */
  LLVMModuleRef module;   /* planned from; released once the plan exists if owned */
  LLVMModuleRef copy;     /* mtpc_compile_module's full_lto: module, copied */
  int owns_module;        /* then `read` holds it (and the other readers' copies) */
  mtpc_read read;         /* the module's read, and its graph when `has_graph` */
  int has_graph;
  const void *bitcode;    /* the module's; NULL = write it from module */
  size_t bitcode_size;
  mtpc_partition_bitcode *partition_bitcode; /* what each partition loads */
  int scanned;            /* the read made partition_bitcode (NULL: out of memory) */
  char *name;
  char *triple;
  int slot_given_up;      /* caller_holds_slot: the caller's slot went to the workers */
  mtpc_plan plan;
  mtpc_graph_edges references; /* of the graph the plan was made from */
  const char *unsplit_reason;
  LLVMMemoryBufferRef written; /* bitcode written from module */
  /* The per-module pipeline's passes changed the module before the split:
   * its bitcode keeps the order of its values' uses, as clang's module
   * has them in memory. */
  int use_order;
  mtpc_bridge_settings *settings;
  const char *dwo_name, *dwo_output; /* the settings', resolved */
  char *dwo_path;                    /* <dwo_dir>/<task>.dwo */
  mtpc_cache *cache;
} session;

/* Reads the module the plan is made from (read.h), and its graph; one of
 * the readers scans the bitcode meanwhile. */
mtpc_status mtpc_session_read(session *s, const void *data, size_t size);

/* Compiles the plan's partitions (or the module unsplit) and hands their
 * objects, merged or not, and the files beside them to the result. */
mtpc_status mtpc_session_compile(session *s);

/* The caller's slot goes to the workers once, whatever path the compile
 * takes. */
void mtpc_session_give_up_slot(session *s);

#endif
