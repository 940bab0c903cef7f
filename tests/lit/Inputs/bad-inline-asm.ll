target triple = "x86_64-pc-linux-gnu"
define void @a() {
  call void asm sideeffect "not_an_instruction %eax", ""()
  ret void
}
define i32 @b(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
