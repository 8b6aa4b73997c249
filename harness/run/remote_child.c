/*
 * harness/run/remote_child.c: an engine process's side (remote.h): confined
 * (confine.h) before its engine opens, its filter installed before the
 * executable's first instruction, then the original's side of each unit it
 * is sent, its files fetched from its worker (it opens none itself), its
 * answers written into the answer area (remote_wire.h). Nothing here prints;
 * the process ends with _exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness/run/confine.h"
#include "harness/run/leaf.h"
#include "harness/run/leaf_pose.h"
#include "harness/run/remote.h"
#include "harness/run/remote_wire.h"
#include "harness/run/worker.h"

/* The answer area, the request area and the socket, as the process sees them. */
typedef struct child_io {
    int fd;
    int area_fd;
    uint8_t *area;
    size_t area_len;
    int req_fd;
    const uint8_t *req;
    size_t req_len;
} child_io;

/* Room for len bytes at the start of the answer area. Returns 0, or -1. */
static int area_room(child_io *io, size_t len)
{
    if (len <= io->area_len) return 0;
    size_t want = io->area_len ? io->area_len : (size_t)64 << 10;
    while (want < len)
        want *= 2;
    if (ftruncate(io->area_fd, (off_t)want) != 0) return -1;
    void *p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, io->area_fd, 0);
    if (p == MAP_FAILED) return -1;
    if (io->area) munmap(io->area, io->area_len);
    io->area = p;
    io->area_len = want;
    return 0;
}

/* The sink's record buffer is the answer area itself (sb_init_over): records are written
 * where the worker reads them. */
static int area_grow(strbuf *b, size_t need)
{
    child_io *io = b->room_arg;
    if (area_room(io, need) < 0) return -1;
    b->s = (char *)io->area;
    b->cap = io->area_len;
    return 0;
}

/* run_ctx.file_fetch: file f's bytes from the worker, through the request area. */
static int child_fetch(void *arg, uint32_t f, uint8_t **data, size_t *size, ff_error *err)
{
    child_io *io = arg;
    uint32_t head[2] = {REMOTE_FETCH, f}, magic = 0;
    int32_t rc = -1;
    ff_error e;
    uint64_t len = 0;
    if (remote_put(io->fd, head, sizeof head) || remote_get(io->fd, &magic, 4) ||
        magic != REMOTE_FILE || remote_get(io->fd, &rc, 4) || remote_get(io->fd, &e, sizeof e) ||
        remote_get(io->fd, &len, 8))
        return ff_error_set(err, FF_E_IO, NULL, -1, "the worker did not send file %u", f);
    if (rc != 0) {
        *err = e;
        return -1;
    }
    if (len > io->req_len) {
        struct stat st;
        if (fstat(io->req_fd, &st) != 0 || (uint64_t)st.st_size < len)
            return ff_error_set(err, FF_E_IO, NULL, -1, "the request area is shorter than file %u",
                                f);
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, io->req_fd, 0);
        if (p == MAP_FAILED) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        if (io->req) munmap((void *)io->req, io->req_len);
        io->req = p;
        io->req_len = (size_t)st.st_size;
    }
    if (!(*data = malloc(len ? len : 1))) return ff_error_set(err, FF_E_NOMEM, NULL, -1,
                                                              "out of memory");
    memcpy(*data, io->req, len);
    *size = len;
    return 0;
}

/* One answer: its head built in out and sent in one piece; the records (rec_len bytes) are
 * already in the answer area. */
static int answer(int fd, strbuf *out, int rc, const ff_error *err, const remote_sink *s,
                  uint32_t n, const uint64_t counts[3], uint64_t rec_len)
{
    uint32_t magic = REMOTE_ANSWER;
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
    sb_add(out, (const char *)&len, 8);
    if (strbuf_failed(out)) return -1;
    return remote_put(fd, out->s, out->len);
}

static void memo_counts(worker *w, uint64_t *misses, uint64_t *hits)
{
    pose_memo_stats st = {0};
    if (w->memo) st = pose_memo_get_stats(w->memo);
    *misses = st.misses;
    *hits = st.hits;
}

