/* What `mtpc cc` and the lightweight `mtpc-cc` share, with nothing of LLVM:
 * the launcher's options, and the first look at a compiler command line,
 * which decides before anything runs whether a compile may be split
 * (cc_args.c takes the second look, at clang's -cc1 job). */
#define _GNU_SOURCE
#include "cc.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

const char cc_usage_text[] =
    "OVERVIEW: a compiler launcher that compiles one large translation unit on many cores\n"
    "\n"
    "USAGE: mtpc cc [options] <compiler> <compiler arguments...>\n"
    "       mtpc-cc [options] <compiler> <compiler arguments...>\n"
    "\n"
    "A clang -c compile at -O1 or above whose source is large runs clang's front\n"
    "end, then mtpc splits the module, optimizes and code-generates the parts in\n"
    "parallel, and writes the object clang would have written. Any other command\n"
    "(a small source, -O0, -E, -S, -emit-llvm, -flto, HWASan and the other\n"
    "sanitizers mtpc does not run, a compiler that is not clang, an\n"
    "option mtpc does not know) runs the compiler as it\n"
    "is, and says so once when only a flag kept it unsplit. Under make -jN the\n"
    "threads take slots from make's jobserver.\n"
    "\n"
    "mtpc-cc is the same launcher without LLVM loaded, so that a compile it\n"
    "passes through starts no later than the compiler would; use it in builds:\n"
    "  CMake: -DCMAKE_C_COMPILER_LAUNCHER=mtpc-cc   Make: CC='mtpc-cc clang-19'\n"
    "  ccache: CCACHE_PREFIX=mtpc-cc\n"
    "\n"
    "OPTIONS:\n"
    "  -j <n>, --jobs=<n>        Threads (default: all hardware threads; env MTPC_CC_JOBS)\n"
    "  --partitions=<k>          Partitions (default: from the module's size)\n"
    "  --min-source-size=<bytes> Sources smaller than this pass through without\n"
    "                            running the front end (default 256K; a source that\n"
    "                            includes .c/.cpp files counts theirs)\n"
    "  --threshold=<n>           Split modules of at least <n> unoptimized IR\n"
    "                            instructions (default 40000); smaller ones are\n"
    "                            compiled by the compiler itself\n"
    "  --verbose                 Say what happens to each compile (env MTPC_CC_VERBOSE=1)\n"
    "  --quiet                   No note when a flag keeps a large compile unsplit\n"
    "                            (env MTPC_CC_QUIET=1)\n"
    "  --time-trace=<file>       Write a Chrome trace of a split compile (clang's own\n"
    "                            -ftime-trace passes the compile through)\n"
    "  --help, --version\n"
    "\n"
    "Exit status: the compiler's, or 1 when mtpc fails, 2 on a command-line error.\n";

static int env_set(const char *name) {
  const char *value = getenv(name);
  return value && *value && strcmp(value, "0") != 0;
}

cc_settings_status cc_parse_settings(cc_settings *s, int argc, char *const *argv, int *first) {
  *s = (cc_settings){.min_source_size = CC_MIN_SOURCE_SIZE, .threshold = CC_THRESHOLD};
  const char *jobs = getenv("MTPC_CC_JOBS");
  if (jobs && *jobs && cli_read_unsigned(jobs, "MTPC_CC_JOBS", &s->jobs))
    return CC_SETTINGS_BAD;
  s->verbose = env_set("MTPC_CC_VERBOSE");
  s->quiet = env_set("MTPC_CC_QUIET");
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h"))
      return CC_SETTINGS_HELP;
    if (!strcmp(arg, "--version"))
      return CC_SETTINGS_VERSION;
    int bad = 0;
    if (!strcmp(arg, "--verbose"))
      s->verbose = 1;
    else if (!strcmp(arg, "--quiet"))
      s->quiet = 1;
    else if (!strncmp(arg, "--jobs=", 7))
      bad = cli_read_unsigned(arg + 7, "--jobs", &s->jobs);
    else if (!strcmp(arg, "-j") && i + 1 < argc)
      bad = cli_read_unsigned(argv[++i], "-j", &s->jobs);
    else if (!strncmp(arg, "-j", 2) && arg[2])
      bad = cli_read_unsigned(arg + 2, "-j", &s->jobs);
    else if (!strncmp(arg, "--threshold=", 12))
      bad = cli_read_unsigned(arg + 12, "--threshold", &s->threshold);
    else if (!strncmp(arg, "--partitions=", 13))
      bad = cli_read_unsigned(arg + 13, "--partitions", &s->partitions);
    else if (!strncmp(arg, "--time-trace=", 13))
      s->time_trace = arg + 13;
    else if (!strncmp(arg, "--min-source-size=", 18))
      bad = cli_read_size(arg + 18, "--min-source-size", &s->min_source_size);
    else {
      cli_error("unknown option '%s' before the compiler; see 'mtpc cc --help'", arg);
      bad = 1;
    }
    if (bad)
      return CC_SETTINGS_BAD;
  }
  if (i == argc) {
    cli_error("no compiler; usage: mtpc cc [options] <compiler> <arguments...>");
    return CC_SETTINGS_BAD;
  }
  *first = i;
  return CC_SETTINGS_OK;
}


