/* Which compiles `mtpc cc` splits, second look (the first, at the driver's
 * arguments before anything runs, is cc_check.c's): at the -cc1 job clang's
 * driver makes of the command (`clang -###`). Every argument must be one
 * mtpc knows, either because it only concerns the front end (whose output
 * mtpc uses as it is) or because mtpc gives code generation the same
 * setting. One it does not know passes the compile through.
 *
 * Flags that add passes to clang's own pipeline (HWASan and the other
 * sanitizers whose passes the library does not have) are not known, so
 * those compiles pass through: mtpc's partitions run LLVM's default
 * pipeline, which has none of clang's additions. UBSan's checks, a profile
 * of clang's own instrumentation and fast math are written into the IR by
 * the front end; a sample profile, IR profile instrumentation and use (and
 * their context-sensitive kinds), and TSan's, ASan's and MSan's passes are
 * the library's own, and so are gcov's
 * instrumentation and the lowering of clang's own instrumentation
 * (-fprofile-instr-generate, coverage), which clang's pipeline runs first
 * and the library runs before the split. */
#define _GNU_SOURCE
#include "cc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "lto-backend/tools.h"

/* The -cc1 arguments mtpc knows. */
typedef enum cc1_kind {
  FRONT_END,      /* a flag for the front end only, or carried by the IR */
  FRONT_END_ARG,  /* the same, with its value in the next argument */
  FRONT_END_JOINED, /* a prefix: the same, with its value joined */
  FRONT_END_EITHER, /* the same, with its value joined or in the next argument */
  MAPPED,         /* a flag or value mtpc gives code generation too */
  MAPPED_ARG,
  MAPPED_JOINED,
} cc1_kind;

typedef struct cc1_option {
  const char *name;
  cc1_kind kind;
} cc1_option;

