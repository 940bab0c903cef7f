; A local named inside inline asm keeps its name, so everything that
; references it shares its partition, and none of that code is copied.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR

target triple = "x86_64-pc-linux-gnu"

@counter = internal global i32 0

define void @bump() {
  call void asm sideeffect "incl counter(%rip)", "~{memory}"()
  ret void
}

define i32 @read_counter() {
  %v = load i32, ptr @counter
  ret i32 %v
}

define i32 @big(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  %c = mul i32 %b, %b
  %d = add i32 %c, %a
  %e = mul i32 %d, %c
  %f = add i32 %e, %d
  %g = call i32 @read_counter()
  %h = add i32 %f, %g
  call void @bump()
  ret i32 %h
}

; PLAN: partition [[P:[01]]]:
; PLAN-DAG: def   function bump
; PLAN-DAG: def   function read_counter
; PLAN-DAG: def   variable counter
; PLAN-NOT: promoted
; PLAN-NOT: copy
; IR: @counter = internal global i32 0
; IR-NOT: mtpc
