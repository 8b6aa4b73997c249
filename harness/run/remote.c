/*
 * harness/run/remote.c: engine processes (see remote.h): the fork, the child's
 * loop and the wire between them, a stream socket carrying fixed-layout
 * messages (the same binary at both ends, so structs go as they are), and
 * a shared answer area (a memfd made before the fork) for the records:
 *   hello  (child, once): magic, rc, ff_error
 *   ask    (worker): u32 unit index
 *   answer (child): magic, rc, ff_error, u32 nclips, u64 calls, u64 memo
 *          misses, u64 memo hits, u8 probed, the probe's bytes (an entity
 *          unit's speed probe, ENT_PROBE_BYTES), nclips ok bytes,
 *          nclips source bytes, one ff_error per clip not ok, u64 raw
 *          length, u32 matched count; the raw records are at the start of
 *          the answer area, where the child writes them as it makes them
 *          (growing it with ftruncate when they do not fit), the matched
 *          clips' clip_result after them at the next multiple of 8, and the
 *          area stays the worker's to read until it asks again.
 * The records, about 350 KB a unit on the vanilla preset, do not go through
 * the socket: that took two copies in the kernel and, past the socket's
 * buffer, several wake-ups of each side a unit, each one waiting for a core.
 * Nothing here prints or exits, but the child, which ends with _exit.
 */
#define _GNU_SOURCE
#include "harness/run/remote.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/run/pose_side.h"
#include "harness/run/worker.h"

#define HELLO_MAGIC 0x48524646u  /* "FFRH" */
#define ANSWER_MAGIC 0x55524646u /* "FFRU" */

/* Where the matched clips' records start in an answer area whose records take len bytes. */
static uint64_t matched_at(uint64_t len)
{
    return (len + 7) & ~(uint64_t)7;
}

struct remote {
    pid_t pid;
    int fd;
    const run_unit *units; /* the run's, to name a unit by its index */
    uint32_t nclips_max;   /* no unit has more clips */
    int lost;
    char why[160];
    /* the last answer, owned */
    uint32_t cap;
    uint8_t *ok, *src;
    ff_error *errors;
    int area_fd;         /* the answer area (memfd), shared with the child */
    const uint8_t *area; /* mapped here, read only */
    size_t area_len;
    uint8_t probe[ENT_PROBE_BYTES];
    /* what the socket held past the bytes taken so far (an answer comes in one piece:
     * one read takes most of it) */
    uint8_t in[8192];
    size_t in_len, in_pos;
};

/* ---- the wire ---- */

static int put(int fd, const void *p, size_t n)
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

static int get(int fd, void *p, size_t n)
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

/* get() through r's buffer: n bytes from what one read brought, reading again only when
 * they run out. */
