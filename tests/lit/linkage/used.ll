; llvm.used and llvm.compiler.used entries follow their globals: each
; partition lists what it owns.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

target triple = "x86_64-pc-linux-gnu"

@llvm.used = appending global [2 x ptr] [ptr @keep_big, ptr @keep_small], section "llvm.metadata"
@llvm.compiler.used = appending global [1 x ptr] [ptr @marker], section "llvm.metadata"
@marker = internal global i32 7

define internal i32 @keep_big(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  %c = mul i32 %b, %b
  %d = add i32 %c, %a
  %e = mul i32 %d, %c
  %f = add i32 %e, %d
  ret i32 %f
}

define internal i32 @keep_small(i32 %x) {
  %a = mul i32 %x, 5
  %b = add i32 %a, 2
  %c = mul i32 %b, %a
  %m = load i32, ptr @marker
  %d = add i32 %c, %m
  ret i32 %d
}

; P0: @llvm.used = appending global [1 x ptr] [ptr @keep_big], section "llvm.metadata"
; P0-NOT: llvm.compiler.used
; P1-DAG: @llvm.used = appending global [1 x ptr] [ptr @keep_small], section "llvm.metadata"
; P1-DAG: @llvm.compiler.used = appending global [1 x ptr] [ptr @marker], section "llvm.metadata"
; NM-DAG: t keep_big
; NM-DAG: t keep_small
; NM-DAG: d marker
