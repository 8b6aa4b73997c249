/*
 * harness/run/spawner.c: the process that forks a run's engine processes
 * (spawner.h): one request at a time on its socket (the child's three
 * descriptors, passed with SCM_RIGHTS), one answer (the engine process's pid,
 * or -errno). Must not print, exit the run, or run the executable's code.
 */
#define _GNU_SOURCE
#include "harness/run/spawner.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness/run/context.h"
#include "harness/run/remote_wire.h"

struct spawner {
    pid_t pid;
    int fd;                /* the run's end of the spawner's socket */
    int was_subreaper;     /* the run's own setting, put back at the end */
    pthread_mutex_t lock;  /* one request at a time */
};

/* Sends the three descriptors and one byte. Returns 0, or -1 (errno). */
static int send_fds(int sock, const int fds[3])
{
    char byte = 'S';
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(3 * sizeof(int))];
    } u;
    memset(&u, 0, sizeof u);
    struct msghdr m = {0};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(3 * sizeof(int));
    memcpy(CMSG_DATA(c), fds, 3 * sizeof(int));
    ssize_t k;
    while ((k = sendmsg(sock, &m, MSG_NOSIGNAL)) < 0 && errno == EINTR) {
    }
    return k == 1 ? 0 : -1;
}

/* Receives a request's three descriptors. Returns 1, 0 at the end, -1 on anything else. */
static int recv_fds(int sock, int fds[3])
{
    char byte;
    struct iovec iov = {&byte, 1};
    union {
        struct cmsghdr h;
        char buf[CMSG_SPACE(3 * sizeof(int))];
    } u;
    struct msghdr m = {0};
    m.msg_iov = &iov;
    m.msg_iovlen = 1;
    m.msg_control = u.buf;
    m.msg_controllen = sizeof u.buf;
    ssize_t k;
    while ((k = recvmsg(sock, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (k == 0) return 0;
    struct cmsghdr *c = CMSG_FIRSTHDR(&m);
    if (k != 1 || !c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(3 * sizeof(int)))
        return -1;
    memcpy(fds, CMSG_DATA(c), 3 * sizeof(int));
    return 1;
}

/*
 * The engine process: waits until its middle process has ended and it is the
 * run's child (confine_process checks that and ties it to the run), then
 * serves its worker.
 */
static void engine_process(run_ctx *ctx, pid_t run, pid_t middle, int ctl, const int fds[3])
{
    close(ctl);
    for (int i = 0; getppid() == middle; i++) {
        if (i > 100000) _exit(2); /* 10 s: the middle process never ended */
        usleep(100);
    }
    remote_child_main(ctx, run, fds[0], fds[1], fds[2]);
}

/* One request: forks the middle process, which forks the engine process, writes its pid
 * (or -errno) into the pipe and ends. Returns the answer for the run. */
static int32_t spawn_one(run_ctx *ctx, pid_t run, int ctl, const int fds[3])
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) return -errno;
    pid_t middle = fork();
    if (middle == 0) {
        close(p[0]);
        pid_t self = getpid();
        pid_t e = fork();
        if (e == 0) {
            close(p[1]);
            engine_process(ctx, run, self, ctl, fds);
            _exit(2);
        }
        int32_t v = e > 0 ? (int32_t)e : -errno;
        ssize_t w = write(p[1], &v, sizeof v);
        _exit(w == (ssize_t)sizeof v ? 0 : 1);
    }
    int32_t v = middle < 0 ? -errno : -ECHILD;
    close(p[1]);
    if (middle > 0) {
        int32_t got;
        ssize_t k;
        while ((k = read(p[0], &got, sizeof got)) < 0 && errno == EINTR) {
        }
        if (k == (ssize_t)sizeof got) v = got;
        /* Once the middle process is reaped, the engine process is the run's child. */
        while (waitpid(middle, NULL, 0) < 0 && errno == EINTR) {
        }
    }
    close(p[0]);
    return v;
}

static void spawner_main(run_ctx *ctx, pid_t run, int ctl)
{
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != run) _exit(0);
    /* Nothing of the run's but its socket, kept high: the engine processes' descriptors
     * are theirs alone, and a process looking for them finds none here. */
    int high = fcntl(ctl, F_DUPFD_CLOEXEC, 100);
    if (high < 0) _exit(0);
    if (syscall(SYS_close_range, 3, (unsigned)high - 1, 0) != 0 ||
        syscall(SYS_close_range, (unsigned)high + 1, ~0u, 0) != 0)
        _exit(0);
    ctl = high;
    /* The run answers the terminal and ends this process by closing its socket. */
    static const int quiet[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGTSTP};
    for (size_t i = 0; i < sizeof quiet / sizeof quiet[0]; i++) signal(quiet[i], SIG_IGN);
    for (;;) {
        int fds[3];
        int rc = recv_fds(ctl, fds);
        if (rc <= 0) _exit(0);
        int32_t v = spawn_one(ctx, run, ctl, fds);
        for (int i = 0; i < 3; i++) close(fds[i]);
        if (remote_put(ctl, &v, sizeof v) < 0) _exit(0);
    }
}

int spawner_start(run_ctx *ctx, spawner **out, ff_error *err)
{
    *out = NULL;
    spawner *s = calloc(1, sizeof *s);
    if (!s) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        free(s);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "cannot make the engine processes' spawner's socket: %s",
                            strerror(errno));
    }
    /* Engine processes are reparented here when their middle process ends. */
    if (prctl(PR_GET_CHILD_SUBREAPER, &s->was_subreaper) != 0) s->was_subreaper = 0;
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0) {
        close(sv[0]);
        close(sv[1]);
        free(s);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "cannot make the run the engine processes' parent: %s",
                            strerror(errno));
    }
    pid_t run = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        spawner_main(ctx, run, sv[1]);
        _exit(0);
    }
    close(sv[1]);
    if (pid < 0) {
        int e = errno;
        close(sv[0]);
        prctl(PR_SET_CHILD_SUBREAPER, s->was_subreaper);
        free(s);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1,
                            "cannot start the engine processes' spawner: %s", strerror(e));
    }
    s->pid = pid;
    s->fd = sv[0];
    pthread_mutex_init(&s->lock, NULL);
    *out = s;
    return 0;
}

int spawner_spawn(spawner *s, int sock, int area_fd, int req_fd, pid_t *pid, ff_error *err)
{
    int fds[3] = {sock, area_fd, req_fd};
    int32_t v = -EPIPE;
    pthread_mutex_lock(&s->lock);
    if (send_fds(s->fd, fds) == 0 && remote_get(s->fd, &v, sizeof v) < 0) v = -EPIPE;
    pthread_mutex_unlock(&s->lock);
    if (v > 0) {
        *pid = (pid_t)v;
        return 0;
    }
    return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cannot start an engine process: %s",
                        v == -EPIPE ? "its spawner has ended" : strerror((int)-v));
}

void spawner_stop(spawner *s)
{
    if (!s) return;
    close(s->fd); /* the spawner reads the end and leaves */
    while (waitpid(s->pid, NULL, 0) < 0 && errno == EINTR) {
    }
    prctl(PR_SET_CHILD_SUBREAPER, s->was_subreaper);
    pthread_mutex_destroy(&s->lock);
    free(s);
}
