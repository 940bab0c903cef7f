; A local in a nodeduplicate COMDAT (what clang's profile instrumentation
; lowers to: a function's counters and their data record, one group per
; function) is never replaced by another module's group, so it is a local
; like any other: code that names it may be copied to another partition,
; which then counts into the owner's counters (promoted, and local again
; once merged), and the group is never cloned (each clone would count
; apart). A local in a COMDAT the linker deduplicates still keeps its
; users in its partition (comdat.ll).
; RUN: rm -rf %t && mkdir -p %t
; RUN: llvm-as %s -o %t/in.bc
; RUN: %mtpc compile %t/in.bc -o %t/split.o --partitions 2 --emit-partitions %t/parts
; RUN: %verify-partitions %t/parts
; RUN: FileCheck %s --check-prefix=PLAN < %t/parts/plan.txt
; PLAN-DAG: def   function counted {{.*}}exported
; PLAN-DAG: def   variable __profc_counted {{.*}}promoted=__profc_counted.llvm.mtpc
; PLAN-DAG: def   variable __profd_counted
; PLAN-DAG: copy  function counted
; RUN: not grep '^  clone ' %t/parts/plan.txt
; RUN: cat %t/parts/part*.ll | FileCheck %s --check-prefix=IR
; IR: define available_externally {{.*}}@counted(
; IR-NEXT: entry:
; IR-NEXT: load i64, ptr @__profc_counted.llvm.mtpc
; RUN: %mtpc compile %t/in.bc -o %t/one.o --partitions 1
; RUN: %global-symbols %t/one.o > %t/one.syms
; RUN: %global-symbols %t/split.o > %t/split.syms
; RUN: diff %t/one.syms %t/split.syms
; RUN: llvm-readelf -s %t/split.o | FileCheck %s --check-prefix=SYMS
; SYMS-NOT: GLOBAL {{.*}}__profc
; RUN: llvm-readobj --section-groups %t/split.o | grep -c 'Signature: __profc_counted' \
; RUN:   | FileCheck %s --check-prefix=GROUPS
; GROUPS: 1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

$__profc_counted = comdat nodeduplicate

@__profc_counted = private global [2 x i64] zeroinitializer, section "__llvm_prf_cnts", comdat, align 8
@__profd_counted = private global { ptr, ptr } { ptr @counted, ptr @__profc_counted }, section "__llvm_prf_data", comdat($__profc_counted), align 8
@llvm.compiler.used = appending global [1 x ptr] [ptr @__profd_counted], section "llvm.metadata"

define i32 @counted(i32 %x) {
entry:
  %c0 = load i64, ptr @__profc_counted, align 8
  %n0 = add i64 %c0, 1
  store i64 %n0, ptr @__profc_counted, align 8
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %flip, label %done

flip:
  %c1 = load i64, ptr getelementptr inbounds ([2 x i64], ptr @__profc_counted, i64 0, i64 1), align 8
  %n1 = add i64 %c1, 1
  store i64 %n1, ptr getelementptr inbounds ([2 x i64], ptr @__profc_counted, i64 0, i64 1), align 8
  %m = sub i32 0, %x
  br label %done

done:
  %r = phi i32 [ %x, %entry ], [ %m, %flip ]
  ret i32 %r
}

define i32 @other(i32 %x) {
  %r = call i32 @counted(i32 %x)
  %s = mul i32 %r, 7
  ret i32 %s
}

define i32 @caller(i32 %x) {
  %a = add i32 %x, 5
  %r = call i32 @counted(i32 %a)
  %s = xor i32 %r, 11
  ret i32 %s
}
