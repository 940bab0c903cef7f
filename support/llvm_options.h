/* Per-compile LLVM options (option_sets.c, over llvm_options.cpp).
 *
 * LLVM's options (cl::opt) are process-wide. A compile that names options
 * enters their set: compiles with the same set run together, a compile with
 * another set (the empty set included: the process's own values) waits until
 * they are done. The first to enter parses the set; the last to leave puts
 * every option the set changed back to the process's value. This lock is the
 * one state of the library that is process-wide, because what it guards is. */
#ifndef MTPC_LLVM_OPTIONS_H
#define MTPC_LLVM_OPTIONS_H

#ifdef __cplusplus
extern "C" {
#endif

/* 0 once the set applies (count 0: the process's own), else 1 with *message. A
 * thread inside a set may enter the same set again. */
int mtpc_llvm_options_enter(const char *const *args, unsigned count, char **message);
void mtpc_llvm_options_leave(void);

/* Around code that resets every LLVM option (lld's driver): the options that
 * were given keep their values, and no set changes meanwhile. */
typedef struct mtpc_bridge_option_list mtpc_bridge_option_list;
mtpc_bridge_option_list *mtpc_llvm_options_shield_begin(void);
void mtpc_llvm_options_shield_end(mtpc_bridge_option_list *shield);

/* The C++ side (llvm_options.cpp). apply: parses `args` (refusing unknown
 * options, ones that end the process and ones the process set itself) and
 * returns the options it changed, or NULL with *message. restore: puts them
 * back to their defaults. hide_given: takes every given option out of LLVM's
 * registry (a reset of all options skips them) until unhide. */
mtpc_bridge_option_list *mtpc_bridge_llvm_options_apply(const char *const *args, unsigned count,
                                                        char **message);
void mtpc_bridge_llvm_options_restore(mtpc_bridge_option_list *changed);
mtpc_bridge_option_list *mtpc_bridge_llvm_options_hide_given(void);
void mtpc_bridge_llvm_options_unhide(mtpc_bridge_option_list *hidden);

#ifdef __cplusplus
}
#endif

#endif
