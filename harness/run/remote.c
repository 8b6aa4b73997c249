/*
 * harness/run/remote.c: engine processes (see remote.h), the worker's side:
 * each forked (remote_child.c runs in it) with its stream socket, its answer
 * area (a memfd the process writes its records into, mapped read-only here)
 * and its request area (a memfd this side writes the files it asks for
 * into); units asked for and their answers checked (remote_wire.h); a
 * process that dies or answers garbage reaped, described, and replaced by a
 * fresh one; a cancelled run's processes killed. The records, about 350 KB
 * a unit on the vanilla preset, do not go through the socket: that took two
 * copies in the kernel and several wake-ups of each side a unit. Nothing
 * here prints or exits.
 */
#define _GNU_SOURCE
#include "harness/run/remote.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/run/confine.h"
#include "harness/run/remote_wire.h"
#include "harness/run/spawner.h"

/* An engine process that has not said it is ready in this long is lost: opening an
 * engine takes milliseconds, seconds under the sanitizers and Unicorn 2.0.1. */
#define HELLO_SECONDS 120

struct remote {
    pid_t pid;
    int fd;
    run_ctx *ctx;
    uint32_t nclips_max; /* no unit has more clips */
    int lost;
    char why[200];
    struct timespec deadline; /* readable's, while waiting for the hello; 0: none */
    /* the last answer, owned */
    uint32_t cap;
    uint8_t *ok, *src;
    ff_error *errors;
    int area_fd;         /* the answer area (memfd), shared with the process */
    const uint8_t *area; /* mapped here, read only */
    size_t area_len;
    int req_fd;          /* the request area (memfd): the files the process asks for */
    uint8_t *req;        /* mapped here, read-write */
    size_t req_len;
    uint8_t probe[ENT_PROBE_BYTES];
    strbuf made;         /* a lost unit's records, made here */
    /* what the socket held past the bytes taken so far */
    uint8_t in[8192];
    size_t in_len, in_pos;
};

/* ---- the wire ---- */

int remote_put(int fd, const void *p, size_t n)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

int remote_get(int fd, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        b += r;
        n -= (size_t)r;
    }
    return 0;
}

/*
 * Waits until r's socket has bytes. Returns 0; -1 when the run is cancelled
 * meanwhile (the process is killed: whatever its guest does, the run ends
 * within a poll period) or polling fails.
 */
static int readable(remote *r)
{
    for (;;) {
        struct pollfd p = {r->fd, POLLIN, 0};
        int k = poll(&p, 1, 100);
        if (k > 0) return 0;
        if (k < 0 && errno != EINTR) return -1;
        if (r->ctx && run_cancelled(r->ctx)) {
            kill(r->pid, SIGKILL);
            return -1;
        }
        struct timespec now;
        if (r->deadline.tv_sec && clock_gettime(CLOCK_MONOTONIC, &now) == 0 &&
            now.tv_sec > r->deadline.tv_sec) {
            kill(r->pid, SIGKILL);
            return -1;
        }
    }
}

/* n bytes from r's socket through its buffer: one read takes most of an answer. */
static int rget(remote *r, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        if (r->in_pos == r->in_len) {
            if (readable(r) < 0) return -1;
            if (n >= sizeof r->in) return remote_get(r->fd, b, n);
            ssize_t k = read(r->fd, r->in, sizeof r->in);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) return -1;
            r->in_len = (size_t)k;
            r->in_pos = 0;
        }
        size_t k = r->in_len - r->in_pos < n ? r->in_len - r->in_pos : n;
        memcpy(b, r->in + r->in_pos, k);
        r->in_pos += k;
        b += k;
        n -= k;
    }
    return 0;
}

/* ---- a process started, ended ---- */

