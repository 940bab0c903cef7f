; Type tests need the whole module (CFI, whole-program devirtualization): the
; module compiles unsplit, with a warning that says why.
;
; RUN: llvm-as %s -o %t.bc
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --stats 2>&1 | FileCheck %s
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

target triple = "x86_64-pc-linux-gnu"

declare i1 @llvm.type.test(ptr, metadata)
declare void @llvm.assume(i1)

define i32 @a(ptr %p) {
  %t = call i1 @llvm.type.test(ptr %p, metadata !"T")
  call void @llvm.assume(i1 %t)
  ret i32 1
}

define i32 @b() {
  ret i32 2
}

; CHECK: mtpc: warning: {{.*}}: compiling unsplit: the module calls llvm.type.test
; CHECK: mtpc stats: 1 partition, {{.*}} unsplit
; NM-DAG: T a
; NM-DAG: T b
