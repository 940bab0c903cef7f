target triple = "x86_64-pc-linux-gnu"

define i32 @a(i32 %x) {
  %r = call i32 @b(i32 %x)
  %s = mul i32 %r, %r
  %t = add i32 %s, 3
  ret i32 %t
}

define i32 @b(i32 %x) noinline {
  %y = mul i32 %x, 7
  %z = add i32 %y, 1
  ret i32 %z
}
