/* mtpc_options: defaults, and a caller's options (of whatever size its
 * header had) made whole and checked. */
#include "options.h"

#include <string.h>

#include "../partitioner/plan.h"
#include "../partitioner/support.h"

static void set_defaults(mtpc_options *o) {
  memset(o, 0, sizeof(*o));
  o->struct_size = sizeof(*o);
  o->opt_level = 2;
  o->codegen_opt_level = 2;
  o->reloc_model = MTPC_RELOC_DEFAULT;
  o->import_instr_limit = MTPC_DEFAULT_IMPORT_LIMIT;
  o->merge = 1;
  o->verify = 1;
}

void mtpc_options_init_size(mtpc_options *o, size_t struct_size) {
  mtpc_options defaults;
  set_defaults(&defaults);
  size_t known = struct_size < sizeof(defaults) ? struct_size : sizeof(defaults);
  memset(o, 0, struct_size);
  memcpy(o, &defaults, known);
  o->struct_size = struct_size;
}

/* Bytes past what this library knows must be zero: the caller's newer
 * header has fields it did not set. */
static int tail_is_zero(const mtpc_options *given) {
  const unsigned char *bytes = (const unsigned char *)given;
  for (size_t i = sizeof(mtpc_options); i < given->struct_size; i++)
    if (bytes[i])
      return 0;
  return 1;
}

static char *check(const mtpc_options *o) {
  if (o->opt_level > 3)
    return mtpc_xasprintf("optimization level %u is not 0, 1, 2 or 3", o->opt_level);
  if (o->codegen_opt_level > 3)
    return mtpc_xasprintf("code generation level %u is not 0, 1, 2 or 3", o->codegen_opt_level);
  if ((unsigned)o->reloc_model > MTPC_RELOC_DYNAMIC_NO_PIC)
    return mtpc_xasprintf("unknown relocation model %d", (int)o->reloc_model);
  if (o->emit_llvm && o->emit_assembly)
    return mtpc_xstrdup("emit_llvm and emit_assembly exclude each other");
  if ((unsigned)o->code_model > MTPC_CODE_MODEL_LARGE)
    return mtpc_xasprintf("unknown code model %d", (int)o->code_model);
  if (o->llvm_option_count && !o->llvm_options)
    return mtpc_xstrdup("llvm_option_count without llvm_options");
  return NULL;
}

char *mtpc_options_import(const mtpc_options *given, mtpc_options *whole) {
  set_defaults(whole);
  if (!given)
    return mtpc_xstrdup("no options given");
  size_t first = offsetof(mtpc_options, jobs);
  if (given->struct_size < first + sizeof(given->jobs))
    return mtpc_xasprintf("options of size %zu: not set up by mtpc_options_init",
                          given->struct_size);
  if (given->struct_size > sizeof(mtpc_options) && !tail_is_zero(given))
    return mtpc_xasprintf("options set fields this library (%s) does not have",
                          MTPC_VERSION_STRING);
  size_t known = given->struct_size < sizeof(*whole) ? given->struct_size : sizeof(*whole);
  memcpy(whole, given, known);
  whole->struct_size = sizeof(*whole);
  return check(whole);
}
