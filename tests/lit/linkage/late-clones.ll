; A clone that a partition earlier in the plan's order also holds waits for
; the late pipeline (vectorizers, unrolling, the late cleanups) until its
; partition knows it keeps the code: here f0's partition comes first and
; inlines @sum (an alwaysinline call), so f1's partition keeps it, and its
; copy skipped the late passes while the rest of its module ran them, then
; ran them alone once kept: vectorized as the serial compile's @sum is. The
; object is the same at -j1 and -j2, the program behaves as the serial
; compile's, with its symbols.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d && mkdir %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions max -j1 --save-temps %t.d/ \
; RUN:   --debug-pass-manager 2> %t.passes
; RUN: FileCheck %s --check-prefix=PASSES < %t.passes
; RUN: llvm-dis %t.d/part3.5.precodegen.bc -o - | FileCheck %s --check-prefix=KEEPER
; RUN: %mtpc compile %t.bc -o %t.j2.o --partitions max -j2
; RUN: cmp %t.o %t.j2.o
; RUN: rm -rf %t.serial.d && mkdir %t.serial.d
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1 --save-temps %t.serial.d/
; RUN: llvm-dis %t.serial.d/5.precodegen.bc -o - | FileCheck %s --check-prefix=KEEPER
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: clang -no-pie %t.o -o %t.split
; RUN: clang -no-pie %t.serial.o -o %t.serial
; RUN: %t.split > %t.split.out
; RUN: %t.serial > %t.serial.out
; RUN: diff %t.serial.out %t.split.out

; The keeper's front: @sum simplified, then left out of the late pipeline.
; PASSES: Running pass: InstCombinePass on sum
; PASSES: Skipping pass: LoopVectorizePass on sum
; Its back: the late pipeline on @sum alone.
; PASSES: Running pass: LoopVectorizePass on sum
; PASSES-NOT: LoopVectorizePass on sum

; f1 and @sum are the last partition.
; KEEPER: define linkonce_odr i32 @sum(
; KEEPER: load <4 x i32>

target triple = "x86_64-pc-linux-gnu"

$sum = comdat any

define linkonce_odr i32 @sum(ptr %a, i64 %n) comdat {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  %p = getelementptr inbounds i32, ptr %a, i64 %i
  %v = load i32, ptr %p
  %s.next = add i32 %s, %v
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done
done:
  %r = phi i32 [ 0, %entry ], [ %s.next, %loop ]
  ret i32 %r
}

define i32 @f0(ptr %a, i64 %n) noinline {
  %s = call i32 @sum(ptr %a, i64 %n) alwaysinline
  %t = mul i32 %s, 7
  %u = add i32 %t, 3
  %w = mul i32 %u, %s
  %x = xor i32 %w, 91
  %y = mul i32 %x, %t
  ret i32 %y
}
define i32 @f1(ptr %a, i64 %n) noinline {
  %s = call i32 @sum(ptr %a, i64 %n) noinline
  %t = add i32 %s, 1
  ret i32 %t
}

@data = private constant [9 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7, i32 8, i32 9]
@.fmt = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
declare i32 @printf(ptr, ...)

define i32 @main() {
  %a = call i32 @f0(ptr @data, i64 9)
  %b = call i32 @f1(ptr @data, i64 9)
  %r = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %a, i32 %b)
  ret i32 0
}