static void close_fds(remote *r)
{
    if (r->fd >= 0) close(r->fd);
    if (r->area) munmap((void *)r->area, r->area_len);
    if (r->area_fd >= 0) close(r->area_fd);
    if (r->req) munmap(r->req, r->req_len);
    if (r->req_fd >= 0) close(r->req_fd);
    r->fd = r->area_fd = r->req_fd = -1;
    r->area = NULL;
    r->req = NULL;
    r->area_len = r->req_len = 0;
    r->in_len = r->in_pos = 0;
}

/* r's engine process with a new socket and areas, from the run's spawner (spawner.h: never
 * a fork of this process, whose other threads may hold locks). Returns 0, or -1 with err. */
static int spawn(remote *r, ff_error *err)
{
    int sv[2] = {-1, -1};
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "cannot make an engine process's socket: %s", strerror(errno));
    r->area_fd = memfd_create("ff8diff-answer", MFD_CLOEXEC);
    r->req_fd = memfd_create("ff8diff-request", MFD_CLOEXEC);
    if (r->area_fd < 0 || r->req_fd < 0) {
        close(sv[0]);
        close(sv[1]);
        close_fds(r);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "cannot make an engine process's answer area: %s", strerror(errno));
    }
    pid_t pid = 0;
    if (!r->ctx->spawner)
        ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot start an engine process: no spawner");
    if (!r->ctx->spawner || spawner_spawn(r->ctx->spawner, sv[1], r->area_fd, r->req_fd, &pid,
                                          err) < 0) {
        close(sv[0]);
        close(sv[1]);
        close_fds(r);
        return -1;
    }
    close(sv[1]);
    r->pid = pid;
    r->fd = sv[0];
    r->lost = 0;
    r->why[0] = 0;
    return 0;
}

/* Waits for r's hello. Returns 0, or -1 with err (the engine's own error when it could not
 * open). */
static int hello(remote *r, ff_error *err)
{
    uint32_t magic = 0;
    int32_t rc = -1;
    ff_error child_err;
    clock_gettime(CLOCK_MONOTONIC, &r->deadline);
    r->deadline.tv_sec += HELLO_SECONDS;
    int got = !rget(r, &magic, 4) && magic == REMOTE_HELLO && !rget(r, &rc, 4) &&
              !rget(r, &child_err, sizeof child_err);
    struct timespec now;
    int late = !got && clock_gettime(CLOCK_MONOTONIC, &now) == 0 &&
               now.tv_sec > r->deadline.tv_sec;
    r->deadline.tv_sec = r->deadline.tv_nsec = 0;
    if (late)
        return ff_error_set(err, FF_E_EMU, NULL, -1,
                            "an engine process did not open its engine in %d s",
                            HELLO_SECONDS);
    if (!got)
        return ff_error_set(err, FF_E_EMU, NULL, -1,
                            "an engine process ended before its engine opened");
    if (rc == 0) return 0;
    *err = child_err;
    err->reason[sizeof err->reason - 1] = 0;
    return -1;
}

/* Ends r's process (killed when kill), waits for it, and describes its end into r->why. */
static void reap(remote *r, int kill_it, const char *what)
{
    if (r->pid <= 0) return;
    if (kill_it) kill(r->pid, SIGKILL);
    int st = 0;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR) {
    }
    char end[120];
    confine_describe(st, end, sizeof end);
    snprintf(r->why, sizeof r->why, "engine process %d %s: %s", (int)r->pid, what, end);
    r->pid = 0;
}

int remote_start(run_ctx *ctx, unsigned n, remote **out, ff_error *err)
{
    memset(out, 0, n * sizeof *out);
    int rc = 0;
    for (unsigned k = 0; rc == 0 && k < n; k++) {
        remote *r = calloc(1, sizeof *r);
        if (!r) {
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
            break;
        }
        r->fd = r->area_fd = r->req_fd = -1;
        r->ctx = ctx;
        sb_init(&r->made);
        for (size_t f = 0; f < ctx->res->nfiles; f++)
            if (ctx->fslots[f].clips > r->nclips_max) r->nclips_max = ctx->fslots[f].clips;
        for (size_t e = 0; ctx->res->entities && e < ctx->res->nentities; e++)
            if (ctx->res->entities[e].clips > r->nclips_max)
                r->nclips_max = ctx->res->entities[e].clips;
        out[k] = r;
        rc = spawn(r, err);
    }
    if (rc == 0) return 0;
    for (unsigned k = 0; k < n; k++) {
        remote_stop(out[k]);
        out[k] = NULL;
    }
    return -1;
}

