/* Content-defined chunks (chunks.h), in three passes over the sequence:
 *
 *  1. cuts:    after each item whose hash says so, with odds growing with
 *              the item's own cost, so no cut depends on another item
 *  2. merges:  a light run of items joins the run after it
 *  3. splits:  a heavy run is cut again, the same way with other hashes
 *
 * Integers only: a cut must not depend on how a C library rounds exp(). */
#include "chunks.h"

/* Whether an item ends a chunk: with probability cost / (cost + target),
 * the chance that a chunk whose costs arrive at an even rate of one per
 * `target` ends within the item, to first order. */
static int closes_chunk(uint64_t cost, uint64_t hash, uint64_t target) {
  unsigned __int128 scaled = (unsigned __int128)hash * (cost + target);
  return scaled < ((unsigned __int128)cost << 64);
}

/* The hash an item has at a level of chunking: its own at level 0, at
 * deeper levels (heavy runs cut again) one mixed with the level, so that
 * each level cuts at other items. */
static uint64_t level_hash(uint64_t hash, unsigned level) {
  if (level == 0)
    return hash;
  uint64_t h = hash ^ (0x9e3779b97f4a7c15ull * level);
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
  return h ^ (h >> 31);
}

/* Deeper than this, a heavy run is cut by running cost (rare: each level
 * leaves a run heavy with a probability of about e^-2). */
#define MAX_LEVEL 6

/* A heavy run none of the levels could cut: pieces of about one target by
 * running cost (an item belongs to the piece its midpoint falls in), never
 * a piece that costs nothing. Returns the next free chunk number. */
static uint32_t split_evenly(const uint64_t *cost, uint32_t first, uint32_t end, uint64_t run_cost,
                             uint64_t target, uint32_t next, uint32_t *chunk_of) {
  uint64_t pieces = (run_cost + target / 2) / target, before = 0, piece_cost = 0;
  uint64_t piece = 0;
  for (uint32_t i = first; i < end; i++) {
    uint64_t mine = (2 * before + cost[i]) * pieces / (2 * run_cost + 1);
    if (cost[i] > 0 && mine != piece && piece_cost > 0) {
      next++;
      piece_cost = 0;
    }
    if (cost[i] > 0)
      piece = mine;
    chunk_of[i] = next;
    before += cost[i];
    piece_cost += cost[i];
  }
  return next + 1;
}

static uint32_t chunk_range(const uint64_t *cost, const uint64_t *hash, uint32_t first,
                            uint32_t end, uint64_t target, unsigned level, uint32_t next,
                            uint32_t *chunk_of);

/* Numbers items first..end-1 as one chunk, or when the run is heavy, as the
 * chunks of the next level. Returns the next free chunk number. */
static uint32_t number_run(const uint64_t *cost, const uint64_t *hash, uint32_t first,
                           uint32_t end, uint64_t run_cost, uint64_t target, unsigned level,
                           uint32_t next, uint32_t *chunk_of) {
  if (run_cost * MTPC_CHUNK_SPLIT_DEN > MTPC_CHUNK_SPLIT_NUM * target && end - first > 1)
    return level < MAX_LEVEL
               ? chunk_range(cost, hash, first, end, target, level + 1, next, chunk_of)
               : split_evenly(cost, first, end, run_cost, target, next, chunk_of);
  for (uint32_t i = first; i < end; i++)
    chunk_of[i] = next;
  return next + 1;
}

/* An item no cut can make lighter than a heavy run: it is a chunk of its
 * own, so that the critical path on a machine with a core per partition is
 * the item alone, not the item and the light items before it (cppcheck's
 * ValueFlow::setValues, 59,047 cost, had 6,574 of them). */
static int heavy_item(uint64_t cost, uint64_t target) {
  return cost * MTPC_CHUNK_SPLIT_DEN > MTPC_CHUNK_SPLIT_NUM * target;
}

/* The run being cut at one level, and the one numbered before it. */
typedef struct run_state {
  uint32_t first_next, run_first, last_first, last_next;
  uint64_t run_cost, last_cost;
} run_state;

/* Numbers the run that ends before item `end`; a light run joins the one
 * before it when `join_light` and there is one. */
static uint32_t close_run(run_state *r, const uint64_t *cost, const uint64_t *hash, uint32_t end,
                          uint64_t target, unsigned level, uint32_t next, int join_light,
                          uint32_t *chunk_of) {
  if (join_light && next > r->first_next) {
    next = r->last_next;
    r->run_first = r->last_first;
    r->run_cost += r->last_cost;
  }
  r->last_first = r->run_first;
  r->last_next = next;
  r->last_cost = r->run_cost;
  next = number_run(cost, hash, r->run_first, end, r->run_cost, target, level, next, chunk_of);
  r->run_first = end;
  r->run_cost = 0;
  return next;
}

/* Passes 1 to 3 over items first..end-1 at one level, numbering chunks from
 * `next`. Returns the next free chunk number. */
static uint32_t chunk_range(const uint64_t *cost, const uint64_t *hash, uint32_t first,
                            uint32_t end, uint64_t target, unsigned level, uint32_t next,
                            uint32_t *chunk_of) {
  uint64_t light = target / MTPC_CHUNK_MERGE_DIVISOR ? target / MTPC_CHUNK_MERGE_DIVISOR : 1;
  run_state r = {.first_next = next, .run_first = first, .last_first = first, .last_next = next};
  for (uint32_t i = first; i < end; i++) {
    int heavy = heavy_item(cost[i], target);
    /* A light run before it joins the chunk before, if there is one. */
    if (heavy && i > r.run_first && (r.run_cost >= light || next > r.first_next))
      next = close_run(&r, cost, hash, i, target, level, next, r.run_cost < light, chunk_of);
    r.run_cost += cost[i];
    int last = i + 1 == end;
    if (!heavy && !last &&
        (!closes_chunk(cost[i], level_hash(hash[i], level), target) || r.run_cost < light))
      continue;
    /* The light end of the range joins the run before it. */
    next = close_run(&r, cost, hash, i + 1, target, level, next,
                     last && !heavy && r.run_cost < light, chunk_of);
  }
  return next;
}

uint32_t mtpc_chunk_sequence(const uint64_t *cost, const uint64_t *hash, uint32_t count,
                             uint64_t target, uint32_t *chunk_of) {
  return chunk_range(cost, hash, 0, count, target ? target : 1, 0, 0, chunk_of);
}