/*
 * A leaf unit on g: the original's answers to its cases as the answer's
 * records (leaf.h, leaf_pose.h), for the worker to compare.
 */
static int leaf_unit(run_ctx *ctx, emu_game *g, const run_unit *u, strbuf *raw, ff_error *err)
{
    if (!g) return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "no engine for a leaf unit");
    if (u->kind == UNIT_POSE_LEAF) {
        pose_leaf_answers *a = leaf_pose_answers_new(u);
        if (!a) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        leaf_pose_answer(ctx, g, u, a);
        sb_add(raw, (const char *)a, leaf_pose_answers_size(a->n));
        free(a);
    } else {
        leaf_answers *a = malloc(sizeof *a);
        if (!a) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        leaf_unit_answer(ctx, g, u, a);
        sb_add(raw, (const char *)a, sizeof *a);
        free(a);
    }
    return raw->failed ? ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory") : 0;
}

void remote_child_main(run_ctx *ctx, pid_t parent, int fd, int area_fd, int req_fd)
{
    ff_error err;
    ff_error_clear(&err);
    /* Another thread of the parent may have held these at the fork: this process has its
     * own copies, and nobody else. */
    pthread_mutex_init(&ctx->files_lock, NULL);
    pthread_mutex_init(&ctx->lock, NULL);
    pthread_cond_init(&ctx->slot_done, NULL);
    int fds[3] = {fd, area_fd, req_fd};
    if (confine_process(parent, fds, 3, &err) < 0) _exit(2);
    child_io io = {fds[0], fds[1], NULL, 0, fds[2], NULL, 0};
    ctx->file_fetch = child_fetch;
    ctx->file_fetch_arg = &io;
    /* --engine both: this process runs the second engine as its own (the worker runs the
     * run's). The plan is this process's private copy since the fork. */
    run_config *cfg = (run_config *)ctx->cfg;
    int second = cfg->second != NULL;
    if (cfg->second) {
        cfg->game.engine = cfg->second;
        cfg->second = NULL;
        /* The run's engine records the coverage; this one's blocks are not asked for. */
        ctx->cover_hits = NULL;
    }
    worker *w = worker_new(ctx, &err);
    /* The filter before the executable's first instruction. */
    if (w && confine_filter(&err) < 0) {
        worker_free(w);
        w = NULL;
    }
    uint32_t magic = REMOTE_HELLO;
    int32_t rc = w ? 0 : -1;
    if (remote_put(io.fd, &magic, 4) || remote_put(io.fd, &rc, 4) ||
        remote_put(io.fd, &err, sizeof err) || !w)
        _exit(1);
    remote_sink s;
    memset(&s, 0, sizeof s);
    sb_init_over(&s.raw, area_grow, &io);
    s.skip_probe = second; /* the worker probes on the run's engine itself */
    strbuf out;
    sb_init(&out);
    run_progress *p = ctx->cfg->progress;
    uint32_t ui;
    while (remote_get(io.fd, &ui, 4) == 0 && ui < ctx->nunits) {
        uint64_t calls0 = p ? atomic_load(&p->emulated_calls) : 0, m0, h0, m1, h1;
        memo_counts(w, &m0, &h0);
        uint32_t n = 0;
        ff_error_clear(&err);
        const run_unit *u = &ctx->units[ui];
        s.probed = 0;
        sb_reset(&s.raw);
        int r;
        if (u->kind == UNIT_FRAME)
            r = worker_frame_authority(w, u, &s, &n, &err);
        else if (u->kind == UNIT_ENTITY)
            r = run_entity_authority(w->ent, u, &s, &n, &err);
        else
            r = leaf_unit(ctx, w->game, u, &s.raw, &err);
        memo_counts(w, &m1, &h1);
        uint64_t counts[3] = {p ? atomic_load(&p->emulated_calls) - calls0 : 0, m1 - m0, h1 - h0};
        uint64_t rec_len = s.raw.len;
        if (answer(io.fd, &out, r, &err, &s, r == 0 ? n : 0, counts, rec_len) < 0)
            break;
    }
    _exit(0);
}
