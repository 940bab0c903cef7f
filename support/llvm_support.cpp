#include "llvm_support.h"

#include <cstdlib>

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

extern "C" const char *mtpc_bridge_llvm_version(void) { return LLVM_VERSION_STRING; }

extern "C" int mtpc_bridge_compression_available(const char *kind) {
  StringRef name(kind);
  if (name == "zlib")
    return compression::zlib::isAvailable();
  if (name == "zstd")
    return compression::zstd::isAvailable();
  return name == "none";
}

DebugCompressionType mtpc_compression_type(const char *kind) {
  StringRef name(kind ? kind : "");
  if (name == "zlib")
    return DebugCompressionType::Zlib;
  if (name == "zstd")
    return DebugCompressionType::Zstd;
  return DebugCompressionType::None;
}

extern "C" int mtpc_bridge_triple_is_elf(const char *triple) {
  return Triple(triple).isOSBinFormatELF();
}

extern "C" int mtpc_bridge_triple_is_coff(const char *triple) {
  return Triple(triple).isOSBinFormatCOFF();
}

extern "C" int mtpc_bridge_triple_is_elf64_le(const char *triple) {
  Triple t(triple);
  return t.isOSBinFormatELF() && t.isArch64Bit() && t.isLittleEndian();
}

static void (*out_of_memory_handler)(const char *reason);

static void on_bad_alloc(void *, const char *reason, bool) {
  out_of_memory_handler(reason);
  std::abort(); // the handler must not return
}

extern "C" void mtpc_bridge_on_out_of_memory(void (*handler)(const char *reason)) {
  out_of_memory_handler = handler;
  install_bad_alloc_error_handler(on_bad_alloc, nullptr);
}
