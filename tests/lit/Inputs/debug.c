enum color { RED, GREEN, BLUE };
struct point { int x, y; };
int shared_counter;
static int only_a_state;
__attribute__((noinline)) int a(struct point p) { only_a_state += p.x; shared_counter++; return only_a_state * p.y + RED; }
__attribute__((noinline)) int b(int v) { shared_counter += v; return shared_counter * 3 + v * v - BLUE; }