int remote_ready(remote **rs, unsigned n, ff_error *err)
{
    int rc = 0;
    for (unsigned k = 0; rc == 0 && k < n; k++)
        rc = hello(rs[k], err);
    if (rc == 0) return 0;
    for (unsigned k = 0; k < n; k++) {
        remote_stop(rs[k]);
        rs[k] = NULL;
    }
    return -1;
}

/* A fresh process that ends before its hello (killed from outside while it opened) is
 * tried again this many times before the run stops with its error. */
#define RESPAWN_TRIES 3

int remote_respawn(remote *r, ff_error *err)
{
    if (r->pid > 0) reap(r, 1, "ended");
    close_fds(r);
    for (int t = 0; t < RESPAWN_TRIES; t++) {
        if (spawn(r, err) < 0) return -1;
        if (hello(r, err) == 0) return 0;
        reap(r, 1, "ended");
        close_fds(r);
    }
    r->lost = 1;
    return -1;
}

void remote_hangup(remote *r)
{
    if (!r || r->fd < 0) return;
    close(r->fd);
    r->fd = -1;
}

void remote_stop(remote *r)
{
    if (!r) return;
    if (r->fd >= 0) close(r->fd);
    r->fd = -1;
    if (r->pid > 0) {
        int st;
        while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR) {
        }
    }
    close_fds(r);
    free(r->ok);
    free(r->src);
    free(r->errors);
    sb_free(&r->made);
    free(r);
}

const char *remote_why(const remote *r)
{
    return r->why;
}

/* ---- a unit asked for ---- */

/* The process is lost: killed and reaped, r->why says how it ended. Returns -2. */
static int lose(remote *r, const char *why, ff_error *err)
{
    r->lost = 1;
    reap(r, 1, why);
    return ff_error_set(err, FF_E_EMU, NULL, -1, "%s", r->why), -2;
}

void remote_lose(remote *r, const char *why)
{
    ff_error e;
    if (!r->lost) lose(r, why, &e);
}

static int room(remote *r, uint32_t n)
{
    if (n > r->cap) {
        uint8_t *ok = realloc(r->ok, n), *src = ok ? realloc(r->src, n) : NULL;
        if (ok) r->ok = ok;
        if (src) r->src = src;
        ff_error *e = src ? realloc(r->errors, n * sizeof *e) : NULL;
        if (!e) return -1;
        r->errors = e;
        r->cap = n;
    }
    return 0;
}

/* The first len bytes of the answer area readable at r->area. Returns 0; -1 when the
 * process did not make the area that long (garbage), -2 when it cannot be mapped here. */
static int area_see(remote *r, uint64_t len)
{
    if (len <= r->area_len) return 0;
    struct stat st;
    if (fstat(r->area_fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size < len) return -1;
    void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, r->area_fd, 0);
    if (p == MAP_FAILED) return -2;
    if (r->area) munmap((void *)r->area, r->area_len);
    r->area = p;
    r->area_len = (size_t)st.st_size;
    return 0;
}

int remote_sink_room(remote_sink *s, uint32_t n, ff_error *err)
{
    if (n <= s->cap) return 0;
    uint8_t *ok = realloc(s->ok, n), *src = ok ? realloc(s->src, n) : NULL;
    if (ok) s->ok = ok;
    if (src) s->src = src;
    ff_error *e = src ? realloc(s->errors, n * sizeof *e) : NULL;
    if (!e) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    s->errors = e;
    s->cap = n;
    return 0;
}

/*
 * The process asks for file f while it runs a unit: its bytes (as the plan
 * read them, checked against its SHA-256) go into the request area. Returns
 * 0; -1 when the answer cannot be sent (the process is gone).
 */
