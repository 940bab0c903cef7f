/* The stability of content-defined chunks (partitioner/chunks.h): on a
 * synthetic module of 3,000 functions with SQLite-like sizes, every
 * single-function change (cost doubled, cost up by a few instructions, a
 * function added after it, the function deleted) must leave all chunks but
 * a few exactly as they were, and chunks must stay near their target. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "check.h"
#include "partitioner/chunks.h"

#define ITEMS 3000
#define TARGET 8000u

typedef struct sequence {
  uint32_t count;
  uint32_t id[ITEMS + 1];
  uint64_t cost[ITEMS + 1], hash[ITEMS + 1];
  uint32_t chunk_of[ITEMS + 1];
  uint32_t chunks;
} sequence;

static uint64_t next_random(uint64_t *state) {
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

/* Mostly small functions, some large, a few huge (SQLite's VDBE is 12,000). */
static uint64_t function_cost(uint64_t *state) {
  uint64_t r = next_random(state) % 1000;
  if (r < 5)
    return 4000 + next_random(state) % 8000;
  if (r < 60)
    return 400 + next_random(state) % 2600;
  return 2 + next_random(state) % 200;
}

static uint64_t identity_hash(uint32_t id) {
  char name[32];
  int length = snprintf(name, sizeof(name), "function%u", id);
  return XXH64(name, (size_t)length, 0);
}

static void chunk(sequence *s) {
  s->chunks = mtpc_chunk_sequence(s->cost, s->hash, s->count, TARGET, s->chunk_of);
}

static void make_sequence(sequence *s) {
  uint64_t state = 0x9e3779b97f4a7c15ull;
  s->count = ITEMS;
  for (uint32_t i = 0; i < ITEMS; i++) {
    s->id[i] = i;
    s->cost[i] = function_cost(&state);
    s->hash[i] = identity_hash(i);
  }
  chunk(s);
}

/* Chunks of `after` that hold the changed item (identity `changed`) or whose
 * members differ from every chunk of `before`: what a warm cache recompiles. */
static uint32_t recompiled(const sequence *before, const sequence *after, uint32_t changed) {
  uint32_t count = 0;
  uint32_t first_before[ITEMS + 2] = {0};
  for (uint32_t i = before->count; i-- > 0;)
    first_before[before->chunk_of[i]] = i;
  first_before[before->chunks] = before->count;
  for (uint32_t start = 0; start < after->count;) {
    uint32_t c = after->chunk_of[start], end = start;
    int holds_change = 0;
    while (end < after->count && after->chunk_of[end] == c)
      holds_change |= after->id[end++] == changed;
    /* The same members: the same ids from some chunk start of `before`. */
    int same = 0;
    for (uint32_t b = 0; b < before->chunks && !same; b++) {
      uint32_t from = first_before[b];
      uint32_t to = b + 1 < before->chunks ? first_before[b + 1] : before->count;
      if (to - from != end - start)
        continue;
      same = 1;
      for (uint32_t k = 0; k < end - start && same; k++)
        same = before->id[from + k] == after->id[start + k];
    }
    count += holds_change || !same;
    start = end;
  }
  return count;
}

typedef struct tally {
  uint32_t worst, runs;
  uint64_t total;
  uint32_t histogram[8]; /* 7 means 7 or more */
} tally;

static void count(tally *t, uint32_t n) {
  t->runs++;
  t->total += n;
  t->worst = n > t->worst ? n : t->worst;
  t->histogram[n < 7 ? n : 7]++;
}

static void report(const char *what, const tally *t) {
  printf("%-22s mean %.2f, worst %u; by count:", what, (double)t->total / t->runs, t->worst);
  for (int i = 0; i < 8; i++)
    printf(" %u", t->histogram[i]);
  printf("\n");
}

