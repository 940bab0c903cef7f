/* The planner's work grows linearly: synthetic modules of 10^4, 10^5 and
 * 10^6 functions and variables, planned with the default partition count,
 * with a partition per 100 nodes, and at the finest split, must each take
 * at most 13 times the work (mtpc_plan.work: nodes, edges, groups and list
 * items visited) of a module ten times smaller. A step that visits every
 * node for every partition, or every partition for every group, would take
 * about 100 times. Operation counts, not time, so the test cannot flake.
 *
 * The planner's memory is measured too, as the peak RSS growth while it plans
 * (in a child process, which returns its free memory to the system and
 * resets its high-water mark first): from 10^5 to
 * 10^6 nodes it must also grow at most 13 times. (10^4 nodes take too few
 * pages to compare.) */
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "partitioner/graph.h"
#include "partitioner/plan.h"

/* xorshift64*: the same graph on every run. */
static uint64_t next_random(uint64_t *state) {
  *state ^= *state >> 12;
  *state ^= *state << 25;
  *state ^= *state >> 27;
  return *state * 2685821657736338717ull;
}

/* SQLite-like: nine functions to a variable, a third of them local; each
 * function calls three others, mostly near it in the module, and names a
 * variable; costs from 1 to 400. */
static void build_module(mtpc_graph *g, uint32_t nodes) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  mtpc_graph_init(g, "scale.bc");
  char name[32];
  for (uint32_t i = 0; i < nodes; i++) {
    int variable = i % 10 == 9;
    uint32_t flags = MTPC_N_DEFINITION | (next_random(&state) % 3 == 0 ? MTPC_N_LOCAL : 0);
    int len = snprintf(name, sizeof(name), "%c%" PRIu32, variable ? 'v' : 'f', i);
    mtpc_graph_add_node(g, variable ? MTPC_VARIABLE : MTPC_FUNCTION, name, (size_t)len, flags,
                        MTPC_NONE, variable ? 0 : 1 + next_random(&state) % 400);
  }
  for (uint32_t i = 0; i < nodes; i++) {
    if (i % 10 == 9)
      continue;
    for (int c = 0; c < 3; c++) {
      uint64_t r = next_random(&state);
      uint32_t callee = r % 4 ? (uint32_t)((i + 1 + (r >> 8) % 64) % nodes)
                              : (uint32_t)((r >> 8) % nodes);
      if (callee % 10 != 9)
        mtpc_graph_add_edge(g, i, callee, MTPC_CALL);
    }
    mtpc_graph_add_edge(g, i, (uint32_t)(next_random(&state) % (nodes / 10)) * 10 + 9, MTPC_REF);
  }
  CHECK(mtpc_graph_finalize(g) == MTPC_OK);
}

static uint64_t plan_work(const mtpc_graph *g, uint32_t partitions, uint32_t *count) {
  mtpc_plan_options o;
  mtpc_plan_options_init(&o);
  o.partitions = partitions;
  mtpc_plan plan;
  CHECK(mtpc_plan_build(g, &o, &plan) == MTPC_OK);
  uint64_t work = plan.work;
  *count = plan.partition_count;
  mtpc_plan_free(&plan);
  return work;
}

/* The RSS high-water mark since reset_peak_rss (VmHWM), in bytes; 0 when
 * missing. */
static uint64_t high_water_rss(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  uint64_t kib = 0;
  while (f && fgets(line, sizeof(line), f))
    if (!strncmp(line, "VmHWM:", 6))
      kib = strtoull(line + 6, NULL, 10);
  if (f)
    fclose(f);
  return kib * 1024;
}

static int reset_peak_rss(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  int ok = f && fputs("5", f) >= 0;
  if (f && fclose(f) != 0)
    ok = 0;
  return ok;
}

/* The peak RSS growth while planning `g`, measured in a child; 0 when the
 * system cannot reset the high-water mark. */
static uint64_t plan_memory(const mtpc_graph *g, uint32_t partitions) {
  int fds[2];
  if (pipe(fds) != 0)
    return 0;
  pid_t child = fork();
  if (child == 0) {
    uint64_t growth = 0;
    malloc_trim(0); /* what earlier plans freed must not be reused unseen */
    if (reset_peak_rss()) {
      uint64_t base = mtpc_current_rss();
      uint32_t count;
      plan_work(g, partitions, &count);
      growth = high_water_rss() - base;
    }
    ssize_t written = write(fds[1], &growth, sizeof(growth));
    _exit(written == (ssize_t)sizeof(growth) ? 0 : 1);
  }
  close(fds[1]);
  uint64_t growth = 0;
  if (child < 0 || read(fds[0], &growth, sizeof(growth)) != (ssize_t)sizeof(growth))
    growth = 0;
  close(fds[0]);
  if (child > 0)
    waitpid(child, NULL, 0);
  return growth;
}

int main(void) {
  static const char *const modes[] = {"default", "per 100 nodes", "finest"};
  uint64_t work[3][3], memory[3][3];
  uint32_t nodes = 10000;
  for (int size = 0; size < 3; size++, nodes *= 10) {
    mtpc_graph g;
    build_module(&g, nodes);
    uint32_t requested[3] = {0, nodes / 100, MTPC_PLAN_FINEST};
    for (int m = 0; m < 3; m++) {
      uint32_t partitions = 0;
      work[size][m] = plan_work(&g, requested[m], &partitions);
      memory[size][m] = plan_memory(&g, requested[m]);
      printf("%7" PRIu32 " nodes, %-13s %6" PRIu32 " partitions: work %" PRIu64
             " (%.1f per node), memory %.1f MiB\n", nodes, modes[m], partitions, work[size][m],
             (double)work[size][m] / nodes, memory[size][m] / 1048576.0);
    }
    mtpc_graph_free(&g);
  }
  for (int m = 0; m < 3; m++)
    for (int size = 1; size < 3; size++) {
      double growth = (double)work[size][m] / (double)work[size - 1][m];
      printf("%s: work grows %.2fx for 10x the nodes\n", modes[m], growth);
      CHECK(growth <= 13.0);
    }
  for (int m = 0; m < 3; m++) {
    if (!memory[1][m] || !memory[2][m]) {
      printf("%s: memory not measured (no /proc/self/clear_refs)\n", modes[m]);
      continue;
    }
    double growth = (double)memory[2][m] / (double)memory[1][m];
    printf("%s: memory grows %.2fx from 10^5 to 10^6 nodes\n", modes[m], growth);
    CHECK(growth <= 13.0);
  }
  CHECK_SUMMARY();
}
