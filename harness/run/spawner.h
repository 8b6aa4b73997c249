/*
 * harness/run/spawner.h: the process that forks a run's engine processes
 * (remote.h). A fork from the run while its workers run copies whatever
 * lock another thread held at that instant (the allocator's, a library's)
 * into a process where nobody will ever release it: under AddressSanitizer
 * the engine processes started after one was lost hung in malloc. So the run
 * forks this one process once, before any worker starts, and it forks every
 * engine process from its own single thread. Each is forked through a middle
 * process that ends at once, so that it is reparented to the run (a child
 * subreaper while the spawner lives): the run signals it, waits for it and
 * reads how it ended as for a child of its own. Internal to harness/run/;
 * nothing here prints or exits the run (the spawner's processes end with
 * _exit), and the executable's code never runs in the spawner.
 */
#ifndef FF8_HARNESS_RUN_SPAWNER_H
#define FF8_HARNESS_RUN_SPAWNER_H

#include <sys/types.h>

#include "common/error.h"

struct run_ctx;
typedef struct spawner spawner;

/*
 * Forks the spawner on a copy of ctx as it is now (the engine processes run
 * remote_child_main on that copy). Call before the workers start. Returns 0,
 * or -1 with err.
 */
int spawner_start(struct run_ctx *ctx, spawner **out, ff_error *err);
/*
 * An engine process on the child's ends of its socket and areas (the caller
 * keeps and closes its own copies): *pid is the run's child once this
 * returns. Safe from any worker's thread. Returns 0, or -1 with err.
 */
int spawner_spawn(spawner *s, int sock, int area_fd, int req_fd, pid_t *pid, ff_error *err);
/* Ends the spawner and waits for it (s may be NULL); the run stops being a subreaper. */
void spawner_stop(spawner *s);

#endif
