; With a profile the plan weighs calls by their counts, as ThinLTO's importer
; does: a hot call's callee is copied up to ten times the copy budget, a cold
; call's never; a callee whose calls nearly all come from one group joins it
; (@cold_callee here, whose one call never runs, is not such a callee); a
; value profile's likely target of an indirect call counts as a call, so its
; partition-mate declares it (under the PGO name the profile knows a local by)
; and indirect call promotion can still call it directly.
; Promoted locals end in ".llvm.<id>", which profile readers strip.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions max --import-instr-limit=5 --emit-partitions %t.d
; RUN: FileCheck %s --check-prefix=HOT < $(grep -l "define i32 @caller" %t.d/part*.ll)
; RUN: FileCheck %s --check-prefix=VP < $(grep -l "define void @dispatch(" %t.d/part*.ll)
; RUN: FileCheck %s --check-prefix=VP < $(grep -l "define void @dispatch2(" %t.d/part*.ll)
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt

target triple = "x86_64-pc-linux-gnu"

@table = global [1 x ptr] [ptr @target]

; 12 instructions: above the budget of 5, within ten times it.
define i32 @hot_callee(i32 %x) {
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  %c = xor i32 %b, 7
  %d = add i32 %c, %a
  %e = mul i32 %d, %b
  %f = xor i32 %e, %c
  %g = add i32 %f, %d
  %h = mul i32 %g, %e
  %i = xor i32 %h, %f
  %j = add i32 %i, %g
  ret i32 %j
}

; Called only from @caller's loop: it joins @caller's group.
define i32 @solo_callee(i32 %x) {
  %a = mul i32 %x, %x
  %b = add i32 %a, 5
  %c = mul i32 %b, %x
  %d = xor i32 %c, %a
  %e = add i32 %d, %b
  %f = mul i32 %e, %c
  ret i32 %f
}

; 3 instructions: within the budget, but only called where nothing runs.
define i32 @cold_callee(i32 %x) {
  %a = add i32 %x, 1
  %b = mul i32 %a, 3
  ret i32 %b
}

define i32 @caller(i32 %n) !prof !20 {
entry:
  %rare = icmp eq i32 %n, 12345
  br i1 %rare, label %never, label %loop, !prof !21
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %s = phi i32 [ 0, %entry ], [ %t, %loop ]
  %v = call i32 @hot_callee(i32 %i)
  %w = call i32 @solo_callee(i32 %v)
  %t = add i32 %s, %w
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit, !prof !22
never:
  %c = call i32 @cold_callee(i32 %n)
  ret i32 %c
exit:
  ret i32 %t
}

; A second hot caller: no one group makes nearly all of @hot_callee's calls.
define i32 @other(i32 %n) !prof !20 {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %v = call i32 @hot_callee(i32 %i)
  %next = add i32 %i, %v
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit, !prof !22
exit:
  ret i32 %next
}

define internal void @target() noinline !PGOFuncName !30 {
  ret void
}

; Two dispatchers: the target, a local, has no one caller to join.
define void @dispatch(ptr %fp) !prof !20 {
  call void %fp(), !prof !31
  ret void
}

define void @dispatch2(ptr %fp) !prof !20 {
  call void %fp(), !prof !31
  ret void
}

!llvm.module.flags = !{!0}
!0 = !{i32 1, !"ProfileSummary", !1}
!1 = !{!2, !3, !4, !5, !6, !7, !8, !9}
!2 = !{!"ProfileFormat", !"InstrProf"}
!3 = !{!"TotalCount", i64 200000}
!4 = !{!"MaxCount", i64 100000}
!5 = !{!"MaxInternalCount", i64 100000}
!6 = !{!"MaxFunctionCount", i64 1000}
!7 = !{!"NumCounts", i64 10}
!8 = !{!"NumFunctions", i64 5}
!9 = !{!"DetailedSummary", !10}
!10 = !{!11, !12, !13}
!11 = !{i32 10000, i64 100000, i32 1}
!12 = !{i32 990000, i64 100, i32 3}
!13 = !{i32 999999, i64 1, i32 5}
!20 = !{!"function_entry_count", i64 1000}
!21 = !{!"branch_weights", i32 0, i32 1000}
!22 = !{!"branch_weights", i32 99000, i32 1000}
!30 = !{!"pgo.c;target"}
; MD5("pgo.c;target"), the name of the local @target in the profile
!31 = !{!"VP", i32 0, i64 1000, i64 8643714618451556602, i64 1000}

; The caller's partition copies the hot callee, not the cold one, and owns
; the callee only it calls.
; HOT-DAG: define i32 @caller(
; HOT-DAG: define i32 @solo_callee(
; HOT-DAG: define available_externally i32 @hot_callee(
; HOT-DAG: declare i32 @cold_callee(

; Each dispatcher's partition declares the target, promoted, under its PGO name.
; VP: declare !PGOFuncName ![[NAME:[0-9]+]] hidden void @target.llvm.mtpc{{[0-9a-f]+}}()
; VP: ![[NAME]] = !{!"pgo.c;target"}

; PLAN: def   function target {{.*}} exported promoted=target.llvm.mtpc
