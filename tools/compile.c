/* `mtpc compile` and `mtpc plan`. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "mtpc/mtpc.h"
#include "lto-backend/tools.h"

typedef struct cli {
  const char *command;
  const char *input;
  const char *output;
  int stats;
  const char *time_trace; /* NULL: off */
  int time_trace_default;
  unsigned time_trace_granularity;
  unsigned read_time_limit; /* 0: from the input's size */
  const char **llvm_options; /* -mllvm, in order */
  unsigned llvm_option_count;
  const char **dfsan_abilists; /* --dfsan-abilist, in order */
  unsigned dfsan_abilist_count;
  mtpc_options options;
  int status; /* a command-line error's exit status (cli.h), else 0 */
} cli;

/* "--name=value", "--name value" or, for short options, "-jN" / "-j N". */
static const char *take_value(cli *c, int argc, char **argv, int *i, const char *name) {
  const char *arg = argv[*i];
  size_t len = strlen(name);
  if (strncmp(arg, name, len) != 0)
    return NULL;
  if (arg[len] == '=')
    return arg + len + 1;
  if (arg[len] != '\0') {
    if (name[1] != '-' )
      return arg + len;
    return NULL;
  }
  if (*i + 1 >= argc) {
    cli_error("option '%s' needs a value", name);
    c->status = CLI_USAGE_ERROR;
    return NULL;
  }
  return argv[++*i];
}

static mtpc_reloc_model parse_reloc(cli *c, const char *text) {
  if (!strcmp(text, "static"))
    return MTPC_RELOC_STATIC;
  if (!strcmp(text, "pic"))
    return MTPC_RELOC_PIC;
  if (!strcmp(text, "dynamic-no-pic"))
    return MTPC_RELOC_DYNAMIC_NO_PIC;
  if (!strcmp(text, "default"))
    return MTPC_RELOC_DEFAULT;
  cli_error("invalid relocation model '%s' (static, pic, dynamic-no-pic)", text);
  c->status = CLI_USAGE_ERROR;
  return MTPC_RELOC_DEFAULT;
}

static const char *parse_debugger(cli *c, const char *name) {
  if (mtpc_debugger_tuning_known(name))
    return name;
  cli_error("--debugger-tune: expected gdb, lldb, sce or dbx, not '%s'", name);
  c->status = CLI_USAGE_ERROR;
  return NULL;
}

static const char *parse_compression(cli *c, const char *name) {
  if (mtpc_compression_known(name))
    return name;
  cli_error("--compress-debug-sections: expected none, zlib or zstd, not '%s'", name);
  c->status = CLI_USAGE_ERROR;
  return NULL;
}