static const cc1_option cc1_options[] = {
    /* The job itself. */
    {"-cc1", FRONT_END}, {"-disable-free", FRONT_END}, {"-clear-ast-before-backend", FRONT_END},
    {"-disable-llvm-verifier", FRONT_END}, {"-discard-value-names", FRONT_END},
    {"-main-file-name", FRONT_END_ARG}, {"-x", MAPPED_ARG}, {"-o", MAPPED_ARG},
    {"-emit-obj", MAPPED}, {"-triple", MAPPED_ARG},
    /* Preprocessing, language, diagnostics. */
    {"-D", FRONT_END_EITHER}, {"-U", FRONT_END_EITHER}, {"-I", FRONT_END_EITHER},
    {"-W", FRONT_END_JOINED}, {"-std=", FRONT_END_JOINED}, {"-isystem", FRONT_END_ARG},
    {"-iquote", FRONT_END_ARG}, {"-idirafter", FRONT_END_ARG}, {"-include", FRONT_END_ARG},
    {"-imacros", FRONT_END_ARG}, {"-isysroot", FRONT_END_ARG},
    {"-internal-isystem", FRONT_END_ARG}, {"-internal-externc-isystem", FRONT_END_ARG},
    {"-resource-dir", FRONT_END_ARG}, {"-ferror-limit", FRONT_END_ARG},
    {"-fmessage-length=", FRONT_END_JOINED}, {"-fcolor-diagnostics", FRONT_END},
    {"-fno-color-diagnostics", FRONT_END}, {"-fdiagnostics-", FRONT_END_JOINED},
    {"-pedantic", FRONT_END}, {"-pedantic-errors", FRONT_END}, {"-w", FRONT_END},
    {"-fgnuc-version=", FRONT_END_JOINED}, {"-fskip-odr-check-in-gmf", FRONT_END},
    {"-fvisibility=", FRONT_END_JOINED}, {"-pthread", FRONT_END},
    {"-fdeprecated-macro", FRONT_END}, {"-fwrapv", FRONT_END}, {"-relaxed-aliasing", FRONT_END},
    /* clang 22's for -fno-strict-overflow: no inbounds on pointer arithmetic. */
    {"-fwrapv-pointer", FRONT_END},
    {"-fbracket-depth", FRONT_END_ARG}, /* a parser limit (Verilator's makefiles) */
    /* C++20 and later (the driver turns implicit modules off), dialects. */
    {"-fno-implicit-modules", FRONT_END}, {"-faligned-allocation", FRONT_END},
    {"-fno-aligned-allocation", FRONT_END}, {"-fms-extensions", FRONT_END},
    {"-fno-pch-timestamp", FRONT_END},
    {"-mms-bitfields", FRONT_END}, /* MinGW's struct layout, which the IR's types carry */
    {"-fno-sized-deallocation", FRONT_END}, {"-fno-use-cxa-atexit", FRONT_END},
    {"-fms-compatibility", FRONT_END}, {"-fms-compatibility-version=", FRONT_END_JOINED},
    {"-fdelayed-template-parsing", FRONT_END}, {"-fms-volatile", FRONT_END},
    /* CodeView's S_OBJNAME record (mtpc_options.object_file_name). */
    {"-object-file-name=", MAPPED_JOINED},
    /* Only the COFF header's time stamp, which linkers do not read: the
     * merged object has 0 there, as a /Brepro compile does. */
    {"-mincremental-linker-compatible", FRONT_END},
    /* The front end emits invariant.group intrinsics for them. */
    {"-fstrict-vtable-pointers", FRONT_END},
    /* Language and dialect, the front end's limits and diagnostics, and
     * layout: what the front end parses and emits, nothing more. */
    {"-fvisibility-inlines-hidden", FRONT_END},
    {"-fvisibility-inlines-hidden-static-local-var", FRONT_END},
    {"-fvisibility-global-new-delete=", FRONT_END_JOINED}, {"-fstrict-flex-arrays=", FRONT_END_JOINED},
    {"-fstrict-enums", FRONT_END}, {"-fmerge-all-constants", FRONT_END},
    {"-ffixed-point", FRONT_END}, {"-fcomplete-member-pointers", FRONT_END},
    {"-fexperimental-new-constant-interpreter", FRONT_END},
    {"-fno-elide-constructors", FRONT_END}, {"-fno-char8_t", FRONT_END}, {"-fchar8_t", FRONT_END},
    {"-fshort-enums", FRONT_END}, {"-fwchar-type=", FRONT_END_JOINED},
    {"-fno-signed-wchar", FRONT_END}, {"-fpack-struct=", FRONT_END_JOINED},
    {"-fno-access-control", FRONT_END}, {"-fno-operator-names", FRONT_END},
    {"-fdollars-in-identifiers", FRONT_END}, {"-fno-dollars-in-identifiers", FRONT_END},
    {"-fgnu-keywords", FRONT_END}, {"-fno-gnu-keywords", FRONT_END},
    {"-fconstexpr-depth=", FRONT_END_JOINED}, {"-fconstexpr-steps=", FRONT_END_JOINED},
    {"-fconstexpr-backtrace-limit=", FRONT_END_JOINED}, {"-ftemplate-depth=", FRONT_END_JOINED},
    {"-ftemplate-backtrace-limit=", FRONT_END_JOINED}, {"-fmacro-backtrace-limit=", FRONT_END_JOINED},
    {"-fspell-checking-limit=", FRONT_END_JOINED}, {"-fno-spell-checking", FRONT_END},
    {"-fcaret-diagnostics-max-lines=", FRONT_END_JOINED}, {"-fno-caret-diagnostics", FRONT_END},
    {"-fno-show-column", FRONT_END}, {"-fno-show-source-location", FRONT_END},
    {"-fno-diagnostics-fixit-info", FRONT_END}, {"-fno-strict-return", FRONT_END},
    {"-flax-vector-conversions=", FRONT_END_JOINED}, {"-fno-c++-static-destructors", FRONT_END},
    {"-fc++-static-destructors=", FRONT_END_JOINED}, {"-fforce-emit-vtables", FRONT_END},
    {"-fno-assume-unique-vtables", FRONT_END}, {"-fpch-instantiate-templates", FRONT_END},
    {"-fkeep-static-consts", FRONT_END}, {"-fkeep-persistent-storage-variables", FRONT_END},
    {"-ffloat16-excess-precision=", FRONT_END_JOINED},
    {"-fbfloat16-excess-precision=", FRONT_END_JOINED},
    /* UBSan's handlers without a runtime's reports: their names, the front end's. */
    {"-fsanitize-minimal-runtime", FRONT_END},
    /* Settings the front end writes into the IR: function attributes
     * (no-jump-tables, noimplicitfloat, patchable-function-entry,
     * denormal-fp-math, strictfp with constrained intrinsics), functions'
     * alignment, globals' TLS models, and module flags
     * (override-stack-alignment, stack-protector-guard*,
     * indirect_branch_cs_prefix). */
    {"-fno-jump-tables", FRONT_END}, {"-no-implicit-float", FRONT_END},
    {"-function-alignment", FRONT_END_ARG}, {"-fpatchable-function-entry=", FRONT_END_JOINED},
    {"-fpatchable-function-entry-offset=", FRONT_END_JOINED},
    {"-fdenormal-fp-math=", FRONT_END_JOINED}, {"-fdenormal-fp-math-f32=", FRONT_END_JOINED},
    {"-frounding-math", FRONT_END}, {"-ffp-exception-behavior=", FRONT_END_JOINED},
    {"-ftls-model=", FRONT_END_JOINED}, {"-mstack-alignment=", FRONT_END_JOINED},
    {"-mstack-protector-guard=", FRONT_END_JOINED},
    {"-mstack-protector-guard-reg=", FRONT_END_JOINED},
    {"-mstack-protector-guard-offset=", FRONT_END_JOINED},
    {"-mstack-protector-guard-symbol=", FRONT_END_JOINED},
    {"-mindirect-branch-cs-prefix", FRONT_END},
    /* More of them (speculative load hardening, XRay, vector width,
     * reciprocals, return thunks, large data), the code the front end
     * emits for -ftrapv, relative vtables and unique internal names, and
     * the hooks' attributes code generation serves (-pg, -mfentry, after
     * inlining); -finstrument-functions' calls are made before the split. */
    {"-mspeculative-load-hardening", FRONT_END}, {"-ftrapv", FRONT_END},
    {"-ftrapv-handler", FRONT_END_ARG}, {"-fxray-instrument", FRONT_END},
    {"-fxray-instruction-threshold=", FRONT_END_JOINED},
    {"-fxray-instrumentation-bundle=", FRONT_END_JOINED}, {"-fxray-modes=", FRONT_END_JOINED},
    {"-mprefer-vector-width=", FRONT_END_JOINED},
    {"-mno-tls-direct-seg-refs", FRONT_END}, /* the indirect-tls-seg-refs attribute */
    {"-fexperimental-relative-c++-abi-vtables", FRONT_END},
    {"-mfunction-return=", FRONT_END_JOINED}, {"-mrecip=", FRONT_END_JOINED},
    {"-fsplit-lto-unit", FRONT_END}, {"-funique-internal-linkage-names", FRONT_END},
    /* Split stacks: the split-stack attribute on each function, from which
     * code generation writes the prologue and the object's notes. */
    {"-fsplit-stack", FRONT_END},
    /* OpenMP for the host: outlined regions, the runtime's calls and the
     * loops' metadata are the front end's IR, with the openmp module flag
     * that has every partition's pipeline run OpenMP's optimization, as
     * clang's does. */
    {"-fopenmp", FRONT_END}, {"-fopenmp-simd", FRONT_END},
    {"-fopenmp-version=", FRONT_END_JOINED}, {"-fopenmp-extensions", FRONT_END},
    {"-fno-openmp-extensions", FRONT_END},
    {"-mlarge-data-threshold=", FRONT_END_JOINED},
    {"-finstrument-functions", MAPPED}, {"-finstrument-functions-after-inlining", FRONT_END},
    {"-fdebug-info-for-profiling", MAPPED},
    {"-finstrument-function-entry-bare", FRONT_END}, {"-pg", FRONT_END}, {"-mfentry", FRONT_END},
    /* Debug information's names and inline line tables: metadata and a
     * function attribute. */
    {"-gsimple-template-names=", FRONT_END_JOINED}, {"-debug-forward-template-params", FRONT_END},
    {"-gno-inline-line-tables", FRONT_END},
    /* Inlining modes: the front end marks what may not be inlined noinline.
     * Library functions: it marks every function it defines no-builtins or
     * no-builtin-<name>, and the optimizers ask the library of each function
     * they work on (clang's pipeline gives them nothing else to read). */
    {"-finline-functions", FRONT_END}, {"-finline-hint-functions", FRONT_END},
    {"-fno-inline", FRONT_END}, {"-fno-inline-functions", FRONT_END},
    {"-fno-builtin", FRONT_END}, {"-fno-builtin-", FRONT_END_JOINED},
    {"-ffreestanding", FRONT_END},
    {"-fcommon", FRONT_END}, {"-fno-signed-char", FRONT_END}, {"-fcxx-exceptions", FRONT_END},
    {"-fexceptions", FRONT_END}, {"-fno-rtti", FRONT_END}, {"-fno-threadsafe-statics", FRONT_END},
    {"-fsized-deallocation", FRONT_END}, {"-fno-delete-null-pointer-checks", FRONT_END},
    {"-ftrivial-auto-var-init=", FRONT_END_JOINED}, {"-fno-math-errno", FRONT_END},
    {"-fmath-errno", FRONT_END}, {"-fno-rounding-math", FRONT_END},
    {"-ffp-contract=on", FRONT_END}, {"-fno-dwarf2-cfi-asm", FRONT_END},
    {"-fdwarf2-cfi-asm", FRONT_END}, /* clang 22: defines __GCC_HAVE_DWARF2_CFI_ASM */
    /* Fast math: fast-math flags on the instructions, and function
     * attributes from which code generation resets its options for each
     * function (no-infs-fp-math, unsafe-fp-math, ...). Contraction: the
     * instructions' contract flags (fast), or no fmuladd (off). */
    {"-ffast-math", FRONT_END}, {"-menable-no-infs", FRONT_END},
    {"-menable-no-nans", FRONT_END}, {"-fapprox-func", FRONT_END},
    {"-funsafe-math-optimizations", FRONT_END}, {"-fno-signed-zeros", FRONT_END},
    {"-mreassociate", FRONT_END}, {"-freciprocal-math", FRONT_END},
    {"-ffinite-math-only", FRONT_END}, {"-ffp-contract=fast", FRONT_END},
    {"-ffp-contract=off", FRONT_END}, {"-complex-range=", FRONT_END_JOINED},
    /* Dependency files: the front end writes them, as clang's would. */
    {"-dependency-file", FRONT_END_ARG}, {"-MT", FRONT_END_ARG}, {"-sys-header-deps", FRONT_END},
    {"-MP", FRONT_END},
    /* Code generation settings the IR carries (function attributes and
     * module flags), which every partition keeps. */
    {"-mrelocation-model", FRONT_END_ARG}, {"-pic-level", FRONT_END_ARG},
    {"-pic-is-pie", FRONT_END}, {"-fhalf-no-semantic-interposition", FRONT_END},
    {"-mframe-pointer=", FRONT_END_JOINED}, {"-mconstructor-aliases", FRONT_END},
    {"-funwind-tables=", FRONT_END_JOINED}, {"-fno-plt", FRONT_END},
    {"-tune-cpu", FRONT_END_ARG}, {"-stack-protector", FRONT_END_ARG},
    {"-stack-protector-buffer-size", FRONT_END_ARG}, {"-mcmodel=", FRONT_END_JOINED},
    {"-mno-red-zone", FRONT_END}, {"-mstackrealign", FRONT_END},
    {"-fzero-call-used-regs=", FRONT_END_JOINED}, {"-ffinite-loops", FRONT_END},
    /* Hardening: module flags (cf-protection-branch, -return) and the
     * probe-stack attribute. */
    {"-fcf-protection=", FRONT_END_JOINED}, {"-fstack-clash-protection", FRONT_END},
    /* AArch64's -mbranch-protection: module flags and function attributes. */
    {"-msign-return-address=", FRONT_END_JOINED},
    {"-msign-return-address-key=", FRONT_END_JOINED}, {"-mbranch-target-enforce", FRONT_END},
    {"-mguarded-control-stack", FRONT_END},
    /* RISC-V's small data section limit: the SmallDataLimit module flag. */
    {"-msmall-data-limit", FRONT_END_ARG},
    /* clang 22 says so for AArch64, whose code generation has no other TLS
     * dialect; elsewhere it is a setting mtpc does not give (cc_read_job). */
    {"-enable-tlsdesc", MAPPED},
    /* Constructors in .ctors: COFF's code generation always puts them
     * there (MinGW's .ctors, MSVC's .CRT$XCU); ELF's is not given it. */
    {"-fno-use-init-array", MAPPED},
    /* mtpc_options.emulated_tls (codegen_flags.c). */
    {"-femulated-tls", MAPPED},
    /* Windows' unwind tables (SEH): what x86-64's and AArch64's COFF code
     * generation writes anyway. */
    {"-exception-model=", MAPPED_JOINED},
    /* CodeView instead of DWARF: the module's flag, which each partition
     * carries; the COFF merge makes one type stream of theirs. */
    {"-gcodeview", FRONT_END},
    {"-fno-finite-loops", FRONT_END},
    /* Debug information: the front end's metadata; DWARF is written per
     * partition. */
    {"-debug-info-kind=", MAPPED_JOINED}, {"-dwarf-version=", FRONT_END_JOINED},
    {"-debugger-tuning=", MAPPED_JOINED}, {"-ggnu-pubnames", FRONT_END},
    {"-gno-column-info", FRONT_END},
    {"-gpubnames", FRONT_END}, {"-gkey-instructions", FRONT_END}, {"-gtemplate-alias", FRONT_END},
    {"-dwarf-explicit-import", FRONT_END},
    /* -grecord-gcc-switches: the command line in the compile unit's producer flags. */
    {"-dwarf-debug-flags", FRONT_END_ARG},
    {"-fdebug-compilation-dir=", FRONT_END_JOINED},
    {"-fcoverage-compilation-dir=", FRONT_END_JOINED},
    {"-fdebug-prefix-map=", FRONT_END_JOINED}, {"-fmacro-prefix-map=", FRONT_END_JOINED},
    {"-fcoverage-prefix-map=", FRONT_END_JOINED},
    {"-faddrsig", MAPPED},
    /* TargetOptions no IR carries (mtpc_options' code generation settings). */
    {"-fstack-size-section", MAPPED}, {"-fno-unique-section-names", MAPPED},
    {"-fno-zero-initialized-in-bss", MAPPED}, {"-falign-loops=", MAPPED_JOINED},
    {"-fbasic-block-sections=", MAPPED_JOINED}, {"-fbasic-block-address-map", MAPPED},
    {"--compress-debug-sections=", MAPPED_JOINED},
    {"-fsplit-machine-functions", MAPPED},
    /* Given to code generation. */
    {"-O", MAPPED_JOINED}, {"-target-cpu", MAPPED_ARG}, {"-target-feature", MAPPED_ARG},
    {"-target-abi", MAPPED_ARG}, {"-fprofile-sample-use=", MAPPED_JOINED},
    {"-fprofile-instrument-use-path=", MAPPED_JOINED},
    /* UBSan: checks and handler calls the front end writes (cc_check.c). */
    {"-fsanitize=", MAPPED_JOINED}, {"-fsanitize-trap=", FRONT_END_JOINED},
    {"-fsanitize-merge=", FRONT_END_JOINED}, /* clang 22: nomerge on handler calls */
    /* UBSan's recovery is the front end's; ASan's and MSan's their passes'. */
    {"-fsanitize-recover=", MAPPED_JOINED},
    /* The front end's: ignore lists, ASan's class padding, MSan's poisoning
     * in destructors. The rest are settings of ASan's and MSan's passes
     * (sanitizer_spec). */
    /* The front end's, and DataFlowSanitizer's ABI lists (cc_job.ignorelists). */
    {"-fsanitize-system-ignorelist=", MAPPED_JOINED}, {"-fsanitize-ignorelist=", MAPPED_JOINED},
    {"-fno-assume-sane-operator-new", FRONT_END}, {"-fsanitize-address-field-padding=", FRONT_END_JOINED},
    {"-fsanitize-memory-use-after-dtor", FRONT_END},
    {"-fsanitize-address-use-after-scope", MAPPED},
    {"-fsanitize-address-globals-dead-stripping", MAPPED},
    {"-fno-sanitize-address-use-odr-indicator", MAPPED},
    {"-fsanitize-address-use-after-return=", MAPPED_JOINED},
    {"-fsanitize-address-destructor=", MAPPED_JOINED},
    {"-fsanitize-memory-track-origins=", MAPPED_JOINED},
    {"-fno-sanitize-memory-param-retval", MAPPED},
    /* SanitizerCoverage: its pass's (mtpc_options.sanitizer_coverage). */
    {"-fsanitize-coverage-", MAPPED_JOINED},
    {"-fprofile-instrument-use=", MAPPED_JOINED}, /* clang 22: the kind the driver read */
    {"-fprofile-sample-accurate", FRONT_END}, /* a function attribute */
    /* Clang's own instrumentation: counter intrinsics the front end writes,
     * coverage mapping records; the library lowers them on the whole module. */
    {"-fprofile-instrument=", MAPPED_JOINED}, {"-fprofile-instrument-path=", MAPPED_JOINED},
    {"-fprofile-update=", MAPPED_JOINED}, {"-fcoverage-mapping", FRONT_END},
    /* gcov: its pass runs on the whole module before the split
     * (mtpc_options.gcov); the files are named in the IR (llvm.gcov). */
    {"-coverage-notes-file=", MAPPED_JOINED}, {"-coverage-data-file=", MAPPED_JOINED},
    {"-disable-red-zone", MAPPED}, /* noredzone attributes, and gcov's calls */
    {"-fcoverage-mcdc", FRONT_END},
    {"-vectorize-loops", MAPPED}, {"-vectorize-slp", MAPPED},
    {"-funroll-loops", MAPPED}, {"-fno-unroll-loops", MAPPED}, {"-ffunction-sections", MAPPED},
    {"-fdata-sections", MAPPED}, {"-split-dwarf-file", MAPPED_ARG},
    {"-split-dwarf-output", MAPPED_ARG}, {"-mllvm", MAPPED_ARG},
};

