static int table[64];
static int mix(int x) { return x * 2654435761u >> 7; }
static void fill(void) { for (int i = 0; i < 64; i++) table[i] = mix(i) ^ i; }
int table_sum(void) { int s = 0; fill(); for (int i = 0; i < 64; i++) s += table[i] & 0xff; return s; }
int helper(int x) { return mix(x) & 1; }
