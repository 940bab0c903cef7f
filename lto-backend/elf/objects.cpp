#include "objects.h"

#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "comdat_groups.h"
#include "support/cxx_util.h"
#include "support/llvm_options.h"
#include "support/llvm_support.h"
#include "lld/Common/Driver.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/ObjCopy/ConfigManager.h"
#include "llvm/ObjCopy/ObjCopy.h"
#include "llvm/Object/Binary.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

LLD_HAS_DRIVER(elf)

using namespace llvm;
using mtpc_util::fail;

// liblld allows one link at a time in a process (lld's state, like LLVM's
// options, is process-wide).
static std::mutex lld_mutex;

extern "C" int mtpc_bridge_link_relocatable(const char *const *inputs, size_t input_count,
                                            const char *output, char **message) {
  std::vector<const char *> args = {"ld.lld", "-r", "-o", output};
  args.insert(args.end(), inputs, inputs + input_count);
  std::string out_text, err_text;
  raw_string_ostream out(out_text), err(err_text);
  std::lock_guard<std::mutex> lock(lld_mutex);
  mtpc_bridge_option_list *shield = mtpc_llvm_options_shield_begin();
  lld::Result result = lld::lldMain(args, out, err, {{lld::Gnu, &lld::elf::link}});
  mtpc_llvm_options_shield_end(shield);
  if (result.retCode == 0)
    return 0;
  err.flush();
  std::string text = err_text.empty() ? "ld.lld -r failed" : err_text;
  while (!text.empty() && text.back() == '\n')
    text.pop_back();
  return fail(text, message);
}

// ObjCopy with `config` on `binary`, the result malloc'ed.
static int run_objcopy(const objcopy::ConfigManager &config, object::Binary &binary,
                       void **result, size_t *result_size, char **message) {
  SmallVector<char, 0> bytes;
  raw_svector_ostream out(bytes);
  if (Error err = objcopy::executeObjcopyOnBinary(config, binary, out))
    return fail(std::move(err), message);
  *result = mtpc_util::copy_bytes(StringRef(bytes.data(), bytes.size()), result_size);
  if (!*result)
    return mtpc_util::out_of_memory(message);
  // Renaming keeps the groups the compiler made: ObjCopy takes a local
  // signature to mean a group no longer deduplicated. (COFF: nothing to do.)
  StringRef input = binary.getMemoryBufferRef().getBuffer();
  mtpc_elf_keep_comdat_groups(reinterpret_cast<const uint8_t *>(input.data()), input.size(),
                              static_cast<uint8_t *>(*result), *result_size);
  return 0;
}

// Renames every section of `file` to what new_name says (nothing: kept).
// The config holds StringRefs; `storage` holds the new names.
template <typename NewName>
static Error rename_sections(const object::ObjectFile &file, objcopy::CommonConfig &common,
                             std::deque<std::string> &storage, NewName new_name) {
  for (const object::SectionRef &section : file.sections()) {
    Expected<StringRef> name = section.getName();
    if (!name)
      return name.takeError();
    if (std::optional<std::string> to = new_name(*name))
      common.SectionsToRename.try_emplace(
          *name, objcopy::SectionRename{*name, storage.emplace_back(std::move(*to)), std::nullopt});
  }
  return Error::success();
}

// A section named after a promoted symbol (.text.<name> with
// -ffunction-sections) takes the symbol's original name back, as a serial
// compile names it.
static std::optional<std::string> unpromoted_section(const objcopy::CommonConfig &common,
                                                     StringRef name) {
  for (size_t dot = name.find('.', 1); dot != StringRef::npos; dot = name.find('.', dot + 1)) {
    auto renamed = common.SymbolsToRename.find(name.drop_front(dot + 1));
    if (renamed != common.SymbolsToRename.end())
      return (name.take_front(dot + 1) + renamed->getValue()).str();
  }
  return std::nullopt;
}

