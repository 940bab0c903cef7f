; An alias lives with its aliasee; other partitions declare it.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms

target triple = "x86_64-pc-linux-gnu"

@pub = alias i32 (i32), ptr @impl
@weak_pub = weak alias i32 (i32), ptr @impl
@local_alias = internal alias i32 (i32), ptr @impl
@var_alias = alias i32, getelementptr (i8, ptr @data, i64 4)
@data = global [2 x i32] [i32 1, i32 2]

define i32 @impl(i32 %x) noinline {
  %y = mul i32 %x, 7
  %z = add i32 %y, 3
  %w = mul i32 %z, %z
  %v = xor i32 %w, 11
  ret i32 %v
}

define i32 @user(i32 %x) {
  %a = call i32 @pub(i32 %x)
  %b = call i32 @weak_pub(i32 %a)
  %c = call i32 @local_alias(i32 %b)
  %d = load i32, ptr @var_alias
  %e = add i32 %c, %d
  ret i32 %e
}

; P1-DAG: @pub = alias i32 (i32), ptr @impl
; P1-DAG: @weak_pub = weak alias i32 (i32), ptr @impl
; P1-DAG: @local_alias.llvm.mtpc{{[0-9a-f]+}} = hidden alias i32 (i32), ptr @impl
; P1-DAG: define i32 @impl(
; P0-DAG: declare i32 @pub(i32)
; P0-DAG: declare i32 @weak_pub(i32)
; P0-DAG: declare hidden i32 @local_alias.llvm.mtpc{{[0-9a-f]+}}(i32)
; An alias of data lives with the data.
; P0-DAG: @var_alias = alias i32, getelementptr (i8, ptr @data, i64 4)
; P0-DAG: define i32 @user(
