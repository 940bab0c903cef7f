/* `mtpc backend`: one distributed ThinLTO backend job, with the command line
 * build systems and DTLTO distributors give `clang -c -fthinlto-index=`.
 * LLVM's ThinLTO backend imports what the index says; a module of at least
 * --threshold instructions is then split by mtpc, a smaller one compiled by
 * LLVM's backend as clang would. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <llvm-c/Core.h>
#include <llvm/Config/llvm-config.h>

#include "cli.h"
#include "codegen_flags.h"
#include "commands.h"
#include "mtpc/mtpc.h"
#include "lto-backend/tools.h"


static const char backend_usage[] =
    "USAGE: mtpc backend -fthinlto-index=<index> <input.o> -o <output.o> [options]\n"
    "\n"
    "A distributed ThinLTO backend job: what 'clang -c -fthinlto-index=<index>\n"
    "-x ir <input.o> -o <output.o>' does, with modules of at least --threshold IR\n"
    "instructions split and compiled on -j threads.\n"
    "\n"
    "OPTIONS (clang's):\n"
    "  -fthinlto-index=<file>     The job's index (lld --thinlto-index-only writes it)\n"
    "  -o <file>                  Output object\n"
    "  -O0, -O1, -O2, -O3, -Os, -Oz  Optimization level (default -O2; s, z: 2)\n"
    "  --target=<triple>, -target <triple>\n"
    "  -mcpu=<cpu>, -march=<cpu>  Target CPU\n"
    "  -ffunction-sections, -fdata-sections (and -fno-)\n"
    "  -fpic, -fPIC, -fpie, -fPIE, -fno-pic, -fno-pie  Relocation model\n"
    "  -faddrsig, -fno-addrsig    Address-significance table (default: on for ELF)\n"
    "  -fstack-size-section, -fno-unique-section-names, -fno-zero-initialized-in-bss,\n"
    "  -falign-loops=<n>, -ggdb, -glldb, -gsce, -gdbx (debugger tuning),\n"
    "  -fbasic-block-sections=<all|labels|none|list=file>, -fbasic-block-address-map,\n"
    "  -fsplit-machine-functions  Code generation settings, as clang's\n"
    "  -f[no-]emulated-tls        Emulated TLS (default: the target's)\n"
    "  -gz[=zlib|zstd|none]       Compressed debug sections (and .dwo), as clang's\n"
    "  -gsplit-dwarf[=split|single], -gno-split-dwarf\n"
    "                             Split DWARF: a .dwo beside the output (each\n"
    "                             partition of a split module writes its own)\n"
    "  -split-dwarf-file <file>, -split-dwarf-output <file>  (clang -cc1's)\n"
    "  -fprofile-sample-use=<file>  Sample profile (AutoFDO)\n"
    "  -f[no-]sample-profile-use-profi  Infer block counts from it (clang 22's\n"
    "                             default with a sample profile, not 19's)\n"
    "  -fprofile-use=<file|dir>, -fprofile-instr-use=<file>\n"
    "                             Profile; a context-sensitive one is applied\n"
    "  -fcs-profile-generate[=<dir>]  Instrument for a context-sensitive profile\n"
    "  -mllvm <option>            An LLVM option, for this job only\n"
    "  -Xclang <arg>              <arg> as if given directly\n"
    "  -c, -x ir, -g*, -W*, -w, -f[no-]debug-info-for-profiling\n"
    "                             Accepted and ignored, as clang's backend does\n"
    "OPTIONS (mtpc's):\n"
    "  -j <n>                     Threads for a split module (default: all)\n"
    "  --threshold=<n>            Split modules of at least <n> IR instructions\n"
    "                             (default 20000; 0 splits every module)\n"
    "  --partitions=<k>|max       As for 'mtpc compile'\n"
    "  --cache-dir=<dir>          Keep partition objects in <dir> and reuse them when\n"
    "                             a partition and its options are unchanged\n";

typedef struct backend_cli {
  const char *input, *output, *index;
  const char *cache_dir;
  const char *triple, *cpu;
  int function_sections, data_sections;
  int pic; /* -1: the module's */
  int addrsig; /* -1: clang's default */
  codegen_flags codegen;
  unsigned opt_level;
  const char *split_dwarf; /* NULL, "split" or "single" */
  const char *split_dwarf_file, *split_dwarf_output; /* -cc1's, or from -o */
  char *owned_dwo_name, *owned_profile_use;
  const char *sample_profile, *profile_use;
  int sample_profi; /* -f[no-]sample-profile-use-profi; -1: clang's default */
  const char *cs_profile_use; /* profile_use when it is context-sensitive */
  int cs_profile_generate;
  char *cs_profile_output;
  unsigned threshold;
  unsigned jobs, partitions;
  const char **llvm_args;
  unsigned llvm_arg_count;
  mtpc_result *result; /* the split's, whose .dwo files wait for the object */
  int status; /* a command-line error's exit status (cli.h), else 0 */
} backend_cli;

