#include "time_trace.h"

#include "cxx_util.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/TimeProfiler.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

extern "C" void mtpc_bridge_time_trace_init(unsigned granularity_us) {
  timeTraceProfilerInitialize(granularity_us, "mtpc");
}

extern "C" int mtpc_bridge_time_trace_active(void) { return timeTraceProfilerEnabled(); }

extern "C" void mtpc_bridge_time_trace_thread_init(unsigned granularity_us) {
  if (!timeTraceProfilerEnabled())
    timeTraceProfilerInitialize(granularity_us ? granularity_us : 500, "mtpc");
}

extern "C" void mtpc_bridge_time_trace_thread_finish(void) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerFinishThread();
}

extern "C" void mtpc_bridge_time_trace_begin(const char *name, const char *detail) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerBegin(name, detail ? detail : "");
}

extern "C" void mtpc_bridge_time_trace_end(void) {
  if (timeTraceProfilerEnabled())
    timeTraceProfilerEnd();
}

extern "C" int mtpc_bridge_time_trace_take(void **data, size_t *size, char **message) {
  *data = nullptr;
  *size = 0;
  if (!timeTraceProfilerEnabled())
    return 0;
  SmallString<0> text;
  raw_svector_ostream out(text);
  timeTraceProfilerWrite(out);
  timeTraceProfilerCleanup();
  *data = mtpc_util::copy_bytes(text, size);
  return *data ? 0 : mtpc_util::out_of_memory(message);
}
