; A branch funnel, which whole-program devirtualization leaves once type
; tests are lowered for the whole program (full LTO with
; -fwhole-program-vtables), compares the vtable pointer with addresses in
; one combined global, through that global's aliases. Code generation must
; see the aliases and the global: the funnel, the aliases it names and the
; combined global share a partition even at the finest split (before, code
; generation failed: "all llvm.icall.branch.funnel operands must refer to
; the same GlobalValue"). The targets may be elsewhere.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile --full-lto %t.bc -o %t.o --partitions max --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s < %t.d/plan.txt
; RUN: llvm-nm %t.o | FileCheck %s --check-prefix=NM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@vtables = private constant { [2 x ptr], [2 x ptr] } { [2 x ptr] [ptr @dog_sound, ptr @dog_legs], [2 x ptr] [ptr @bird_sound, ptr @bird_legs] }
@vt_dog = private alias [2 x ptr], getelementptr inbounds ({ [2 x ptr], [2 x ptr] }, ptr @vtables, i32 0, i32 0)
@vt_bird = private alias [2 x ptr], getelementptr inbounds ({ [2 x ptr], [2 x ptr] }, ptr @vtables, i32 0, i32 1)

define i32 @dog_sound(ptr %this) noinline { ret i32 1 }
define i32 @dog_legs(ptr %this) noinline { ret i32 4 }
define i32 @bird_sound(ptr %this) noinline { ret i32 2 }
define i32 @bird_legs(ptr %this) noinline { ret i32 2 }

declare void @llvm.icall.branch.funnel(...)

define hidden void @funnel_sound(ptr nest %vtable, ...) {
  musttail call void (...) @llvm.icall.branch.funnel(ptr %vtable, ptr @vt_dog, ptr @dog_sound, ptr @vt_bird, ptr @bird_sound, ...)
  ret void
}

define i32 @speak(ptr %object, i1 %which) {
  %vt = select i1 %which, ptr @vt_dog, ptr @vt_bird
  %r = call i32 @funnel_sound(ptr nest %vt, ptr %object)
  ret i32 %r
}

; CHECK: def   function funnel_sound cost={{[0-9]+}} group=[[G:[0-9]+]]
; CHECK-NEXT: def   variable <unnamed> group=[[G]]
; CHECK-DAG: def   alias    vt_dog group=[[G]]
; CHECK-DAG: def   alias    vt_bird group=[[G]]
; NM: T speak
