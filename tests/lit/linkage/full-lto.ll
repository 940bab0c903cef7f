; A full LTO module (--full-lto), as a linker hands it over after
; internalization: the whole-program passes run on the whole module before
; the split (docs/design.rst, Full LTO), so global DCE has removed what
; nothing uses, a function and a table, before any partition is formed; a
; dead function left to a partition could keep its callees in others alive.
; An internalized function called from both partitions is promoted across
; the cut and local again, under its own name, in the object. A symbol the
; linker preserves (external here) stays global. Without --full-lto the
; dead code is split like the rest.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d %t.thin.d
; RUN: %mtpc compile --full-lto %t.bc -o %t.o --partitions 2 --stats --emit-partitions %t.d 2>&1 | FileCheck %s --check-prefix=STATS
; RUN: %verify-partitions %t.d
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM
; RUN: %mtpc compile %t.bc -o %t.thin.o --partitions 2 --emit-partitions %t.thin.d
; RUN: cat %t.thin.d/part0.ll %t.thin.d/part1.ll | FileCheck %s --check-prefix=THIN
;
; The same object from the same input whatever the thread count.
; RUN: %mtpc compile --full-lto %t.bc -o %t.j1.o --partitions 2 -j1
; RUN: cmp %t.o %t.j1.o

target triple = "x86_64-pc-linux-gnu"

@scale = internal global i32 5
@unused_table = internal global [4 x i32] [i32 1, i32 2, i32 3, i32 4]

define internal i32 @shared(i32 %x, i32 %k) noinline {
  %s = load i32, ptr @scale
  %y = mul i32 %x, %s
  %z = add i32 %y, %k
  ret i32 %z
}

define internal i32 @unused_helper(i32 %x) noinline {
  %p = getelementptr [4 x i32], ptr @unused_table, i32 0, i32 %x
  %v = load i32, ptr %p
  ret i32 %v
}

define i32 @root_a(i32 %x) {
  %r = call i32 @shared(i32 %x, i32 3)
  %s = add i32 %r, 1
  %t = mul i32 %s, 3
  %u = xor i32 %t, 7
  ret i32 %u
}

define i32 @root_b(i32 %x) {
  %r = call i32 @shared(i32 %x, i32 3)
  %y = add i32 %r, 2
  %z = mul i32 %y, 5
  ret i32 %z
}

; STATS: mtpc stats: 2 partitions
; STATS: whole-program passes
; IR-NOT: @unused_helper
; IR-NOT: @unused_table
; IR: define hidden {{.*}}i32 @shared.llvm.mtpc{{[0-9a-f]+}}(
; NM-DAG: T root_a
; NM-DAG: T root_b
; NM-DAG: t shared
; THIN-DAG: @unused_table
; THIN-DAG: @unused_helper
