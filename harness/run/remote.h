/*
 * harness/run/remote.h: a worker's engine in a process of its own. An engine
 * whose guest memory lies at fixed addresses of its process (the native
 * engine: one per process) cannot serve two worker threads of one run, so
 * each worker past the first gets an engine process, forked from the run
 * before any worker starts: it holds its own engine (and pose memo) on a
 * copy of the plan, and for each frame unit it is sent it emulates the
 * original's side of every clip exactly as an in-process worker would
 * (dedup slots of the unit's chain included: a chain goes to one worker,
 * so to one process) and sends back the outcomes, one record per clip in
 * the cache's raw format (harness/core/outcome.h), with each clip's source
 * or input error. The worker then compares as if the outcomes came from the
 * cache. Entity and leaf units stay with the in-process worker.
 *
 * An engine process that dies (or sends garbage) is lost to the run: the
 * unit it had is re-run by its worker on a Unicorn engine opened in-process,
 * as are that worker's later units, and the run says so. Internal to
 * harness/run/; nothing here prints or exits (the child ends with _exit).
 */
#ifndef FF8_HARNESS_RUN_REMOTE_H
#define FF8_HARNESS_RUN_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/run/context.h"

typedef struct remote remote;

/* What an engine process sent for one frame unit (owned by the remote until the next call). */
typedef struct remote_unit {
    uint32_t nclips;
    const uint8_t *ok;       /* per clip: 1 outcome recorded, 0 input error (errors[c]) */
    const uint8_t *src;      /* per clip: its res_source */
    const ff_error *errors;  /* per clip */
    const uint8_t *raw;      /* outcome records of the clips ok, in clip order */
    size_t raw_len;
    uint64_t emulated_calls, memo_misses, memo_hits;
} remote_unit;

/*
 * Forks n engine processes for the run into out[0..n) (call on the run's
 * thread before any worker thread starts or engine opens) and waits until
 * their engines are open. Returns 0, or -1 with err (an engine's own error
 * when it could not open) and none left running.
 */
int remote_start(run_ctx *ctx, unsigned n, remote **out, ff_error *err);
/* Ends the engine process (EOF, then waits for it); r may be NULL. */
void remote_stop(remote *r);
/*
 * The original's side of frame unit u from the engine process into *out.
 * Returns 0; -1 with err for a run-stopping error the process reported
 * (memory); -2 with err when the process is lost (died, garbage), after
 * which every call returns -2.
 */
int remote_frame(remote *r, const run_unit *u, remote_unit *out, ff_error *err);

/* The child's part (run_unit.c): the original's side of every clip of frame unit u. */
typedef struct remote_sink {
    strbuf raw;
    uint8_t *ok, *src;
    ff_error *errors;
    uint32_t cap;
} remote_sink;
int worker_frame_authority(worker *w, const run_unit *u, remote_sink *out, uint32_t *nclips,
                           ff_error *err);

#endif
