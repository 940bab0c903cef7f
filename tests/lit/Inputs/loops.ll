; Functions with constant trip count loops, which -unroll-threshold decides
; to unroll or not; each calls the next.
target triple = "x86_64-pc-linux-gnu"

define i32 @f0(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 3
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 20
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f1(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f1(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 4
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 21
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f2(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f2(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 5
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 22
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f3(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f3(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 6
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 23
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f4(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f4(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 7
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 24
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f5(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f5(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 8
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 25
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f6(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f6(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 9
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 26
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f7(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f7(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 10
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 27
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f8(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f8(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 11
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 28
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f9(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f9(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 12
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 29
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f10(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f10(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 13
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 30
  br i1 %done, label %exit, label %loop
exit:
  %r = call i32 @f11(ptr %a, i32 %sum)
  ret i32 %r
}

define i32 @f11(ptr %a, i32 %x) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i32 [ %x, %entry ], [ %sum, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %m = mul i32 %v, 14
  %sum = add i32 %acc, %m
  %next = add i32 %i, 1
  %done = icmp eq i32 %next, 31
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %sum
}
