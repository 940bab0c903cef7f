; COMDAT groups stay whole. A small group of discardable ODR definitions that
; several partitions reference is cloned into each of them, COMDAT and all, as
; if several modules had included the same inline function: the linker keeps
; one copy, and a copy every caller inlined disappears as in a serial compile.
; A large one has one owner, which makes it weak_odr when others call it,
; and so does one whose linkonce member calls a local member of the group
; ($pair): a clone inlined elsewhere would call its partition's copy of the
; local from outside the group, and the merge keeps one partition's group
; (comdat-local-member.ll runs such a program).
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: FileCheck %s --check-prefix=P1 < %t.d/part1.ll
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: llvm-readobj --section-groups %t.o | FileCheck %s --check-prefix=GROUPS
; RUN: rm -rf %t.big
; RUN: %mtpc compile %t.bc -o %t.big.o --partitions 2 --import-instr-limit=1 --emit-partitions %t.big
; RUN: %verify-partitions %t.big
; RUN: FileCheck %s --check-prefix=BIG < %t.big/part0.ll
; RUN: %global-symbols %t.big.o | FileCheck %s --check-prefix=BIGSYMS

target triple = "x86_64-pc-linux-gnu"

$inl = comdat any
$pair = comdat any

define linkonce_odr i32 @inl(i32 %x) comdat {
  %y = add i32 %x, 1
  ret i32 %y
}

@pair = linkonce_odr global i32 5, comdat
define linkonce_odr i32 @pair_get() comdat($pair) {
  %v = load i32, ptr @pair
  %w = call i32 @pair_local(i32 %v)
  ret i32 %w
}
define internal i32 @pair_local(i32 %v) comdat($pair) {
  %w = mul i32 %v, 3
  ret i32 %w
}

define i32 @a(i32 %x) {
  %r = call i32 @inl(i32 %x)
  %p = call i32 @pair_get()
  %s = add i32 %r, %p
  %t = mul i32 %s, %s
  %u = add i32 %t, 9
  %v = mul i32 %u, %t
  ret i32 %v
}

define i32 @b(i32 %x) {
  %r = call i32 @inl(i32 %x)
  %p = call i32 @pair_get()
  %s = add i32 %r, %p
  ret i32 %s
}

; PLAN: partition 0:
; PLAN-DAG: def   function inl
; PLAN-DAG: def   function a
; PLAN: partition 1:
; PLAN-DAG: def   function pair_get {{.*}}exported
; PLAN-DAG: def   function pair_local
; PLAN-DAG: def   variable pair
; PLAN-DAG: clone function inl
; PLAN-NOT: clone {{.*}}pair

; P0-DAG: define linkonce_odr i32 @inl(i32 %x) comdat
; P0-DAG: declare i32 @pair_get()
; P0-NOT: pair_local
; P1-DAG: define weak_odr i32 @pair_get() comdat($pair)
; P1-DAG: define internal i32 @pair_local(i32 %v) comdat($pair)
; P1-DAG: @pair = linkonce_odr global i32 5, comdat
; P1-DAG: define linkonce_odr i32 @inl(i32 %x) comdat

; One partition has $pair; every call to inl was inlined.
; GROUPS: Signature: pair
; GROUPS-NOT: Signature:

; With clones too costly, the owner keeps inl and makes it weak_odr.
; BIG: define weak_odr i32 @inl(i32 %x) comdat
; BIGSYMS: inl W