static int parse_flag(cli *c, const char *arg) {
  mtpc_options *o = &c->options;
  if (!strcmp(arg, "-O0") || !strcmp(arg, "-O1") || !strcmp(arg, "-O2") || !strcmp(arg, "-O3"))
    o->opt_level = (unsigned)(arg[2] - '0');
  else if (!strcmp(arg, "--function-sections"))
    o->function_sections = 1;
  else if (!strcmp(arg, "--data-sections"))
    o->data_sections = 1;
  else if (!strcmp(arg, "--addrsig"))
    o->addrsig = 1;
  else if (!strcmp(arg, "--stack-size-section"))
    o->stack_size_section = 1;
  else if (!strcmp(arg, "--no-unique-section-names"))
    o->no_unique_section_names = 1;
  else if (!strcmp(arg, "--no-zeros-in-bss"))
    o->no_zeros_in_bss = 1;
  else if (!strcmp(arg, "--emulated-tls") || !strcmp(arg, "--no-emulated-tls"))
    o->emulated_tls = arg[2] == 'n' ? -1 : 1;
  else if (!strcmp(arg, "--instrument-functions"))
    o->instrument_functions = 1;
  else if (!strcmp(arg, "--basic-block-address-map"))
    o->basic_block_address_map = 1;
  else if (!strcmp(arg, "--split-machine-functions"))
    o->split_machine_functions = 1;
  else if (!strcmp(arg, "--call-site-info"))
    o->call_site_info = 1;
  else if (!strcmp(arg, "--assignment-tracking"))
    o->assignment_tracking = 1;
  else if (!strcmp(arg, "--debug-info-for-profiling"))
    o->debug_info_for_profiling = 1;
  else if (!strcmp(arg, "--stats"))
    c->stats = 1;
  else if (!strcmp(arg, "--stats=account"))
    c->stats = MTPC_STATS_ACCOUNT;
  else if (!strcmp(arg, "--no-verify"))
    o->verify = 0;
  else if (!strcmp(arg, "--time-trace"))
    c->time_trace_default = 1;
  else if (!strcmp(arg, "--cs-profile-generate"))
    o->cs_profile_generate = 1;
  else if (!strcmp(arg, "--remarks-with-hotness"))
    o->remarks_with_hotness = 1;
  else if (!strcmp(arg, "--debug-pass-manager"))
    o->debug_pass_manager = 1;
  else if (!strcmp(arg, "--emit-llvm"))
    o->emit_llvm = 1;
  else if (!strcmp(arg, "--full-lto"))
    o->full_lto = 1;
  else if (!strcmp(arg, "--lower-instrprof"))
    o->lower_instrprof = 1;
  else if (!strcmp(arg, "--instrprof-atomic"))
    o->instrprof_atomic = 1;
  else if (!strcmp(arg, "--ir-profile-generate"))
    o->ir_profile_generate = 1;
  else
    return 0;
  return 1;
}

/* Options that mirror an lto::Config setting of LLVM's LTO backend. */
static int parse_backend_value(cli *c, int argc, char **argv, int *i) {
  mtpc_options *o = &c->options;
  const char *v;
  if ((v = take_value(c, argc, argv, i, "--split-dwarf-file")))
    o->split_dwarf_file = v;
  else if ((v = take_value(c, argc, argv, i, "--split-dwarf-output")))
    o->split_dwarf_output = v;
  else if ((v = take_value(c, argc, argv, i, "--sample-profile")))
    o->sample_profile = v;
  else if ((v = take_value(c, argc, argv, i, "--cs-profile")))
    o->cs_profile = v;
  else if ((v = take_value(c, argc, argv, i, "--passes")))
    o->opt_pipeline = v;
  else if ((v = take_value(c, argc, argv, i, "--aa-pipeline")))
    o->aa_pipeline = v;
  else if ((v = take_value(c, argc, argv, i, "--remarks-file")))
    o->remarks_file = v;
  else if ((v = take_value(c, argc, argv, i, "--remarks-format")))
    o->remarks_format = v;
  else if ((v = take_value(c, argc, argv, i, "--remarks-filter")))
    o->remarks_passes = v;
  else if ((v = take_value(c, argc, argv, i, "--save-temps")))
    o->save_temps_prefix = v;
  else
    return 0;
  return 1;
}

/* on: 1, off: -1 (mtpc_options' vectorizer settings). */
static int parse_on_off(cli *c, const char *value, const char *option) {
  if (!strcmp(value, "on"))
    return 1;
  if (!strcmp(value, "off"))
    return -1;
  cli_error("%s: expected on or off, not '%s'", option, value);
  c->status = CLI_USAGE_ERROR;
  return 0;
}

