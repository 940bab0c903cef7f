// What the partition cache knows of an lto::Config (config_key.h), and the
// copy a linker lends mtpc: both from one list of every field
// (config_fields.def).
#include "config_key.h"

#include <cstdio>

#include <optional>
#include <string>
#include <vector>

#include "pipeline.h"
#include "support/compat.h"
#include "support/cxx_util.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/LTO/Config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include "llvm/Target/TargetOptions.h"
#include "mtpc/llvm.h"
#include "option_files.h"

using namespace llvm;

namespace {

struct description {
  std::string text;
  raw_string_ostream out{text};

  void field(const char *name, StringRef value) { out << name << '=' << value << '\n'; }
  void field(const char *name, const std::string &value) { field(name, StringRef(value)); }
  void field(const char *name, const char *value) { field(name, StringRef(value)); }
  void field(const char *name, bool value) { out << name << '=' << (value ? 1 : 0) << '\n'; }
  template <typename T>
  std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>> field(const char *name,
                                                                            T value) {
    out << name << '=' << value << '\n';
  }
  template <typename T>
  std::enable_if_t<std::is_enum_v<T>> field(const char *name, T value) {
    out << name << '=' << static_cast<long long>(value) << '\n';
  }
  template <typename T> void field(const char *name, const std::optional<T> &value) {
    if (value)
      field(name, *value);
    else
      field(name, "default");
  }
  template <typename T> void field(const char *name, const std::vector<T> &values) {
    for (const T &value : values)
      field(name, value);
  }
  template <typename T> void field(const char *name, ArrayRef<T> values) {
    for (const T &value : values)
      field(name, value);
  }
  void field(const char *name, const TargetOptions &o);
  void field(const char *name, const MCTargetOptions &o);
  void field(const char *name, const PipelineTuningOptions &o);

  // A file stands for its contents: an edited profile or a rebuilt plugin
  // keys new entries.
  void file(const char *name, const std::string &path) {
    field(name, path);
    if (path.empty())
      return;
    ErrorOr<std::unique_ptr<MemoryBuffer>> contents = MemoryBuffer::getFile(path);
    if (!contents) {
      field("  contents", "unreadable");
      return;
    }
    contents_of(contents->get());
  }
  void contents_of(const MemoryBuffer *buffer) {
    out << "  contents=";
    if (buffer)
      out.write_hex(xxh3_64bits(arrayRefFromStringRef(buffer->getBuffer())));
    out << '\n';
  }
  void files(const char *name, const std::vector<std::string> &paths) {
    for (const std::string &path : paths)
      file(name, path);
  }
  // An option is its text, and the contents of a file its value names.
  void llvm_options(const char *name, const std::vector<std::string> &args) {
    for (const std::string &arg : args) {
      field(name, arg);
      uint64_t digest = 0;
      switch (mtpc_option_file_digest(arg.c_str(), &digest)) {
      case MTPC_OPTION_NAMES_FILE:
        out << "  contents=";
        out.write_hex(digest);
        out << '\n';
        break;
      case MTPC_OPTION_FILE_UNREADABLE:
        field("  contents", "unreadable");
        break;
      case MTPC_OPTION_NAMES_NO_FILE:
        break;
      }
    }
  }
};

void description::field(const char *, const MCTargetOptions &o) {
#define MC_OPTION(name) field(#name, o.name);
#include "config_fields.def"
}

void description::field(const char *, const TargetOptions &o) {
#define TARGET_OPTION(name) field(#name, o.name);
#define TARGET_OPTION_VIA(name, expression) field(#name, expression);
#define TARGET_OPTION_FILE(name)                                                              \
  out << #name;                                                                               \
  contents_of(o.name.get());
#include "config_fields.def"
  field("MCOptions", o.MCOptions);
}

void description::field(const char *, const PipelineTuningOptions &o) {
#define TUNING_OPTION(name) field(#name, o.name);
#include "config_fields.def"
}

} // namespace

// Every field of the Config that can change an object, one "field=value"
// line each.
static std::string describe(const lto::Config &c) {
  description d;
#define CONFIG_SETTING(name) d.field(#name, c.name);
#define CONFIG_LLVM_OPTIONS(name) d.llvm_options(#name, c.name);
#define CONFIG_FILES(name) d.files(#name, c.name);
#define CONFIG_PROFILE(name) d.file(#name, c.name);
// An instrumented build writes its profile there; a use reads it.
#define CONFIG_CS_PROFILE(name)                                                               \
  if (c.RunCSIRInstr)                                                                         \
    d.field(#name, c.name);                                                                   \
  else                                                                                        \
    d.file(#name, c.name);
#include "config_fields.def"
  d.out.flush();
  return d.text;
}

extern "C" char *mtpc_bridge_describe_config(const mtpc_bridge_settings *settings) {
  return mtpc_util::copy_message(describe(mtpc_pipeline::config(settings)));
}

extern "C" mtpc_status mtpc_lto_config_digest(const void *lto_config,
                                              char digest[MTPC_DIGEST_SIZE]) {
  if (!lto_config)
    return MTPC_ERR_INVALID_ARGUMENT;
  std::string text = std::string("mtpc=") + MTPC_VERSION_STRING + "\nllvm=" +
                     LLVM_VERSION_STRING + "\n" +
                     describe(*static_cast<const lto::Config *>(lto_config));
  XXH128_hash_t hash = xxh3_128bits(arrayRefFromStringRef(text));
  std::snprintf(digest, MTPC_DIGEST_SIZE, "%016llx%016llx", (unsigned long long)hash.high64,
                (unsigned long long)hash.low64);
  return MTPC_OK;
}

template <typename T> static bool is_set(const T &value) { return value != T(); }
template <typename T> static bool is_set(const std::optional<T> &value) {
  return value.has_value();
}

extern "C" int mtpc_bridge_config_writes_more(const mtpc_bridge_settings *settings) {
  const lto::Config &c = mtpc_pipeline::config(settings);
  bool writes = false;
#define CONFIG_OUTPUT(name) writes |= is_set(c.name);
#include "config_fields.def"
  return writes;
}

extern "C" int mtpc_bridge_config_reads_names(const mtpc_bridge_settings *settings) {
  const lto::Config &c = mtpc_pipeline::config(settings);
  // Context-sensitive instrumentation names its records after the functions.
  bool reads = c.Options.BBSections == BasicBlockSection::List || c.RunCSIRInstr;
#define CONFIG_NAMES(name) reads |= is_set(c.name);
#define CONFIG_PROFILE(name) reads |= !c.name.empty();
#define CONFIG_CS_PROFILE(name) reads |= !c.name.empty();
#include "config_fields.def"
  return reads;
}

extern "C" void mtpc_copy_lto_config(const void *from, void *to) {
  const lto::Config &f = *static_cast<const lto::Config *>(from);
  lto::Config &t = *static_cast<lto::Config *>(to);
#define CONFIG_SETTING(name) t.name = f.name;
#define CONFIG_FILES(name) t.name = f.name;
#define CONFIG_PROFILE(name) t.name = f.name;
#define CONFIG_CS_PROFILE(name) t.name = f.name;
#define CONFIG_OUTPUT(name) t.name = f.name;
#define CONFIG_OUTPUT_FORM(name) t.name = f.name;
#define CONFIG_PLACE(name, why) t.name = f.name;
#include "config_fields.def"
}