static const cc1_option *find_cc1_option(const char *arg) {
  for (size_t i = 0; i < sizeof(cc1_options) / sizeof(*cc1_options); i++) {
    const cc1_option *o = &cc1_options[i];
    if (o->kind == FRONT_END_JOINED || o->kind == FRONT_END_EITHER || o->kind == MAPPED_JOINED) {
      if (cc_has_prefix(arg, o->name))
        return o;
    } else if (!strcmp(arg, o->name)) {
      return o;
    }
  }
  return NULL;
}

/* The pipeline of an -O level, as clang picks it. */
static const char *set_level(cc_job *job, const char *arg) {
  static const struct {
    const char *flag, *pipeline;
    unsigned level;
  } levels[] = {{"-O1", "default<O1>", 1}, {"-O2", "default<O2>", 2},
                {"-O3", "default<O3>", 3}, {"-Os", "default<Os>", 2},
                {"-Oz", "default<Oz>", 2}, {"-Ofast", "default<O3>", 3}};
  for (size_t i = 0; i < sizeof(levels) / sizeof(*levels); i++)
    if (!strcmp(arg, levels[i].flag)) {
      job->pipeline = levels[i].pipeline;
      job->opt_level = levels[i].level;
      return NULL;
    }
  return "an optimization level other than -O1, -O2, -O3, -Os, -Oz or -Ofast";
}

