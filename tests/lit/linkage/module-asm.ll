; Module asm is emitted once, by partition 0, with every symbol it names; the
; users of a local it names stay there too (its name cannot change).
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

target triple = "x86_64-pc-linux-gnu"

module asm ".globl asm_entry"
module asm "asm_entry:"
module asm "  jmp local_helper"

@llvm.compiler.used = appending global [1 x ptr] [ptr @local_helper], section "llvm.metadata"

define internal i32 @local_helper(i32 %x) {
  %y = mul i32 %x, 11
  ret i32 %y
}

define i32 @uses_helper(i32 %x) {
  %r = call i32 @local_helper(i32 %x)
  ret i32 %r
}

define i32 @big(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  %c = mul i32 %b, %b
  %d = add i32 %c, %a
  %e = mul i32 %d, %c
  %f = add i32 %e, %d
  %g = mul i32 %f, %e
  ret i32 %g
}

; PLAN: partition 0:
; PLAN-DAG: def   function local_helper
; PLAN-DAG: def   function uses_helper
; PLAN: partition 1:
; PLAN: def   function big
; P0: module asm ".globl asm_entry"
; P0: define internal i32 @local_helper(
; P1-NOT: module asm
; NM-DAG: T asm_entry
; NM-DAG: t local_helper
