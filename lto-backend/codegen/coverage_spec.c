/* mtpc_options.sanitizer_coverage: the values of clang's
 * -fsanitize-coverage=, each a level or a kind of SanitizerCoverage's. */
#include "coverage_spec.h"

#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  unsigned kind;
} kinds[] = {
    {"indirect-calls", MTPC_COVERAGE_INDIRECT_CALLS},
    {"trace-bb", MTPC_COVERAGE_TRACE_BB},
    {"trace-cmp", MTPC_COVERAGE_TRACE_CMP},
    {"trace-div", MTPC_COVERAGE_TRACE_DIV},
    {"trace-gep", MTPC_COVERAGE_TRACE_GEP},
    {"8bit-counters", MTPC_COVERAGE_8BIT_COUNTERS},
    {"trace-pc", MTPC_COVERAGE_TRACE_PC},
    {"trace-pc-guard", MTPC_COVERAGE_TRACE_PC_GUARD},
    {"inline-8bit-counters", MTPC_COVERAGE_INLINE_8BIT_COUNTERS},
    {"inline-bool-flag", MTPC_COVERAGE_INLINE_BOOL_FLAG},
    {"pc-table", MTPC_COVERAGE_PC_TABLE},
    {"no-prune", MTPC_COVERAGE_NO_PRUNE},
    {"stack-depth", MTPC_COVERAGE_STACK_DEPTH},
    {"trace-loads", MTPC_COVERAGE_TRACE_LOADS},
    {"trace-stores", MTPC_COVERAGE_TRACE_STORES},
    {"control-flow", MTPC_COVERAGE_CONTROL_FLOW},
};

static const char *const levels[] = {"func", "bb", "edge"};

static int is(const char *word, size_t len, const char *name) {
  return strlen(name) == len && !strncmp(word, name, len);
}

/* One value of the list: 1 if known. */
static int read_value(const char *word, size_t len, mtpc_coverage_spec *spec) {
  for (int i = 0; i < 3; i++)
    if (is(word, len, levels[i])) {
      spec->level = MTPC_COVERAGE_FUNCTION + i;
      return 1;
    }
  for (size_t i = 0; i < sizeof(kinds) / sizeof(*kinds); i++)
    if (is(word, len, kinds[i].name)) {
      spec->kinds |= kinds[i].kind;
      return 1;
    }
  return 0;
}

int mtpc_coverage_spec_read(const char *text, mtpc_coverage_spec *spec, char *why, size_t size) {
  memset(spec, 0, sizeof(*spec));
  if (!text)
    return 0;
  for (const char *at = text; *at;) {
    size_t len = strcspn(at, ",");
    if (!read_value(at, len, spec)) {
      snprintf(why, size, "unknown sanitizer coverage '%.*s'", (int)len, at);
      return 1;
    }
    at += len + (at[len] == ',');
  }
  /* As clang's driver: where to instrument, when no level is named. */
  unsigned at_edges = MTPC_COVERAGE_TRACE_PC | MTPC_COVERAGE_TRACE_PC_GUARD |
                      MTPC_COVERAGE_INLINE_8BIT_COUNTERS | MTPC_COVERAGE_INLINE_BOOL_FLAG |
                      MTPC_COVERAGE_CONTROL_FLOW;
  if (spec->level == MTPC_COVERAGE_NONE && (spec->kinds & at_edges))
    spec->level = MTPC_COVERAGE_EDGE;
  else if (spec->level == MTPC_COVERAGE_NONE && (spec->kinds & MTPC_COVERAGE_STACK_DEPTH))
    spec->level = MTPC_COVERAGE_FUNCTION;
  return 0;
}