int cc_has_prefix(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* clang by its name, or by the file a name like `cc` resolves to. */
static int is_clang(const char *compiler) {
  if (strstr(base_name(compiler), "clang"))
    return 1;
  char *path = NULL;
  if (strchr(compiler, '/')) {
    path = realpath(compiler, NULL);
  } else {
    const char *dirs = getenv("PATH");
    while (dirs && *dirs && !path) {
      size_t len = strcspn(dirs, ":");
      char candidate[PATH_MAX];
      if (snprintf(candidate, sizeof(candidate), "%.*s/%s", (int)len, dirs, compiler) <
              (int)sizeof(candidate) &&
          access(candidate, X_OK) == 0)
        path = realpath(candidate, NULL);
      dirs += len + (dirs[len] == ':');
    }
  }
  int clang = path && strstr(base_name(path), "clang");
  free(path);
  return clang;
}

static int is_source(const char *arg) {
  static const char *const suffixes[] = {".c", ".i", ".cc", ".cp", ".cxx", ".cpp", ".c++",
                                         ".C", ".ii", ".CPP"};
  for (size_t i = 0; i < sizeof(suffixes) / sizeof(*suffixes); i++)
    if (ends_with(arg, suffixes[i]))
      return 1;
  return 0;
}

/* Driver options whose value is the next argument. */
static int takes_value(const char *arg) {
  static const char *const options[] = {
      "-o", "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
      "-isysroot", "-iprefix", "-iwithprefix", "-iwithprefixbefore", "-x", "-MF", "-MT",
      "-MQ", "-Xclang", "-mllvm", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-target",
      "-arch", "-L", "-l", "-u", "-z", "-F", "--sysroot", "-B", "-T", "-Xarch_host"};
  for (size_t i = 0; i < sizeof(options) / sizeof(*options); i++)
    if (!strcmp(arg, options[i]))
      return 1;
  return 0;
}

int cc_split_sanitizers(const char *list, unsigned *passes) {
  static const char *const front_end[] = {
      "undefined", "integer", "nullability", "implicit-conversion", "alignment",
      "array-bounds", "bool", "builtin", "enum", "float-cast-overflow", "float-divide-by-zero",
      "function", "integer-divide-by-zero", "nonnull-attribute", "null", "object-size",
      "pointer-overflow", "return", "returns-nonnull-attribute", "shift", "shift-base",
      "shift-exponent", "signed-integer-overflow", "unreachable", "vla-bound", "vptr",
      "unsigned-integer-overflow", "unsigned-shift-base", "implicit-unsigned-integer-truncation",
      "implicit-signed-integer-truncation", "implicit-integer-sign-change",
      "implicit-integer-truncation", "implicit-bitfield-conversion",
      "nullability-arg", "nullability-assign", "nullability-return",
      /* libFuzzer's: SanitizerCoverage, which the -cc1 job's
       * -fsanitize-coverage- flags ask for (mtpc_options.sanitizer_coverage). */
      "fuzzer", "fuzzer-no-link"};
  *passes = 0;
  int all_known = *list != 0;
  while (*list) {
    size_t len = strcspn(list, ",");
    int known = 0;
    for (size_t i = 0; i < sizeof(front_end) / sizeof(*front_end) && !known; i++)
      known = strlen(front_end[i]) == len && !strncmp(front_end[i], list, len);
    if (len == strlen("thread") && !strncmp(list, "thread", len))
      known = 1, *passes |= CC_SANITIZE_THREAD;
    if (len == strlen("address") && !strncmp(list, "address", len))
      known = 1, *passes |= CC_SANITIZE_ADDRESS;
    if (len == strlen("memory") && !strncmp(list, "memory", len))
      known = 1, *passes |= CC_SANITIZE_MEMORY;
    if (len == strlen("dataflow") && !strncmp(list, "dataflow", len))
      known = 1, *passes |= CC_SANITIZE_DATAFLOW;
    all_known &= known;
    list += len + (list[len] == ',');
  }
  return all_known;
}

/* Arguments after which there is nothing to split: another output than an
 * object, or passes mtpc does not run. *loud: a compile that would be split
 * without it (cc_report_pass_through). */

static const char *excluded(const char *arg, int *loud) {
  enum { EXACT, PREFIX };
  static const struct {
    const char *flag;
    int match;
    int loud;
    const char *reason;
  } rules[] = {
      {"-E", EXACT, 0, "preprocessing only"},
      {"-S", EXACT, 0, "assembly output"},
      {"-M", EXACT, 0, "dependencies only"},
      {"-MM", EXACT, 0, "dependencies only"},
      {"-emit-llvm", EXACT, 0, "LLVM IR output"},
      {"-fsyntax-only", EXACT, 0, "no output"},
      {"-###", EXACT, 0, "no compile"},
      {"-save-temps", PREFIX, 1, "-save-temps"},
      {"-flto", PREFIX, 0, "an -flto compile (the linker sees its bitcode)"},
      {"-fsanitize=", PREFIX, 1, "sanitizers (their passes run in clang's pipeline)"},
      {"-fprofile-", PREFIX, 1, "profile instrumentation or use"},
      {"-fembed-bitcode", PREFIX, 1, "embedded bitcode"},
      {"-ftime-trace", PREFIX, 1, "clang's time trace"},
      /* OpenMP for the host splits (its runtime calls and outlined
       * regions are the front end's IR); a device compile is another job. */
      {"-fopenmp-targets=", PREFIX, 1, "OpenMP offloading (a device compile per target)"},
      {"--offload-arch=", PREFIX, 1, "offloading (a device compile per target)"},
      {"-fpass-plugin=", PREFIX, 1, "clang pass plugins"},
  };
  /* A sample profile's passes are the library's too (sample_profile); an
   * instrumentation profile's use is the front end's when clang's own
   * instrumentation made it, the library's when IR instrumentation did
   * (cc_args.c reads which kind it is); clang's own instrumentation and
   * coverage are the front end's, lowered by the library before the split;
   * IR instrumentation and gcov's the library's, on the whole module;
   * context-sensitive instrumentation the library's, in the partitions. */
  static const char *const profile_flags[] = {
      "-fprofile-sample-", "-fprofile-instr-use", "-fprofile-use", "-fprofile-instr-generate",
      "-fprofile-update=", "-fcoverage-mapping", "-fcoverage-mcdc", "-fno-profile-",
      "-fno-coverage-mapping", "-fprofile-arcs", "-fprofile-generate", "-fcs-profile-generate"};
  for (size_t i = 0; i < sizeof(profile_flags) / sizeof(*profile_flags); i++)
    if (cc_has_prefix(arg, profile_flags[i]))
      return NULL;
  /* UBSan's checks are the front end's; TSan's, ASan's and MSan's passes the library's. */
  unsigned passes;
  if (cc_has_prefix(arg, "-fsanitize=") && cc_split_sanitizers(arg + strlen("-fsanitize="), &passes))
    return NULL;
  for (size_t i = 0; i < sizeof(rules) / sizeof(*rules); i++)
    if (rules[i].match == PREFIX ? cc_has_prefix(arg, rules[i].flag) : !strcmp(arg, rules[i].flag)) {
      *loud = rules[i].loud;
      return rules[i].reason;
    }
  return NULL;
}

const char *cc_check_command(int argc, char *const *argv, const char **source, int *loud) {
  *loud = 0;
  *source = NULL;
  if (!is_clang(argv[0]))
    return "not clang";
  int compile_only = 0, optimized = 0, sources = 0;
  const char *flag_reason = NULL; /* the first loud exclusion */
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    int flag = 0;
    const char *reason = excluded(arg, &flag);
    if (reason && !flag)
      return reason;
    if (reason && !flag_reason)
      flag_reason = reason;
    if (!strcmp(arg, "-c"))
      compile_only = 1;
    else if (!strcmp(arg, "-O0"))
      optimized = 0;
    else if (cc_has_prefix(arg, "-O"))
      optimized = 1;
    else if (!strcmp(arg, "-x") && i + 1 < argc && strcmp(argv[i + 1], "c") != 0 &&
             strcmp(argv[i + 1], "c++") != 0)
      return "an input language other than C or C++";
    if (takes_value(arg)) {
      i++;
      continue;
    }
    if (arg[0] == '-' && arg[1])
      continue;
    if (!is_source(arg))
      return "an input that is not a C or C++ source";
    *source = arg;
    sources++;
  }
  if (!compile_only)
    return "not a -c compile";
  if (!optimized)
    return "-O0";
  if (sources != 1)
    return sources ? "more than one source" : "no source file";
  *loud = flag_reason != NULL;
  return flag_reason;
}

