; A function whose block addresses are taken stays with every user of those
; addresses (code and initializers), and is never copied. Every other
; partition parses its body, also where nothing else uses the function
; (@hop: only @hop_point's code takes its address), and all of it compiles
; (test_partition_bitcode.c checks that such a body keeps its type).
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 3 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: %mtpc compile %t.bc -o %t-max.o --partitions max
; RUN: llvm-nm %t-max.o | FileCheck %s --check-prefix=SYMS

target triple = "x86_64-pc-linux-gnu"

@labels = internal constant [2 x ptr] [ptr blockaddress(@interp, %one), ptr blockaddress(@interp, %two)]

define i32 @interp(i32 %op) {
entry:
  %slot = getelementptr [2 x ptr], ptr @labels, i32 0, i32 %op
  %target = load ptr, ptr %slot
  indirectbr ptr %target, [label %one, label %two]
one:
  ret i32 1
two:
  ret i32 2
}

define ptr @resume_point() {
  ret ptr blockaddress(@interp, %two)
}

define i32 @caller_a(i32 %x) {
  %r = call i32 @interp(i32 %x)
  %s = mul i32 %r, %r
  %t = add i32 %s, 3
  %u = mul i32 %t, %s
  %v = add i32 %u, 7
  ret i32 %v
}

define i32 @caller_b(i32 %x) {
  %r = call i32 @interp(i32 %x)
  %s = add i32 %r, 1
  %t = mul i32 %s, 5
  ret i32 %t
}

define i32 @hop(i32 noundef %a, i32 %b) nounwind {
entry:
  %s = add i32 %a, %b
  br label %far
far:
  ret i32 %s
}

define ptr @hop_point() {
  ret ptr blockaddress(@hop, %far)
}

; SYMS-DAG: T hop
; SYMS-DAG: T hop_point
; SYMS-DAG: T interp
; SYMS-DAG: T caller_a

; PLAN: partition [[P:[0-9]]]:
; PLAN-DAG: def   function interp
; PLAN-DAG: def   function resume_point
; PLAN-DAG: def   variable labels
; PLAN: partition
; PLAN-NOT: copy  function interp
