#include "plan_bitcode.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bitstream.h"
#include "support/support.h"

/* LLVMBitCodes.h: the same in LLVM 19 and 22 (22 adds code 66). */
enum { BLOCKINFO_BLOCK = 0, FUNCTION_BLOCK = 12 };
enum {
  FUNC_CODE_DEBUG_LOC_AGAIN = 33,
  FUNC_CODE_DEBUG_LOC = 35,
  FUNC_CODE_FIRST_DEBUG_RECORD = 61, /* DEBUG_RECORD_VALUE */
  FUNC_CODE_LAST_DEBUG_RECORD = 66   /* DEBUG_RECORD_DECLARE_VALUE */
};

/* Bodies read before the rewrite gives up on a module whose bodies have no
 * debug records or locations (no -g): walking the rest would only cost
 * time. A module joined from objects with and without -g, those without
 * first, is read from its own bitcode. */
#define BODIES_WITHOUT_DEBUG_INFO 256u

typedef struct rewrite {
  mtpc_bitstream bs;
  mtpc_bs_record record;
  const void *bitcode;
  size_t size;
  uint8_t *copy; /* made at the first rewrite */
  uint32_t *counts;
  size_t count_cap;
  uint32_t bodies;
  uint64_t rewritten;
  int no_memory;
} rewrite;

/* Pages mapped in at once: touched one by one, the copy takes twice as long. */
static uint8_t *map_copy(const void *bitcode, size_t size) {
  int flags = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_POPULATE
  flags |= MAP_POPULATE;
#endif
  void *copy = mmap(NULL, size, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (copy == MAP_FAILED)
    return NULL;
  memcpy(copy, bitcode, size);
  return copy;
}

static int is_debug_record(uint32_t code) {
  return code >= FUNC_CODE_FIRST_DEBUG_RECORD && code <= FUNC_CODE_LAST_DEBUG_RECORD;
}

/* The record just read becomes DEBUG_LOC_AGAIN, which ignores its operands.
 * An abbreviated one changes its abbreviation's literal code, every record
 * of that abbreviation with it. */
static int neutralize(rewrite *rw) {
  const mtpc_bs_record *r = &rw->record;
  if (!rw->copy && !(rw->copy = map_copy(rw->bitcode, rw->size))) {
    rw->no_memory = 1;
    return 1;
  }
  if (!r->code_chunk ||
      mtpc_bs_write_vbr(rw->copy, r->code_bit, r->code_width, r->code_chunk,
                        FUNC_CODE_DEBUG_LOC_AGAIN))
    return 1;
  rw->rewritten++;
  return 0;
}

/* An entered function block, to its end. */
static int rewrite_body(rewrite *rw) {
  uint32_t records = 0;
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&rw->bs, &id);
    if (kind == MTPC_BS_ENTRY_END)
      break;
    if (kind == MTPC_BS_ENTRY_ERROR)
      return 1;
    if (kind == MTPC_BS_ENTRY_SUBBLOCK) {
      if (mtpc_bs_skip_block(&rw->bs))
        return 1;
      continue;
    }
    if (mtpc_bs_read_record(&rw->bs, id, &rw->record))
      return 1;
    uint32_t code = rw->record.code;
    records += is_debug_record(code);
    if ((is_debug_record(code) || code == FUNC_CODE_DEBUG_LOC) && neutralize(rw))
      return 1;
  }
  if (MTPC_PUSH(rw->counts, rw->bodies, rw->count_cap, records)) {
    rw->no_memory = 1;
    return 1;
  }
  return !rw->copy && rw->bodies >= BODIES_WITHOUT_DEBUG_INFO;
}

static int rewrite_module(rewrite *rw) {
  for (;;) {
    uint32_t id;
    mtpc_bs_entry_kind kind = mtpc_bs_advance(&rw->bs, &id);
    if (kind == MTPC_BS_ENTRY_END || kind == MTPC_BS_ENTRY_ERROR)
      return kind == MTPC_BS_ENTRY_ERROR;
    int failed;
    if (kind == MTPC_BS_ENTRY_RECORD)
      failed = mtpc_bs_skip_record(&rw->bs, id);
    else if (id == BLOCKINFO_BLOCK)
      failed = mtpc_bs_enter(&rw->bs, id) || mtpc_bs_read_blockinfo(&rw->bs);
    else if (id == FUNCTION_BLOCK)
      failed = mtpc_bs_enter(&rw->bs, id) || rewrite_body(rw);
    else
      failed = mtpc_bs_skip_block(&rw->bs);
    if (failed)
      return 1;
  }
}

int mtpc_plan_bitcode_make(const void *bitcode, size_t size, mtpc_plan_bitcode *out) {
  memset(out, 0, sizeof(*out));
  rewrite rw = {.bitcode = bitcode, .size = size};
  int failed = mtpc_bs_enter_module(&rw.bs, bitcode, size) || rewrite_module(&rw);
  int no_memory = rw.no_memory || rw.bs.out_of_memory;
  mtpc_bs_free(&rw.bs);
  mtpc_bs_record_free(&rw.record);
  if (failed || rw.rewritten == 0) {
    if (rw.copy)
      munmap(rw.copy, size);
    free(rw.counts);
    return no_memory;
  }
  out->data = rw.copy;
  out->size = size;
  out->debug_records = rw.counts;
  out->body_count = rw.bodies;
  return 0;
}

void mtpc_plan_bitcode_free(mtpc_plan_bitcode *pb) {
  if (pb->data)
    munmap(pb->data, pb->size);
  free(pb->debug_records);
  memset(pb, 0, sizeof(*pb));
}
