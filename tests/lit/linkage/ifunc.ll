; An ifunc lives with its resolver; other partitions declare a function.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=ELF

target triple = "x86_64-pc-linux-gnu"

@fast = ifunc i32 (i32), ptr @resolve

define internal ptr @resolve() {
  ret ptr @impl
}

define internal i32 @impl(i32 %x) noinline {
  %y = mul i32 %x, 3
  %z = add i32 %y, 1
  %w = mul i32 %z, %z
  %v = add i32 %w, %y
  ret i32 %v
}

define i32 @user_a(i32 %x) {
  %r = call i32 @fast(i32 %x)
  %s = mul i32 %r, %r
  %t = add i32 %s, 5
  %u = mul i32 %t, %s
  %v = add i32 %u, 9
  %w = mul i32 %v, %u
  ret i32 %w
}

define i32 @user_b(i32 %x) {
  %r = call i32 @fast(i32 %x)
  ret i32 %r
}

; PLAN: partition [[P:[01]]]:
; PLAN-DAG: def   ifunc    fast
; PLAN-DAG: def   function resolve
; PLAN: partition
; IR-DAG: @fast = ifunc i32 (i32), ptr @resolve
; IR-DAG: declare i32 @fast(i32)
; IR-DAG: define internal ptr @resolve()
; ELF: IFUNC GLOBAL DEFAULT {{.*}} fast