static void append_feature(cc_job *job, const char *feature) {
  char *joined = job->features ? xasprintf("%s,%s", job->features, feature) : xstrdup(feature);
  free(job->features);
  job->features = joined;
}

/* An indexed instrumentation profile's kind, from its header: 1 when IR
 * instrumentation made it (clang runs its use as passes of its pipeline),
 * 2 when it has context-sensitive records too, 0 when clang's front end
 * made it (the front end reads it and writes branch weights into the IR),
 * -1 when it is no indexed profile. A file that cannot be opened is left
 * to the front end, which says so as clang does. */
static int ir_level_profile(const char *path) {
  unsigned char header[16];
  FILE *f = fopen(path, "rb");
  if (!f)
    return 0;
  size_t got = fread(header, 1, sizeof(header), f);
  fclose(f);
  static const unsigned char magic[8] = {0xff, 0x6c, 0x70, 0x72, 0x6f, 0x66, 0x69, 0x81};
  if (got != sizeof(header) || memcmp(header, magic, sizeof(magic)) != 0)
    return -1;
  /* The version's bits 56 and 57: VARIANT_MASK_IR_PROF, VARIANT_MASK_CSIR_PROF. */
  if (!(header[15] & 0x01))
    return 0;
  return header[15] & 0x02 ? 2 : 1;
}

