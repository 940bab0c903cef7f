/* GNU make's jobserver, named by MAKEFLAGS (jobserver.c). */
#ifndef MTPC_JOBSERVER_H
#define MTPC_JOBSERVER_H

#ifdef __cplusplus
extern "C" {
#endif

/* A slot is a token byte, or MTPC_BRIDGE_IMPLICIT_SLOT for the one the process
 * holds by being started. try_acquire never blocks: -1 if none is free. */
#define MTPC_BRIDGE_IMPLICIT_SLOT 256
int mtpc_bridge_jobserver_present(void);
int mtpc_bridge_jobserver_try_acquire(void);
void mtpc_bridge_jobserver_release(int slot);

#ifdef __cplusplus
}
#endif

#endif
