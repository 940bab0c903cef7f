/* What a definition costs to compile, in the planner's unit: one IR
 * instruction of optimization and code generation. bench/cost-model.sh
 * measures how well these costs predict each partition's time, and
 * docs/design.rst gives the measurements behind the weights. */
#ifndef MTPC_COST_H
#define MTPC_COST_H

#include <stdint.h>

#include <llvm-c/Types.h>

/* A debug record (#dbg_value, #dbg_declare, #dbg_assign) costs this many
 * tenths of an instruction: it follows its value through every pass and
 * becomes a DBG_VALUE and a location list entry: about an instruction's
 * time each (docs/design.rst, step 1, measures it on sqlite3.c). */
#define MTPC_DEBUG_RECORD_TENTHS 10u
/* A variable's initializer is weighed in data units: one per scalar
 * element, one per eight bytes of a byte string (emitted as one directive),
 * none for zeros, and MTPC_RELOCATION_UNITS per address it holds, which the
 * optimizer folds and the object writer relocates. MTPC_DATA_UNITS_PER_COST
 * of them cost one instruction, rounded down: a small variable costs
 * nothing. */
#define MTPC_RELOCATION_UNITS 16u
#define MTPC_DATA_UNITS_PER_COST 256u

/* An entry of a compile unit's retained-type or enum list costs this many
 * tenths of an instruction where partition 0 alone loads those lists
 * (lto-backend/bitcode/partition_bitcode.h): it loads and emits the type and all it
 * reaches. */
#define MTPC_UNIT_LIST_ENTRY_TENTHS 5u
/* A composite type with an ODR identifier in the module's own metadata
 * block (C++) costs this much: partition 0 is its home, reads it with the
 * rest of that block and describes it, which made cppcheck's partition 0
 * the slowest for its cost until it was counted. */
#define MTPC_MODULE_ODR_TYPE_COST 2u

/* A defined function: its instructions, its debug records, and one for
 * itself. */
uint64_t mtpc_function_cost(uint64_t instructions, uint64_t debug_records);
/* A defined variable, by its initializer; 0 for a declaration. */
uint64_t mtpc_variable_cost(LLVMValueRef var);
/* Partition 0's head (plan.h): its compile units' type lists, and with ODR
 * types (`odr_types`) the module's metadata block and the
 * `module_odr_types` types in it. */
uint64_t mtpc_head_cost(LLVMModuleRef module, uint64_t module_odr_types, int odr_types);

#endif
