/*
 * bench/harness/bench_child.h: runs one measured phase in a child process,
 * so each phase's peak RSS and CPU time are its own (getrusage of the
 * child); loads the stand-in engine; removes a benchmark's scratch folder;
 * takes the median of a phase's rounds.
 * Shared by bench_harness, bench_entity and bench_gltf; benchmarks only.
 */
#ifndef FF8_BENCH_HARNESS_BENCH_CHILD_H
#define FF8_BENCH_HARNESS_BENCH_CHILD_H

#include <stddef.h>

#include "emu/engine/image.h"
#include "emu/image/profile.h"
#include "emu/profiles/profile_builtin.h"

/*
 * Calls fn(arg, out) in a child and copies its size-byte result back into
 * out. Returns 0, or -1 when the child fails (fn < 0, a crash, a short
 * result). cpu (user + system seconds) and rss_kib (peak RSS) may be NULL.
 */
int bench_in_child(int (*fn)(int arg, void *out), int arg, void *out, size_t size, double *cpu,
                   long *rss_kib);

/*
 * Calls fn(arg, out_k) in n children at once (n <= BENCH_CHILDREN_MAX) and
 * copies each one's size-byte result to outs + k * size; waits for all.
 * Returns 0, or -1 when any failed.
 */
#define BENCH_CHILDREN_MAX 8
int bench_in_children(int (*fn)(int arg, void *out), int arg, unsigned n, void *outs, size_t size);

/*
 * The stand-in engine at path under the built-in "standin" profile into
 * *img (the profile into *p when not NULL). Returns 0, or -1 after printing
 * "<who>: <reason>" on stderr.
 */
int bench_standin(const char *who, const char *path, emu_image **img, emu_profile *p);

/* Removes the folder path and everything below it (links not followed); 0 or -1. */
int bench_rmtree(const char *path);

/* The median of v[0..n) (n >= 1); sorts v. */
double bench_median(double *v, int n);

#endif