/* A profile of clang's own instrumentation is the front end's to use; an
 * IR instrumentation profile the library's (mtpc_options.ir_profile_use). */
static const char *profile_use(cc_job *job, const char *path) {
  int kind = ir_level_profile(path);
  switch (kind) {
  case 0:
    return NULL;
  case 1:
  case 2:
    job->ir_profile_use = path;
    job->cs_profile_use = kind == 2;
    return NULL;
  default:
    return "a profile that is not an indexed instrumentation profile";
  }
}

/* -fsanitize=: UBSan's checks are the front end's, TSan's, ASan's, MSan's
 * and DFSan's passes the library's (mtpc_options.sanitizers); others pass
 * through. */
static const char *sanitizers(cc_job *job, const char *list) {
  unsigned passes = 0;
  if (!cc_split_sanitizers(list, &passes))
    return "sanitizers (their passes run in clang's pipeline)";
  job->sanitizer_passes |= passes;
  return NULL;
}

static const char *use_after_return(cc_job *job, const char *mode) {
  static const char *const modes[] = {"never", "runtime", "always"};
  for (int i = 0; i < 3; i++)
    if (!strcmp(mode, modes[i])) {
      job->asan_use_after_return = modes[i];
      return NULL;
    }
  return "an ASan use-after-return mode mtpc does not know";
}

static const char *sanitizer_setting(cc_job *job, const char *arg) {
  const char *value = strchr(arg, '=') ? strchr(arg, '=') + 1 : "";
  if (cc_has_prefix(arg, "-fsanitize-recover=")) {
    unsigned recovering; /* the list may name sanitizers that have no passes */
    cc_split_sanitizers(value, &recovering);
    job->recovering_sanitizers |= recovering;
  }
  else if (!strcmp(arg, "-fsanitize-address-use-after-scope"))
    job->asan_use_after_scope = 1;
  else if (!strcmp(arg, "-fsanitize-address-globals-dead-stripping"))
    job->asan_globals_gc = 1;
  else if (!strcmp(arg, "-fno-sanitize-address-use-odr-indicator"))
    job->asan_no_odr_indicator = 1;
  else if (cc_has_prefix(arg, "-fsanitize-address-use-after-return="))
    return use_after_return(job, value);
  else if (cc_has_prefix(arg, "-fsanitize-address-destructor="))
    job->asan_no_destructor = !strcmp(value, "none");
  else if (cc_has_prefix(arg, "-fsanitize-memory-track-origins="))
    job->msan_track_origins = atoi(value);
  else if (!strcmp(arg, "-fno-sanitize-memory-param-retval"))
    job->msan_no_eager_checks = 1;
  return NULL;
}

/* -fsanitize-coverage-<what>: SanitizerCoverage's level, a kind, or a list. */
static const char *coverage_setting(cc_job *job, const char *what) {
  const char *value = strchr(what, '=') ? strchr(what, '=') + 1 : "";
  if (cc_has_prefix(what, "type=")) {
    int level = atoi(value);
    if (level < 0 || level > 3)
      return "a sanitizer coverage type other than 0 to 3";
    job->coverage_level = level;
    return NULL;
  }
  const char **list = cc_has_prefix(what, "allowlist=")    ? &job->coverage_allowlist
                      : cc_has_prefix(what, "ignorelist=") ? &job->coverage_ignorelist
                                                           : NULL;
  if (list && *list)
    return "more than one sanitizer coverage allowlist or ignorelist";
  if (list) {
    *list = value;
    return NULL;
  }
  if (!mtpc_sanitizer_coverage_known(what))
    return "a sanitizer coverage kind mtpc does not know";
  size_t used = strlen(job->coverage_kinds);
  if (used + strlen(what) + 2 > sizeof(job->coverage_kinds))
    return "too many sanitizer coverage kinds";
  snprintf(job->coverage_kinds + used, sizeof(job->coverage_kinds) - used, ",%s", what);
  return NULL;
}

/* mtpc_options.sanitizer_coverage: the level first, as -cc1 names it. */
static void coverage_spec(cc_job *job) {
  static const char *const levels[] = {"", "func", "bb", "edge"};
  const char *kinds = job->coverage_kinds[0] ? job->coverage_kinds + 1 : "";
  if (job->coverage_level || *kinds)
    snprintf(job->sanitizer_coverage, sizeof(job->sanitizer_coverage), "%s%s%s",
             levels[job->coverage_level], job->coverage_level && *kinds ? "," : "", kinds);
}

