/* The mtpc commands, each in its own file; tools/mtpc.c dispatches. Each
 * takes the command's arguments with argv[0] the command's name and returns
 * the exit status. */
#ifndef MTPC_TOOLS_COMMANDS_H
#define MTPC_TOOLS_COMMANDS_H

int cli_compile(int argc, char **argv);    /* compile.c: "compile" or "plan" */
int cli_backend(int argc, char **argv);    /* backend.c */
int cli_distribute(int argc, char **argv); /* distribute.c */
int cli_cc(int argc, char **argv);         /* cc.c */

#endif
