"""A MinGW module for coff-bigobj.test: N variables, each in a COMDAT (a
section) of its own, read by two functions that partitions split between
them, so that each partition's object stays a regular COFF one and the
merged object needs /bigobj (more than 65,279 sections).

  many-comdats.py N > out.ll
"""
import sys
n = int(sys.argv[1])
out = ['source_filename = "a-source-name-longer-than-one-symbol-record.c"',
       'target triple = "x86_64-w64-windows-gnu"']
for i in range(n):
    out.append(f'$g{i} = comdat any')
    out.append(f'@g{i} = weak_odr dso_local global i32 {i}, comdat')
for half in range(2):
    out.append(f'define dso_local i32 @sum{half}() nounwind {{')
    names = []
    for i in range(half, n, 2):
        out.append(f'  %v{i} = load volatile i32, ptr @g{i}')
        names.append(f'%v{i}')
    out.append(f'  %s{half} = add i32 {names[0]}, {names[-1]}')
    out.append(f'  ret i32 %s{half}')
    out.append('}')
out.append('define dso_local i32 @main() nounwind {')
out.append('  %a = call i32 @sum0()')
out.append('  %b = call i32 @sum1()')
out.append('  %r = add i32 %a, %b')
out.append('  %m = urem i32 %r, 251')
out.append('  ret i32 %m')
out.append('}')
print('\n'.join(out))
