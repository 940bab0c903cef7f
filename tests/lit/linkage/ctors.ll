; llvm.global_ctors and llvm.global_dtors stay whole, in order, in partition
; 0; the functions they name may live anywhere (promoted when local).
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 3 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=P0 < %t.d/part0.ll
; RUN: cat %t.d/part1.ll %t.d/part2.ll | FileCheck %s --check-prefix=REST
; RUN: llvm-readobj --relocations %t.o | FileCheck %s --check-prefix=INIT

target triple = "x86_64-pc-linux-gnu"

@llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @init_b, ptr null },
  { i32, ptr, ptr } { i32 65535, ptr @init_a, ptr null },
  { i32, ptr, ptr } { i32 101, ptr @init_c, ptr null }]
@llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [
  { i32, ptr, ptr } { i32 65535, ptr @fini, ptr null }]
@state = global i32 0

define internal void @init_a() noinline {
  %v = load i32, ptr @state
  %w = mul i32 %v, 10
  %x = add i32 %w, 1
  %y = mul i32 %x, %x
  %z = add i32 %y, %w
  store i32 %z, ptr @state
  ret void
}
define internal void @init_b() noinline {
  %v = load i32, ptr @state
  %w = mul i32 %v, 10
  %x = add i32 %w, 2
  store i32 %x, ptr @state
  ret void
}
define internal void @init_c() noinline {
  %v = load i32, ptr @state
  %w = add i32 %v, 3
  %x = mul i32 %w, 7
  %y = add i32 %x, 5
  store i32 %y, ptr @state
  ret void
}
define internal void @fini() noinline {
  store i32 0, ptr @state
  ret void
}

; P0: @llvm.global_ctors = appending global [3 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init_b{{[.a-z0-9]*}}, ptr null }, { i32, ptr, ptr } { i32 65535, ptr @init_a{{[.a-z0-9]*}}, ptr null }, { i32, ptr, ptr } { i32 101, ptr @init_c{{[.a-z0-9]*}}, ptr null }]
; P0: @llvm.global_dtors = appending global
; REST-NOT: llvm.global_ctors
; REST-NOT: llvm.global_dtors

; The merged object runs them in the serial order: .init_array.101 holds
; init_c, .init_array holds init_b then init_a (local to partition 0, so its
; relocation names the section).
; INIT: Section ({{[0-9]+}}) .rela.init_array.101 {
; INIT-NEXT: R_X86_64_64 init_c
; INIT: Section ({{[0-9]+}}) .rela.init_array {
; INIT-NEXT: R_X86_64_64 init_b
; INIT-NEXT: R_X86_64_64 .text
; INIT: Section ({{[0-9]+}}) .rela.fini_array {
; INIT-NEXT: R_X86_64_64 fini