static void add_setting(char *spec, size_t size, const char *setting) {
  size_t used = strlen(spec);
  snprintf(spec + used, size - used, "%s%s", strchr(spec, '<') ? ";" : "<", setting);
}

/* mtpc_options.sanitizers for the job's sanitizer with passes, with the
 * settings the -cc1 job gives it where they are not clang's defaults. */
static const char *sanitizer_spec(cc_job *job) {
  unsigned passes = job->sanitizer_passes;
  char *spec = job->sanitizer_spec;
  size_t size = sizeof(job->sanitizer_spec);
  if (passes & (passes - 1))
    return "more than one sanitizer with passes";
  int recover = (job->recovering_sanitizers & passes) != 0;
  if (passes == CC_SANITIZE_THREAD)
    snprintf(spec, size, "thread");
  if (passes == CC_SANITIZE_DATAFLOW)
    snprintf(spec, size, "dataflow");
  if (passes == CC_SANITIZE_ADDRESS) {
    snprintf(spec, size, "address");
    if (recover)
      add_setting(spec, size, "recover");
    if (!job->asan_use_after_scope)
      add_setting(spec, size, "no-use-after-scope");
    if (!job->asan_globals_gc)
      add_setting(spec, size, "no-globals-gc");
    if (job->asan_no_odr_indicator)
      add_setting(spec, size, "no-odr-indicator");
    if (job->asan_no_destructor)
      add_setting(spec, size, "destructor=none");
    if (job->asan_use_after_return && strcmp(job->asan_use_after_return, "runtime") != 0) {
      char setting[40];
      snprintf(setting, sizeof(setting), "use-after-return=%s", job->asan_use_after_return);
      add_setting(spec, size, setting);
    }
  }
  if (passes == CC_SANITIZE_MEMORY) {
    snprintf(spec, size, "memory");
    if (recover)
      add_setting(spec, size, "recover");
    if (job->msan_no_eager_checks)
      add_setting(spec, size, "no-eager-checks");
    if (job->msan_track_origins < 0 || job->msan_track_origins > 2)
      return "an MSan origin tracking level other than 0, 1 or 2";
    if (job->msan_track_origins)
      add_setting(spec, size, job->msan_track_origins == 1 ? "track-origins=1" : "track-origins=2");
  }
  if (strchr(spec, '<'))
    strncat(spec, ">", size - strlen(spec) - 1);
  return NULL;
}

/* -fprofile-instrument=: clang's own (the front end's counters, which the
 * library lowers before the split), IR instrumentation, which the library
 * runs where clang's pipeline does, on the whole module before the split
 * (mtpc_options.ir_profile_generate), or context-sensitive instrumentation,
 * after the inliner, in every partition's pipeline
 * (mtpc_options.cs_profile_generate). */
static const char *profile_instrumentation(cc_job *job, const char *kind) {
  if (!strcmp(kind, "clang"))
    job->instrprof = 1;
  else if (!strcmp(kind, "llvm"))
    job->ir_profile_generate = 1;
  else if (!strcmp(kind, "csllvm"))
    job->cs_profile_generate = 1;
  else
    return "a -fprofile-instrument= kind mtpc does not know";
  return NULL;
}

static const char *profile_update(cc_job *job, const char *mode) {
  if (!strcmp(mode, "atomic"))
    job->instrprof_atomic = 1;
  else if (strcmp(mode, "single") != 0)
    return "a -fprofile-update= mode other than single or atomic";
  return NULL;
}

/* A MAPPED argument (with its value, or NULL). */
static void add_ignorelist(cc_job *job, const char *arg) {
  const char *file = strchr(arg, '=') + 1;
  if (cc_has_prefix(arg, "-fsanitize-ignorelist="))
    job->ignorelists[job->ignorelist_count++] = file;
  else
    job->system_ignorelists[job->system_ignorelist_count++] = file;
}

