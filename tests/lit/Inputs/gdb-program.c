#include <stdio.h>

struct node {
  int key;
  const char *name;
  struct node *next;
};

static struct node nodes[3] = {{1, "one", &nodes[1]}, {2, "two", &nodes[2]}, {3, "three", 0}};

__attribute__((noinline)) int visit(struct node *node, int depth) {
  volatile int weight = node->key * 10 + depth;
  volatile int total = weight;
  if (node->next)
    total += visit(node->next, depth + 1);
  return total;
}

__attribute__((noinline)) int mix(int x) {
  int h = x;
  for (int i = 0; i < 8; i++)
    h = h * 31 + (h >> 3) + i;
  return h;
}

__attribute__((noinline)) int checksum(const char *text) {
  int sum = 0;
  while (*text)
    sum = mix(sum + *text++);
  return sum;
}

/* Its unit only declares struct node: the type's home is visit's partition. */
__attribute__((noinline)) int walk(int start) {
  struct node *volatile first = &nodes[start];
  int total = visit(first, 0);
  for (int i = 0; i < 3; i++)
    total ^= checksum(nodes[i].name) & 0xff;
  return total;
}

/* The largest function: the plan puts it first, in partition 0. */
__attribute__((noinline)) void describe(int value) {
  for (int i = 0; i < 3; i++) {
    switch ((value + i) % 5) {
    case 0: printf("zero %d %s\n", i, nodes[i].name); break;
    case 1: printf("one %d %d\n", i, nodes[i].key * value); break;
    case 2: printf("two %d %x\n", i, mix(value + i)); break;
    case 3: printf("three %d %d\n", i, checksum(nodes[i].name) % 97); break;
    default: printf("other %d\n", i); break;
    }
  }
}

int main(void) {
  describe(7);
  printf("walk %d\n", walk(0));
  return 0;
}
