/* What a signal that ends an mtpc command takes with it (signals.c): the
 * temporary files and directories the command made, and the children it
 * waits for. Ctrl-C, `make` stopping a build or `timeout` sends SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT; without this, mtpc would die at once and
 * leave its temporary bitcode behind, and a child it started would go on
 * writing into a directory no one removes. */
#ifndef MTPC_TOOLS_SIGNALS_H
#define MTPC_TOOLS_SIGNALS_H

#include <sys/types.h>

/* `path` (a file, or a directory that holds only registered files) is
 * removed if a signal ends the process, or a crash (cli_report_crashes_on):
 * the files first, then the directories. The first call installs the
 * handlers; a signal the process ignores stays ignored. */
void cli_remove_on_signal(const char *path);
/* Removes `path` (a file, or an empty directory) now, then forgets it. */
void cli_remove_now(const char *path);
/* A child the process waits for: a signal that ends the process is passed
 * to it, and it is waited for before the files go. */
void cli_track_child(pid_t pid);
void cli_forget_child(pid_t pid);
/* From now on, the temporaries the library writes beside an output (the
 * object's, a .dwo's, a cache entry's: support/files.h) are removed too
 * if a signal ends the process before they are renamed into place. */
void cli_remove_temporaries_on_signal(void);
/* Removes the registered files now; safe in a signal handler. */
void cli_remove_registered_files(void);

#endif
