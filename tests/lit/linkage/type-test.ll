; Type tests (CFI, whole-program devirtualization) split like any code. With
; a ThinLTO backend's combined index the passes that resolve them run on the
; whole module first (tests/lit/lld/type-tests.test); without one, as here,
; the pipeline drops a type test under an assume call by call, in whichever
; partition owns the call.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --stats --emit-partitions %t.d 2>&1 | FileCheck %s
; RUN: cat %t.d/part*.ll | FileCheck %s --check-prefix=IR
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM
; RUN: %mtpc compile %t.bc -o %t.one.o --partitions 1
; RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s --check-prefix=ASM
; RUN: llvm-objdump -d --no-show-raw-insn %t.one.o | FileCheck %s --check-prefix=ASM

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

; CHECK-NOT: warning
; CHECK: mtpc stats: 2 partitions
; IR: call i1 @llvm.type.test(ptr %p, metadata !"T")
; NM-DAG: T a
; NM-DAG: T b
; ASM-LABEL: <a>:
; ASM-NEXT: movl $0x1, %eax
; ASM-NEXT: retq
