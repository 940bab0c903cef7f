int helper(int x);
int table_sum(void);
int main(int argc, char **argv) { return helper(argc) + table_sum() == 1234567 ? 1 : 0; }
