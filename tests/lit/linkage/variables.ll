; Global variables: each definition is owned by one partition; elsewhere it is
; a declaration, or an available_externally copy for read-only data.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms

target triple = "x86_64-pc-linux-gnu"

@ext = global i32 1
@common_var = common global i32 0
@only_a = internal global i32 0
@shared = internal global i32 0
@table = internal constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
@fptrs = internal constant [1 x ptr] [ptr @b]

define i32 @a(i32 %i) {
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %i
  %v = load i32, ptr %p
  %e = load i32, ptr @ext
  %o = load i32, ptr @only_a
  %s = load i32, ptr @shared
  %c = load i32, ptr @common_var
  %f = load ptr, ptr @fptrs
  %s1 = add i32 %v, %e
  %s2 = add i32 %s1, %o
  %s3 = add i32 %s2, %s
  %s4 = add i32 %s3, %c
  store i32 %s4, ptr @only_a
  store i32 %s4, ptr @shared
  ret i32 %s4
}

define i32 @b(i32 %i) {
  %p = getelementptr [4 x i32], ptr @table, i32 0, i32 %i
  %v = load i32, ptr %p
  %e = load i32, ptr @ext
  %s = load i32, ptr @shared
  %r = add i32 %v, %e
  %r2 = add i32 %r, %s
  ret i32 %r2
}

; a is the larger group and fills partition 0 with the variables only it
; uses. Shared variables are groups of their own, placed by coupling (a tie
; here, so the lighter partition 1 takes them).
; P0-DAG: @ext = external global i32
; P0-DAG: @common_var = external global i32
; P0-DAG: @only_a = internal global i32 0
; P0-DAG: @shared.llvm.mtpc{{[0-9a-f]+}} = external hidden global i32
; Read-only data travels as an available_externally copy, so loads from it
; still fold.
; P0-DAG: @table.llvm.mtpc{{[0-9a-f]+}} = available_externally hidden constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
; An address taken is not a call: no copy of b.
; P0-DAG: @fptrs = internal constant [1 x ptr] [ptr @b]
; P0-DAG: declare i32 @b(i32)
; P0-DAG: define i32 @a(

; P1-DAG: @ext = global i32 1
; P1-DAG: @common_var = common global i32 0
; P1-DAG: @shared.llvm.mtpc{{[0-9a-f]+}} = hidden global i32 0
; P1-DAG: @table.llvm.mtpc{{[0-9a-f]+}} = hidden constant [4 x i32]
; P1-DAG: define i32 @b(
; P1-NOT: only_a
; P1-NOT: fptrs

; NM-DAG: D ext
; NM-DAG: C common_var
; NM-DAG: b shared
; NM-DAG: r table
; NM-NOT: mtpc
