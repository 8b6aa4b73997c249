/*
 * harness/run/remote.h: a worker's engine in a process of its own. The
 * native engine runs the executable's code on the CPU, so that code never
 * runs in ff8diff's own process: every worker of a native run (and of any
 * run with run_config.engine_processes) gets an engine process, forked
 * by the run's spawner (spawner.h: never by the run itself, whose threads
 * may hold locks at the fork), the first ones before any worker starts, and
 * confined (confine.h: tied to
 * the run, no descriptor but its own, a system-call filter before the
 * executable's first instruction). It holds its own engine (and pose memo)
 * on a copy of the plan, reads no file itself (its worker sends the files
 * it asks for), and for each unit it is sent it emulates the original's
 * side of every clip exactly as an in-process worker would (dedup slots of
 * the unit's chain included: a chain goes to one worker, so to one process)
 * and sends back the outcomes, one record per clip in the cache's raw
 * format (harness/core/outcome.h, or the entity level's run_entity_io.h),
 * with each clip's source or input error, and for an entity unit its
 * QueueAnimation speed probe; a leaf unit's answer is the original's
 * answer to each of its cases (leaf.h, leaf_pose.h). The worker then
 * compares as if the outcomes came from the cache.
 *
 * An engine process answers with the original's results only, never with a
 * verdict: the worker compares every clip against its own reference. The
 * executable's code runs in the engine process, and natively code that
 * escapes to 64-bit mode unseen can write anything there (docs/engine.md
 * section 9): all it can send is results, and a clip passes only when they
 * are the reference's.
 *
 * An engine process that dies (or sends garbage) is reaped and described
 * ("killed by signal 31 (SIGSYS: ...)"), the unit it had becomes faults of
 * kind engine_process (remote_lost_unit), and a fresh process takes the
 * worker's next unit (remote_respawn). A cancelled run kills its engine
 * processes while it waits for them. Internal to harness/run/; nothing here
 * prints or exits (the child ends with _exit).
 */
#ifndef FF8_HARNESS_RUN_REMOTE_H
#define FF8_HARNESS_RUN_REMOTE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/outcome.h"
#include "harness/run/context.h"
#include "harness/run/run_entity.h"
#include "harness/run/run_entity_io.h"

typedef struct remote remote;

/* A clip's ok bits in an answer; 0: an input error (errors[c]). */
#define REMOTE_RECORD 1u /* its outcome is among the records */

/* What an engine process sent for one unit (owned by the remote until the next call). */
typedef struct remote_unit {
    uint32_t nclips;
    const uint8_t *ok;       /* per clip: REMOTE_RECORD, or 0: an input error */
    const uint8_t *src;      /* per clip: its res_source */
    const ff_error *errors;  /* per clip */
    const uint8_t *raw;      /* outcome records of the clips REMOTE_RECORD, in clip order */
    size_t raw_len;
    uint64_t emulated_calls, memo_misses, memo_hits;
    int probed;           /* an entity unit: probe holds the original's speed probe */
    const uint8_t *probe; /* ENT_PROBE_BYTES (run_entity.h) */
    int lost;             /* made by remote_lost_unit: never stored in the cache */
} remote_unit;

/*
 * Forks n engine processes for the run into out[0..n) (call on the run's
 * thread before any worker thread starts): each opens its engine meanwhile.
 * Returns 0, or -1 with err and none left running.
 */
int remote_start(run_ctx *ctx, unsigned n, remote **out, ff_error *err);
/*
 * Waits until the engines of rs[0..n) (remote_start's) are open. Returns 0,
 * or -1 with err (an engine's own error when it could not open) after
 * stopping every one of them (rs[k] NULL).
 */
int remote_ready(remote **rs, unsigned n, ff_error *err);
/*
 * Tells the engine process there is no more work (EOF): it ends meanwhile,
 * and remote_stop later only waits. r may be NULL; no call but remote_stop
 * after.
 */
void remote_hangup(remote *r);
/* Ends the engine process (EOF, then waits for it); r may be NULL. */
void remote_stop(remote *r);
/*
 * The original's side of frame or entity unit u from the engine process
 * into *out. Returns 0; -1 with err for a run-stopping error of this side
 * (memory); -2 with err when the process is lost (died, garbage, or
 * reported an error of its own: the executable's code may have written it,
 * so it is the unit's, never the run's), after which every call returns -2.
 */
int remote_ask(remote *r, const run_unit *u, remote_unit *out, ff_error *err);
/*
 * Whether a frame unit's answer rem (remote_ask's) holds sound records,
 * read once before any is used: each clip it says it holds has its record,
 * in clip order, whole and that clip's, none a digest (only the cache keeps
 * those), nothing after the last; name is the unit's file, o scratch. 1
 * when sound; 0 with why (the process is then to be lost: remote_lose).
 */
int remote_frame_records_sound(const remote_unit *rem, const char *name, orig_outcome *o,
                               ff_error *why);
/* As remote_frame_records_sound for an entity unit's (armed: a weapon record before each). */
int remote_entity_records_sound(const remote_unit *rem, int armed, ent_outcome *o, ff_error *why);
/* Ends r's process for an answer its worker found unsound (why): lost, as remote_ask's -2. */
void remote_lose(remote *r, const char *why);
/* How r's last process ended, in words, once remote_ask returned -2. */
const char *remote_why(const remote *r);
/*
 * A fresh engine process for r after it was lost (forked from this thread:
 * the new process takes nothing of the run's locks). Returns 0, or -1 with
 * err when none can start (r stays lost).
 */
int remote_respawn(remote *r, ff_error *err);
/*
 * The answer of frame or entity unit u whose process was lost (why): every
 * clip a fault of kind engine_process, out->lost set. Valid until r's next
 * call. Returns 0, or -1 with err (memory).
 */
int remote_lost_unit(remote *r, const run_unit *u, const char *why, remote_unit *out,
                     ff_error *err);

/* The child's part: the original's side of every clip of a unit. */
typedef struct remote_sink {
    strbuf raw; /* the records, written straight into the answer area the worker reads */
    uint8_t *ok, *src;
    ff_error *errors;
    uint32_t cap;
    int probed;    /* an entity unit's speed probe ran: probe holds it */
    int skip_probe; /* the process runs --engine both's second engine: no probe asked */
    uint8_t probe[ENT_PROBE_BYTES];
} remote_sink;
/* Room for n clips in s. Returns 0, or -1 with err. */
int remote_sink_room(remote_sink *s, uint32_t n, ff_error *err);
/* A frame unit's (run_unit.c) and an entity unit's (run_entity.c). Return 0, or -1 with err. */
int worker_frame_authority(worker *w, const run_unit *u, remote_sink *out, uint32_t *nclips,
                           ff_error *err);
int run_entity_authority(ent_worker *ew, const run_unit *u, remote_sink *out, uint32_t *nclips,
                         ff_error *err);

#endif
