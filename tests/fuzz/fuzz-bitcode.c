/* libFuzzer target over mtpc's bitcode input: whatever the bytes, a compile
 * returns a status (an error with a message for bad input), never crashes or
 * hangs. Built by tests/fuzz/run-fuzz.sh (CMake option MTPC_FUZZ). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "mtpc/mtpc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mtpc_options options;
  mtpc_options_init(&options);
  options.jobs = 1;
  options.partitions = 3;
  mtpc_result *result = NULL;
  mtpc_status status = mtpc_compile_bitcode(data, size, "fuzz", &options, &result);
  if (status != MTPC_OK && !*mtpc_result_message(result))
    abort(); /* every error says what went wrong */
  if (status == MTPC_OK && !mtpc_result_object(result, NULL))
    abort();
  mtpc_result_free(result);
  return 0;
}
