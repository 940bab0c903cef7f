; DataFlowSanitizer in the partitions (--sanitize=dataflow): the pass sees a
; promoted function by its source name, so an ABI list names it as in a
; serial compile, and what the pass names after it (the instrumented
; <name>.dfsan, an uninstrumented one's wrapper dfsw$<name>) is local again
; in the merged object, under the name a serial compile gives it; an unnamed
; function's names stay local too. Nothing of the split is global.
; RUN: rm -rf %t && mkdir -p %t
; RUN: llvm-as %s -o %t/in.bc
; RUN: echo 'fun:passthrough=uninstrumented' > %t/abi.txt
; RUN: %mtpc compile %t/in.bc -o %t/split.o --partitions 2 --sanitize=dataflow \
; RUN:   --dfsan-abilist=%t/abi.txt --emit-partitions %t/parts
; RUN: %mtpc compile %t/in.bc -o %t/one.o --partitions 1 --sanitize=dataflow \
; RUN:   --dfsan-abilist=%t/abi.txt
; A cut between foo and bar: each partition calls scale, the unnamed
; function and passthrough, promoted, and one of them holds each.
; RUN: grep -l 'define i32 @foo' %t/parts/*.ll | xargs grep -q 'i32 @scale.llvm.mtpc'
; RUN: grep -l 'define i32 @bar' %t/parts/*.ll | xargs grep -q 'i32 @scale.llvm.mtpc'
; RUN: grep -c '^define i32 @\(foo\|bar\)(' %t/parts/part0.ll | FileCheck %s --check-prefix=ONE
; RUN: grep -c '^define i32 @\(foo\|bar\)(' %t/parts/part1.ll | FileCheck %s --check-prefix=ONE
; ONE: {{^1$}}
; RUN: llvm-readelf -s %t/split.o | FileCheck %s
; RUN: llvm-readelf -s %t/split.o | grep -v ' UND ' | grep -v ' LOCAL ' | FileCheck %s --check-prefix=GLOBALS
; The serial compile's names, global and local, but for unnamed values'
; (the serial compile's pass names the unnamed function ".dfsan", and each
; partition that takes passthrough's address its own unnamed string of the
; name for DFSan's warning).
; RUN: llvm-nm %t/one.o | awk '{print $NF, $(NF-1)}' | grep -v '^\.dfsan \|__unnamed_' | sort > %t/one.syms
; RUN: llvm-nm %t/split.o | awk '{print $NF, $(NF-1)}' | grep -v '__mtpc_unnamed\|__unnamed_' | sort > %t/split.syms
; RUN: diff %t/one.syms %t/split.syms

; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} scale.dfsan{{$}}
; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} passthrough{{$}}
; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} dfsw$passthrough{{$}}
; CHECK-DAG: FUNC LOCAL DEFAULT {{[0-9]+}} __mtpc_unnamed.{{[0-9]+}}.dfsan.llvm.mtpc{{[0-9a-f]+}}{{$}}
; CHECK-DAG: FUNC GLOBAL DEFAULT {{[0-9]+}} foo.dfsan{{$}}
; CHECK-DAG: FUNC GLOBAL DEFAULT {{[0-9]+}} bar.dfsan{{$}}
; GLOBALS-NOT: mtpc

target triple = "x86_64-pc-linux-gnu"

@factor = internal global i32 3
@hooks = global [2 x ptr] zeroinitializer

define i32 @foo(i32 %a) {
  %s = call i32 @scale(i32 %a)
  %u = call i32 @0(i32 %s)
  store ptr @passthrough, ptr @hooks
  ret i32 %u
}

define i32 @bar(i32 %a) {
  %s = call i32 @scale(i32 %a)
  %u = call i32 @0(i32 %s)
  store ptr @passthrough, ptr getelementptr (ptr, ptr @hooks, i64 1)
  ret i32 %u
}

define internal i32 @scale(i32 %x) noinline {
  %f = load i32, ptr @factor
  %r = mul i32 %x, %f
  ret i32 %r
}

define internal i32 @0(i32 %x) noinline {
  %r = add i32 %x, 7
  ret i32 %r
}

define internal i32 @passthrough(i32 %x) noinline {
  %r = add i32 %x, 1
  ret i32 %r
}