static const char *map_argument(cc_job *job, const char *arg, const char *value,
                                int *vectorize_loops, int *vectorize_slp, int *emits_object) {
  if (!strcmp(arg, "-x"))
    return !strcmp(value, "c") || !strcmp(value, "c++") || !strcmp(value, "cpp-output") ||
                   !strcmp(value, "c++-cpp-output")
               ? NULL
               : "an input language other than C or C++";
  if (!strcmp(arg, "-o"))
    job->output = value;
  else if (!strcmp(arg, "-emit-obj"))
    *emits_object = 1;
  else if (cc_has_prefix(arg, "-O"))
    return set_level(job, arg);
  else if (cc_has_prefix(arg, "-fsanitize="))
    return sanitizers(job, arg + strlen("-fsanitize="));
  else if (cc_has_prefix(arg, "-fprofile-instrument-use="))
    return !strcmp(arg + strlen("-fprofile-instrument-use="), "clang") ||
                   !strcmp(arg + strlen("-fprofile-instrument-use="), "llvm") ||
                   !strcmp(arg + strlen("-fprofile-instrument-use="), "csllvm")
               ? NULL
               : "a -fprofile-instrument-use= kind mtpc does not know";
  else if (cc_has_prefix(arg, "-fprofile-instrument-use-path="))
    return profile_use(job, arg + strlen("-fprofile-instrument-use-path="));
  else if (cc_has_prefix(arg, "-fprofile-instrument="))
    return profile_instrumentation(job, arg + strlen("-fprofile-instrument="));
  else if (cc_has_prefix(arg, "-fprofile-instrument-path="))
    job->instrprof_output = arg + strlen("-fprofile-instrument-path=");
  else if (cc_has_prefix(arg, "-fprofile-update="))
    return profile_update(job, arg + strlen("-fprofile-update="));
  else if (cc_has_prefix(arg, "-coverage-notes-file="))
    job->gcov |= MTPC_GCOV_NOTES;
  else if (cc_has_prefix(arg, "-coverage-data-file="))
    job->gcov |= MTPC_GCOV_DATA;
  else if (!strcmp(arg, "-disable-red-zone"))
    job->no_red_zone = 1;
  else if (cc_has_prefix(arg, "-fprofile-sample-use="))
    job->sample_profile = arg + strlen("-fprofile-sample-use=");
  else if (!strcmp(arg, "-target-cpu"))
    job->cpu = value;
  else if (!strcmp(arg, "-triple"))
    job->triple = value;
  else if (cc_has_prefix(arg, "-fsanitize-coverage-"))
    return coverage_setting(job, arg + strlen("-fsanitize-coverage-"));
  else if (cc_has_prefix(arg, "-fsanitize-ignorelist=") ||
           cc_has_prefix(arg, "-fsanitize-system-ignorelist="))
    add_ignorelist(job, arg);
  else if (cc_has_prefix(arg, "-fsanitize-") || cc_has_prefix(arg, "-fno-sanitize-"))
    return sanitizer_setting(job, arg);
  else if (!strcmp(arg, "-enable-tlsdesc"))
    job->tls_descriptors = 1;
  else if (!strcmp(arg, "-fno-use-init-array"))
    job->ctors_section = 1;
  else if (cc_has_prefix(arg, "-object-file-name="))
    job->object_file_name = arg + strlen("-object-file-name=");
  else if (cc_has_prefix(arg, "-exception-model="))
    job->exception_model = arg + strlen("-exception-model=");
  else if (!strcmp(arg, "-target-abi"))
    job->abi = value;
  else if (!strcmp(arg, "-target-feature"))
    append_feature(job, value);
  else if (!strcmp(arg, "-vectorize-loops"))
    *vectorize_loops = 1;
  else if (!strcmp(arg, "-vectorize-slp"))
    *vectorize_slp = 1;
  else if (!strcmp(arg, "-funroll-loops") || !strcmp(arg, "-fno-unroll-loops"))
    job->loop_unroll = !strcmp(arg, "-funroll-loops") ? 1 : -1;
  else if (!strcmp(arg, "-ffunction-sections"))
    job->function_sections = 1;
  else if (!strcmp(arg, "-faddrsig"))
    job->addrsig = 1;
  else if (codegen_flags_read(&job->codegen, arg))
    return NULL;
  else if (!strcmp(arg, "-finstrument-functions"))
    job->instrument_functions = 1;
  else if (!strcmp(arg, "-fdebug-info-for-profiling"))
    job->debug_info_for_profiling = 1;
  else if (!strcmp(arg, "-fdata-sections"))
    job->data_sections = 1;
  else if (!strcmp(arg, "-split-dwarf-file"))
    job->split_dwarf_file = value;
  else if (!strcmp(arg, "-split-dwarf-output"))
    job->split_dwarf_output = value;
  else if (!strcmp(arg, "-mllvm"))
    job->llvm_options[job->llvm_option_count++] = value;
  return NULL;
}

/* The front end of the job: bitcode before LLVM's passes, to `bitcode`. */
static char **frontend_args(char **args, int count, const char *bitcode) {
  char **fe = xmalloc(((size_t)count + 2) * sizeof(char *));
  int n = 0;
  for (int i = 0; i < count; i++) {
    if (!strcmp(args[i], "-emit-obj")) {
      fe[n++] = "-emit-llvm-bc";
      fe[n++] = "-disable-llvm-passes";
    } else if (!strcmp(args[i], "-o") && i + 1 < count) {
      fe[n++] = args[i++];
      fe[n++] = (char *)bitcode;
    } else {
      fe[n++] = args[i];
    }
  }
  fe[n] = NULL;
  return fe;
}

/* -grecord-command-line records the command that made the job, which for
 * the launcher's look at it ended with -###; clang's own compile has none. */
static void drop_probe_flag(char *recorded) {
  size_t len = strlen(recorded), probe = strlen(" -###");
  if (len >= probe && !strcmp(recorded + len - probe, " -###"))
    recorded[len - probe] = '\0';
}

/* The job's -dwarf-version (clang's default, 5, without one). */
static int dwarf_version(char **args, int count) {
  int version = 5;
  for (int i = 1; i < count; i++)
    if (cc_has_prefix(args[i], "-dwarf-version="))
      version = atoi(args[i] + strlen("-dwarf-version="));
  return version;
}

/* -exception-model=seh where it is the target's own: Windows on x86-64
 * and AArch64. */
static int windows_unwind(const cc_job *job) {
  return !strcmp(job->exception_model, "seh") && mtpc_target_writes_coff(job->triple) &&
         (cc_has_prefix(job->triple, "x86_64") || cc_has_prefix(job->triple, "aarch64"));
}

