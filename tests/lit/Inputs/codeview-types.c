/* C across partitions (tests/lit/cli/coff-merge.test): each partition whose
 * code uses a typedef'd struct writes its type names; the merged object
 * keeps one of each, as the serial compile writes. */
typedef struct Cell {
  int value, weight;
  struct Cell *next;
} Cell;
typedef unsigned long long Total;
#define WEIGH(n)                                                               \
  __attribute__((noinline)) Total weigh##n(Cell *c) {                          \
    Total t = 0;                                                               \
    for (; c; c = c->next)                                                     \
      t += (Total)c->value * n + c->weight;                                    \
    return t;                                                                  \
  }
WEIGH(1) WEIGH(2) WEIGH(3) WEIGH(4)
Total weigh_all(Cell *c) { return weigh1(c) + weigh2(c) + weigh3(c) + weigh4(c); }