extern "C" int mtpc_bridge_localize_symbols(const void *object, size_t size,
                                            const char *const *names,
                                            const char *const *new_names, size_t count,
                                            void **result, size_t *result_size,
                                            char **message) {
  objcopy::ConfigManager config;
  objcopy::CommonConfig &common = config.Common;
  auto no_recoverable = [](Error err) { return err; };
  objcopy::NameMatcher promoted;
  for (size_t i = 0; i < count; i++) {
    if (Error err = promoted.addMatcher(
            objcopy::NameOrPattern::create(names[i], objcopy::MatchStyle::Literal, no_recoverable)))
      return fail(std::move(err), message);
    common.SymbolsToRename[names[i]] = new_names[i];
  }
  common.SymbolsToLocalize = promoted;
  // Hidden was only the promotion's doing; a serial compile's locals are default.
  config.ELF.SymbolsToSetVisibility.emplace_back(std::move(promoted), ELF::STV_DEFAULT);
  MemoryBufferRef input(StringRef(static_cast<const char *>(object), size), "merged.o");
  Expected<std::unique_ptr<object::Binary>> binary = object::createBinary(input);
  if (!binary)
    return fail(binary.takeError(), message);
  std::deque<std::string> section_names;
  if (auto *file = dyn_cast<object::ObjectFile>(binary->get()))
    if (Error err = rename_sections(*file, common, section_names, [&](StringRef name) {
          return unpromoted_section(common, name);
        }))
      return fail(std::move(err), message);
  return run_objcopy(config, **binary, result, result_size, message);
}

extern "C" int mtpc_bridge_rename_in_names(const void *object, size_t size,
                                           mtpc_name_mapper *map, void *arg, void **result,
                                           size_t *result_size, char **message) {
  MemoryBufferRef input(StringRef(static_cast<const char *>(object), size), "partition.o");
  Expected<std::unique_ptr<object::Binary>> binary = object::createBinary(input);
  if (!binary)
    return fail(binary.takeError(), message);
  auto *file = dyn_cast<object::ObjectFile>(binary->get());
  if (!file)
    return fail("not an object file", message);
  objcopy::ConfigManager config;
  objcopy::CommonConfig &common = config.Common;
  std::deque<std::string> new_names; // the config holds StringRefs
  bool out_of_memory = false;
  auto mapped = [&](StringRef name) -> std::optional<std::string> {
    std::string copy = name.str();
    int failed = 0;
    const char *to = map(arg, copy.c_str(), &failed);
    out_of_memory |= failed != 0;
    if (!to)
      return std::nullopt;
    return std::string(to);
  };
  for (const object::SymbolRef &symbol : file->symbols()) {
    Expected<StringRef> name = symbol.getName();
    if (!name)
      return fail(name.takeError(), message);
    if (std::optional<std::string> to = mapped(*name))
      common.SymbolsToRename[*name] = new_names.emplace_back(std::move(*to));
  }
  if (Error err = rename_sections(*file, common, new_names, mapped))
    return fail(std::move(err), message);
  if (out_of_memory) {
    *message = nullptr;
    return 1;
  }
  // Nothing to rename: the object as it is, not as ObjCopy would lay it out.
  if (common.SymbolsToRename.empty() && common.SectionsToRename.empty()) {
    *result = mtpc_util::copy_bytes(StringRef(static_cast<const char *>(object), size), result_size);
    return *result ? 0 : mtpc_util::out_of_memory(message);
  }
  return run_objcopy(config, **binary, result, result_size, message);
}

extern "C" int mtpc_bridge_compress_debug_sections(const void *object, size_t size,
                                                   const char *kind, void **result,
                                                   size_t *result_size, char **message) {
  MemoryBufferRef input(StringRef(static_cast<const char *>(object), size), "merged.o");
  Expected<std::unique_ptr<object::Binary>> binary = object::createBinary(input);
  if (!binary)
    return fail(binary.takeError(), message);
  objcopy::ConfigManager config;
  config.Common.CompressionType = mtpc_compression_type(kind);
  return run_objcopy(config, **binary, result, result_size, message);
}
