; The foo/bar/g/h example from the MCLink and MTPC talks: two exported roots
; sharing two internal callees. g is noinline (kept out of line), h is small.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms

target triple = "x86_64-pc-linux-gnu"

define dso_local void @foo() {
  call void @g()
  call void @h()
  call void @g()
  ret void
}

define dso_local void @bar() {
  call void @g()
  call void @h()
  ret void
}

define internal void @g() noinline {
  ret void
}

define internal void @h() {
  ret void
}

; foo is the costliest group, so it fills partition 0; each shared callee is
; a group of its own and goes where it is called most.
; PLAN: partitions: 2
; PLAN: partition 0:
; PLAN-DAG: def   function foo
; PLAN-DAG: copy  function h
; PLAN-DAG: def   function g {{.*}} exported promoted=g.llvm.mtpc{{[0-9a-f]{16}$}}
; PLAN: partition 1:
; PLAN-DAG: def   function bar
; PLAN-DAG: def   function h {{.*}} exported promoted=h.llvm.mtpc{{[0-9a-f]{16}$}}
; g is noinline: no copy of it anywhere.
; PLAN-NOT: copy  function g

; Exactly one definition of each; internal callees used across the cut are
; external hidden under a module-unique name; the small callee h is copied
; available_externally so it can still be inlined into foo.
; P0-DAG: define dso_local void @foo()
; P0-DAG: define hidden void @g.llvm.mtpc{{[0-9a-f]+}}()
; P0-DAG: define available_externally hidden void @h.llvm.mtpc{{[0-9a-f]+}}()
; P0-NOT: define {{.*}}@bar
; P1-DAG: define dso_local void @bar()
; P1-DAG: define hidden void @h.llvm.mtpc{{[0-9a-f]+}}()
; P1-DAG: declare hidden void @g.llvm.mtpc{{[0-9a-f]+}}()
; P1-NOT: define {{.*}}@foo

; After the merge the promoted symbols are local again, under their own names.
; NM-DAG: T bar
; NM-DAG: T foo
; NM-DAG: t g
; NM-NOT: mtpc
