/*
 * harness/run/remote_wire.h: the wire between a worker and its engine
 * process (remote.c the worker's side, remote_child.c the process's): the
 * messages' magic numbers, whole-message reads and writes on the stream
 * socket. Internal to
 * harness/run/remote*.c; nothing here prints or exits.
 *
 * Messages (the same binary at both ends, so structs go as they are):
 *   hello  (process, once): HELLO, i32 rc, ff_error
 *   ask    (worker): u32 unit index
 *   fetch  (process, while it runs a unit): FETCH, u32 file index; the
 *          worker answers FILE, i32 rc, ff_error, u64 length, the file's
 *          bytes at the start of the request area (a memfd the worker
 *          writes and the process maps read-only): an engine process opens
 *          no file of its own
 *   answer (process): ANSWER, i32 rc, ff_error, u32 nclips, u64 calls, u64
 *          memo misses, u64 memo hits, u8 probed, the probe's bytes, nclips
 *          ok bytes, nclips source bytes, one ff_error per clip not ok, u64
 *          raw length; the records at the start of the answer area. A
 *          leaf unit's answer has no clips: its raw bytes are the unit's
 *          leaf_answers or pose_leaf_answers. An answer carries results,
 *          never a verdict: the worker compares.
 */
#ifndef FF8_HARNESS_RUN_REMOTE_WIRE_H
#define FF8_HARNESS_RUN_REMOTE_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "harness/run/context.h"

#define REMOTE_HELLO 0x48524646u  /* "FFRH" */
#define REMOTE_ANSWER 0x55524646u /* "FFRU" */
#define REMOTE_FETCH 0x46524646u  /* "FFRF" */
#define REMOTE_FILE 0x44524646u   /* "FFRD" */

/* n bytes to or from fd, whole. Return 0, or -1 (the other end gone, an error). */
int remote_put(int fd, const void *p, size_t n);
int remote_get(int fd, void *p, size_t n);

/*
 * The engine process's life (remote_child.c), in a child just forked from
 * parent: confined, its engine opened, then unit after unit until EOF.
 * Never returns.
 */
void remote_child_main(run_ctx *ctx, pid_t parent, int fd, int area_fd, int req_fd)
    __attribute__((noreturn));

#endif
