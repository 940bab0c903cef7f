; With -fcf-protection (the cf-protection-branch module flag), code
; generation gives every function that is not local an indirect-branch
; landing pad (endbr64). A local called across partitions is promoted, so it
; would get one the serial compile's does not, and become a valid target for
; indirect branches; one whose address nothing takes is marked nocf_check
; instead. A local whose address is taken keeps its landing pad, as do the
; external functions. The split object has the serial one's landing pads.
; RUN: rm -rf %t && mkdir -p %t
; RUN: llvm-as %s -o %t/in.bc
; RUN: %mtpc plan %t/in.bc --partitions max | FileCheck %s --check-prefix=PLAN
; PLAN-DAG: def   function helper {{.*}} promoted=helper.llvm.mtpc
; PLAN-DAG: def   function taken {{.*}} promoted=taken.llvm.mtpc
; RUN: %mtpc compile %t/in.bc -o %t/split.o --partitions max --emit-partitions=%t/parts
; RUN: %mtpc compile %t/in.bc -o %t/one.o --partitions 1
; RUN: cat %t/parts/*.ll | FileCheck %s --check-prefix=IR
; IR-DAG: define hidden {{.*}} @helper.llvm.mtpc{{[0-9a-f]+}}({{.*}}) {{.*}}#[[ATTRS:[0-9]+]]
; IR-DAG: attributes #[[ATTRS]] = { {{.*}}nocf_check
; RUN: llvm-objdump -d --disassemble-symbols=helper %t/split.o | FileCheck %s --check-prefix=HELPER
; RUN: llvm-objdump -d --disassemble-symbols=helper %t/one.o | FileCheck %s --check-prefix=HELPER
; HELPER: <helper>:
; HELPER-NOT: endbr64
; HELPER: ret
; RUN: llvm-objdump -d --disassemble-symbols=taken %t/split.o | FileCheck %s --check-prefix=TAKEN
; RUN: llvm-objdump -d --disassemble-symbols=taken %t/one.o | FileCheck %s --check-prefix=TAKEN
; TAKEN: <taken>:
; TAKEN-NEXT: endbr64
; RUN: llvm-objdump -d %t/split.o | grep -c endbr64 > %t/split.count
; RUN: llvm-objdump -d %t/one.o | grep -c endbr64 > %t/one.count
; RUN: diff %t/one.count %t/split.count

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fp = global ptr @taken

define internal i32 @helper(i32 %x) noinline {
  %m = mul i32 %x, 3
  %r = add i32 %m, 1
  ret i32 %r
}

define internal i32 @taken(i32 %x) noinline {
  %r = sub i32 %x, 1
  ret i32 %r
}

define i32 @a(i32 %x) {
  %h = call i32 @helper(i32 %x)
  %t = call i32 @taken(i32 %h)
  ret i32 %t
}

define i32 @b(i32 %x) {
  %y = add i32 %x, 2
  %h = call i32 @helper(i32 %y)
  %f = load ptr, ptr @fp
  %c = call i32 %f(i32 %h)
  ret i32 %c
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"cf-protection-branch", i32 1}
