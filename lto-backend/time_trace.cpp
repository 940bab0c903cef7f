#include "time_trace.h"

#include "cxx_util.h"
#include "llvm/Support/FileSystem.h"
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

extern "C" int mtpc_bridge_time_trace_write(const char *path, char **message) {
  if (!timeTraceProfilerEnabled())
    return 0;
  std::error_code ec;
  raw_fd_ostream out(path, ec, sys::fs::OF_Text);
  if (ec)
    return mtpc_util::fail(errorCodeToError(ec), message);
  timeTraceProfilerWrite(out);
  timeTraceProfilerCleanup();
  return 0;
}
