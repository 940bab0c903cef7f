"""A C++ module for partition-load.test: `probe`, a small function with a
small struct, beside N namespaces, each a class of WIDTH vector, map and int
members and WIDTH inline methods and a function that takes it; run() uses
every class, so their debug info is the module's, not one function's.

  many-classes.py N WIDTH > out.cpp
"""
import sys
n, width = int(sys.argv[1]), int(sys.argv[2])
out = ['#include <string>', '#include <vector>', '#include <map>']
out.append('struct Probe { int a; std::string b; };')
out.append('__attribute__((noinline)) int probe(Probe *p) { return p->a + (int)p->b.size(); }')
for i in range(n):
    fields = '\n'.join(f'  std::vector<int> v{j}; std::map<int, std::string> m{j}; int k{j} = {j};' for j in range(width))
    methods = '\n'.join(f'  int get{j}() const {{ return k{j} + (int)v{j}.size(); }}' for j in range(width))
    out.append(f'''namespace n{i} {{
struct Item{i} {{
{fields}
{methods}
}};
__attribute__((noinline)) int work{i}(Item{i} &it, int x) {{
  it.v0.push_back(x); it.m1[x] = std::to_string(x);
  return it.get0() + it.get1() + (int)it.m1.size();
}}
}}''')
out.append('int run(int x) { int s = 0;')
for i in range(n):
    out.append(f'  {{ n{i}::Item{i} it; s += n{i}::work{i}(it, x); }}')
out.append('  Probe p{x, "probe"}; return s + probe(&p); }')
print('\n'.join(out))
