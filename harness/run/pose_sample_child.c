/*
 * harness/run/pose_sample_child.c: the convention search's original poses
 * (pose_sample.h) in an engine process of their own, for an engine whose
 * code never runs in ff8diff's process (the native one): the process is
 * confined as a worker's is (confine.h), loads its files before its
 * system-call filter goes in, poses every state, and copies the results
 * into memory shared with the run; the run waits for it (killing it when
 * cancelled) and takes what it left. Once the executable's code has run
 * (the process said so on its socket first), nothing it left is the run's
 * error: at worst its states are not posed (pose_sample_child_end).
 * Nothing here prints; the child ends with _exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness/run/confine.h"
#include "harness/run/context.h"
#include "harness/run/pose_sample.h"
#include "harness/run/run.h"

/* The shared memory: what went wrong, then per state its ok byte and its three poses. */
typedef struct shared_head {
    int32_t rc;
    ff_error err;
} shared_head;

static size_t shared_size(const pose_sample *sm)
{
    size_t n = sizeof(shared_head) + sm->n;
    for (size_t i = 0; i < sm->n; i++)
        n += 3 * sm->s[i].len;
    return n;
}

/*
 * The child: files loaded, engine opened, filter in, a byte on fd saying the
 * executable's code starts, every state posed into sh.
 */
static void child(run_ctx *ctx, pose_sample *sm, pid_t parent, uint8_t *sh, int fd)
{
    shared_head *h = (shared_head *)sh;
    uint8_t *ok = sh + sizeof *h, *poses = ok + sm->n;
    pthread_mutex_init(&ctx->files_lock, NULL);
    pthread_mutex_init(&ctx->lock, NULL);
    h->rc = -1;
    if (confine_process(parent, &fd, 1, &h->err) < 0) _exit(1);
    /* Every file of the sample held loaded: none is read under the filter. */
    for (size_t i = 0; i < sm->n; i++) {
        const dat_file *d;
        ff_error e;
        if ((i == 0 || sm->s[i].file != sm->s[i - 1].file) &&
            run_file_get(ctx, sm->s[i].file, &d, &e) < 0 && e.kind == FF_E_NOMEM) {
            h->err = e;
            _exit(1);
        }
    }
    emu_game *g;
    if (emu_game_open(ctx->cfg->image, &ctx->cfg->game, &g, &h->err) < 0 ||
        confine_filter(&h->err) < 0)
        _exit(1);
    uint8_t started = 1;
    if (send(fd, &started, 1, MSG_NOSIGNAL) != 1) _exit(1);
    h->rc = pose_sample_run(ctx, g, sm, ok, &h->err);
    for (size_t i = 0; i < sm->n; i++) {
        const pose_state *s = &sm->s[i];
        memcpy(poses, s->orig, s->len);
        memcpy(poses + s->len, s->world, s->len);
        memcpy(poses + 2 * s->len, s->placed, s->len);
        poses += 3 * s->len;
    }
    _exit(0);
}

/* Waits for pid, killing it when the run is cancelled. Its wait status. */
static int wait_child(run_ctx *ctx, pid_t pid)
{
    int st = 0;
    for (;;) {
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR)) return st;
        if (run_cancelled(ctx)) kill(pid, SIGKILL);
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

pose_child_end pose_sample_child_end(int started, int exited_zero, int32_t rc, int have_err)
{
    if (!started) return have_err && !exited_zero ? POSE_CHILD_RUN_ERROR : POSE_CHILD_NOT_POSED;
    return exited_zero && rc == 0 ? POSE_CHILD_TAKE : POSE_CHILD_NOT_POSED;
}

int pose_sample_confined(run_ctx *ctx, pose_sample *sm, uint64_t *faulted, ff_error *err)
{
    size_t len = shared_size(sm);
    uint8_t *sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    shared_head *h = (shared_head *)sh;
    h->rc = -1;
    ff_error_clear(&h->err);
    pid_t parent = getpid();
    int sv[2] = {-1, -1};
    pid_t pid = socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0 ? fork() : -1;
    if (pid < 0) {
        int e = errno;
        if (sv[0] >= 0) close(sv[0]);
        if (sv[1] >= 0) close(sv[1]);
        munmap(sh, len);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot start an engine process: %s",
                            strerror(e));
    }
    if (pid == 0) {
        close(sv[0]);
        child(ctx, sm, parent, sh, sv[1]);
    }
    close(sv[1]);
    int st = wait_child(ctx, pid);
    uint8_t started = 0;
    int began = recv(sv[0], &started, 1, MSG_DONTWAIT) == 1 && started == 1;
    close(sv[0]);
    uint8_t *ok = sh + sizeof *h, *poses = ok + sm->n;
    int rc = 0;
    h->err.reason[sizeof h->err.reason - 1] = 0;
    pose_child_end end_as = pose_sample_child_end(began, WIFEXITED(st) && WEXITSTATUS(st) == 0,
                                                  h->rc, h->err.reason[0] != 0);
    if (end_as == POSE_CHILD_TAKE) {
        for (size_t i = 0; i < sm->n; i++) {
            pose_state *s = &sm->s[i];
            memcpy(s->orig, poses, s->len);
            memcpy(s->world, poses + s->len, s->len);
            memcpy(s->placed, poses + 2 * s->len, s->len);
            poses += 3 * s->len;
        }
    } else if (end_as == POSE_CHILD_RUN_ERROR) {
        /* The engine could not open, or memory ran out: the run's error, as in-process. */
        *err = h->err;
        err->reason[sizeof err->reason - 1] = 0;
        munmap(sh, len);
        return -1;
    } else {
        char end[120];
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
            snprintf(end, sizeof end, "reported an error once the executable's code ran");
        else
            confine_describe(st, end, sizeof end);
        memset(ok, 0, sm->n);
        pthread_mutex_lock(&ctx->lock);
        if (!run_cancelled(ctx) &&
            run_warn(ctx->res, "the convention search's engine process %d %s: its %zu states "
                               "were not posed",
                     (int)pid, end, sm->n) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
        pthread_mutex_unlock(&ctx->lock);
    }
    pose_sample_keep(sm, ok, faulted);
    munmap(sh, len);
    return rc;
}
