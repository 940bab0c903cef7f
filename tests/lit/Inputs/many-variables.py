"""A C module for partition-load.test: `probe`, a small function, beside N
global variables, each of a struct type of its own with WIDTH members, read
by GROUP-variable functions, so that each variable's debug info (its
expression, its type) belongs to the partition that defines it.

  many-variables.py N WIDTH GROUP > out.c
"""
import sys
n, width, group = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
out = ['struct Probe { int a; long b; };',
       '__attribute__((noinline)) long probe(struct Probe *p) { return p->a + p->b; }']
for i in range(n):
    members = ' '.join(f'int m{j}; double d{j};' for j in range(width))
    values = ', '.join(f'{i + j}, {j}.5' for j in range(width))
    out.append(f'struct V{i} {{ {members} }};')
    out.append(f'struct V{i} v{i} = {{ {values} }};')
for first in range(0, n, group):
    members = range(first, min(first + group, n))
    total = ' + '.join(f'v{i}.m0 + v{i}.d{width - 1}' for i in members)
    out.append(f'__attribute__((noinline)) double read{first}(void) {{ return {total}; }}')
out.append('double run(void) { struct Probe p = {1, 2}; return probe(&p)')
for first in range(0, n, group):
    out.append(f'  + read{first}()')
out.append('; }')
print('\n'.join(out))
