/*
 * bench/harness/bench_child.c: one measured phase in a child process (see
 * bench_child.h). Benchmarks only.
 */
#define _XOPEN_SOURCE 700
#include "bench/harness/bench_child.h"

#include <ftw.h>
#include <stdio.h>

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Forks a child that runs fn(arg, result) and writes the result to a pipe: its pid and the
 * pipe's read end, or -1. */
static pid_t start_child(int (*fn)(int arg, void *out), int arg, size_t size, int *rd)
{
    int fd[2];
    if (pipe(fd) < 0) return -1;
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        close(fd[0]);
        void *r = calloc(1, size);
        int rc = r ? fn(arg, r) : -1;
        if (r && write(fd[1], r, size) != (ssize_t)size) rc = -1;
        _exit(rc < 0 ? 1 : 0);
    }
    close(fd[1]);
    *rd = fd[0];
    return pid;
}

/* Reads the child's result and waits for it. Returns 0, or -1 when it failed. */
static int end_child(pid_t pid, int rd, void *out, size_t size, double *cpu, long *rss_kib)
{
    ssize_t got = read(rd, out, size);
    close(rd);
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0 || got != (ssize_t)size || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0)
        return -1;
    if (cpu)
        *cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
               ru.ru_stime.tv_usec / 1e6;
    if (rss_kib) *rss_kib = ru.ru_maxrss;
    return 0;
}

int bench_in_child(int (*fn)(int arg, void *out), int arg, void *out, size_t size, double *cpu,
                   long *rss_kib)
{
    int rd;
    pid_t pid = start_child(fn, arg, size, &rd);
    return pid < 0 ? -1 : end_child(pid, rd, out, size, cpu, rss_kib);
}

int bench_in_children(int (*fn)(int arg, void *out), int arg, unsigned n, void *outs, size_t size)
{
    pid_t pid[BENCH_CHILDREN_MAX];
    int rd[BENCH_CHILDREN_MAX], rc = 0;
    unsigned started = 0;
    if (n > BENCH_CHILDREN_MAX) return -1;
    for (; started < n; started++)
        if ((pid[started] = start_child(fn, arg, size, &rd[started])) < 0) {
            rc = -1;
            break;
        }
    for (unsigned k = 0; k < started; k++)
        if (end_child(pid[k], rd[k], (char *)outs + k * size, size, NULL, NULL) < 0) rc = -1;
    return rc;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    return remove(path);
}

int bench_rmtree(const char *path)
{
    return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int bench_standin(const char *who, const char *path, emu_image **img, emu_profile *p)
{
    emu_profile own;
    ff_error err;
    char warn[512];
    if (!p) p = &own;
    if (profile_builtin_by_name("standin", p, &err) < 0 ||
        emu_image_load(path, p, img, warn, sizeof warn, &err) < 0) {
        fprintf(stderr, "%s: %s\n", who, err.reason);
        return -1;
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
