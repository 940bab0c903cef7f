/* Content-defined chunks: a sequence of items cut into runs of about a
 * target cost, where the cuts follow the items themselves rather than the
 * running total, so that a change to one item moves no cut but the ones
 * beside it (as rsync and restic cut files into chunks). */
#ifndef MTPC_CHUNKS_H
#define MTPC_CHUNKS_H

#include <stdint.h>

/* A chunk lighter than this share of the target joins the next one; one
 * heavier than MTPC_CHUNK_SPLIT_NUM / MTPC_CHUNK_SPLIT_DEN targets is cut
 * again. One and a half, not two: on a machine with a core per partition
 * the heaviest chunk is the critical path (docs/design.rst has
 * PostgreSQL's projections). */
#define MTPC_CHUNK_MERGE_DIVISOR 3u
#define MTPC_CHUNK_SPLIT_NUM 3u
#define MTPC_CHUNK_SPLIT_DEN 2u

/* Items 0..count-1 in their canonical order, each with a cost and a hash of
 * its identity (not of its cost). chunk_of[i] receives the chunk of item i,
 * numbered in order from 0; returns the number of chunks (0 when count is 0).
 *
 * An item closes a chunk when its hash falls below a threshold that grows
 * with its own cost (probability 1 - exp(-cost / target)), so a heavy item
 * ends a chunk more often than a light one and chunks cost about `target`
 * on average. A chunk lighter than target / MTPC_CHUNK_MERGE_DIVISOR joins
 * the next (the last joins the one before); one heavier than
 * 1.5 targets is cut again the same way with other
 * hashes (after six tries, into pieces of equal running cost). An item
 * heavier than 1.5 targets is a chunk of its own (the light run before it
 * joins the chunk before that). */
uint32_t mtpc_chunk_sequence(const uint64_t *cost, const uint64_t *hash, uint32_t count,
                             uint64_t target, uint32_t *chunk_of);

#endif
