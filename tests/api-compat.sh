#!/usr/bin/env bash
# Source compatibility of 0.5 (ABI 2) for programs written against 0.4: each
# use of something gone fails to compile with a message that names what to
# use instead, with GCC and with clang; what did not change compiles as it
# did, and a program built against the 0.4 header does not link.
#   api-compat.sh <source dir> <llvm version> <library archive>
set -euo pipefail
src=$1 version=$2 library=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(-std=c11 -I"$src/include" -I"/usr/lib/llvm-$version/include")
failures=0

# expect_error <what to use, in the message> <C statements>
expect_error() {
  local wanted=$1 body=$2
  printf '#include <stdlib.h>\n#include "mtpc/mtpc.h"\nvoid f(LLVMModuleRef m, FILE *out) {\n  mtpc_options o; mtpc_options_init(&o); char *msg = NULL; (void)m; (void)out; (void)msg;\n  %s\n}\n' \
    "$body" > "$work/old.c"
  for cc in gcc "clang-$version"; do
    if "$cc" "${flags[@]}" -fsyntax-only "$work/old.c" 2> "$work/err"; then
      echo "FAIL ($cc): compiles: $body"; failures=$((failures + 1))
    elif ! grep -qF -- "$wanted" "$work/err"; then
      echo "FAIL ($cc): no '$wanted' in the message for: $body"; cat "$work/err"
      failures=$((failures + 1))
    fi
  done
}

expect_error "mtpc_llvm_options.lto_config (mtpc/llvm.h)" 'o.llvm_lto_config = NULL;'
expect_error "mtpc_llvm_options.lto_task" 'o.llvm_lto_task = 3;'
expect_error "mtpc_llvm_options.import_summary" 'o.llvm_import_summary = NULL;'
expect_error "mtpc_llvm_options.export_summary" 'o.llvm_export_summary = NULL;'
expect_error "MTPC_FAULT" 'o.fault_injection = "codegen=0";'
expect_error "use mtpc_budget_new(slots, &budget)" 'mtpc_budget *b = mtpc_budget_create(4); (void)b;'
expect_error "use mtpc_budget_new_jobserver" 'mtpc_budget *b = mtpc_budget_create_jobserver(4); (void)b;'
expect_error "use mtpc_budget_new_jobserver" 'mtpc_budget *b = mtpc_budget_open_jobserver(4, &msg); (void)b;'
expect_error "use mtpc_should_split" 'if (mtpc_module_can_split(m, &o, &msg)) return;'
expect_error "use mtpc_plan_write(module" 'mtpc_print_plan(m, &o, out, &msg);'
expect_error "use mtpc_plan_write_bitcode" 'mtpc_print_plan_bitcode("", 0, "x", &o, out, &msg);'
expect_error "use mtpc_time_trace_save" 'mtpc_time_trace_write("t.json", &msg);'

# What stayed compiles and links, with every warning an error.
for cc in gcc "clang-$version"; do
  "$cc" "${flags[@]}" -Wall -Wextra -Werror -c "$src/examples/embed.c" -o "$work/embed.o" ||
    { echo "FAIL ($cc): examples/embed.c does not compile"; failures=$((failures + 1)); }
done

# An object built against 0.4's header calls mtpc_options_init_size, which
# this library does not have: the link fails rather than misreading the
# smaller struct.
printf 'void mtpc_options_init_size(void *, unsigned long);\nint main(void) { char o[512]; mtpc_options_init_size(o, sizeof o); return 0; }\n' > "$work/abi1.c"
if gcc "$work/abi1.c" "$library" -o "$work/abi1" 2> "$work/err"; then
  echo "FAIL: a program of ABI 1 links"; failures=$((failures + 1))
elif ! grep -q "undefined reference to .mtpc_options_init_size" "$work/err"; then
  echo "FAIL: the ABI 1 link failed otherwise:"; cat "$work/err"; failures=$((failures + 1))
fi

[ "$failures" -eq 0 ] && echo "api-compat: 12 uses of what is gone fail with their message (gcc, clang); embed.c compiles; ABI 1 does not link"
exit $((failures > 0))
