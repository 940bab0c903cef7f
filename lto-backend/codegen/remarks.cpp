#include "remarks.h"

#include <string>
#include <vector>

#include "support/compat.h"
#include "support/cxx_util.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LLVMRemarkStreamer.h"
#include "llvm/IR/Module.h"
#include "llvm/LTO/Config.h"
#include "llvm/Remarks/RemarkParser.h"
#include "llvm/Remarks/RemarkSerializer.h"
#include "llvm/Remarks/RemarkStreamer.h"

using namespace llvm;
using mtpc_util::fail;

struct mtpc_bridge_remarks {
  LLVMContext *context;
  std::string text;
  raw_string_ostream out{text};
};

extern "C" mtpc_bridge_remarks *mtpc_bridge_remarks_begin(const mtpc_bridge_settings *s,
                                                          LLVMContextRef context,
                                                          char **message) {
  const lto::Config &c = mtpc_pipeline::config(s);
  if (c.RemarksFilename.empty())
    return nullptr;
  auto r = new mtpc_bridge_remarks;
  r->context = unwrap(context);
  if (Error err = setupLLVMOptimizationRemarks(*r->context, r->out, c.RemarksPasses, "yaml",
                                               c.RemarksWithHotness,
                                               c.RemarksHotnessThreshold)) {
    fail(std::move(err), message);
    delete r;
    return nullptr;
  }
  return r;
}

extern "C" int mtpc_bridge_remarks_end(mtpc_bridge_remarks *r, void **text, size_t *size) {
  mtpc_compat::stop_remarks(*r->context);
  *text = mtpc_util::copy_bytes(r->text, size);
  delete r;
  return *text == nullptr;
}

// Calls emit() on every remark of one partition's YAML.
template <typename Emit> static Error for_each_remark(StringRef yaml, Emit emit) {
  if (yaml.empty()) // a partition without remarks
    return Error::success();
  Expected<std::unique_ptr<remarks::RemarkParser>> parser =
      remarks::createRemarkParser(remarks::Format::YAML, yaml);
  if (!parser)
    return parser.takeError();
  for (;;) {
    Expected<std::unique_ptr<remarks::Remark>> remark = (*parser)->next();
    if (!remark) {
      Error err = remark.takeError();
      if (err.isA<remarks::EndOfFileError>()) {
        consumeError(std::move(err));
        return Error::success();
      }
      return err;
    }
    emit(**remark);
  }
}

// The YAML serializer writes an argument's key with key.data() as a C
// string; the parser's keys point into the buffer, unterminated.
static void emit_with_terminated_keys(remarks::Remark &remark,
                                      remarks::RemarkSerializer &serializer) {
  std::vector<std::string> keys;
  keys.reserve(remark.Args.size());
  for (remarks::Argument &arg : remark.Args) {
    keys.push_back(arg.Key.str());
    arg.Key = keys.back();
  }
  serializer.emit(remark);
}

// A serializer of the settings' format, writing to `out`.
static Expected<std::unique_ptr<remarks::RemarkSerializer>>
file_serializer(const lto::Config &c, const void *const *texts, const size_t *sizes,
                unsigned count, raw_ostream &out) {
  Expected<remarks::Format> format = remarks::parseFormat(c.RemarksFormat);
  if (!format)
    return format.takeError();
  remarks::StringTable strings;
  for (unsigned i = 0; i < count && *format == remarks::Format::Bitstream; i++)
    if (Error err = for_each_remark(StringRef(static_cast<const char *>(texts[i]), sizes[i]),
                                    [&](remarks::Remark &r) { strings.internalize(r); }))
      return err;
  return mtpc_compat::remarks_file_serializer(*format, out, std::move(strings));
}

extern "C" int mtpc_bridge_remarks_merge(const mtpc_bridge_settings *s, LLVMModuleRef module,
                                         const void *const *texts, const size_t *sizes,
                                         unsigned count, void **file, size_t *file_size,
                                         const char **path, char **message) {
  *file = nullptr;
  remarks::RemarkStreamer *streamer =
      module ? unwrap(module)->getContext().getMainRemarkStreamer() : nullptr;
  SmallString<0> bytes;
  raw_svector_ostream out(bytes);
  std::unique_ptr<remarks::RemarkSerializer> own;
  if (!streamer) {
    const lto::Config &c = mtpc_pipeline::config(s);
    *path = c.RemarksFilename.c_str();
    Expected<std::unique_ptr<remarks::RemarkSerializer>> serializer =
        file_serializer(c, texts, sizes, count, out);
    if (!serializer)
      return fail(serializer.takeError(), message);
    own = std::move(*serializer);
  }
  remarks::RemarkSerializer &serializer = streamer ? streamer->getSerializer() : *own;
  for (unsigned i = 0; i < count; i++)
    if (Error err = for_each_remark(StringRef(static_cast<const char *>(texts[i]), sizes[i]),
                                    [&](remarks::Remark &r) { emit_with_terminated_keys(r, serializer); }))
      return fail("partition " + std::to_string(i) + "'s remarks: " + toString(std::move(err)),
                  message);
  if (!own)
    return 0;
  mtpc_compat::finish_remarks_file(*own);
  *file = mtpc_util::copy_bytes(bytes, file_size);
  return *file ? 0 : mtpc_util::out_of_memory(message);
}
