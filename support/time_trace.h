/* --time-trace: LLVM's time-trace profiler. The main thread starts it; each
 * worker thread of a thread whose profiler is active starts and finishes its
 * own, at the granularity of the compile it works for; the main thread
 * writes the merged trace. (C++, time_trace.cpp.) */
#ifndef MTPC_TIME_TRACE_H
#define MTPC_TIME_TRACE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

void mtpc_bridge_time_trace_init(unsigned granularity_us);
int mtpc_bridge_time_trace_active(void);
/* granularity_us 0 means 500, as mtpc_options.time_trace_granularity says. */
void mtpc_bridge_time_trace_thread_init(unsigned granularity_us);
void mtpc_bridge_time_trace_thread_finish(void);
void mtpc_bridge_time_trace_begin(const char *name, const char *detail);
void mtpc_bridge_time_trace_end(void);
/* The merged trace (Chrome JSON, malloc'ed; NULL when none was started),
 * and the profiler ends. 0 on success; else *message. */
int mtpc_bridge_time_trace_take(void **data, size_t *size, char **message);

#ifdef __cplusplus
}
#endif

#endif
