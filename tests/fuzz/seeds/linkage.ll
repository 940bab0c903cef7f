; Seed: COMDAT, alias, ifunc, weak, thread-local, constructors.
target triple = "x86_64-pc-linux-gnu"
$inl = comdat any
@tls = thread_local global i32 1
@weakvar = weak global i32 2
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @init, ptr null }]
@alias = alias i32 (), ptr @inl
@ifn = ifunc i32 (), ptr @resolve
define linkonce_odr i32 @inl() comdat {
  %v = load i32, ptr @tls
  ret i32 %v
}
define internal void @init() {
  store i32 5, ptr @weakvar
  ret void
}
define internal ptr @resolve() {
  ret ptr @inl
}
define i32 @use() {
  %a = call i32 @alias()
  %b = call i32 @ifn()
  %s = add i32 %a, %b
  ret i32 %s
}
