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

int bench_in_child(int (*fn)(int arg, void *out), int arg, void *out, size_t size, double *cpu,
                   long *rss_kib)
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
    ssize_t got = read(fd[0], out, size);
    close(fd[0]);
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
