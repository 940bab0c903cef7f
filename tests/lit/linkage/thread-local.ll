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
;
; Emulated TLS: code generation gives each variable a control variable and
; an initializer template named after it, with its linkage; a promoted
; variable's are local again, under their original names, sections too.
; RUN: %mtpc compile %t.bc -o %t.emu.o --partitions 2 --emulated-tls --data-sections
; RUN: llvm-readelf -s %t.emu.o | FileCheck %s --check-prefix=EMU
; RUN: llvm-readelf -S %t.emu.o | FileCheck %s --check-prefix=EMUSEC
; RUN: llvm-readelf -s -S %t.emu.o | FileCheck %s --check-prefix=NOPROMOTED
; The target's default when neither is asked for: Android before API 29
; emulates TLS, and --no-emulated-tls turns that off.
; RUN: sed 's/x86_64-pc-linux-gnu/x86_64-unknown-linux-android21/' %s | llvm-as -o %t.android.bc
; RUN: %mtpc compile %t.android.bc -o %t.android.o --partitions 2
; RUN: llvm-readelf -s %t.android.o | FileCheck %s --check-prefix=EMU
; RUN: %mtpc compile %t.android.bc -o %t.native.o --partitions 2 --no-emulated-tls
; RUN: llvm-readelf -s %t.native.o | FileCheck %s --check-prefix=ELF

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
; EMU-DAG: OBJECT LOCAL DEFAULT {{.*}} __emutls_v.tls_shared{{$}}
; EMU-DAG: OBJECT LOCAL DEFAULT {{.*}} __emutls_t.tls_shared{{$}}
; EMU-DAG: OBJECT LOCAL DEFAULT {{.*}} __emutls_v.tls_const{{$}}
; EMU-DAG: OBJECT LOCAL DEFAULT {{.*}} __emutls_t.tls_const{{$}}
; EMU-DAG: OBJECT GLOBAL DEFAULT {{.*}} __emutls_v.tls_ie{{$}}
; EMU-DAG: NOTYPE GLOBAL DEFAULT UND __emutls_get_address
; EMUSEC-DAG: .data.__emutls_v.tls_shared{{ }}
; EMUSEC-DAG: .rodata.__emutls_t.tls_shared{{ }}
; NOPROMOTED-NOT: llvm.mtpc
