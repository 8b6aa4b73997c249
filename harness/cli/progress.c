/*
 * harness/cli/progress.c: the progress line on stderr while a run goes on,
 * when stderr is a terminal: a bar, clips done, mismatches, faults, bad
 * input and an estimate of the time left, redrawn four times a second by a
 * thread of its own that reads the run's atomic counters only.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "harness/cli/session.h"

struct cli_progress {
    run_progress *p;
    pthread_t th;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
    struct timespec t0;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void draw(cli_progress *cp)
{
    run_progress *p = cp->p;
    uint64_t total = atomic_load(&p->clips_total) + atomic_load(&p->leaf_total) / 1000;
    uint64_t done = atomic_load(&p->clips_done) + atomic_load(&p->leaf_done) / 1000;
    double el = since(&cp->t0);
    double frac = total ? (double)done / (double)total : 0;
    char bar[31];
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    char eta[32] = "--:--";
    /* Too early a guess is wild (the first clips include set-up): none before 3 s and 2%. */
    if (done && frac < 1 && el >= 3 && frac >= 0.02) {
        double left = el / frac - el;
        snprintf(eta, sizeof eta, "%d:%02d", (int)left / 60, (int)left % 60);
    }
    fprintf(stderr, "\r[%s] clips %llu/%llu  mismatches %llu  faults %llu  bad %llu  ETA %s ",
            bar, (unsigned long long)atomic_load(&p->clips_done),
            (unsigned long long)atomic_load(&p->clips_total),
            (unsigned long long)atomic_load(&p->mismatches),
            (unsigned long long)atomic_load(&p->faults),
            (unsigned long long)atomic_load(&p->bad_input), eta);
    fflush(stderr);
}

static void *progress_thread(void *arg)
{
    cli_progress *cp = arg;
    pthread_mutex_lock(&cp->lock);
    while (!cp->stop) {
        draw(cp);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cp->cond, &cp->lock, &until);
    }
    pthread_mutex_unlock(&cp->lock);
    draw(cp);
    fputc('\n', stderr);
    return NULL;
}

cli_progress *cli_progress_start(run_progress *p, int enabled)
{
    if (!enabled || !isatty(STDERR_FILENO)) return NULL;
    cli_progress *cp = calloc(1, sizeof *cp);
    if (!cp) return NULL;
    cp->p = p;
    clock_gettime(CLOCK_MONOTONIC, &cp->t0);
    pthread_mutex_init(&cp->lock, NULL);
    pthread_cond_init(&cp->cond, NULL);
    if (pthread_create(&cp->th, NULL, progress_thread, cp) != 0) {
        free(cp);
        return NULL;
    }
    return cp;
}

void cli_progress_stop(cli_progress *cp)
{
    if (!cp) return;
    pthread_mutex_lock(&cp->lock);
    cp->stop = 1;
    pthread_cond_signal(&cp->cond);
    pthread_mutex_unlock(&cp->lock);
    pthread_join(cp->th, NULL);
    pthread_mutex_destroy(&cp->lock);
    pthread_cond_destroy(&cp->cond);
    free(cp);
}