static char *join_path(const char *dir, const char *name) {
  size_t len = strlen(dir);
  char *path = malloc(len + strlen(name) + 2);
  sprintf(path, "%s%s%s", dir, len && dir[len - 1] != '/' ? "/" : "", name);
  return path;
}

/* What clang's driver names the .dwo of -c -o <output> (SplitDebugName):
 * the output's directory and stem, with ".dwo". */
static char *dwo_beside(const char *output) {
  const char *base = strrchr(output, '/');
  base = base ? base + 1 : output;
  const char *dot = strrchr(base, '.');
  size_t stem = (size_t)((dot && dot != base ? dot : base + strlen(base)) - output);
  char *path = malloc(stem + 5);
  memcpy(path, output, stem);
  strcpy(path + stem, ".dwo");
  return path;
}

/* clang's -gsplit-dwarf family and profile flags. */
static int parse_debug_or_profile_flag(backend_cli *b, const char *arg) {
  const char *v;
  if (!strcmp(arg, "-gsplit-dwarf"))
    b->split_dwarf = "split";
  else if ((v = cli_after_prefix(arg, "-gsplit-dwarf="))) {
    if (strcmp(v, "split") != 0 && strcmp(v, "single") != 0) {
      cli_error("unsupported argument '%s' to option '-gsplit-dwarf='", v);
      b->status = CLI_USAGE_ERROR;
    }
    b->split_dwarf = v;
  } else if (!strcmp(arg, "-gno-split-dwarf"))
    b->split_dwarf = NULL;
  else if ((v = cli_after_prefix(arg, "-fprofile-sample-use=")))
    b->sample_profile = v;
  else if (!strcmp(arg, "-fsample-profile-use-profi"))
    b->sample_profi = 1;
  else if (!strcmp(arg, "-fno-sample-profile-use-profi"))
    b->sample_profi = 0;
  else if ((v = cli_after_prefix(arg, "-fprofile-use=")) || (v = cli_after_prefix(arg, "-fprofile-instr-use=")))
    b->profile_use = v; /* a directory means its default.profdata (name_profiles) */
  else if (!strcmp(arg, "-fcs-profile-generate"))
    b->cs_profile_generate = 1;
  else if ((v = cli_after_prefix(arg, "-fcs-profile-generate="))) {
    b->cs_profile_generate = 1;
    free(b->cs_profile_output);
    b->cs_profile_output = join_path(v, "default_%m.profraw");
  } else
    return 0;
  return 1;
}