const char *cc_read_job(char **args, int count, const char *bitcode, cc_job *job, char **owned) {
  memset(job, 0, sizeof(*job));
  *owned = NULL;
  job->llvm_options = xmalloc(((size_t)count + 1) * sizeof(char *));
  job->ignorelists = xmalloc(((size_t)count + 1) * sizeof(char *));
  job->system_ignorelists = xmalloc(((size_t)count + 1) * sizeof(char *));
  int vectorize_loops = 0, vectorize_slp = 0, emits_object = 0, inputs = 0;
  const char *reason = NULL;
  /* A target whose object format mtpc cannot split is said first: its
   * own -cc1 options would otherwise be the reason given. */
  for (int i = 1; i + 1 < count; i++)
    if (!strcmp(args[i], "-triple"))
      if ((reason = mtpc_target_unsplit_reason(args[i + 1])))
        return reason;
  for (int i = 1; i < count && !reason; i++) {
    if (args[i][0] != '-') {
      inputs++;
      job->input = args[i];
      continue;
    }
    const cc1_option *o = find_cc1_option(args[i]);
    if (!o) {
      reason = *owned = xasprintf("clang -cc1 option '%s'", args[i]);
      break;
    }
    int with_value = o->kind == FRONT_END_ARG || o->kind == MAPPED_ARG ||
                     (o->kind == FRONT_END_EITHER && !strcmp(args[i], o->name));
    if (with_value && i + 1 >= count)
      return "a -cc1 option without its value";
    const char *value = with_value ? args[++i] : NULL;
    if (!strcmp(o->name, "-dwarf-debug-flags"))
      drop_probe_flag(args[i]);
    if (o->kind == MAPPED || o->kind == MAPPED_ARG || o->kind == MAPPED_JOINED)
      reason = map_argument(job, args[i - with_value], value, &vectorize_loops, &vectorize_slp,
                            &emits_object);
  }
  if (reason)
    return reason;
  if (count < 2 || strcmp(args[1], "-cc1") != 0 || !emits_object || !job->output ||
      inputs != 1)
    return "a clang job that does not write an object";
  if (!job->pipeline)
    return "-O0";
  if ((reason = sanitizer_spec(job)))
    return reason;
  coverage_spec(job);
  if (job->tls_descriptors && !(job->triple && cc_has_prefix(job->triple, "aarch64")))
    return "TLS descriptors on a target whose code generation has another TLS dialect";
  if (job->ctors_section && !mtpc_target_writes_coff(job->triple))
    return "-fno-use-init-array outside COFF (constructors in ELF's .ctors)";
  if (job->exception_model && !windows_unwind(job))
    return "an exception model other than the target's own";
  if (job->split_dwarf_output && dwarf_version(args, count) < 5)
    return "split DWARF before version 5 (one .dwo is merged from DWARF 5 ones only)";
  /* The driver says which vectorizers run (none at -O1 and -Oz). */
  job->loop_vectorize = vectorize_loops ? 1 : -1;
  job->slp_vectorize = vectorize_slp ? 1 : -1;
  /* Unrolling: as clang's -cc1 defaults it, on from -O2 (-Os and -Oz too). */
  if (!job->loop_unroll)
    job->loop_unroll = job->opt_level > 1 ? 1 : -1;
  /* As clang's CompilerInvocation: the user's lists, then the system's. */
  for (unsigned i = 0; i < job->system_ignorelist_count; i++)
    job->ignorelists[job->ignorelist_count++] = job->system_ignorelists[i];
  job->frontend = frontend_args(args, count, bitcode);
  return NULL;
}

void cc_job_free(cc_job *job) {
  free(job->frontend);
  free(job->features);
  free(job->llvm_options);
  free(job->ignorelists);
  free(job->system_ignorelists);
}

/* Callees of up to this many unoptimized instructions are copied across a
 * cut: ThinLTO's importer allows 100 optimized ones, and the front end's IR
 * has about as many again before optimization (docs/cc.rst). */
#define CC_IMPORT_INSTR_LIMIT 100

void cc_job_options(const cc_job *job, mtpc_options *o) {
  o->opt_level = job->opt_level;
  o->opt_pipeline = job->pipeline;
  o->codegen_opt_level = job->opt_level; /* as clang's -O picks it */
  o->cpu = job->cpu;
  o->target_abi = job->abi;
  o->sample_profile = job->sample_profile;
  o->sanitizers = job->sanitizer_spec[0] ? job->sanitizer_spec : NULL;
  if (job->sanitizer_passes == CC_SANITIZE_DATAFLOW) { /* only DFSan's pass reads them */
    o->dfsan_abilists = job->ignorelists;
    o->dfsan_abilist_count = job->ignorelist_count;
  }
  o->sanitizer_coverage = job->sanitizer_coverage[0] ? job->sanitizer_coverage : NULL;
  o->sanitizer_coverage_allowlist = job->coverage_allowlist;
  o->sanitizer_coverage_ignorelist = job->coverage_ignorelist;
  o->loop_vectorize = job->loop_vectorize;
  o->slp_vectorize = job->slp_vectorize;
  o->loop_unroll = job->loop_unroll;
  o->lower_instrprof = job->instrprof;
  o->instrprof_output = job->instrprof_output;
  o->instrprof_atomic = job->instrprof_atomic;
  o->ir_profile_generate = job->ir_profile_generate;
  o->ir_profile_use = job->ir_profile_use;
  /* clang's pipeline reads a profile's context-sensitive records from the
   * file it uses, and writes its context-sensitive one where
   * -fprofile-instrument-path= says. */
  o->cs_profile_generate = job->cs_profile_generate;
  o->cs_profile = job->cs_profile_generate ? job->instrprof_output
                  : job->cs_profile_use    ? job->ir_profile_use
                                           : NULL;
  o->gcov = job->gcov ? job->gcov | (job->no_red_zone ? MTPC_GCOV_NO_RED_ZONE : 0u) : 0u;
  o->features = job->features;
  o->function_sections = job->function_sections;
  o->addrsig = job->addrsig;
  o->object_file_name = job->object_file_name;
  codegen_flags_apply(&job->codegen, o);
  /* -cc1 without -femulated-tls: off, as clang's backend. */
  if (!o->emulated_tls)
    o->emulated_tls = -1;
  /* clang's pipeline first tracks assignments, unless tuned for LLDB. */
  o->assignment_tracking = job->codegen.debug_variables && o->opt_level > 0 &&
                           !(o->debugger_tuning && !strcmp(o->debugger_tuning, "lldb"));
  o->instrument_functions = job->instrument_functions;
  o->debug_info_for_profiling = job->debug_info_for_profiling;
  o->data_sections = job->data_sections;
  o->split_dwarf_file = job->split_dwarf_file;
  o->split_dwarf_output = job->split_dwarf_output;
  o->llvm_options = job->llvm_options;
  o->llvm_option_count = job->llvm_option_count;
  o->import_instr_limit = CC_IMPORT_INSTR_LIMIT;
}
