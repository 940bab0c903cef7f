; The module's own available_externally definitions (what ThinLTO imported)
; are kept by every partition that calls them, and by no other.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 3 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=CALLERS
; RUN: FileCheck %s --check-prefix=OTHER < %t.d/part2.ll

target triple = "x86_64-pc-linux-gnu"

define available_externally i32 @imported(i32 %x) {
  %y = mul i32 %x, 13
  ret i32 %y
}

define i32 @a(i32 %x) {
  %r = call i32 @imported(i32 %x)
  %s = mul i32 %r, %r
  %t = add i32 %s, 3
  %u = mul i32 %t, %s
  %v = add i32 %u, 7
  %w = mul i32 %v, %u
  ret i32 %w
}

define i32 @b(i32 %x) {
  %r = call i32 @imported(i32 %x)
  %s = add i32 %r, 1
  %t = mul i32 %s, 5
  %u = add i32 %t, 2
  ret i32 %u
}

define i32 @c(i32 %x) {
  %s = add i32 %x, 1
  ret i32 %s
}

; PLAN: partition 0:
; PLAN: copy  function imported
; PLAN: partition 1:
; PLAN: copy  function imported
; PLAN: partition 2:
; PLAN-NOT: function imported
; CALLERS-COUNT-2: define available_externally i32 @imported(
; OTHER-NOT: imported
