; Unnamed globals used across partitions get stable names from their index
; and the module, like any promoted local.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR
; RUN: rm -rf %t.again
; RUN: %mtpc compile %t.bc -o %t.again.o --partitions 2 --emit-partitions %t.again
; RUN: cmp %t.d/part0.ll %t.again/part0.ll
; RUN: cmp %t.o %t.again.o

target triple = "x86_64-pc-linux-gnu"

@0 = private unnamed_addr constant [6 x i8] c"hello\00"
@1 = internal global i32 0

define ptr @a() {
  %v = load i32, ptr @1
  %w = add i32 %v, 1
  store i32 %w, ptr @1
  %x = mul i32 %w, %w
  store i32 %x, ptr @1
  ret ptr @0
}

define ptr @b() {
  store i32 0, ptr @1
  ret ptr @0
}

; IR-DAG: @__mtpc_unnamed.{{[0-9]+}}.llvm.mtpc{{[0-9a-f]+}} = hidden unnamed_addr constant [6 x i8] c"hello\00"
; IR-DAG: @__mtpc_unnamed.{{[0-9]+}}.llvm.mtpc{{[0-9a-f]+}} = available_externally hidden unnamed_addr constant [6 x i8] c"hello\00"
; IR-DAG: @__mtpc_unnamed.{{[0-9]+}}.llvm.mtpc{{[0-9a-f]+}} = hidden global i32 0
; IR-DAG: @__mtpc_unnamed.{{[0-9]+}}.llvm.mtpc{{[0-9a-f]+}} = external hidden global i32
