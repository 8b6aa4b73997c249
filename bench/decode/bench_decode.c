/*
 * bench/decode/bench_decode.c: how fast the reference engine decodes the
 * vanilla-preset synthetic corpus in each mode on one core: StartClip, then
 * Battle_ReadAnimation until it returns 1, for every clip of every model
 * file (the files are built in memory first and not timed). Best of N
 * passes per mode; prints frames/s and ms per mode. With --pose SPEC every
 * decoding call also rebuilds the bone matrices under those pose options
 * (ref/pose.h); without it, none (the frame level). With --corpus PATH the
 * files are a corpus's model files (a folder or battle.fs; read first, not
 * timed) instead of a preset's: the way to time two builds on the same bytes.
 *
 * usage: bench_decode [--preset small|vanilla] [--seed N] [--passes N] [--pose SPEC]
 *                     [--corpus PATH]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus/source.h"
#include "corpus/synth.h"
#include "ref/dat.h"
#include "ref/engine.h"

typedef struct file {
    char *name; /* owned: dat keeps a pointer to it */
    uint8_t *data;
    size_t size;
    dat_file dat;
} file;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Decodes every clip of every file in one mode; returns the calls made. */
static uint64_t decode_all(file *f, size_t n, uint8_t flags, uint8_t *skel, size_t skel_cap,
                           const ref_pose_opts *pose, uint64_t *frames)
{
    uint64_t calls = 0;
    *frames = 0;
    for (size_t i = 0; i < n; i++) {
        if (!dat_kind_has_model(f[i].dat.kind)) continue;
        ref_anim a;
        ff_error err;
        if (ref_anim_init(&a, &f[i].dat, skel, skel_cap, &err) < 0) continue;
        a.pose = pose;
        for (uint32_t c = 0; c < f[i].dat.clips; c++) {
            ref_anim_reset_skeleton(&a);
            memset(&a.cmd, 0, sizeof a.cmd);
            a.cmd.flags = flags;
            int ret = 0;
            if (ref_start_clip(&a, (int16_t)c, &ret, &err) < 0) continue;
            calls++;
            while (ret != 1 && ref_read_animation(&a, &ret, &err) == 0) calls++;
            *frames += dat_clip_frames(&f[i].dat, c);
        }
    }
    return calls;
}

/* The files of a preset, built in memory; NULL on failure (printed). */
static file *load_preset(const char *preset, unsigned long seed, size_t *n)
{
    ff_error err;
    int p = synth_preset_from_name(preset);
    synth_plan *plan;
    if (p < 0 || synth_plan_make((synth_preset)p, seed, &plan, &err) < 0) {
        fprintf(stderr, "bench_decode: cannot plan preset %s\n", preset);
        return NULL;
    }
    *n = synth_plan_count(plan);
    file *f = calloc(*n, sizeof *f);
    for (size_t i = 0; f && i < *n; i++)
        if (!(f[i].name = strdup(synth_plan_name(plan, i))) ||
            synth_plan_build(plan, i, &f[i].data, &f[i].size, NULL, &err) < 0 ||
            dat_parse(f[i].data, f[i].size, f[i].name, &f[i].dat, &err) < 0) {
            fprintf(stderr, "bench_decode: %s: %s\n", synth_plan_name(plan, i), err.reason);
            exit(2);
        }
    synth_plan_free(plan);
    return f;
}

/* The model files of a corpus (folder or archive); NULL on failure (printed). */
static file *load_corpus(const char *path, size_t *n)
{
    ff_error err;
    corpus *c;
    if (corpus_open(path, &c, &err) < 0) {
        fprintf(stderr, "bench_decode: %s: %s\n", path, err.reason);
        return NULL;
    }
    file *f = calloc(corpus_count(c) + 1, sizeof *f);
    *n = 0;
    for (size_t i = 0; f && i < corpus_count(c); i++) {
        file *e = &f[*n];
        if (!corpus_is_dat(c, i) || corpus_load(c, i, &e->data, &e->size, &err) < 0) continue;
        e->name = strdup(corpus_name(c, i));
        if (!e->name || dat_parse(e->data, e->size, e->name, &e->dat, &err) < 0) {
            free(e->name);
            free(e->data);
            continue;
        }
        (*n)++;
    }
    corpus_close(c);
    return f;
}

int main(int argc, char **argv)
{
    const char *preset = "vanilla";
    unsigned long seed = 1, passes = 5;
    const char *pose_spec = NULL, *corpus_dir = NULL;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--preset")) preset = argv[i + 1];
        else if (!strcmp(argv[i], "--seed")) seed = strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--passes")) passes = strtoul(argv[i + 1], NULL, 0);
        else if (!strcmp(argv[i], "--pose")) pose_spec = argv[i + 1];
        else if (!strcmp(argv[i], "--corpus")) corpus_dir = argv[i + 1];
    }
    ff_error err;
    ref_pose_opts pose;
    if (pose_spec && ref_pose_opts_parse(pose_spec, &pose, &err) < 0) {
        fprintf(stderr, "bench_decode: %s\n", err.reason);
        return 2;
    }
    size_t n = 0;
    file *f = corpus_dir ? load_corpus(corpus_dir, &n) : load_preset(preset, seed, &n);
    if (!f) return 2;
    uint8_t *skel = malloc(DAT_SKEL_HEADER + DAT_BONE_SIZE * 255);
    static const struct {
        const char *name;
        uint8_t flags;
    } modes[] = {{"normal", 0}, {"slow", 1}, {"fast", 2}, {"slow+fast", 3}};
    if (corpus_dir) printf("corpus %s: %zu model files", corpus_dir, n);
    else printf("preset %s seed %lu: %zu files", preset, seed, n);
    printf(", best of %lu passes per mode, one core%s%s\n", passes, pose_spec ? ", pose " : "",
           pose_spec ? pose_spec : "");
    printf("%-10s %10s %10s %10s %14s\n", "mode", "frames", "calls", "ms", "frames/s");
    double total_ms = 0;
    for (size_t m = 0; m < 4; m++) {
        double best = 1e30;
        uint64_t calls = 0, frames = 0;
        for (unsigned long k = 0; k < passes; k++) {
            double t0 = now();
            calls = decode_all(f, n, modes[m].flags, skel, DAT_SKEL_HEADER + DAT_BONE_SIZE * 255,
                               pose_spec ? &pose : NULL, &frames);
            double dt = now() - t0;
            if (dt < best) best = dt;
        }
        total_ms += best * 1e3;
        printf("%-10s %10llu %10llu %10.1f %14.0f\n", modes[m].name, (unsigned long long)frames,
               (unsigned long long)calls, best * 1e3, (double)frames / best);
    }
    printf("all four modes: %.1f ms\n", total_ms);
    for (size_t i = 0; i < n; i++) {
        free(f[i].name);
        free(f[i].data);
    }
    free(f);
    free(skel);
    return 0;
}
