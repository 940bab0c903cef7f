; A weak (interposable) definition is never copied: the linker may pick
; another one. Others declare it. An exported linkonce becomes weak.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --import-instr-limit=0 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms

target triple = "x86_64-pc-linux-gnu"

define weak i32 @w(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

define linkonce i32 @lo(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @a(i32 %x) {
  %r = call i32 @w(i32 %x)
  %s = call i32 @lo(i32 %r)
  %t = mul i32 %s, %s
  %u = add i32 %t, 9
  %v = mul i32 %u, %t
  ret i32 %v
}

define i32 @b(i32 %x) {
  %r = call i32 @w(i32 %x)
  %s = call i32 @lo(i32 %r)
  ret i32 %s
}

; PLAN-NOT: copy  function w
; IR-DAG: define weak i32 @w(
; IR-DAG: declare i32 @w(i32)
; IR-DAG: define weak i32 @lo(
; IR-DAG: declare i32 @lo(i32)