static uint64_t file_size(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? (uint64_t)st.st_size : 0;
}

/* The source's size, with the sizes of the C and C++ files it includes by
 * name (a unity build's source is a list of those). */
uint64_t cc_source_size(const char *source, uint64_t enough) {
  uint64_t size = file_size(source);
  if (size >= enough)
    return size;
  FILE *f = fopen(source, "r");
  if (!f)
    return size;
  const char *slash = strrchr(source, '/');
  int dir_len = slash ? (int)(slash - source) : 1;
  const char *dir = slash ? source : ".";
  char line[4096], name[4096];
  while (fgets(line, sizeof(line), f) && size < enough) {
    if (sscanf(line, " # include \"%4095[^\"]\"", name) != 1)
      continue;
    size_t len = strlen(name);
    int code = (len > 2 && !strcmp(name + len - 2, ".c")) ||
               (len > 4 && (!strcmp(name + len - 4, ".cpp") || !strcmp(name + len - 4, ".cxx"))) ||
               (len > 3 && !strcmp(name + len - 3, ".cc"));
    if (!code)
      continue;
    char path[PATH_MAX];
    if (name[0] == '/')
      size += file_size(name);
    else if (snprintf(path, sizeof(path), "%.*s/%s", dir_len, dir, name) < (int)sizeof(path))
      size += file_size(path);
  }
  fclose(f);
  return size;
}