static int rget(remote *r, void *p, size_t n)
{
    uint8_t *b = p;
    while (n) {
        if (r->in_pos == r->in_len) {
            if (n >= sizeof r->in) return rget(r, b, n);
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

/* ---- the child ---- */

/* The child's mapping of its answer area. */
typedef struct area_map {
    int fd;
    uint8_t *p;
    size_t len;
} area_map;

/* Room for len bytes at the start of the answer area. Returns 0, or -1. */
static int area_room(area_map *a, size_t len)
{
    if (len <= a->len) return 0;
    size_t want = a->len ? a->len : (size_t)64 << 10;
    while (want < len)
        want *= 2;
    if (ftruncate(a->fd, (off_t)want) != 0) return -1;
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, a->fd, 0);
    if (p == MAP_FAILED) return -1;
    if (a->p) munmap(a->p, a->len);
    a->p = p;
    a->len = want;
    return 0;
}

/* The sink's record buffer is the answer area itself (sb_init_over): records are written
 * where the worker reads them. */
static int area_grow(strbuf *b, size_t need)
{
    area_map *a = b->room_arg;
    if (area_room(a, need) < 0) return -1;
    b->s = (char *)a->p;
    b->cap = a->len;
    return 0;
}

/* One answer: its head built in out and sent in one piece (one wake-up of the worker, not
 * one a field); the records (rec_len bytes) and the nmatched clips' records after them are
 * already in the answer area. */
static int answer(int fd, strbuf *out, int rc, const ff_error *err, const remote_sink *s,
                  uint32_t n, const uint64_t counts[3], uint64_t rec_len, uint32_t nmatched)
{
    uint32_t magic = ANSWER_MAGIC;
    int32_t r = rc;
    sb_reset(out);
    sb_add(out, (const char *)&magic, 4);
    sb_add(out, (const char *)&r, 4);
    sb_add(out, (const char *)err, sizeof *err);
    sb_add(out, (const char *)&n, 4);
    sb_add(out, (const char *)counts, 3 * sizeof *counts);
    uint8_t probed = rc == 0 && s->probed;
    sb_add(out, (const char *)&probed, 1);
    sb_add(out, (const char *)s->probe, sizeof s->probe);
    if (n) {
        sb_add(out, (const char *)s->ok, n);
        sb_add(out, (const char *)s->src, n);
    }
    for (uint32_t c = 0; c < n; c++)
        if (!s->ok[c]) sb_add(out, (const char *)&s->errors[c], sizeof s->errors[c]);
    uint64_t len = rc == 0 ? rec_len : 0;
    uint32_t matched = rc == 0 ? nmatched : 0;
    sb_add(out, (const char *)&len, 8);
    sb_add(out, (const char *)&matched, 4);
    if (strbuf_failed(out)) return -1;
    return put(fd, out->s, out->len);
}

static void memo_counts(worker *w, uint64_t *misses, uint64_t *hits)
{
    pose_memo_stats st = {0};
    if (w->memo) st = pose_memo_get_stats(w->memo);
    *misses = st.misses;
    *hits = st.hits;
}

static void child_main(run_ctx *ctx, int fd, int area_fd)
{
    ff_error err;
    ff_error_clear(&err);
    /* --engine both: this process runs the second engine as its own. The plan is this
     * process's private copy since the fork: changing it here touches no other. */
    run_config *cfg = (run_config *)ctx->cfg;
    int second = cfg->second != NULL;
    if (cfg->second) {
        cfg->game.engine = cfg->second;
        cfg->second = NULL;
        /* The run's engine records the coverage; this one's blocks are not asked for. */
        ctx->cover_hits = NULL;
    }
    worker *w = worker_new(ctx, &err);
    uint32_t magic = HELLO_MAGIC;
    int32_t rc = w ? 0 : -1;
    if (put(fd, &magic, 4) || put(fd, &rc, 4) || put(fd, &err, sizeof err) || !w) _exit(1);
    area_map area = {area_fd, NULL, 0};
    remote_sink s;
    memset(&s, 0, sizeof s);
    sb_init_over(&s.raw, area_grow, &area);
    sb_init(&s.matched);
    s.skip_probe = second; /* the worker probes on the run's engine itself */
    strbuf out;
    sb_init(&out);
    run_progress *p = ctx->cfg->progress;
    uint32_t ui;
    while (get(fd, &ui, 4) == 0 && ui < ctx->nunits) {
        uint64_t calls0 = p ? atomic_load(&p->emulated_calls) : 0, m0, h0, m1, h1;
        memo_counts(w, &m0, &h0);
        uint32_t n = 0;
        ff_error_clear(&err);
        const run_unit *u = &ctx->units[ui];
        s.probed = 0;
        sb_reset(&s.matched);
        int r = u->kind == UNIT_FRAME    ? worker_frame_authority(w, u, &s, &n, &err)
                : u->kind == UNIT_ENTITY ? run_entity_authority(w->ent, u, &s, &n, &err)
                                         : ff_error_set(&err, FF_E_INTERNAL, NULL, -1,
                                                        "an engine process was sent a leaf unit");
        memo_counts(w, &m1, &h1);
        uint64_t counts[3] = {p ? atomic_load(&p->emulated_calls) - calls0 : 0, m1 - m0, h1 - h0};
        uint64_t rec_len = s.raw.len;
        uint32_t nmatched = (uint32_t)(s.matched.len / sizeof(clip_result));
        if (r == 0 && nmatched) {
            static const char pad[8];
            sb_add(&s.raw, pad, (size_t)(matched_at(rec_len) - rec_len));
            sb_add(&s.raw, s.matched.s, s.matched.len);
            if (s.raw.failed)
                r = ff_error_set(&err, FF_E_NOMEM, NULL, -1,
                                 "out of memory: the engine process's answer area cannot hold "
                                 "the matched clips");
        }
        if (answer(fd, &out, r, &err, &s, r == 0 ? n : 0, counts, rec_len, nmatched) < 0) break;
    }
    _exit(0);
}

/* ---- the worker's side ---- */

int remote_start(run_ctx *ctx, unsigned n, remote **out, ff_error *err)
{
    memset(out, 0, n * sizeof *out);
    int(*sv)[3] = calloc(n ? n : 1, sizeof *sv);
    if (!sv) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    unsigned made = 0;
    int rc = 0;
    for (; made < n; made++) {
        if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv[made]) != 0) {
            rc = ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                              "cannot make an engine process's socket: %s", strerror(errno));
            break;
        }
        sv[made][2] = memfd_create("ff8diff-answer", MFD_CLOEXEC);
        if (sv[made][2] < 0) {
            rc = ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                              "cannot make an engine process's answer area: %s", strerror(errno));
            close(sv[made][0]);
            close(sv[made][1]);
            break;
        }
    }
    for (unsigned k = 0; rc == 0 && k < n; k++) {
        remote *r = calloc(1, sizeof *r);
        if (!r) {
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
            break;
        }
        r->fd = -1;
        r->area_fd = -1;
        pid_t pid = fork();
        if (pid < 0) {
            free(r);
            rc = ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot start an engine process: %s",
                              strerror(errno));
            break;
        }
        if (pid == 0) {
            /* Only its own end: a sibling holding another's would hide that one's EOF. */
            for (unsigned j = 0; j < made; j++) {
                close(sv[j][0]);
                for (int i = 1; j != k && i < 3; i++)
                    close(sv[j][i]);
            }
            child_main(ctx, sv[k][1], sv[k][2]);
        }
        r->pid = pid;
        r->units = ctx->units;
        for (size_t f = 0; f < ctx->res->nfiles; f++)
            if (ctx->fslots[f].clips > r->nclips_max) r->nclips_max = ctx->fslots[f].clips;
        out[k] = r;
    }
    /* Every child forked: each parent end to its remote (or closed), every child end closed. */
    for (unsigned j = 0; j < made; j++) {
        close(sv[j][1]);
        if (j < n && out[j]) {
            out[j]->fd = sv[j][0];
            out[j]->area_fd = sv[j][2];
        } else {
            close(sv[j][0]);
            close(sv[j][2]);
        }
    }
    free(sv);
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
    for (unsigned k = 0; rc == 0 && k < n; k++) {
        remote *r = rs[k];
        uint32_t magic = 0;
        int32_t hello = -1;
        ff_error child_err;
        if (rget(r, &magic, 4) || magic != HELLO_MAGIC || rget(r, &hello, 4) ||
            rget(r, &child_err, sizeof child_err))
            rc = ff_error_set(err, FF_E_EMU, NULL, -1,
                              "an engine process ended before its engine opened");
        else if (hello != 0) {
            *err = child_err;
            rc = -1;
        }
    }
    if (rc == 0) return 0;
    for (unsigned k = 0; k < n; k++) {
        remote_stop(rs[k]);
        rs[k] = NULL;
    }
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
    int st;
    while (waitpid(r->pid, &st, 0) < 0 && errno == EINTR) {
    }
    free(r->ok);
    free(r->src);
    free(r->errors);
    if (r->area) munmap((void *)r->area, r->area_len);
    if (r->area_fd >= 0) close(r->area_fd);
    free(r);
}