static void test_balance(const sequence *s) {
  uint64_t total = 0, heaviest_item = 0;
  uint64_t chunk_cost[ITEMS] = {0};
  for (uint32_t i = 0; i < s->count; i++) {
    total += s->cost[i];
    chunk_cost[s->chunk_of[i]] += s->cost[i];
    heaviest_item = s->cost[i] > heaviest_item ? s->cost[i] : heaviest_item;
  }
  uint64_t lightest = UINT64_MAX, heaviest = 0;
  for (uint32_t c = 0; c < s->chunks; c++) {
    lightest = chunk_cost[c] < lightest ? chunk_cost[c] : lightest;
    heaviest = chunk_cost[c] > heaviest ? chunk_cost[c] : heaviest;
  }
  printf("%u chunks for %llu / %u = %.1f targets; lightest %llu, heaviest %llu\n", s->chunks,
         (unsigned long long)total, TARGET, (double)total / TARGET, (unsigned long long)lightest,
         (unsigned long long)heaviest);
  /* Numbered in order, each a run. */
  for (uint32_t i = 1; i < s->count; i++)
    CHECK(s->chunk_of[i] == s->chunk_of[i - 1] || s->chunk_of[i] == s->chunk_of[i - 1] + 1);
  CHECK_EQ_U(s->chunk_of[0], 0);
  CHECK_EQ_U(s->chunk_of[s->count - 1] + 1, s->chunks);
  /* About one chunk per target, none above 1.5 targets and a function. */
  CHECK(s->chunks * 10 >= total / TARGET * 7 && s->chunks * 10 <= total / TARGET * 13);
  CHECK(heaviest * MTPC_CHUNK_SPLIT_DEN <=
        MTPC_CHUNK_SPLIT_NUM * TARGET + heaviest_item * MTPC_CHUNK_SPLIT_DEN);
}

static void test_each_change(const sequence *base) {
  static sequence s;
  tally doubled = {0}, grown = {0}, added = {0}, deleted = {0};
  for (uint32_t i = 0; i < base->count; i++) {
    s = *base;
    s.cost[i] *= 2;
    chunk(&s);
    count(&doubled, recompiled(base, &s, i));

    s = *base;
    s.cost[i] += 3;
    chunk(&s);
    count(&grown, recompiled(base, &s, i));

    /* A new function (identity ITEMS) after function i. */
    s = *base;
    memmove(s.id + i + 2, s.id + i + 1, (s.count - i - 1) * sizeof(s.id[0]));
    memmove(s.cost + i + 2, s.cost + i + 1, (s.count - i - 1) * sizeof(s.cost[0]));
    memmove(s.hash + i + 2, s.hash + i + 1, (s.count - i - 1) * sizeof(s.hash[0]));
    s.id[i + 1] = ITEMS;
    s.cost[i + 1] = 40;
    s.hash[i + 1] = identity_hash(ITEMS);
    s.count++;
    chunk(&s);
    count(&added, recompiled(base, &s, ITEMS));

    /* Function i deleted: what held it is recompiled. */
    s = *base;
    memmove(s.id + i, s.id + i + 1, (s.count - i - 1) * sizeof(s.id[0]));
    memmove(s.cost + i, s.cost + i + 1, (s.count - i - 1) * sizeof(s.cost[0]));
    memmove(s.hash + i, s.hash + i + 1, (s.count - i - 1) * sizeof(s.hash[0]));
    s.count--;
    chunk(&s);
    uint32_t n = recompiled(base, &s, UINT32_MAX);
    count(&deleted, n ? n : 1);
  }
  report("cost doubled", &doubled);
  report("cost up by 3", &grown);
  report("function added", &added);
  report("function deleted", &deleted);
  /* A small change recompiles its own chunk, nearly always alone. */
  CHECK(grown.histogram[1] * 100 >= grown.runs * 99);
  CHECK(grown.worst <= 2);
  /* Doubling, adding and deleting move a cut now and then, never far. */
  CHECK(doubled.total * 100 <= doubled.runs * 110 && doubled.worst <= 3);
  CHECK(added.total * 100 <= added.runs * 105 && added.worst <= 2);
  /* 4 since heavy runs are cut from 1.5 targets rather than 2 (3 of 3,000
   * deletions; the mean stays 1.03): balance for many cores. */
  CHECK(deleted.total * 100 <= deleted.runs * 105 && deleted.worst <= 4);
}

static void test_degenerate_sequences(void) {
  uint64_t cost[3] = {0, 0, 0}, hash[3] = {1, 2, 3};
  uint32_t chunk_of[3];
  CHECK_EQ_U(mtpc_chunk_sequence(cost, hash, 0, TARGET, chunk_of), 0);
  CHECK_EQ_U(mtpc_chunk_sequence(cost, hash, 3, TARGET, chunk_of), 1);
  /* One huge item is one chunk, however many targets it costs. */
  cost[1] = 100 * TARGET;
  CHECK_EQ_U(mtpc_chunk_sequence(cost, hash, 3, TARGET, chunk_of), 1);
  CHECK_EQ_U(mtpc_chunk_sequence(cost, hash, 3, 0, chunk_of), 1);
}

int main(void) {
  static sequence base;
  make_sequence(&base);
  test_balance(&base);
  test_each_change(&base);
  test_degenerate_sequences();
  CHECK_SUMMARY();
}
