enum color { RED, GREEN, BLUE };
struct point { int x, y; };
struct box { struct point corner; int side; };
int shared_counter;
static int only_a_state;
__attribute__((noinline)) int a(struct point p) { only_a_state += p.x; shared_counter++; return only_a_state * p.y + RED; }
__attribute__((noinline)) int b(int v, const struct box *q) { shared_counter += v + q->side; return shared_counter * 3 + v * v - BLUE; }
