; Seed: calls across a cut, a local callee, a global variable.
target triple = "x86_64-pc-linux-gnu"
@counter = global i32 0
define internal i32 @helper(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
define i32 @a(i32 %x) {
  %v = call i32 @helper(i32 %x)
  store i32 %v, ptr @counter
  ret i32 %v
}
define i32 @b(i32 %x) {
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %yes, label %no
yes:
  %r = call i32 @a(i32 %x)
  ret i32 %r
no:
  ret i32 0
}
