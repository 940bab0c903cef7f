; Clones that survive in several partitions are code-generated once: after
; optimization, the first partition in the plan's order (costlier first:
; f0's, then f1's) whose copy survived keeps the code, and each later one
; turns its copy into a declaration, with the rest of its COMDAT (the
; variable) and the aliases of it. A copy every call in a partition inlined
; is gone there as in a serial compile, so the next partition keeps it
; (first_inlines: f0 inlines its only call). The program behaves as the
; serial compile's, with its symbols.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d && mkdir %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions max --save-temps %t.d/ --stats 2> %t.stats
; RUN: FileCheck %s --check-prefix=STATS < %t.stats
; RUN: llvm-dis %t.d/part0.5.precodegen.bc -o - | FileCheck %s --check-prefix=P0
; RUN: llvm-dis %t.d/part1.5.precodegen.bc -o - | FileCheck %s --check-prefix=P1
; RUN: llvm-dis %t.d/part3.5.precodegen.bc -o - | FileCheck %s --check-prefix=LATER
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: %mtpc compile %t.bc -o %t.j2.o --partitions max -j2
; RUN: cmp %t.o %t.j2.o
; RUN: clang -no-pie %t.o -o %t.split
; RUN: clang -no-pie %t.serial.o -o %t.serial
; RUN: %t.split > %t.split.out
; RUN: %t.serial > %t.serial.out
; RUN: diff %t.serial.out %t.split.out

; STATS: clone copies left to the partition that keeps the code: 7

; P0: @shared = linkonce_odr {{.*}}global i32 7, comdat($with_data)
; P0: @kept_alias = linkonce_odr alias i32 (i32), ptr @kept
; P0: define linkonce_odr i32 @kept(
; P0: define linkonce_odr i32 @with_data(
; P0-NOT: first_inlines

; P1: @shared = external {{.*}}global i32
; P1: declare i32 @kept(
; P1: declare i32 @with_data(
; P1: define linkonce_odr i32 @first_inlines(
; P1: declare i32 @kept_alias(

; LATER: @shared = external {{.*}}global i32
; LATER: declare i32 @kept(
; LATER: declare i32 @with_data(
; LATER: declare i32 @first_inlines(
; LATER: declare i32 @kept_alias(

target triple = "x86_64-pc-linux-gnu"

$kept = comdat any
$with_data = comdat any
$first_inlines = comdat any

define linkonce_odr i32 @kept(i32 %x) noinline comdat {
  %y = mul i32 %x, 3
  ret i32 %y
}
@kept_alias = linkonce_odr alias i32 (i32), ptr @kept

@shared = linkonce_odr global i32 7, comdat($with_data)
define linkonce_odr i32 @with_data(i32 %x) noinline comdat($with_data) {
  %v = load i32, ptr @shared
  %w = add i32 %v, %x
  store i32 %w, ptr @shared
  ret i32 %w
}

define linkonce_odr i32 @first_inlines(i32 %x) comdat {
  %y = xor i32 %x, 85
  %z = mul i32 %y, %x
  ret i32 %z
}


define i32 @f0(i32 %x) noinline {
  %a = call i32 @kept(i32 %x)
  %b = call i32 @with_data(i32 %a)
  %c = call i32 @first_inlines(i32 %b) alwaysinline
  %d = add i32 %c, 11
  %e = mul i32 %d, %x
  %f = add i32 %e, %a
  %g = mul i32 %f, %b
  ret i32 %g
}
define i32 @f1(i32 %x) noinline {
  %a = call i32 @kept_alias(i32 %x)
  %b = call i32 @with_data(i32 %a)
  %c = call i32 @first_inlines(i32 %b) noinline
  %d = add i32 %c, 11
  %e = mul i32 %d, %x
  %f = add i32 %e, %a
  ret i32 %f
}
define i32 @f2(i32 %x) noinline {
  %a = call i32 @kept(i32 %x)
  %b = call i32 @with_data(i32 %a)
  %c = call i32 @first_inlines(i32 %b) noinline
  %d = add i32 %c, 11
  %e = sub i32 %d, %x
  ret i32 %e
}
define i32 @f3(i32 %x) noinline {
  %a = call i32 @kept_alias(i32 %x)
  %c = call i32 @first_inlines(i32 %a) noinline
  %d = add i32 %c, 11
  ret i32 %d
}

@.fmt = private unnamed_addr constant [13 x i8] c"%d %d %d %d\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {
  %a = call i32 @f0(i32 1)
  %b = call i32 @f1(i32 2)
  %c = call i32 @f2(i32 3)
  %d = call i32 @f3(i32 4)
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a, i32 %b, i32 %c, i32 %d)
  ret i32 0
}
