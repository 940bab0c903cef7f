#include "codeview_refs.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/DebugInfo/CodeView/CVTypeVisitor.h"
#include "llvm/DebugInfo/CodeView/TypeDeserializer.h"
#include "llvm/DebugInfo/CodeView/TypeIndexDiscovery.h"

using namespace llvm;
using namespace llvm::codeview;

// Index discovery trusts a record's counts and names, and walks a field or
// method list past its end when they lie; LLVM's reader checks bounds. A
// record it refuses is not walked.
static bool readable_type(ArrayRef<uint8_t> record) {
  CVType type(record);
  TypeDeserializer deserializer;
  Error error = visitTypeRecord(type, deserializer);
  if (!error && type.kind() == LF_FIELDLIST) {
    TypeVisitorCallbacks nothing;
    error = visitMemberRecordStream(type.content(), nothing);
  }
  bool readable = !error;
  consumeError(std::move(error));
  return readable;
}

static int copy_refs(const SmallVectorImpl<TiReference> &found, mtpc_cv_refs *refs, size_t cap) {
  for (size_t i = 0; i < found.size() && i < cap; i++)
    refs[i] = {found[i].Offset + 4, found[i].Count}; // LLVM counts past the length and kind
  return static_cast<int>(found.size());
}

extern "C" int mtpc_cv_type_record_refs(const uint8_t *record, size_t size, mtpc_cv_refs *refs,
                                        size_t cap) {
  ArrayRef<uint8_t> bytes(record, size);
  if (!readable_type(bytes))
    return -1;
  SmallVector<TiReference, 8> found;
  discoverTypeIndices(bytes, found);
  return copy_refs(found, refs, cap);
}

extern "C" int mtpc_cv_symbol_record_refs(const uint8_t *record, size_t size, mtpc_cv_refs *refs,
                                          size_t cap) {
  SmallVector<TiReference, 8> found;
  if (!discoverTypeIndicesInSymbol(ArrayRef<uint8_t>(record, size), found))
    return -1;
  return copy_refs(found, refs, cap);
}
