; A copy that every call in its partition declines is not simplified there:
; when the inliner reaches its SCC (before any caller), its cost model weighs
; each call against the body as the module brought it, and a copy no call
; would take becomes noinline in that partition and skips the simplification
; (function attributes are still inferred on it). Here @user's partition
; copies @heavy (fourteen calls: over what the inliner takes at a call) and
; @light: @heavy is declined and stays a call, as in the serial compile;
; @light is simplified and inlined. The object is the same at -j1 and -j2,
; the program behaves as the serial compile's, with its symbols.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d && mkdir %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions max -j1 --save-temps %t.d/ \
; RUN:   --debug-pass-manager 2> %t.passes
; RUN: FileCheck %s --check-prefix=PASSES < %t.passes
; RUN: %mtpc plan %t.bc --partitions max | FileCheck %s --check-prefix=PLAN
; RUN: llvm-dis %t.d/part2.5.precodegen.bc -o - | FileCheck %s --check-prefix=HOLDER
; RUN: %mtpc compile %t.bc -o %t.j2.o --partitions max -j2
; RUN: cmp %t.o %t.j2.o
; RUN: rm -rf %t.serial.d && mkdir %t.serial.d
; RUN: %mtpc compile %t.bc -o %t.serial.o --partitions 1 --save-temps %t.serial.d/
; RUN: llvm-dis %t.serial.d/5.precodegen.bc -o - | FileCheck %s --check-prefix=SERIAL
; RUN: %global-symbols %t.serial.o > %t.serial.syms
; RUN: %global-symbols %t.o > %t.split.syms
; RUN: diff %t.serial.syms %t.split.syms
; RUN: clang -no-pie %t.o -o %t.split
; RUN: clang -no-pie %t.serial.o -o %t.serial
; RUN: %t.split > %t.split.out
; RUN: %t.serial > %t.serial.out
; RUN: diff %t.serial.out %t.split.out

; PLAN:      partition 2:
; PLAN-NEXT:   def   function user
; PLAN-NEXT:   copy  function heavy
; PLAN-NEXT:   copy  function light

; The holder weighs @heavy and declines it; its attributes are still inferred.
; PASSES-NOT: Skipping pass: InlinerPass on (light)
; PASSES:      Skipping pass: InlinerPass on (heavy)
; PASSES-NEXT: Running pass: PostOrderFunctionAttrsPass on (heavy)
; PASSES:      Skipping pass: InstCombinePass on heavy
; PASSES-NOT: Skipping pass: {{.*}} on (light)
; PASSES-NOT: Skipping pass: {{.*}} on light

; HOLDER-NOT: @light
; HOLDER:     declare i32 @heavy(i32) {{.*}}#[[DECLINED:[0-9]+]]
; HOLDER-NOT: @light
; HOLDER:     define i32 @user(
; HOLDER-NEXT: call i32 @heavy(
; HOLDER-NOT: @light
; HOLDER:     attributes #[[DECLINED]] = { noinline }

; SERIAL: define i32 @user(
; SERIAL: call i32 @heavy(

target triple = "x86_64-pc-linux-gnu"


; Fourteen calls: far over what the inliner takes at a call, within the copy limit.
define i32 @heavy(i32 %x) {
  call void @sink(i32 %x, i32 1)
  call void @sink(i32 %x, i32 2)
  call void @sink(i32 %x, i32 3)
  call void @sink(i32 %x, i32 4)
  call void @sink(i32 %x, i32 5)
  call void @sink(i32 %x, i32 6)
  call void @sink(i32 %x, i32 7)
  call void @sink(i32 %x, i32 8)
  call void @sink(i32 %x, i32 9)
  call void @sink(i32 %x, i32 10)
  call void @sink(i32 %x, i32 11)
  call void @sink(i32 %x, i32 12)
  call void @sink(i32 %x, i32 13)
  call void @sink(i32 %x, i32 14)
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @light(i32 %x) {
  %y = add i32 %x, 5
  ret i32 %y
}

define i32 @user(i32 %x) noinline {
  %a = call i32 @heavy(i32 %x)
  %b = call i32 @light(i32 %a)
  ret i32 %b
}

@.fmt = private unnamed_addr constant [4 x i8] c"%d\0A\00"
@.pair = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
declare i32 @printf(ptr, ...)

define void @sink(i32 %a, i32 %b) noinline {
  %r = call i32 (ptr, ...) @printf(ptr @.pair, i32 %a, i32 %b)
  ret void
}

define i32 @main() {
  %r = call i32 @user(i32 4)
  %s = call i32 (ptr, ...) @printf(ptr @.fmt, i32 %r)
  ret i32 0
}
