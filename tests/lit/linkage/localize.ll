; The merge makes promoted symbols local again under their own names, and
; renames the sections named after them: in place for an ELF64 object (the
; symbol table renumbered, relocations and COMDAT signatures with it), with
; LLVM's ObjCopy otherwise (here ELF32). Either way ld.lld takes the object,
; whose locals must come first, and calls reach the right functions.
; RUN: rm -rf %t && mkdir -p %t
; RUN: llvm-as %s -o %t/in.bc
; RUN: sed -e 's/^target triple = .*/target triple = "i686-pc-linux-gnu"/' \
; RUN:   -e '1i target datalayout = "e-m:e-p:32:32-i128:128-f64:32:64-f80:32-n8:16:32-S128"' \
; RUN:   %s | llvm-as -o %t/in32.bc
; RUN: %mtpc compile %t/in.bc -o %t/64.o --partitions 2 --function-sections
; RUN: %mtpc compile %t/in32.bc -o %t/32.o --partitions 2 --function-sections
; RUN: llvm-readelf -s -S -r %t/64.o | FileCheck %s
; RUN: llvm-readelf -s -S -r %t/32.o | FileCheck %s
; Nothing of the promoted names is left in the string tables.
; RUN: llvm-readelf -p .strtab -p .shstrtab %t/64.o | FileCheck %s --check-prefix=STRINGS
; RUN: llvm-readelf -p .strtab -p .shstrtab %t/32.o | FileCheck %s --check-prefix=STRINGS
; STRINGS-NOT: mtpc
; RUN: %stock-lld -e foo %t/64.o -o %t/64.exe
; RUN: %stock-lld -e foo -m elf_i386 %t/32.o -o %t/32.exe
; RUN: llvm-objdump -d --disassemble-symbols=foo %t/64.exe | FileCheck %s --check-prefix=CALLS
; RUN: llvm-objdump -d --disassemble-symbols=bar %t/64.exe | FileCheck %s --check-prefix=CALLS
; RUN: llvm-objdump -d --disassemble-symbols=foo %t/32.exe | FileCheck %s --check-prefix=CALLS
; RUN: llvm-objdump -d --disassemble-symbols=bar %t/32.exe | FileCheck %s --check-prefix=CALLS
; With address-significance tables: made again in place (ELF64), listing
; every symbol after ObjCopy (ELF32), either way one that ld.lld reads.
; RUN: %mtpc compile %t/in.bc -o %t/64s.o --partitions 2 --function-sections --addrsig
; RUN: %mtpc compile %t/in32.bc -o %t/32s.o --partitions 2 --function-sections --addrsig
; RUN: %stock-lld -e foo --icf=safe --fatal-warnings %t/64s.o -o %t/64s.exe
; RUN: %stock-lld -e foo -m elf_i386 --icf=safe --fatal-warnings %t/32s.o -o %t/32s.exe
; RUN: llvm-readobj --addrsig %t/32s.o | FileCheck %s --check-prefix=EVERY
; EVERY: Sym: foo
; EVERY: Sym: bar

; CHECK-NOT: mtpc
; CHECK-DAG: ] .text.g PROGBITS
; CHECK-DAG: ] .text.h PROGBITS
; CHECK-DAG: ] .text.foo PROGBITS
; CHECK-DAG: ] .text.bar PROGBITS
; CHECK-DAG: Relocation section '.rel{{a?}}.text.foo'
; CHECK-DAG: Relocation section '.rel{{a?}}.text.bar'
; CHECK-DAG: R_{{X86_64_PLT32 +0+ g - 4|386_PC32 +0+ +g}}{{$}}
; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} g{{$}}
; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} h{{$}}
; CHECK-DAG: FUNC GLOBAL DEFAULT {{[0-9]+}} foo{{$}}
; CHECK-DAG: FUNC GLOBAL DEFAULT {{[0-9]+}} bar{{$}}
; CHECK-DAG: OBJECT LOCAL DEFAULT {{[0-9]+}} counter{{$}}

; CALLS: call{{.*}} <g>
; CALLS-NEXT: call{{.*}} <h>

target triple = "x86_64-pc-linux-gnu"

@counter = internal global i32 0

define void @foo() {
  call void @g()
  call void @h()
  %v = load i32, ptr @counter
  %w = add i32 %v, 1
  store i32 %w, ptr @counter
  ret void
}

define void @bar() {
  call void @g()
  call void @h()
  %v = load volatile i32, ptr @counter
  ret void
}

define internal void @g() noinline {
  %v = load volatile i32, ptr @counter
  ret void
}

define internal void @h() noinline {
  store volatile i32 2, ptr @counter
  ret void
}
