/* GNU make's jobserver, named by MAKEFLAGS (jobserver.c). */
#ifndef MTPC_JOBSERVER_H
#define MTPC_JOBSERVER_H

typedef struct mtpc_jobserver mtpc_jobserver;

/* The jobserver MAKEFLAGS names now, or NULL. */
mtpc_jobserver *mtpc_jobserver_open(void);
void mtpc_jobserver_close(mtpc_jobserver *jobserver);

/* A slot is a token byte, or MTPC_JOBSERVER_IMPLICIT_SLOT for the one the
 * process holds by being started. try_acquire never blocks: -1 if none is
 * free. */
#define MTPC_JOBSERVER_IMPLICIT_SLOT 256
int mtpc_jobserver_try_acquire(mtpc_jobserver *jobserver);
void mtpc_jobserver_release(mtpc_jobserver *jobserver, int slot);

#endif
