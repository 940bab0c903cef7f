#include "cost.h"

#include <llvm-c/Core.h>

#include "debug_types.h"

uint64_t mtpc_function_cost(uint64_t instructions, uint64_t debug_records) {
  return instructions + 1 + debug_records * MTPC_DEBUG_RECORD_TENTHS / 10;
}

static int is_byte_type(LLVMTypeRef type) {
  return LLVMGetTypeKind(type) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(type) == 8;
}

static uint64_t sequence_data_units(LLVMValueRef sequence) {
  LLVMTypeRef type = LLVMTypeOf(sequence);
  uint64_t length = LLVMGetTypeKind(type) == LLVMArrayTypeKind ? LLVMGetArrayLength2(type)
                                                               : LLVMGetVectorSize(type);
  return is_byte_type(LLVMGetElementType(type)) ? length / 8 : length;
}

/* Aggregates nest a few levels deep at most; their elements are walked in a
 * loop. */
static uint64_t data_units(LLVMValueRef c) {
  if (LLVMIsAGlobalValue(c))
    return MTPC_RELOCATION_UNITS;
  if (LLVMIsAConstantArray(c) || LLVMIsAConstantStruct(c) || LLVMIsAConstantVector(c)) {
    uint64_t units = 0;
    int operands = LLVMGetNumOperands(c);
    for (int i = 0; i < operands; i++)
      units += data_units(LLVMGetOperand(c, (unsigned)i));
    return units;
  }
  if (LLVMIsAConstantDataSequential(c))
    return sequence_data_units(c);
  if (LLVMIsAConstantAggregateZero(c) || LLVMIsAUndefValue(c))
    return 0;
  /* A constant expression, block address or other constant over globals. */
  if (LLVMGetNumOperands(c) > 0)
    return MTPC_RELOCATION_UNITS;
  return 1;
}

uint64_t mtpc_variable_cost(LLVMValueRef var) {
  if (LLVMIsDeclaration(var))
    return 0;
  LLVMValueRef init = LLVMGetInitializer(var);
  return init ? data_units(init) / MTPC_DATA_UNITS_PER_COST : 0;
}

uint64_t mtpc_head_cost(LLVMModuleRef module, uint64_t module_odr_types, int odr_types) {
  uint64_t lists = mtpc_unit_type_list_entries(module) * MTPC_UNIT_LIST_ENTRY_TENTHS / 10;
  return lists + (odr_types ? module_odr_types * MTPC_MODULE_ODR_TYPE_COST : 0);
}