static int lose(remote *r, const char *why, ff_error *err)
{
    r->lost = 1;
    snprintf(r->why, sizeof r->why, "%s", why);
    return ff_error_set(err, FF_E_EMU, NULL, -1, "engine process %d lost: %s", (int)r->pid, why), -2;
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

/* The first len bytes of the answer area readable at r->area. Returns 0; -1 when the child
 * did not make the area that long (garbage), -2 when it cannot be mapped here. */
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
 * The nmatched finished records at `at` of unit u's answer (ok: its clips'
 * bits): each that clip's, a match, nothing on the heap. Only a frame unit
 * has them.
 */
static int matched_ok(const run_unit *u, const uint8_t *ok, uint32_t n, const uint8_t *at,
                      uint32_t nmatched)
{
    if (nmatched && u->kind != UNIT_FRAME) return 0;
    for (uint32_t c = 0, k = 0; c < n; c++) {
        if (!(ok[c] & REMOTE_MATCHED)) continue;
        clip_result m;
        memcpy(&m, at + (size_t)k++ * sizeof m, sizeof m);
        if (m.file != u->file || m.mode != u->mode || m.clip != (int32_t)c ||
            m.status != RES_MATCH || m.source >= RES_SRC__COUNT || m.fault || m.error || m.expl ||
            m.stopped || m.cells)
            return 0;
    }
    return 1;
}

