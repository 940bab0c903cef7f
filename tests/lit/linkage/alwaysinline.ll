; An alwaysinline callee is copied to every partition that calls it,
; whatever its size.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --import-instr-limit=0 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: llvm-objdump -d %t.o | FileCheck %s --check-prefix=ASM

target triple = "x86_64-pc-linux-gnu"

define internal i32 @always(i32 %x) alwaysinline {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  %c = mul i32 %b, %b
  ret i32 %c
}

define i32 @a(i32 %x) {
  %r = call i32 @always(i32 %x)
  %s = mul i32 %r, %r
  %t = add i32 %s, 3
  %u = mul i32 %t, %s
  ret i32 %u
}

define i32 @b(i32 %x) {
  %r = call i32 @always(i32 %x)
  ret i32 %r
}

; PLAN: copy  function always
; No call is left: both callers inlined it.
; ASM-NOT: call
