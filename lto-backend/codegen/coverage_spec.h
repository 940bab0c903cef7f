/* mtpc_options.sanitizer_coverage read: what SanitizerCoverage's pass
 * instruments and how, in clang's spelling of -fsanitize-coverage=
 * (coverage_spec.c). */
#ifndef MTPC_COVERAGE_SPEC_H
#define MTPC_COVERAGE_SPEC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The level: as clang's -fsanitize-coverage-type=. */
enum { MTPC_COVERAGE_NONE, MTPC_COVERAGE_FUNCTION, MTPC_COVERAGE_BLOCK, MTPC_COVERAGE_EDGE };

/* The kinds, one bit each: the fields of LLVM's SanitizerCoverageOptions. */
enum {
  MTPC_COVERAGE_INDIRECT_CALLS = 1 << 0,
  MTPC_COVERAGE_TRACE_BB = 1 << 1,
  MTPC_COVERAGE_TRACE_CMP = 1 << 2,
  MTPC_COVERAGE_TRACE_DIV = 1 << 3,
  MTPC_COVERAGE_TRACE_GEP = 1 << 4,
  MTPC_COVERAGE_8BIT_COUNTERS = 1 << 5,
  MTPC_COVERAGE_TRACE_PC = 1 << 6,
  MTPC_COVERAGE_TRACE_PC_GUARD = 1 << 7,
  MTPC_COVERAGE_INLINE_8BIT_COUNTERS = 1 << 8,
  MTPC_COVERAGE_INLINE_BOOL_FLAG = 1 << 9,
  MTPC_COVERAGE_PC_TABLE = 1 << 10,
  MTPC_COVERAGE_NO_PRUNE = 1 << 11,
  MTPC_COVERAGE_STACK_DEPTH = 1 << 12,
  MTPC_COVERAGE_TRACE_LOADS = 1 << 13,
  MTPC_COVERAGE_TRACE_STORES = 1 << 14,
  MTPC_COVERAGE_CONTROL_FLOW = 1 << 15
};

typedef struct mtpc_coverage_spec {
  int level;     /* MTPC_COVERAGE_NONE ... _EDGE */
  unsigned kinds; /* MTPC_COVERAGE_* bits */
} mtpc_coverage_spec;

/* Reads `text` (NULL or "" for none): a comma separated list of
 * func, bb, edge, indirect-calls, trace-bb, trace-cmp, trace-div,
 * trace-gep, 8bit-counters, trace-pc, trace-pc-guard, inline-8bit-counters,
 * inline-bool-flag, pc-table, no-prune, stack-depth, trace-loads,
 * trace-stores, control-flow. The level is the last one named; without
 * one, as clang's driver: edge for trace-pc, trace-pc-guard, the inline
 * counters and flags and control-flow, else func for stack-depth, else
 * none (the pass then does nothing, as clang's). Returns 0, or 1 with
 * what is wrong in `why`. */
int mtpc_coverage_spec_read(const char *text, mtpc_coverage_spec *spec, char *why, size_t size);

#ifdef __cplusplus
}
#endif

#endif