int remote_ask(remote *r, const run_unit *u, remote_unit *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    if (r->lost)
        return ff_error_set(err, FF_E_EMU, NULL, -1, "engine process lost: %s", r->why), -2;
    uint32_t ui = (uint32_t)(u - r->units);
    if (put(r->fd, &ui, 4) < 0) return lose(r, "it stopped taking units", err);
    uint32_t magic = 0, n = 0;
    int32_t rc = 0;
    ff_error e;
    uint64_t counts[3], raw_len = 0;
    uint32_t nmatched = 0, marked = 0;
    uint8_t probed = 0;
    if (rget(r, &magic, 4) || magic != ANSWER_MAGIC || rget(r, &rc, 4) || rget(r, &e, sizeof e) ||
        rget(r, &n, 4) || rget(r, counts, sizeof counts) || rget(r, &probed, 1) || probed > 1 ||
        rget(r, r->probe, sizeof r->probe))
        return lose(r, "it ended or answered garbage", err);
    if (n > r->nclips_max) return lose(r, "it answered more clips than the unit has", err);
    if (room(r, n ? n : 1) < 0) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    if (n && (rget(r, r->ok, n) || rget(r, r->src, n)))
        return lose(r, "it ended in the middle of an answer", err);
    for (uint32_t c = 0; c < n; c++) {
        if (r->src[c] >= RES_SRC__COUNT || r->ok[c] > (REMOTE_RECORD | REMOTE_MATCHED))
            return lose(r, "it answered garbage", err);
        marked += (r->ok[c] & REMOTE_MATCHED) != 0;
        if (!r->ok[c] && rget(r, &r->errors[c], sizeof r->errors[c]))
            return lose(r, "it ended in the middle of an answer", err);
    }
    if (rget(r, &raw_len, 8) || raw_len > ((uint64_t)1 << 34) || rget(r, &nmatched, 4))
        return lose(r, "it ended in the middle of an answer", err);
    if (nmatched != marked) return lose(r, "it answered garbage", err);
    uint64_t end =
        nmatched ? matched_at(raw_len) + (uint64_t)nmatched * sizeof(clip_result) : raw_len;
    int seen = area_see(r, end);
    if (seen == -1) return lose(r, "it answered more records than its answer area holds", err);
    if (seen == -2)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "cannot map an engine process's answers: %s",
                            strerror(errno));
    if (rc != 0) {
        *err = e;
        return -1;
    }
    const uint8_t *matched = r->area ? r->area + matched_at(raw_len) : NULL;
    if (!matched_ok(u, r->ok, n, matched, nmatched))
        return lose(r, "it answered another clip's record, or one that does not match", err);
    out->nclips = n;
    out->ok = r->ok;
    out->src = r->src;
    out->errors = r->errors;
    out->raw = r->area;
    out->raw_len = (size_t)raw_len;
    out->matched = matched;
    out->nmatched = nmatched;
    out->emulated_calls = counts[0];
    out->memo_misses = counts[1];
    out->memo_hits = counts[2];
    out->probed = probed;
    out->probe = r->probe;
    return 0;
}
