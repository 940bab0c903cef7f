// Names that hold the text of the partition cache's placeholders: sections a
// user named so, in a partition whose string literals and promoted helper
// are masked. The masks must leave them as they are.
__attribute__((section("mydata.mtpc.v0"))) int table[4] = {1, 2, 3, 4};
__attribute__((section("other.llvm.mtpc.s0"))) int more[2] = {5, 6};
static __attribute__((noinline)) int helper(int i) { return i * 31 + more[i & 1]; }
const char *message(int i) { return table[i] + helper(i) ? "one" : "two"; }
int use_helper(int i) { return helper(i) + helper(i + 1); }
