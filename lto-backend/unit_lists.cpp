#include "unit_lists.h"

#include <cstdlib>
#include <vector>

#include "llvm/Bitcode/LLVMBitCodes.h"
#include "llvm/Bitstream/BitstreamReader.h"

using namespace llvm;

namespace {
// Operands of METADATA_COMPILE_UNIT (BitcodeWriter's writeDICompileUnit).
constexpr unsigned enum_types_operand = 9, retained_types_operand = 10;

template <typename T> bool ok(Expected<T> &value) {
  if (value)
    return true;
  consumeError(value.takeError());
  return false;
}

bool skip(BitstreamCursor &c, const BitstreamEntry &e) {
  Expected<unsigned> skipped = c.skipRecord(e.ID);
  return ok(skipped);
}

// An unabbreviated record; a compile unit's two list fields go to `fields`.
bool read_unabbreviated(BitstreamCursor &c, std::vector<mtpc_bit_field> &fields) {
  Expected<uint64_t> code = c.ReadVBR64(6);
  Expected<uint64_t> count = c.ReadVBR64(6);
  if (!ok(code) || !ok(count))
    return false;
  for (uint64_t i = 0; i < *count; i++) {
    uint64_t start = c.GetCurrentBitNo();
    Expected<uint64_t> value = c.ReadVBR64(6);
    if (!ok(value))
      return false;
    bool list = i == enum_types_operand || i == retained_types_operand;
    if (*code == bitc::METADATA_COMPILE_UNIT && list && *value != 0)
      fields.push_back({start, c.GetCurrentBitNo() - start});
  }
  return true;
}

bool read_metadata(BitstreamCursor &c, std::vector<mtpc_bit_field> &fields) {
  if (c.EnterSubBlock(bitc::METADATA_BLOCK_ID))
    return false;
  for (;;) {
    Expected<BitstreamEntry> e = c.advance();
    if (!ok(e) || e->Kind == BitstreamEntry::Error)
      return false;
    if (e->Kind == BitstreamEntry::EndBlock)
      return true;
    bool read = e->Kind == BitstreamEntry::SubBlock ? !c.SkipBlock()
                : e->ID == bitc::UNABBREV_RECORD   ? read_unabbreviated(c, fields)
                                                   : skip(c, *e);
    if (!read)
      return false;
  }
}

// The fields of every compile unit in the first module's own metadata block.
bool find_fields(const void *bitcode, size_t size, std::vector<mtpc_bit_field> &fields) {
  BitstreamCursor c(ArrayRef<uint8_t>(static_cast<const uint8_t *>(bitcode), size));
  BitstreamBlockInfo info;
  Expected<SimpleBitstreamCursor::word_t> magic = c.Read(32);
  if (!ok(magic) || *magic != 0xdec04342) // 'B' 'C' 0xC0DE
    return false;
  bool in_module = false;
  while (!c.AtEndOfStream()) {
    Expected<BitstreamEntry> e = c.advance();
    if (!ok(e))
      return false;
    if (in_module && e->Kind == BitstreamEntry::EndBlock)
      return true;
    if (in_module && e->Kind == BitstreamEntry::Record) {
      if (!skip(c, *e))
        return false;
    } else if (e->Kind != BitstreamEntry::SubBlock) {
      return false;
    } else if (e->ID == bitc::BLOCKINFO_BLOCK_ID) {
      Expected<std::optional<BitstreamBlockInfo>> read = c.ReadBlockInfoBlock();
      if (!ok(read) || !*read)
        return false;
      info = std::move(**read);
      c.setBlockInfo(&info);
    } else if (e->ID == bitc::MODULE_BLOCK_ID && !in_module) {
      if (c.EnterSubBlock(bitc::MODULE_BLOCK_ID))
        return false;
      in_module = true;
    } else if (!(in_module && e->ID == bitc::METADATA_BLOCK_ID ? read_metadata(c, fields)
                                                                : !c.SkipBlock())) {
      return false;
    }
  }
  return false;
}
} // namespace

extern "C" mtpc_bit_field *mtpc_bridge_unit_type_list_fields(const void *bitcode, size_t size,
                                                             size_t *count) {
  std::vector<mtpc_bit_field> fields;
  *count = 0;
  if (!find_fields(bitcode, size, fields) || fields.empty())
    return nullptr;
  auto *copy = static_cast<mtpc_bit_field *>(malloc(fields.size() * sizeof(mtpc_bit_field)));
  if (copy) {
    std::copy(fields.begin(), fields.end(), copy);
    *count = fields.size();
  }
  return copy;
}
