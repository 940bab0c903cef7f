// What low-level code puts in a module: ifuncs (target_clones and the ifunc
// attribute), computed goto (blockaddress), weak and hidden symbols, used
// variables in a named section walked through __start_/__stop_, and
// module-level inline asm that defines a symbol and references C++ ones.
#pragma once

struct Item {
  const char *name;
  int weight;
};

#define ITEM(var, name, weight)                                                          \
  __attribute__((used, section("mtpc_items"))) static const Item var = {name, weight}

int sum_items();
int dot(const int *a, const int *b, int n); // target_clones
int pick(int x);                            // ifunc with a resolver
int interpret(const unsigned char *code);   // computed goto
int weak_hook(int x);                       // weak default, overridden in hooks.cpp
__attribute__((visibility("hidden"))) int hidden_helper(int x);
extern "C" int asm_triple(int x);           // defined in inline asm
extern "C" int asm_calls_back(int x);       // inline asm calling scale_by_five