static int serve_file(remote *r, uint32_t f)
{
    run_ctx *ctx = r->ctx;
    ff_error e;
    ff_error_clear(&e);
    const dat_file *d = NULL;
    int32_t rc = -1;
    uint64_t len = 0;
    if (f >= ctx->res->nfiles)
        ff_error_set(&e, FF_E_INTERNAL, NULL, -1, "the engine process asked for file %u of %zu",
                     f, ctx->res->nfiles);
    else if (run_file_get(ctx, f, &d, &e) == 0) {
        const run_fslot *s = &ctx->fslots[f];
        len = s->size;
        if (len > r->req_len) {
            void *p = MAP_FAILED;
            if (ftruncate(r->req_fd, (off_t)len) == 0)
                p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED, r->req_fd, 0);
            if (p != MAP_FAILED) {
                if (r->req) munmap(r->req, r->req_len);
                r->req = p;
                r->req_len = (size_t)len;
            }
        }
        if (len <= r->req_len) {
            memcpy(r->req, s->data, (size_t)len);
            rc = 0;
        } else {
            ff_error_set(&e, FF_E_NOMEM, NULL, -1, "out of memory for the request area");
        }
        run_file_put(ctx, f);
    }
    uint32_t magic = REMOTE_FILE;
    if (rc != 0) len = 0;
    return remote_put(r->fd, &magic, 4) || remote_put(r->fd, &rc, 4) ||
                   remote_put(r->fd, &e, sizeof e) || remote_put(r->fd, &len, 8)
               ? -1
               : 0;
}

/* The answer's magic, after serving the files the process asks for meanwhile. */
static int answer_magic(remote *r, uint32_t *magic)
{
    for (;;) {
        uint32_t f;
        if (rget(r, magic, 4)) return -1;
        if (*magic != REMOTE_FETCH) return 0;
        if (rget(r, &f, 4) || serve_file(r, f) < 0) return -1;
    }
}

int remote_ask(remote *r, const run_unit *u, remote_unit *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    if (r->lost) return ff_error_set(err, FF_E_EMU, NULL, -1, "%s", r->why), -2;
    uint32_t ui = (uint32_t)(u - r->ctx->units);
    if (remote_put(r->fd, &ui, 4) < 0) return lose(r, "stopped taking units", err);
    uint32_t magic = 0, n = 0;
    int32_t rc = 0;
    ff_error e;
    uint64_t counts[3], raw_len = 0;
    uint8_t probed = 0;
    if (answer_magic(r, &magic) || magic != REMOTE_ANSWER || rget(r, &rc, 4) ||
        rget(r, &e, sizeof e) || rget(r, &n, 4) || rget(r, counts, sizeof counts) ||
        rget(r, &probed, 1) || probed > 1 || rget(r, r->probe, sizeof r->probe))
        return lose(r, "ended or answered garbage", err);
    e.reason[sizeof e.reason - 1] = 0;
    if (n > r->nclips_max) return lose(r, "answered more clips than the unit has", err);
    if (room(r, n ? n : 1) < 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (n && (rget(r, r->ok, n) || rget(r, r->src, n)))
        return lose(r, "ended in the middle of an answer", err);
    for (uint32_t c = 0; c < n; c++) {
        if (r->src[c] >= RES_SRC__COUNT || r->ok[c] > REMOTE_RECORD)
            return lose(r, "answered garbage", err);
        if (!r->ok[c] && rget(r, &r->errors[c], sizeof r->errors[c]))
            return lose(r, "ended in the middle of an answer", err);
        if (!r->ok[c]) r->errors[c].reason[sizeof r->errors[c].reason - 1] = 0;
    }
    if (rget(r, &raw_len, 8) || raw_len > ((uint64_t)1 << 34))
        return lose(r, "ended in the middle of an answer", err);
    int seen = area_see(r, raw_len);
    if (seen == -1) return lose(r, "answered more records than its answer area holds", err);
    if (seen == -2)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "cannot map an engine process's answers: %s",
                            strerror(errno));
    if (rc != 0) {
        /* Its error is its unit's, never the run's: once the executable's code has run in it,
         * a process may say anything (memory that ran out there fails that unit alone). */
        char what[120];
        snprintf(what, sizeof what, "reported an error (%.80s)", e.reason);
        return lose(r, what, err);
    }
    out->nclips = n;
    out->ok = r->ok;
    out->src = r->src;
    out->errors = r->errors;
    out->raw = r->area;
    out->raw_len = (size_t)raw_len;
    out->emulated_calls = counts[0];
    out->memo_misses = counts[1];
    out->memo_hits = counts[2];
    out->probed = probed;
    out->probe = r->probe;
    return 0;
}

