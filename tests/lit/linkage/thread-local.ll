; thread_local variables: the owner defines, others declare with the same
; TLS model; a TLS variable is never copied.
;
; RUN: llvm-as %s -o %t.bc
; RUN: rm -rf %t.d
; RUN: %mtpc compile %t.bc -o %t.o --partitions 2 --emit-partitions %t.d
; RUN: %verify-partitions %t.d
; RUN: FileCheck %s --check-prefix=PLAN < %t.d/plan.txt
; RUN: cat %t.d/part0.ll %t.d/part1.ll | FileCheck %s --check-prefix=IR
; RUN: llvm-readelf -s %t.o | FileCheck %s --check-prefix=ELF

target triple = "x86_64-pc-linux-gnu"

@tls_shared = internal thread_local global i32 1
@tls_ie = thread_local(initialexec) global i32 2
@tls_const = internal thread_local constant i32 3

define i32 @a() {
  %x = load i32, ptr @tls_shared
  %y = load i32, ptr @tls_ie
  %c = load i32, ptr @tls_const
  %z = add i32 %x, %y
  %w = add i32 %z, %c
  %v = mul i32 %w, %w
  store i32 %v, ptr @tls_shared
  ret i32 %v
}

define i32 @b() {
  %x = load i32, ptr @tls_shared
  %y = load i32, ptr @tls_ie
  %c = load i32, ptr @tls_const
  %z = add i32 %x, %y
  %w = add i32 %z, %c
  ret i32 %w
}

; PLAN-NOT: copy  variable tls
; IR-DAG: @tls_shared.llvm.mtpc{{[0-9a-f]+}} = hidden thread_local global i32 1
; IR-DAG: @tls_shared.llvm.mtpc{{[0-9a-f]+}} = external hidden thread_local global i32
; IR-DAG: @tls_ie = thread_local(initialexec) global i32 2
; IR-DAG: @tls_ie = external thread_local(initialexec) global i32
; IR-DAG: @tls_const.llvm.mtpc{{[0-9a-f]+}} = hidden thread_local constant i32 3
; IR-DAG: @tls_const.llvm.mtpc{{[0-9a-f]+}} = external hidden thread_local constant i32
; ELF-DAG: TLS LOCAL DEFAULT {{.*}} tls_shared
; ELF-DAG: TLS LOCAL DEFAULT {{.*}} tls_const
; ELF-DAG: TLS GLOBAL DEFAULT {{.*}} tls_ie