/* --gcov=notes,data[,no-red-zone] */
static unsigned parse_gcov(cli *c, const char *list) {
  static const struct {
    const char *name;
    unsigned flag;
  } flags[] = {{"notes", MTPC_GCOV_NOTES}, {"data", MTPC_GCOV_DATA},
               {"no-red-zone", MTPC_GCOV_NO_RED_ZONE}};
  unsigned gcov = 0;
  for (const char *at = list; *at;) {
    size_t len = strcspn(at, ","), i = 0;
    while (i < sizeof(flags) / sizeof(*flags) &&
           !(strlen(flags[i].name) == len && !strncmp(flags[i].name, at, len)))
      i++;
    if (i == sizeof(flags) / sizeof(*flags)) {
      cli_error("--gcov: expected notes, data or no-red-zone, not '%.*s'", (int)len, at);
      c->status = CLI_USAGE_ERROR;
      return 0;
    }
    gcov |= flags[i].flag;
    at += len + (at[len] == ',');
  }
  return gcov;
}

/* 0, or a command-line error's exit status. */
static int parse_args(cli *c, int argc, char **argv) {
  mtpc_options *o = &c->options;
  c->llvm_options = xmalloc((size_t)argc * sizeof(char *));
  c->dfsan_abilists = xmalloc((size_t)argc * sizeof(char *));
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i], *v;
    if (parse_flag(c, arg) || parse_backend_value(c, argc, argv, &i))
      continue;
    if ((v = take_value(c, argc, argv, &i, "-o")))
      c->output = v;
    else if ((v = take_value(c, argc, argv, &i, "-j")) || (v = take_value(c, argc, argv, &i, "--jobs")))
      o->jobs = cli_parse_unsigned(v, "-j", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--partitions")))
      o->partitions = !strcmp(v, "max") ? MTPC_PARTITIONS_MAX : cli_parse_unsigned(v, "--partitions", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--codegen-opt")))
      o->codegen_opt_level = cli_parse_unsigned(v, "--codegen-opt", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--mtriple")))
      o->triple = v;
    else if ((v = take_value(c, argc, argv, &i, "--mcpu")))
      o->cpu = v;
    else if ((v = take_value(c, argc, argv, &i, "--mattr")))
      o->features = v;
    else if ((v = take_value(c, argc, argv, &i, "--target-abi")))
      o->target_abi = v;
    else if ((v = take_value(c, argc, argv, &i, "--align-loops")))
      o->loop_alignment = cli_parse_unsigned(v, "--align-loops", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--debugger-tune")))
      o->debugger_tuning = parse_debugger(c, v);
    else if ((v = take_value(c, argc, argv, &i, "--object-file-name")))
      o->object_file_name = v;
    else if ((v = take_value(c, argc, argv, &i, "--compress-debug-sections")))
      o->compress_debug_sections = parse_compression(c, v);
    else if ((v = take_value(c, argc, argv, &i, "--basic-block-sections")))
      o->basic_block_sections = v;
    else if ((v = take_value(c, argc, argv, &i, "--instrprof-output")))
      o->instrprof_output = v;
    else if ((v = take_value(c, argc, argv, &i, "--sanitize")))
      o->sanitizers = v;
    else if ((v = take_value(c, argc, argv, &i, "--sanitize-coverage")))
      o->sanitizer_coverage = v;
    else if ((v = take_value(c, argc, argv, &i, "--sanitize-coverage-allowlist")))
      o->sanitizer_coverage_allowlist = v;
    else if ((v = take_value(c, argc, argv, &i, "--sanitize-coverage-ignorelist")))
      o->sanitizer_coverage_ignorelist = v;
    else if ((v = take_value(c, argc, argv, &i, "--ir-profile-use")))
      o->ir_profile_use = v;
    else if ((v = take_value(c, argc, argv, &i, "--gcov")))
      o->gcov = parse_gcov(c, v);
    else if ((v = take_value(c, argc, argv, &i, "--loop-vectorize")))
      o->loop_vectorize = parse_on_off(c, v, "--loop-vectorize");
    else if ((v = take_value(c, argc, argv, &i, "--slp-vectorize")))
      o->slp_vectorize = parse_on_off(c, v, "--slp-vectorize");
    else if ((v = take_value(c, argc, argv, &i, "--loop-unroll")))
      o->loop_unroll = parse_on_off(c, v, "--loop-unroll");
    else if ((v = take_value(c, argc, argv, &i, "--relocation-model")))
      o->reloc_model = parse_reloc(c, v);
    else if ((v = take_value(c, argc, argv, &i, "--import-instr-limit")))
      o->import_instr_limit = cli_parse_unsigned(v, "--import-instr-limit", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--read-time-limit")))
      c->read_time_limit = cli_parse_unsigned(v, "--read-time-limit", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--emit-partitions")))
      o->emit_partitions_dir = v;
    else if ((v = take_value(c, argc, argv, &i, "--time-trace-granularity")))
      c->time_trace_granularity = cli_parse_unsigned(v, "--time-trace-granularity", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "-mllvm")))
      c->llvm_options[c->llvm_option_count++] = v;
    else if ((v = take_value(c, argc, argv, &i, "--dfsan-abilist")))
      c->dfsan_abilists[c->dfsan_abilist_count++] = v;
    else if ((v = take_value(c, argc, argv, &i, "--memory-limit")))
      o->memory_limit = cli_parse_size(v, "--memory-limit", &c->status);
    else if ((v = take_value(c, argc, argv, &i, "--cache-dir")))
      o->cache_dir = v;
    else if (!strncmp(arg, "--time-trace=", 13))
      c->time_trace = arg + 13;
    else if (c->status)
      return c->status; /* an option without its value */
    else if (arg[0] == '-' && arg[1] != '\0') {
      cli_error("unknown option '%s'; see 'mtpc --help'", arg);
      return CLI_USAGE_ERROR;
    } else if (!c->input)
      c->input = arg;
    else {
      cli_error("more than one input: '%s' and '%s'", c->input, arg);
      return CLI_USAGE_ERROR;
    }
    if (c->status)
      return c->status;
  }
  if (!c->input) {
    cli_error("no input file; see 'mtpc --help'");
    return CLI_USAGE_ERROR;
  }
  if (o->opt_level > 3 || o->codegen_opt_level > 3) {
    cli_error("optimization levels are 0 to 3");
    return CLI_USAGE_ERROR;
  }
  o->llvm_options = c->llvm_options;
  o->llvm_option_count = c->llvm_option_count;
  o->dfsan_abilists = c->dfsan_abilists;
  o->dfsan_abilist_count = c->dfsan_abilist_count;
  o->time_trace_granularity = c->time_trace_granularity;
  return 0;
}

static double mib(uint64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

/* --stats=account: where each partition's thread CPU went, one line each
 * ("account <partition>" and the columns of the sums below, which
 * bench/cpu-account.sh reads), and their sums. */
static void print_account(const mtpc_result *result, FILE *out) {
  const mtpc_stats *st = mtpc_result_stats(result);
  enum { JOB, LOAD, TARGET, OWN, COPIES, CLONES, MODULE, CODEGEN, CLONE_CODEGEN, RELEASE, REST,
         PARTS };
  double sum[PARTS] = {0};
  for (unsigned i = 0; i < st->partitions; i++) {
    const mtpc_partition_stats *p = mtpc_result_partition_stats(result, i);
    double part[PARTS] = {p->cpu_seconds,          p->load_cpu_seconds,
                          p->target_cpu_seconds,   p->opt_own_cpu_seconds,
                          p->opt_copy_cpu_seconds, p->opt_clone_cpu_seconds,
                          p->opt_module_cpu_seconds, p->codegen_cpu_seconds,
                          p->codegen_clone_cpu_seconds, p->release_cpu_seconds, 0};
    part[REST] = part[JOB];
    for (int k = LOAD; k < REST; k++)
      if (k != CLONE_CODEGEN)
        part[REST] -= part[k];
    fprintf(out, "  account %u", i);
    for (int k = 0; k < PARTS; k++) {
      fprintf(out, " %.4f", part[k]);
      sum[k] += part[k];
    }
    fputc('\n', out);
  }
  fprintf(out,
          "  account (thread CPU seconds): jobs %.3f: load %.3f, target machines %.3f, "
          "optimization %.3f (own %.3f, copies %.3f, clones %.3f, module %.3f), code "
          "generation %.3f (clones %.3f), release %.3f, the rest %.3f\n",
          sum[JOB], sum[LOAD], sum[TARGET], sum[OWN] + sum[COPIES] + sum[CLONES] + sum[MODULE],
          sum[OWN], sum[COPIES], sum[CLONES], sum[MODULE], sum[CODEGEN], sum[CLONE_CODEGEN],
          sum[RELEASE], sum[REST]);
}

static void print_stats(const mtpc_result *result, int account) {
  const mtpc_stats *st = mtpc_result_stats(result);
  FILE *out = stderr;
  fprintf(out, "mtpc stats: %u partition%s, %u job%s, %s\n", st->partitions,
          st->partitions == 1 ? "" : "s", st->jobs, st->jobs == 1 ? "" : "s",
          st->split ? "split" : "unsplit");
  if (st->unsplit_reason)
    fprintf(out, "  unsplit: %s\n", st->unsplit_reason);
  fprintf(out, "  total cost %" PRIu64 ", duplicated %" PRIu64 " (%.1f%%)\n", st->total_cost,
          st->duplicated_cost,
          st->total_cost ? 100.0 * (double)st->duplicated_cost / (double)st->total_cost : 0.0);
  unsigned dropped = 0, dead = 0, reloaded = 0;
  for (unsigned i = 0; i < st->partitions; i++) {
    dropped += mtpc_result_partition_stats(result, i)->clones_dropped;
    dead += mtpc_result_partition_stats(result, i)->dead_dropped;
    reloaded += mtpc_result_partition_stats(result, i)->reloaded;
  }
  if (reloaded)
    fprintf(out, "  partitions loaded again with every function record whole: %u\n", reloaded);
  if (dropped > dead)
    fprintf(out, "  clone copies left to the partition that keeps the code: %u\n", dropped - dead);
  if (dead)
    fprintf(out, "  promoted definitions no partition uses, dropped: %u\n", dead);
  fprintf(out, "  %-9s %10s %9s %9s %9s %9s %9s %9s %9s %9s\n", "partition", "cost", "imported",
          "functions", "load(s)", "opt(s)", "cg(s)", "free(s)", "mem(MiB)", "rss(MiB)");
  for (unsigned i = 0; i < st->partitions; i++) {
    const mtpc_partition_stats *p = mtpc_result_partition_stats(result, i);
    fprintf(out, "  %-9u %10" PRIu64 " %9" PRIu64 " %9u %9.3f %9.3f %9.3f %9.3f %9.1f %9.1f\n", i,
            p->cost, p->imported_cost, p->functions, p->load_seconds, p->opt_seconds,
            p->codegen_seconds, p->release_seconds, mib(p->memory_bytes), mib(p->rss_bytes));
  }
  fprintf(out, "  serial: read %.3fs, plan %.3fs, bitcode %.3fs, merge %.3fs", st->read_seconds,
          st->plan_seconds, st->bitcode_seconds, st->merge_seconds);
  if (st->whole_program_seconds > 0)
    fprintf(out, ", whole-program passes %.3fs", st->whole_program_seconds);
  fputc('\n', out);
  fprintf(out, "  parallel phase %.3fs, total %.3fs, peak rss %.1f MiB\n", st->parallel_seconds,
          st->total_seconds, mib(st->peak_rss_bytes));
  if (st->memory_waits)
    fprintf(out, "  %" PRIu64 " worker thread%s waited for the memory limit\n",
            st->memory_waits, st->memory_waits == 1 ? "" : "s");
  if (st->cache_hits || st->cache_misses)
    fprintf(out, "  partition cache: %u hit%s, %u miss%s\n", st->cache_hits,
            st->cache_hits == 1 ? "" : "s", st->cache_misses, st->cache_misses == 1 ? "" : "es");
  fprintf(out, "  projected speedup over these partitions on one core: 16 cores %.2fx, "
               "64 cores %.2fx\n",
          mtpc_result_projected_speedup(result, 16), mtpc_result_projected_speedup(result, 64));
  if (account)
    print_account(result, out);
}

/* Reads the input file, and arms the crash reports and the reading time
 * limit for it. */
static int read_input(cli *c, void **data, size_t *size) {
  char *message = NULL;
  if (mtpc_read_file(c->input, data, size, &message)) {
    cli_error("%s", message);
    free(message);
    return 1;
  }
  cli_report_crashes_on(c->input);
  static phase_watch watch;
  watch.input = c->input;
  watch.limit = c->read_time_limit ? c->read_time_limit : 60 + (unsigned)(*size >> 20) * 10;
  c->options.phase = cli_watch_phase;
  c->options.phase_user = &watch;
  return 0;
}

static int run_compile(cli *c) {
  if (!c->output) {
    cli_error("no output file; use -o <file>");
    return 2;
  }
  if (c->time_trace_default && !c->time_trace) {
    static char path[4096];
    snprintf(path, sizeof(path), "%s.time-trace.json", c->output);
    c->time_trace = path;
  }
  if (c->time_trace)
    mtpc_time_trace_start(c->time_trace_granularity);
  void *data = NULL;
  size_t size = 0;
  if (read_input(c, &data, &size))
    return 1;
  c->options.collect_stats = c->stats;
  c->options.budget = cli_jobserver_budget(c->options.jobs);
  c->options.defer_files = 1;
  mtpc_result *result = NULL;
  mtpc_status status = mtpc_compile_with_faults(NULL, data, size, c->input, &c->options, NULL,
                                                cli_fault_injection(), &result);
  mtpc_budget_destroy(c->options.budget);
  free(data);
  int rc = 0;
  size_t object_size = 0;
  const void *object = mtpc_result_object(result, &object_size);
  if (status != MTPC_OK) {
    cli_error("%s", mtpc_result_message(result));
    rc = 1;
  } else {
    rc = cli_write_outputs(result, c->output, object, object_size, c->time_trace);
  }
  if (rc == 0 && c->stats)
    print_stats(result, c->stats == MTPC_STATS_ACCOUNT);
  mtpc_result_free(result);
  return rc;
}

static int run_plan(cli *c) {
  if (c->time_trace_default && !c->time_trace) {
    cli_error("plan prints to standard output; name the trace: --time-trace=<file>");
    return 2;
  }
  if (c->time_trace)
    mtpc_time_trace_start(c->time_trace_granularity);
  void *data = NULL;
  size_t size = 0;
  if (read_input(c, &data, &size))
    return 1;
  mtpc_result *result = NULL;
  mtpc_status status =
      mtpc_plan_write_bitcode(data, size, c->input, &c->options, stdout, &result);
  if (status != MTPC_OK)
    cli_error("%s", mtpc_result_message(result));
  mtpc_result_free(result);
  free(data);
  int rc = status == MTPC_OK ? 0 : 1;
  if (c->time_trace) {
    if (mtpc_time_trace_save(c->time_trace, &result) != MTPC_OK) {
      cli_error("cannot write the time trace: %s", mtpc_result_message(result));
      rc = 1;
    }
    mtpc_result_free(result);
  }
  return rc;
}


int cli_compile(int argc, char **argv) {
  cli c = {.command = argv[0], .time_trace_granularity = 500};
  mtpc_options_init(&c.options);
  c.options.diag = cli_print_diag;
  int rc = parse_args(&c, argc, argv);
  if (!rc)
    rc = !strcmp(c.command, "compile") ? run_compile(&c) : run_plan(&c);
  free(c.llvm_options);
  free(c.dfsan_abilists);
  return rc;
}