static int parse_flag(backend_cli *b, const char *arg) {
  const char *v;
  if (parse_debug_or_profile_flag(b, arg) || codegen_flags_read(&b->codegen, arg))
    return 1;
  /* clang's backend, whose pipeline adds no discriminators, ignores
   * -fdebug-info-for-profiling as well. */
  if (!strcmp(arg, "-c") || !strcmp(arg, "-w") || cli_after_prefix(arg, "-W") ||
      cli_after_prefix(arg, "-g") || !strcmp(arg, "-fdebug-info-for-profiling") ||
      !strcmp(arg, "-fno-debug-info-for-profiling"))
    return 1;
  if (arg[0] == '-' && arg[1] == 'O' && arg[2] && !arg[3] && strchr("0123sz", arg[2]))
    b->opt_level = strchr("0123", arg[2]) ? (unsigned)(arg[2] - '0') : 2;
  else if ((v = cli_after_prefix(arg, "-fthinlto-index=")))
    b->index = v;
  else if ((v = cli_after_prefix(arg, "--target=")))
    b->triple = v;
  else if ((v = cli_after_prefix(arg, "-mcpu=")) || (v = cli_after_prefix(arg, "-march=")))
    b->cpu = v;
  else if (!strcmp(arg, "-ffunction-sections") || !strcmp(arg, "-fno-function-sections"))
    b->function_sections = arg[2] != 'n';
  else if (!strcmp(arg, "-fdata-sections") || !strcmp(arg, "-fno-data-sections"))
    b->data_sections = arg[2] != 'n';
  else if (!strcmp(arg, "-fpic") || !strcmp(arg, "-fPIC") || !strcmp(arg, "-fpie") ||
           !strcmp(arg, "-fPIE"))
    b->pic = 1;
  else if (!strcmp(arg, "-fno-pic") || !strcmp(arg, "-fno-pie") || !strcmp(arg, "-fno-PIC"))
    b->pic = 0;
  else if (!strcmp(arg, "-faddrsig") || !strcmp(arg, "-fno-addrsig"))
    b->addrsig = arg[2] != 'n';
  else if ((v = cli_after_prefix(arg, "--threshold=")))
    b->threshold = cli_parse_unsigned(v, "--threshold", &b->status);
  else if ((v = cli_after_prefix(arg, "--cache-dir=")))
    b->cache_dir = v;
  else if ((v = cli_after_prefix(arg, "--partitions=")))
    b->partitions = !strcmp(v, "max") ? MTPC_PARTITIONS_MAX : cli_parse_unsigned(v, "--partitions", &b->status);
  else if ((v = cli_after_prefix(arg, "-j")) && *v)
    b->jobs = cli_parse_unsigned(v, "-j", &b->status);
  else
    return 0;
  return 1;
}

/* Options that take the next argument. */
static int parse_pair(backend_cli *b, const char *arg, const char *value) {
  if (!strcmp(arg, "-o"))
    b->output = value;
  else if (!strcmp(arg, "-x")) {
    if (strcmp(value, "ir") != 0) {
      cli_error("-x %s: mtpc backend reads LLVM IR only (-x ir)", value);
      b->status = CLI_USAGE_ERROR;
    }
  } else if (!strcmp(arg, "-target"))
    b->triple = value;
  else if (!strcmp(arg, "-split-dwarf-file"))
    b->split_dwarf_file = value;
  else if (!strcmp(arg, "-split-dwarf-output"))
    b->split_dwarf_output = value;
  else if (!strcmp(arg, "-mllvm"))
    b->llvm_args[b->llvm_arg_count++] = value;
  else if (!strcmp(arg, "-j"))
    b->jobs = cli_parse_unsigned(value, "-j", &b->status);
  else
    return 0;
  return 1;
}

/* -Xclang passes clang -cc1 flags through the driver: read what follows it
 * as if it stood alone. */
static int drop_xclang(int argc, char **argv) {
  int kept = 0;
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "-Xclang") != 0)
      argv[kept++] = argv[i];
  return kept;
}

/* clang's driver reads -fprofile-use=<dir> as <dir>/default.profdata. */
static void name_profiles(backend_cli *b) {
  struct stat st;
  if (b->profile_use && stat(b->profile_use, &st) == 0 && S_ISDIR(st.st_mode))
    b->profile_use = b->owned_profile_use = join_path(b->profile_use, "default.profdata");
}

static void name_split_dwarf(backend_cli *b) {
  if (b->split_dwarf_file || !b->split_dwarf)
    return;
  if (!strcmp(b->split_dwarf, "single")) {
    b->split_dwarf_file = b->output;
    return;
  }
  b->split_dwarf_file = b->split_dwarf_output = b->owned_dwo_name = dwo_beside(b->output);
}

/* -1: go on; else the status the command exits with (0 after --help). */
static int parse_backend_args(backend_cli *b, int argc, char **argv) {
  argc = drop_xclang(argc, argv);
  for (int i = 1; i < argc && !b->status; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      fputs(backend_usage, stdout);
      return 0;
    }
    if (i + 1 < argc && parse_pair(b, arg, argv[i + 1])) {
      i++;
      continue;
    }
    if (parse_flag(b, arg))
      continue;
    if (arg[0] == '-' && arg[1]) {
      cli_error("unknown option '%s'; see 'mtpc backend --help'", arg);
      return CLI_USAGE_ERROR;
    }
    if (b->input) {
      cli_error("more than one input ('%s', '%s')", b->input, arg);
      return CLI_USAGE_ERROR;
    }
    b->input = arg;
  }
  if (b->status)
    return b->status;
  const char *missing = !b->input ? "no input file" : !b->output ? "no output file; use -o <file>"
                        : !b->index ? "no index; use -fthinlto-index=<file>" : NULL;
  if (missing) {
    cli_error("%s", missing);
    return CLI_USAGE_ERROR;
  }
  name_split_dwarf(b);
  name_profiles(b);
  return -1;
}

