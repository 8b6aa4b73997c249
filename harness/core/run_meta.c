/*
 * harness/core/run_meta.c: the run id and the UTC time stamps of run_meta.h.
 */
#include "harness/core/run_meta.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void run_meta_make_id(char *buf, size_t n)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    unsigned tag = ((unsigned)getpid() * 2654435761u) ^ (unsigned)ts.tv_nsec;
    snprintf(buf, n, "%04d%02d%02d-%02d%02d%02d-%04x", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tag & 0xFFFF);
}

void run_meta_now_iso(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, n, "%Y-%m-%dT%H:%M:%SZ", &tm);
}
