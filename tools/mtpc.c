/* mtpc: the command-line driver; each command is in a file of its own. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "mtpc/mtpc.h"
#include "signals.h"

static const char usage_text[] =
    "OVERVIEW: compile one large LLVM module on many cores\n"
    "\n"
    "USAGE: mtpc compile <input.bc> -o <output.o> [options]\n"
    "       mtpc plan <input.bc> [options]\n"
    "       mtpc backend -fthinlto-index=<index> <input.o> -o <output.o> [clang options]\n"
    "       mtpc distribute [-j <n>] <job-file.json>\n"
    "       mtpc cc [options] <compiler> <compiler arguments...>\n"
    "\n"
    "compile splits the module along its call graph, optimizes and code-generates\n"
    "the parts in parallel, and writes one relocatable ELF object with the symbols\n"
    "of a serial compile. plan prints the partition plan instead. backend is a\n"
    "distributed ThinLTO backend job (see 'mtpc backend --help'); distribute runs\n"
    "LLVM 22 lld's DTLTO jobs (see 'mtpc distribute --help'); cc is a compiler\n"
    "launcher that splits large clang -c compiles (see 'mtpc cc --help'). Under\n"
    "make -jN, compile, backend and cc take their threads from make's jobserver.\n"
    "\n"
    "OPTIONS:\n"
    "  -o <file>                  Output object (compile)\n"
    "  -j <n>, --jobs=<n>         Worker threads (default: all hardware threads);\n"
    "                             never changes the output\n"
    "  --partitions=<k>|max       Partitions (default: from the module's size);\n"
    "                             max = one per group of coupled functions\n"
    "  -O0, -O1, -O2, -O3         ThinLTO backend pipeline level (default -O2)\n"
    "  --full-lto                 The input is a full LTO module: the whole-program\n"
    "                             passes run on it first, then each partition runs\n"
    "                             the full LTO pipeline at the -O level\n"
    "  --codegen-opt=<0-3>        Code generation level (default 2)\n"
    "  --mtriple=<triple>         Target triple (default: the module's)\n"
    "  --mcpu=<cpu>               Target CPU\n"
    "  --mattr=<features>         Target features, e.g. +avx2,-sse4.2\n"
    "  --target-abi=<abi>         ABI name, as clang's -target-abi (lp64d, aapcs, ...)\n"
    "  --relocation-model=<m>     static, pic or dynamic-no-pic (default: from the\n"
    "                             module's PIC level)\n"
    "  --function-sections        One section per function\n"
    "  --data-sections            One section per variable\n"
    "  --addrsig                  Address-significance table, as clang's -faddrsig\n"
    "  --stack-size-section       .stack_sizes, as clang's -fstack-size-section\n"
    "  --no-unique-section-names  Sections named alike (-fno-unique-section-names)\n"
    "  --no-zeros-in-bss          Zero-initialized variables in .data\n"
    "  --[no-]emulated-tls        Thread-local variables through __emutls_get_address\n"
    "                             (-femulated-tls; default: the target's)\n"
    "  --align-loops=<n>          Loop alignment in bytes (-falign-loops=; 0: target's)\n"
    "  --debugger-tune=<d>        gdb, lldb, sce or dbx (-ggdb, -glldb, ...)\n"
    "  --compress-debug-sections=<c>  none, zlib or zstd (clang's -gz=)\n"
    "  --object-file-name=<name>  CodeView's object name (-object-file-name=)\n"
    "  --instrument-functions     Call the entry and exit hooks the front end asks\n"
    "                             for (-finstrument-functions) before the split\n"
    "  --basic-block-sections=<s> all, labels, none or a list file, as clang's\n"
    "                             -fbasic-block-sections= (list=<file>)\n"
    "  --basic-block-address-map  .llvm_bb_addr_map (-fbasic-block-address-map)\n"
    "  --split-machine-functions  Cold blocks to .text.split. by the profile\n"
    "  --call-site-info           Call sites' parameter values in the debug info,\n"
    "                             as clang's -g at -O1 and above\n"
    "  --assignment-tracking      clang's tracking of variables' assignments first\n"
    "                             in a default<ON> pipeline (--passes)\n"
    "  --debug-info-for-profiling Line discriminators first in a default<ON>\n"
    "                             pipeline (-fdebug-info-for-profiling)\n"
    "  --import-instr-limit=<n>   Largest callee copied across a cut (default: 100\n"
    "                             for C++, 50 for C with --full-lto, 30 for C)\n"
    "  --split-dwarf-output=<dwo> Split DWARF: partition 0's .dwo; partition K\n"
    "                             writes <dwo stem>.part<K>.dwo beside it\n"
    "  --split-dwarf-file=<name>  The .dwo name skeleton units record (default:\n"
    "                             the output's; alone: the sections stay in the object)\n"
    "  --sample-profile=<file>    Sample (AutoFDO) profile, as -fprofile-sample-use\n"
    "  --cs-profile=<file>        Context-sensitive IR profile to apply\n"
    "  --cs-profile-generate      Instrument for one (--cs-profile: the .profraw)\n"
    "  --lower-instrprof          Lower clang's profile instrumentation\n"
    "                             (-fprofile-instr-generate, coverage) on the whole\n"
    "                             module before the split\n"
    "  --instrprof-output=<file>  The .profraw a run writes by default\n"
    "  --instrprof-atomic         Atomic counter updates (-fprofile-update=atomic)\n"
    "  --loop-vectorize=on|off    The loop vectorizer (default: on from -O2)\n"
    "  --slp-vectorize=on|off     The SLP vectorizer (default: on from -O2)\n"
    "  --loop-unroll=on|off       Loop unrolling and interleaving (default: on)\n"
    "  --ir-profile-generate      IR profile instrumentation (-fprofile-generate)\n"
    "  --ir-profile-use=<file>    An IR instrumentation profile (-fprofile-use)\n"
    "                             Both run the pipeline to them on the whole module\n"
    "  --gcov=notes,data[,no-red-zone]  gcov's instrumentation on the whole module\n"
    "                             before the split (it writes the .gcno)\n"
    "  --sanitize=<sanitizer>     thread, address[<settings>], memory[<settings>] or\n"
    "                             dataflow: the sanitizer's passes at the end of each\n"
    "                             partition's pipeline, where clang adds them\n"
    "  --dfsan-abilist=<file>     A DataFlowSanitizer ABI list (repeatable; clang's\n"
    "                             -fsanitize-ignorelist= files, then its system ones)\n"
    "  --sanitize-coverage=<list> SanitizerCoverage before them, in clang's spelling\n"
    "                             (edge,inline-8bit-counters,pc-table,trace-cmp)\n"
    "  --sanitize-coverage-allowlist=<file>, --sanitize-coverage-ignorelist=<file>\n"
    "                             Its special case lists\n"
    "  --passes=<pipeline>        A pass pipeline instead of the ThinLTO backend's\n"
    "  --aa-pipeline=<pipeline>   An alias-analysis pipeline\n"
    "  --remarks-file=<file>      Optimization remarks of every partition, in order\n"
    "  --remarks-format=<fmt>     yaml (default) or bitstream\n"
    "  --remarks-filter=<regex>   Only remarks of passes matching <regex>\n"
    "  --remarks-with-hotness     Include profile hotness in remarks\n"
    "  --save-temps=<prefix>      Write each partition's IR as formed, optimized and\n"
    "                             before code generation: <prefix>part<K>.<stage>.bc\n"
    "  --debug-pass-manager       Print each partition's passes (partitions then run\n"
    "                             one at a time, in order)\n"
    "  --emit-llvm                Write the optimized IR (the partitions' modules\n"
    "                             linked into one) as bitcode instead of an object\n"
    "  --stats                    Print per-partition cost, time and memory, the\n"
    "                             serial phases and projected speedups\n"
    "  --stats=account            Also where each partition's CPU goes: its own\n"
    "                             code, copies, clones, module passes, code\n"
    "                             generation (code-generates each partition twice)\n"
    "  --emit-partitions=<dir>    Write plan.txt and each partition's IR to <dir>\n"
    "  --time-trace[=<file>]      Write a Chrome trace (default: <output>.time-trace.json)\n"
    "  --time-trace-granularity=<us>  Smallest event recorded (default 500)\n"
    "  -mllvm <option>            An LLVM option for this compile only\n"
    "  --memory-limit=<bytes>     Start a worker thread only while the estimated\n"
    "                             resident memory stays under <bytes> (K, M, G\n"
    "                             suffixes; default: no limit); never changes the output\n"
    "  --cache-dir=<dir>          Keep partition objects in <dir> and reuse them when\n"
    "                             a partition and its options are unchanged\n"
    "  --no-verify                Skip the IR verifier on partitions\n"
    "  --read-time-limit=<s>      Give up reading bitcode after <s> seconds (default:\n"
    "                             60 plus 10 per MiB; LLVM's reader loops on some\n"
    "                             malformed files)\n"
    "  --help                     Print this help\n"
    "  --version                  Print the version\n"
    "\n"
    "Exit status: 0 on success, 1 on error, 2 on a command-line error.\n";

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs(usage_text, stderr);
    return 2;
  }
  const char *command = argv[1];
  cli_remove_temporaries_on_signal();
  if (!strcmp(command, "--help") || !strcmp(command, "-h") || !strcmp(command, "help")) {
    fputs(usage_text, stdout);
    return 0;
  }
  if (!strcmp(command, "--version")) {
    printf("%s\n", mtpc_version_string());
    return 0;
  }
  if (!strcmp(command, "backend"))
    return cli_backend(argc - 1, argv + 1);
  if (!strcmp(command, "cc"))
    return cli_cc(argc - 1, argv + 1);
  if (!strcmp(command, "distribute"))
    return cli_distribute(argc - 1, argv + 1);
  if (strcmp(command, "compile") != 0 && strcmp(command, "plan") != 0) {
    fprintf(stderr, "mtpc: error: unknown command '%s'; see 'mtpc --help'\n", command);
    return 2;
  }
  for (int i = 2; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return 0;
    }
  return cli_compile(argc - 1, argv + 1);
}