int remote_frame_records_sound(const remote_unit *rem, const char *name, orig_outcome *o,
                               ff_error *why)
{
    size_t pos = 0;
    for (uint32_t c = 0; c < rem->nclips; c++) {
        if (!(rem->ok[c] & REMOTE_RECORD)) continue;
        uint32_t got = 0;
        int rc = outcome_next_lent(rem->raw, rem->raw_len, &pos, &got, o, name, why);
        if (rc < 0) return 0;
        if (rc == 0 || got != c)
            return ff_error_set(why, FF_E_FORMAT, name, (int64_t)pos,
                                "the engine process sent no record of anim %u", c) == 0;
        if (o->digested)
            return ff_error_set(why, FF_E_FORMAT, name, (int64_t)pos,
                                "the engine process sent a digest for anim %u, not its results",
                                c) == 0;
    }
    if (pos == rem->raw_len) return 1;
    return ff_error_set(why, FF_E_FORMAT, name, (int64_t)pos,
                        "the engine process sent bytes after its last record") == 0;
}

int remote_entity_records_sound(const remote_unit *rem, int armed, ent_outcome *o, ff_error *why)
{
    size_t pos = 0;
    for (uint32_t c = 0; c < rem->nclips; c++)
        if ((rem->ok[c] & REMOTE_RECORD) &&
            ent_outcome_next(rem->raw, rem->raw_len, &pos, c, armed, o, why) != 1)
            return 0;
    if (pos == rem->raw_len) return 1;
    return ff_error_set(why, FF_E_FORMAT, "entity outcomes", (int64_t)pos,
                        "the engine process sent bytes after its last record") == 0;
}

int remote_lost_unit(remote *r, const run_unit *u, const char *why, remote_unit *out,
                     ff_error *err)
{
    run_ctx *ctx = r->ctx;
    memset(out, 0, sizeof *out);
    uint32_t n = 0;
    int armed = 0;
    if (u->kind == UNIT_FRAME)
        n = ctx->fslots[u->file].clips;
    else if (u->kind == UNIT_ENTITY) {
        n = ctx->res->entities[u->entity].clips;
        armed = ctx->res->entities[u->entity].weapon >= 0;
    }
    if (room(r, n ? n : 1) < 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    sb_reset(&r->made);
    orig_outcome o;
    outcome_init(&o);
    o.faulted = 1;
    o.fault.kind = EMU_FAULT_ENGINE_PROCESS;
    snprintf(o.fault.detail, sizeof o.fault.detail, "%s", why);
    orig_outcome none;
    outcome_init(&none);
    for (uint32_t c = 0; c < n; c++) {
        r->ok[c] = REMOTE_RECORD;
        r->src[c] = RES_SRC_EMULATED;
        if (armed) outcome_append(&r->made, c, &none); /* the weapon's record: no calls */
        outcome_append(&r->made, c, &o);
    }
    outcome_free(&o);
    outcome_free(&none);
    if (r->made.failed) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    out->nclips = n;
    out->ok = r->ok;
    out->src = r->src;
    out->errors = r->errors;
    out->raw = (const uint8_t *)r->made.s;
    out->raw_len = r->made.len;
    out->lost = 1;
    return 0;
}
