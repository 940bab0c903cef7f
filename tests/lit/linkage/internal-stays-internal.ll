; An internal function whose only caller is in its partition keeps internal
; linkage and its name: nothing is promoted.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR

target triple = "x86_64-pc-linux-gnu"

define i32 @root_a(i32 %x) {
  %r = call i32 @helper(i32 %x)
  %s = add i32 %r, 1
  %t = mul i32 %s, 3
  %u = xor i32 %t, 7
  ret i32 %u
}

define internal i32 @helper(i32 %x) noinline {
  %y = mul i32 %x, %x
  ret i32 %y
}

define i32 @root_b(i32 %x) {
  %y = add i32 %x, 2
  %z = mul i32 %y, 5
  ret i32 %z
}

; PLAN: partitions: 2
; PLAN-NOT: promoted=
; PLAN: def   function helper
; PLAN-NOT: exported
; IR: define internal i32 @helper(
; IR-NOT: mtpc
