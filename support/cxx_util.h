// Small helpers the bridge's C++ files share: malloc'ed copies for C callers
// and the conversion of an llvm::Error into mtpc's "non-zero plus message".
#ifndef MTPC_CXX_UTIL_H
#define MTPC_CXX_UTIL_H

#include <cstdlib>
#include <cstring>
#include <string>

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace mtpc_util {

// A malloc'ed copy of `text`, or NULL when memory is out.
inline char *copy_message(const std::string &text) {
  char *out = static_cast<char *>(std::malloc(text.size() + 1));
  if (out)
    std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

// A malloc'ed copy of `bytes` (*size set), or NULL when memory is out.
inline void *copy_bytes(llvm::StringRef bytes, size_t *size) {
  void *copy = std::malloc(bytes.size() ? bytes.size() : 1);
  if (!copy)
    return nullptr;
  std::memcpy(copy, bytes.data(), bytes.size());
  *size = bytes.size();
  return copy;
}

// Returns 1 with *message (when message is not NULL) saying `text`.
inline int fail(const std::string &text, char **message) {
  if (message)
    *message = copy_message(text);
  return 1;
}

inline int fail(llvm::Error err, char **message) {
  return fail(llvm::toString(std::move(err)), message);
}

// Returns 1 with no message: mtpc's sign that memory ran out.
inline int out_of_memory(char **message) {
  if (message)
    *message = nullptr;
  return 1;
}

} // namespace mtpc_util

#endif
