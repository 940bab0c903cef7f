; A local function that code in other partitions calls is promoted, and
; each of them gets a copy to inline. When every partition holding it (its
; owner and those with a copy) comes before its owner in the plan's order
; (heavier first, copies included) and none of them, nor the owner, still
; uses it after optimization, the owner drops it, as the serial compile
; drops a local that every caller inlined. It stays when a holder still
; calls it (declined: big1's call is noinline) and when a partition names it
; without a copy (in_table: a variable holds its address).
;
; With a partition per group, every owner (its one function) is lighter than
; the partitions that copy it: dead (inlined by big0 and big1) and mid
; (inlined by big0 and tiny) go. With two partitions, dead's owner
; (partition 1: 37 + 14 copied) comes before its holder (partition 0: 39 +
; 8), which might still call it when the owner is compiled: it stays, as
; dead code; mid goes.
;
; RUN: llvm-as %s -o %t.bc
; RUN: %mtpc compile %t.bc -o %t.o --partitions max --stats 2> %t.stats
; RUN: FileCheck %s --check-prefix=STATS < %t.stats
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=SPLIT
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: llvm-nm %t.serial.o | FileCheck %s --check-prefix=SPLIT
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: %mtpc compile %t.bc -o %t.j2.o --partitions max -j2
; RUN: cmp %t.o %t.j2.o
; RUN: %mtpc plan %t.bc --partitions 2 | FileCheck %s --check-prefix=PLAN2
; RUN: %mtpc compile %t.bc -o %t.2.o --partitions 2 --stats 2> %t.2.stats
; RUN: FileCheck %s --check-prefix=STATS2 < %t.2.stats
; RUN: llvm-nm %t.2.o | FileCheck %s --check-prefix=TWO
; RUN: %global-symbols %t.2.o > %t.2.syms
; RUN: diff %t.serial.syms %t.2.syms
; RUN: clang -no-pie %t.o -o %t.split
; RUN: clang -no-pie %t.2.o -o %t.two
; RUN: clang -no-pie %t.serial.o -o %t.serial
; RUN: %t.split > %t.split.out
; RUN: %t.two > %t.two.out
; RUN: %t.serial > %t.serial.out
; RUN: diff %t.serial.out %t.split.out
; RUN: diff %t.serial.out %t.two.out

; STATS: promoted definitions no partition uses, dropped: 2

; SPLIT-NOT: {{ dead$| mid$}}
; SPLIT: t declined
; SPLIT-NOT: {{ dead$| mid$}}
; SPLIT: t in_table
; SPLIT-NOT: {{ dead$| mid$}}

; PLAN2: partition 0: cost=39 {{.*}} imported=8
; PLAN2: def function mid
; PLAN2: copy function dead
; PLAN2: partition 1: cost=37 {{.*}} imported=14
; PLAN2: def function dead
; PLAN2: copy function mid

; STATS2: promoted definitions no partition uses, dropped: 1

; TWO-NOT: {{ mid$}}
; TWO: t dead
; TWO-NOT: {{ mid$}}

target triple = "x86_64-pc-linux-gnu"

@table = global ptr @in_table
@fmt = private constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

define internal i32 @dead(i32 %x) {
  %a = mul i32 %x, 7
  %b = add i32 %a, 3
  ret i32 %b
}

define internal i32 @declined(i32 %x) {
  %a = mul i32 %x, 5
  %b = xor i32 %a, 9
  ret i32 %b
}

define internal i32 @in_table(i32 %x) {
  %a = sub i32 %x, 11
  ret i32 %a
}

define internal i32 @mid(i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ %x, %entry ], [ %s.next, %loop ]
  %m = mul i32 %s, 3
  %s.next = add i32 %m, %i
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 4
  br i1 %done, label %exit, label %loop
exit:
  %r1 = xor i32 %s.next, 1
  %r2 = add i32 %r1, 2
  %r3 = mul i32 %r2, 5
  %r4 = sub i32 %r3, 7
  ret i32 %r4
}

define i32 @big0(i32 %x) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ %x, %entry ], [ %s.next, %loop ]
  %d = call i32 @dead(i32 %s)
  %e = call i32 @declined(i32 %d)
  %f = call i32 @mid(i32 %e)
  %g1 = mul i32 %f, 13
  %g2 = xor i32 %g1, %i
  %g3 = add i32 %g2, 17
  %g4 = mul i32 %g3, 19
  %g5 = xor i32 %g4, 23
  %g6 = add i32 %g5, 29
  %g7 = mul i32 %g6, 31
  %g8 = xor i32 %g7, 37
  %g9 = add i32 %g8, 41
  %g10 = mul i32 %g9, 43
  %s.next = xor i32 %g10, 47
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 10
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %s.next
}

define i32 @big1(i32 %x) noinline {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %s = phi i32 [ %x, %entry ], [ %s.next, %loop ]
  %d = call i32 @dead(i32 %s)
  %e = call i32 @declined(i32 %d) noinline
  %g1 = mul i32 %e, 13
  %g2 = xor i32 %g1, %i
  %g3 = add i32 %g2, 17
  %g4 = mul i32 %g3, 19
  %g5 = xor i32 %g4, 23
  %g6 = add i32 %g5, 29
  %g7 = mul i32 %g6, 31
  %s.next = xor i32 %g7, 37
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, 10
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %s.next
}

define i32 @tiny(i32 %x) noinline {
  %r = call i32 @mid(i32 %x)
  ret i32 %r
}

define i32 @main() {
  %a = call i32 @big0(i32 1)
  %b = call i32 @big1(i32 %a)
  %c = call i32 @tiny(i32 %b)
  %p = load ptr, ptr @table
  %d = call i32 %p(i32 %c)
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %d)
  ret i32 0
}
