/* GNU make's jobserver, named by MAKEFLAGS (jobserver.c). */
#ifndef MTPC_JOBSERVER_H
#define MTPC_JOBSERVER_H

typedef struct mtpc_jobserver mtpc_jobserver;

/* The jobserver MAKEFLAGS names now, or NULL: when it names none, when make
 * closed its descriptors (a recipe make does not know to be recursive), or
 * with *problem (free()) when what it names is not a FIFO or a pair of pipe
 * descriptors, or cannot be opened. */
mtpc_jobserver *mtpc_jobserver_open(char **problem);
void mtpc_jobserver_close(mtpc_jobserver *jobserver);

/* A slot is a token byte, or MTPC_JOBSERVER_IMPLICIT_SLOT for the one the
 * process holds by being started. try_acquire never blocks: -1 if none is
 * free. */
#define MTPC_JOBSERVER_IMPLICIT_SLOT 256
int mtpc_jobserver_try_acquire(mtpc_jobserver *jobserver);
void mtpc_jobserver_release(mtpc_jobserver *jobserver, int slot);

#endif
