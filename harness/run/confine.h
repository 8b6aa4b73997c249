/*
 * harness/run/confine.h: an engine process confined (docs/engine.md section
 * 9): tied to its parent, deaf to the terminal, holding only the descriptors
 * it is given, and after its engine is open, under a system-call filter that
 * kills it on any call but the few it needs. Internal to harness/run/;
 * nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_CONFINE_H
#define FF8_HARNESS_RUN_CONFINE_H

#include <stddef.h>
#include <sys/types.h>

#include "common/error.h"

/*
 * In a child just forked from parent: dies with it (PDEATHSIG), ignores the
 * terminal's signals, puts /dev/null on 0, 1 and 2, moves fds[0..nfds) to
 * 3, 4, ... (updated in place) and closes every other descriptor. Returns 0,
 * or -1 with err.
 */
int confine_process(pid_t parent, int *fds, int nfds, ff_error *err);
/*
 * Installs the engine process's system-call filter (cannot be undone): i386
 * calls and calls from below 4 GiB trap (SIGSYS, a fault of the call on the
 * native engine), the calls an engine process makes pass, any other kills
 * the process. Returns 0, or -1 with err.
 */
int confine_filter(ff_error *err);
/* How a process ended, from its wait status, in words: "killed by signal 31 (SIGSYS: ...)". */
void confine_describe(int wstatus, char *buf, size_t n);

#endif