static uint64_t little_endian_64(const unsigned char *bytes) {
  uint64_t value = 0;
  for (int i = 7; i >= 0; i--)
    value = value << 8 | bytes[i];
  return value;
}

/* Of -fprofile-use=, clang's backend reads only a context-sensitive profile
 * (BackendUtil.cpp: hasProfileCSIRUse): an indexed profile whose header
 * version has the CSIR variant bit (InstrProfData.inc). 1 (an error
 * reported) for a file that is not an indexed profile, where clang's driver
 * stops. */
static int find_cs_profile(backend_cli *b) {
  if (!b->profile_use || b->cs_profile_generate)
    return 0;
  const uint64_t indexed_magic = 0x8169666f72706cffULL, csir_variant = 1ULL << 57;
  unsigned char header[16];
  FILE *f = fopen(b->profile_use, "rb");
  size_t got = f ? fread(header, 1, sizeof(header), f) : 0;
  if (f)
    fclose(f);
  if (!f || got != sizeof(header) || little_endian_64(header) != indexed_magic) {
    cli_error("%s: %s", b->profile_use,
              f ? "not an indexed profile (use llvm-profdata merge)" : strerror(errno));
    return 1;
  }
  if (little_endian_64(header + 8) & csir_variant)
    b->cs_profile_use = b->profile_use;
  return 0;
}

/* What clang's driver adds to -cc1 for the flags: with a sample profile,
 * clang 22's infers block counts (profi) unless told not to; clang 19's
 * only when asked. */
static void add_driver_llvm_options(backend_cli *b) {
  int profi = b->sample_profi >= 0 ? b->sample_profi : LLVM_VERSION_MAJOR >= 22;
  if (b->sample_profile && profi)
    b->llvm_args[b->llvm_arg_count++] = "-sample-profile-use-profi";
}

static void fill_options(const backend_cli *b, mtpc_options *o) {
  mtpc_options_init(o);
  o->jobs = b->jobs;
  o->partitions = b->partitions;
  o->opt_level = b->opt_level;
  o->codegen_opt_level = b->opt_level; /* as clang's -O picks it */
  o->cpu = b->cpu;
  o->function_sections = b->function_sections;
  o->data_sections = b->data_sections;
  codegen_flags_apply(&b->codegen, o);
  if (b->pic >= 0)
    o->reloc_model = b->pic ? MTPC_RELOC_PIC : MTPC_RELOC_STATIC;
  o->sample_profile = b->sample_profile;
  o->split_dwarf_file = b->split_dwarf_file;
  o->split_dwarf_output = b->split_dwarf_output;
  o->cs_profile_generate = b->cs_profile_generate;
  o->cs_profile = b->cs_profile_generate ? b->cs_profile_output : b->cs_profile_use;
  o->llvm_options = b->llvm_args;
  o->llvm_option_count = b->llvm_arg_count;
  o->cache_dir = b->cache_dir;
  o->defer_files = 1; /* cli_write_outputs writes them with the object */
}

/* The compile's object; the result, which holds the files it wrote, is
 * kept in b->result until they are in place. */
static int take_result(backend_cli *b, mtpc_status status, mtpc_result *r, void **object,
                       size_t *size, char **message) {
  int done = status == MTPC_OK ? 1 : -1;
  if (status == MTPC_OK)
    *object = mtpc_result_take_object(r, size);
  if (status == MTPC_OK && !*object) {
    done = -1;
    *message = strdup("the compile gave no object");
  } else if (status != MTPC_OK) {
    *message = strdup(mtpc_result_message(r));
  }
  mtpc_result_free(b->result);
  b->result = r;
  return done;
}

