; The merged object's address-significance table lists the symbols the
; serial object's lists, in the merged symbol table's numbering: ld.lld -r
; leaves the partitions' tables void (sh_link 0), after which ld.lld
; --icf=safe warns about the object and folds none of its functions.
; Here a global (f1), a local only its own partition names (cb), a local
; another partition takes the address of (cb2: promoted, then local again),
; an ODR function in a COMDAT that two partitions hold (odr: ld.lld -r keeps
; one group) and a declaration (ext) are address-significant; g1 and g2
; are not, and are folded.
;
; RUN: llvm-as %s -o %t.bc
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1 --addrsig --function-sections --relocation-model=pic
; RUN: %mtpc compile %t.bc -o %t.o --partitions max --addrsig --function-sections --relocation-model=pic --stats 2> %t.stats
; RUN: FileCheck %s --check-prefix=STATS < %t.stats
; RUN: %mtpc compile %t.bc -o %t.j2.o --partitions max --addrsig --function-sections --relocation-model=pic -j2
; RUN: cmp %t.o %t.j2.o
; RUN: llvm-readobj --addrsig %t.serial.o | sed -n 's/^ *Sym: \([^ ]*\) .*/\1/p' | sort > %t.serial.names
; RUN: llvm-readobj --addrsig %t.o 2>&1 | sed -n 's/^ *Sym: \([^ ]*\) .*/\1/p' | sort > %t.names
; RUN: FileCheck %s --check-prefix=NAMES < %t.names
; RUN: diff %t.serial.names %t.names
; RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTION
; RUN: %stock-lld -shared --icf=safe --fatal-warnings --print-icf-sections %t.serial.o -o %t.serial.so > %t.serial.icf
; RUN: %stock-lld -shared --icf=safe --fatal-warnings --print-icf-sections %t.o -o %t.so > %t.icf
; RUN: sed -n 's/.*(\(\.text\..*\))$/\1/p' %t.serial.icf | sort > %t.serial.folds
; RUN: sed -n 's/.*(\(\.text\..*\))$/\1/p' %t.icf | sort > %t.folds
; RUN: FileCheck %s --check-prefix=FOLDS < %t.folds
; RUN: diff %t.serial.folds %t.folds
;
; Without --addrsig neither object has a table.
; RUN: %mtpc compile %t.bc -o %t.none.o --partitions max --function-sections
; RUN: llvm-readelf -S %t.none.o | FileCheck %s --check-prefix=NONE

; STATS: mtpc stats: {{[4-9]|[1-9][0-9]}} partitions, {{.*}}, split
; NAMES: cb
; NAMES-NEXT: cb2
; NAMES-NEXT: ext
; NAMES-NEXT: f1
; NAMES-NEXT: odr
; NAMES-NOT: {{.}}
; SECTION: .llvm_addrsig LLVM_ADDRSIG {{[0-9a-f]+}} {{[0-9a-f]+}} {{[0-9a-f]+}} 00 E {{[1-9][0-9]*}}
; FOLDS: .text.g1
; FOLDS-NEXT: .text.g2
; FOLDS-NOT: {{.}}
; NONE-NOT: .llvm_addrsig

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

$odr = comdat any

@table = hidden global [3 x ptr] [ptr @f1, ptr @cb, ptr @odr]
@ext_ref = hidden global ptr @ext

declare void @ext()

define hidden i32 @f1(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  ret i32 %b
}

define hidden i32 @f2(i32 %x) {
  %a = mul i32 %x, 3
  %b = add i32 %a, 1
  ret i32 %b
}

define hidden i32 @g1(i32 %x) {
  %a = mul i32 %x, 5
  %b = xor i32 %a, 77
  ret i32 %b
}

define hidden i32 @g2(i32 %x) {
  %a = mul i32 %x, 5
  %b = xor i32 %a, 77
  ret i32 %b
}

define internal i32 @cb(i32 %x) noinline {
  %a = mul i32 %x, 7
  ret i32 %a
}

define internal i32 @cb2(i32 %x) noinline {
  %a = mul i32 %x, 11
  %b = sub i32 %a, 4
  ret i32 %b
}

define linkonce_odr hidden i32 @odr(i32 %x) noinline comdat {
  %a = mul i32 %x, 13
  ret i32 %a
}

define hidden ptr @get_cb2() {
  ret ptr @cb2
}

define hidden i32 @use_cb2(i32 %x) {
  %r = call i32 @cb2(i32 %x)
  %s = call i32 @odr(i32 %r)
  ret i32 %s
}

define hidden ptr @get_odr() {
  %r = call i32 @odr(i32 1)
  ret ptr @odr
}