void cc_note(const cc_settings *s, const char *fmt, ...) {
  if (!s->verbose)
    return;
  va_list ap;
  va_start(ap, fmt);
  fputs("mtpc: note: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

const char *cc_pass_through_reason(const cc_settings *s, int argc, char *const *argv,
                                   const char **source, int *loud) {
  const char *reason = cc_check_command(argc, argv, source, loud);
  if ((!reason || *loud) && cc_source_size(*source, s->min_source_size) < s->min_source_size) {
    reason = "a small source";
    *loud = 0;
  }
  return reason;
}

void cc_report_pass_through(const cc_settings *s, const char *source, const char *reason,
                            int loud) {
  if (s->verbose)
    cc_note(s, "%s: passed through: %s", source, reason);
  else if (loud && !s->quiet)
    fprintf(stderr, "mtpc: note: %s: not split: %s (MTPC_CC_QUIET=1 hides this note)\n",
            source, reason);
}

int cc_run_compiler(int argc, char *const *argv, const char *extra) {
  char **args = malloc(((size_t)argc + 2) * sizeof(char *));
  if (!args) {
    cli_error("out of memory");
    return 1;
  }
  memcpy(args, argv, (size_t)argc * sizeof(char *));
  args[argc] = (char *)extra;
  args[argc + (extra != NULL)] = NULL;
  execvp(args[0], args);
  cli_error("cannot run '%s': %s", args[0], strerror(errno));
  free(args);
  return 1;
}
