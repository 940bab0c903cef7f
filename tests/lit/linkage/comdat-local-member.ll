; A COMDAT whose linkonce member calls a local member of the same group is
; not cloned. Each partition's clone would carry its own copy of the local;
; a partition that inlines the linkonce member then calls its copy from
; outside the group, and the merge keeps only one partition's group, so the
; call would land in a discarded section (the program crashed). The group
; is defined once, its linkonce member exported to the partitions that call
; it, and no other partition copies it (it names a local of its group). The
; program behaves as the serial compile's at every partition count.
;
; RUN: llvm-as %s -o %t.bc
; RUN: %mtpc plan %t.bc --partitions 4 | FileCheck %s --check-prefix=PLAN
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: clang -no-pie %t.serial.o -o %t.serial && %t.serial > %t.serial.out
; RUN: for p in 2 3 4; do %mtpc compile %t.bc -o %t.$p.o --partitions $p && \
; RUN:   clang -no-pie %t.$p.o -o %t.$p && %t.$p > %t.$p.out && \
; RUN:   diff %t.serial.out %t.$p.out || exit 1; done
; RUN: llvm-readelf -g %t.4.o | FileCheck %s --check-prefix=GROUPS

; PLAN: def   function f {{.*}}exported
; PLAN-NEXT: def   function h
; PLAN-NOT: clone function f
; PLAN-NOT: clone function h
; PLAN-NOT: copy function f

; GROUPS: COMDAT group section {{.*}} [f] contains
; GROUPS-NOT: COMDAT group section {{.*}} [f]

target triple = "x86_64-pc-linux-gnu"

$f = comdat any

@fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"

declare i32 @printf(ptr, ...)

define linkonce_odr i32 @f(i32 %x) comdat {
  %r = call i32 @h(i32 %x)
  %s = add i32 %r, 1
  ret i32 %s
}

define internal i32 @h(i32 %x) noinline comdat($f) {
  %m = mul i32 %x, %x
  %n = xor i32 %m, 12345
  ret i32 %n
}

define i32 @a(i32 %x) noinline {
  %r = call i32 @f(i32 %x)
  ret i32 %r
}

define i32 @b(i32 %x) noinline {
  %r = call i32 @f(i32 %x)
  %s = mul i32 %r, 3
  ret i32 %s
}

define i32 @main() {
  %1 = call i32 @a(i32 7)
  %2 = call i32 @b(i32 9)
  %3 = add i32 %1, %2
  %4 = call i32 (ptr, ...) @printf(ptr @fmt, i32 %3)
  ret i32 0
}