/* After LLVM's backend imported: split the module if it is large enough. */
static int split_after_import(void *arg, LLVMModuleRef module, const void *lto_config,
                              const void *index, void **object, size_t *size, char **message) {
  backend_cli *b = arg;
  mtpc_split_advice advice;
  if (!mtpc_should_split(module, NULL, b->threshold, &advice)) {
    /* Large enough, so the target keeps it whole: said, not silent. */
    if (advice.instructions >= b->threshold)
      fprintf(stderr, "mtpc: warning: %s: compiling unsplit: %s\n", b->input, advice.reason);
    return 0;
  }
  mtpc_options o;
  fill_options(b, &o);
  mtpc_llvm_options lent;
  mtpc_llvm_options_init(&lent);
  lent.lto_config = lto_config; /* compile as LLVM's backend would */
  lent.import_summary = index;
  o.budget = cli_jobserver_budget(o.jobs);
  mtpc_result *r = NULL;
  mtpc_status status =
      mtpc_compile_with_faults(module, NULL, 0, NULL, &o, &lent, cli_fault_injection(), &r);
  int done = take_result(b, status, r, object, size, message);
  mtpc_budget_destroy(o.budget);
  return done;
}

/* The index says nothing of the module is needed: an empty object, as clang
 * writes, so that the link finds the file it expects. */
static int empty_object(backend_cli *b, const char *triple, void **object, size_t *size,
                        char **message) {
  LLVMContextRef context = LLVMContextCreate();
  LLVMModuleRef module = LLVMModuleCreateWithNameInContext("empty", context);
  LLVMSetTarget(module, triple);
  mtpc_options o;
  fill_options(b, &o);
  o.partitions = 1;
  mtpc_result *r = NULL;
  mtpc_status status =
      mtpc_compile_with_faults(module, NULL, 0, NULL, &o, NULL, cli_fault_injection(), &r);
  int done = take_result(b, status, r, object, size, message);
  LLVMDisposeModule(module);
  LLVMContextDispose(context);
  return done;
}

/* An empty index file: clang compiles the module as it is. */
static int whole_module(backend_cli *b, void **object, size_t *size, char **message) {
  void *data = NULL;
  size_t data_size = 0;
  if (mtpc_read_file(b->input, &data, &data_size, message))
    return -1;
  mtpc_options o;
  fill_options(b, &o);
  o.triple = b->triple;
  mtpc_result *r = NULL;
  mtpc_status status = mtpc_compile_with_faults(NULL, data, data_size, b->input, &o, NULL,
                                                cli_fault_injection(), &r);
  int done = take_result(b, status, r, object, size, message);
  free(data);
  return done;
}

static void free_backend_cli(backend_cli *b) {
  free(b->llvm_args);
  free(b->owned_dwo_name);
  free(b->owned_profile_use);
  free(b->cs_profile_output);
}

int cli_backend(int argc, char **argv) {
  backend_cli b = {.pic = -1, .addrsig = -1, .opt_level = 2, .sample_profi = -1,
                   .threshold = MTPC_DEFAULT_THRESHOLD};
  b.llvm_args = xmalloc(((size_t)argc + 2) * sizeof(*b.llvm_args));
  int rc = parse_backend_args(&b, argc, argv);
  if (rc < 0) {
    add_driver_llvm_options(&b);
    rc = find_cs_profile(&b) ? 1 : -1;
  }
  if (rc >= 0) {
    free_backend_cli(&b);
    return rc;
  }
  cli_report_crashes_on(b.input);

  mtpc_options options;
  fill_options(&b, &options);
  mtpc_bridge_backend_job job = {
      .input = b.input, .index = b.index, .triple = b.triple, .options = &options,
      .addrsig = b.addrsig, .after_import = split_after_import, .arg = &b};
  void *object = NULL;
  size_t size = 0;
  char *triple = NULL, *message = NULL;
  int failed = 0;
  switch (mtpc_bridge_thin_backend(&job, &object, &size, &triple, &message)) {
  case MTPC_BACKEND_COMPILED:
    break;
  case MTPC_BACKEND_SKIP:
    failed = empty_object(&b, triple, &object, &size, &message) < 0;
    break;
  case MTPC_BACKEND_NO_INDEX:
    failed = whole_module(&b, &object, &size, &message) < 0;
    break;
  case MTPC_BACKEND_FAILED:
    failed = 1;
    break;
  }
  if (failed)
    cli_error("%s", message ? message : "the backend job failed");
  else
    failed = cli_write_outputs(b.result, b.output, object, size, NULL);
  mtpc_result_free(b.result);
  free(message);
  free(triple);
  free(object);
  free_backend_cli(&b);
  return failed;
}
