/*
 * bench/gltf/bench_gltf.c: what `export` and `check-gltf` cost.
 *
 * Phases, each in a child process (its own CPU time and peak RSS), on the
 * stand-in engine, no results cache:
 *   run      run_execute at the frame and pose levels, as `ff8diff run
 *            --levels frame,pose --no-cache` runs it (coverage on, group
 *            examples explained), the profile's pose convention
 *   export   the export of the original as `ff8diff export --no-cache`
 *            makes it: the same run (coverage and explanations off) with
 *            the export as its sink, every .glb written (model files and
 *            armed entities) into a scratch folder
 *   check    `check-gltf` of one model: the executable loaded, the game's
 *            poses of that file (one model, normal mode), the export read
 *            back with Assimp, the correspondence, the comparison, the
 *            report's four files written
 * run and export alternate (run, export, run, export, ...) for --rounds
 * rounds, so that a machine whose speed drifts moves both alike; each
 * round's export/run ratio is printed, then the medians. Target: export <=
 * run + 10%; check < 2 s.
 *
 * usage: bench_gltf [--corpus DIR] [--preset vanilla|small] [--standin EXE]
 *                   [--modes LIST] [--jobs N] [--rounds N] [--model NAME.dat]
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/harness/bench_child.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "emu/image/profile.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/core/modes.h"
#include "harness/gltf/export.h"
#include "harness/gltf/gcheck.h"
#include "harness/gltf/greport.h"
#include "harness/run/run.h"

typedef struct phase_out {
    double wall;
    uint64_t comparisons, written, keyframes;
} phase_out;

static const char *corpus_dir, *standin = FF_BENCH_STANDIN, *model;
static char scratch[4096];
static unsigned modes = MODE_ALL, jobs = 2;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The stand-in and its profile's pinned pose convention (the defaults when none). */
static int open_image(emu_image **img, ref_pose_opts *pose)
{
    emu_profile p;
    ff_error err;
    ref_pose_opts_default(pose);
    if (bench_standin("bench_gltf", standin, img, &p) < 0) return -1;
    if (p.pose_convention[0] && ref_pose_opts_parse(p.pose_convention, pose, &err) < 0) {
        fprintf(stderr, "bench_gltf: %s\n", err.reason);
        emu_image_free(*img);
        return -1;
    }
    return 0;
}

/* A run of the frame and pose levels; with x, the export as its sink. */
static int run_phase(const char *corpus, gexport *x, const ref_pose_opts *pose,
                     const emu_image *img, phase_out *o)
{
    run_config cfg;
    run_config_init(&cfg);
    cfg.corpus_path = corpus;
    cfg.image = img;
    cfg.jobs = jobs;
    cfg.modes = modes;
    cfg.pose_level = 1;
    cfg.pose_opts = *pose;
    cfg.pose_pinned = 1;
    if (x) {
        cfg.explain = RUN_EXPLAIN_NONE;
        cfg.coverage = 0;
        cfg.sink = gexport_sink(x);
    }
    run_results res;
    ff_error err;
    int rc = run_execute(&cfg, &res, &err);
    if (rc < 0) fprintf(stderr, "bench_gltf: %s\n", err.reason);
    o->comparisons = res.totals.comparisons;
    run_results_free(&res);
    return rc;
}

static int run_only(phase_out *o)
{
    emu_image *img;
    ref_pose_opts pose;
    if (open_image(&img, &pose) < 0) return -1;
    double t0 = now();
    int rc = run_phase(corpus_dir, NULL, &pose, img, o);
    o->wall = now() - t0;
    emu_image_free(img);
    return rc;
}

static int export_all(phase_out *o)
{
    emu_image *img;
    ref_pose_opts pose;
    if (open_image(&img, &pose) < 0) return -1;
    char out[4200];
    snprintf(out, sizeof out, "%s/glb", scratch);
    mkdir(out, 0755); /* the same folder every round: each .glb replaced */
    gexport_config ec = {corpus_dir, out, GPOSE_ORIGINAL, pose, modes, 1, jobs,
                         {"original", NULL, NULL, NULL, NULL, 0, 0}, NULL, NULL, NULL, NULL};
    double t0 = now();
    gexport *x;
    ff_error err;
    int rc = gexport_open(&ec, &x, &err);
    if (rc == 0) {
        rc = run_phase(corpus_dir, x, &pose, img, o);
        gexport_result r;
        gexport_close(x, 0, &r);
        for (size_t i = 0; i < r.n; i++) {
            o->written += r.items[i].status == GEXPORT_DONE;
            o->keyframes += r.items[i].keyframes;
        }
        gexport_result_free(&r);
    } else {
        fprintf(stderr, "bench_gltf: %s\n", err.reason);
    }
    o->wall = now() - t0;
    emu_image_free(img);
    return rc;
}

/* check-gltf of the model's export (written by the setup), as the command does it. */
static int check_one(phase_out *o)
{
    char dat[4400], glb[4400], rep[4200], stem[256];
    snprintf(stem, sizeof stem, "%s", model);
    stem[strlen(stem) - 4] = 0;
    snprintf(dat, sizeof dat, "%s/%s", corpus_dir, model);
    snprintf(glb, sizeof glb, "%s/one/%s.glb", scratch, stem);
    snprintf(rep, sizeof rep, "%s/report", scratch);
    double t0 = now();
    emu_image *img;
    ref_pose_opts pose;
    if (open_image(&img, &pose) < 0) return -1;
    gpose_scene game;
    gview v;
    gck_result r;
    ff_error err;
    int rc = gexport_model_poses(img, NULL, dat, 1u << MODE_NORMAL, &pose, 0, &game, &err);
    if (rc == 0) rc = gview_load(glb, &v, &err);
    if (rc == 0) {
        rc = gck_run(&v, &game, 0, &r, &err);
        greport_meta m = {glb, dat, emu_image_sha256(img), "standin", NULL, NULL, NULL};
        if (rc == 0) rc = greport_write(rep, &m, &r, &err);
        o->comparisons = rc == 0 ? r.nclips : 0;
        o->written = rc == 0 && !r.refused && !r.departing;
        if (rc == 0) gck_free(&r);
        gview_free(&v);
    }
    if (rc == 0) gpose_scene_free(&game);
    else fprintf(stderr, "bench_gltf: %s\n", err.reason);
    emu_image_free(img);
    o->wall = now() - t0;
    return rc;
}

static int phase(int which, void *out)
{
    return which == 0 ? run_only(out) : which == 1 ? export_all(out) : check_one(out);
}

/* The model of the corpus with the most bones x clips, when none was named. */
static int pick_model(char *buf, size_t n)
{
    corpus *c;
    ff_error err;
    if (corpus_open(corpus_dir, &c, &err) < 0) return -1;
    unsigned long best = 0;
    for (size_t i = 0; i < corpus_count(c); i++) {
        uint8_t *data;
        size_t size;
        dat_file d;
        if (!corpus_is_dat(c, i) || corpus_load(c, i, &data, &size, &err) < 0) continue;
        if (dat_parse(data, size, corpus_name(c, i), &d, &err) == 0 && dat_kind_has_model(d.kind) &&
            (unsigned long)d.bones * d.clips > best) {
            best = (unsigned long)d.bones * d.clips;
            snprintf(buf, n, "%s", corpus_name(c, i));
        }
        free(data);
    }
    corpus_close(c);
    return best ? 0 : -1;
}

/* The one model's export, made before check_one is timed. */
static int setup_check(void)
{
    emu_image *img;
    ref_pose_opts pose;
    if (open_image(&img, &pose) < 0) return -1;
    char dat[4200], out[4200];
    snprintf(dat, sizeof dat, "%s/%s", corpus_dir, model);
    snprintf(out, sizeof out, "%s/report", scratch);
    mkdir(out, 0755);
    snprintf(out, sizeof out, "%s/one", scratch);
    ff_error err;
    gexport_config ec = {dat, out, GPOSE_ORIGINAL, pose, 1u << MODE_NORMAL, 0, 1,
                         {"original", NULL, NULL, NULL, NULL, 0, 0}, NULL, NULL, NULL, NULL};
    gexport *x;
    int rc = mkdir(out, 0755) == 0 ? gexport_open(&ec, &x, &err) : -1;
    if (rc == 0) {
        phase_out o;
        rc = run_phase(dat, x, &pose, img, &o);
        gexport_result r;
        gexport_close(x, 0, &r);
        rc = rc == 0 && r.n && r.items[0].status == GEXPORT_DONE ? 0 : -1;
        gexport_result_free(&r);
    }
    emu_image_free(img);
    return rc;
}

static int usage(void)
{
    fprintf(stderr, "usage: bench_gltf [--corpus DIR] [--preset vanilla|small] [--standin EXE] "
                    "[--modes LIST] [--jobs N] [--rounds N] [--model NAME.dat]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *preset = "vanilla";
    int rounds = 3;
    for (int i = 1; i < argc; i++) {
        char bad[32];
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus_dir = argv[++i];
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc) preset = argv[++i];
        else if (!strcmp(argv[i], "--standin") && i + 1 < argc) standin = argv[++i];
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) jobs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--model") && i + 1 < argc) model = argv[++i];
        else if (!strcmp(argv[i], "--modes") && i + 1 < argc &&
                 mode_parse_list(argv[++i], &modes, bad, sizeof bad) == 0)
            continue;
        else return usage();
    }
    if (rounds < 1 || rounds > 50 || !jobs) return usage();
    snprintf(scratch, sizeof scratch, "/tmp/ff8diff-bench-gltf-XXXXXX");
    if (!mkdtemp(scratch)) return 2;
    char corpus_buf[4200], model_buf[256];
    if (!corpus_dir) {
        ff_error err;
        int p = synth_preset_from_name(preset);
        snprintf(corpus_buf, sizeof corpus_buf, "%s/corpus", scratch);
        if (p < 0 || synth_write(corpus_buf, (synth_preset)p, 1, NULL, &err) < 0) {
            fprintf(stderr, "bench_gltf: cannot write the %s corpus\n", preset);
            return 2;
        }
        corpus_dir = corpus_buf;
    }
    if (!model && pick_model(model_buf, sizeof model_buf) == 0) model = model_buf;
    if (!model || strlen(model) < 5 || setup_check() < 0) {
        fprintf(stderr, "bench_gltf: no model to check\n");
        return 2;
    }
    printf("corpus %s, modes 0x%x, --jobs %u, no cache, stand-in; check-gltf of %s\n", corpus_dir,
           modes, jobs, model);
    printf("%-6s %-8s %9s %9s %8s %12s %10s\n", "round", "phase", "wall s", "CPU s", "RSS MiB",
           "comparisons", ".glb");
    double rw[50], rc[50], ew[50], ec[50], wr[50], cr[50];
    for (int k = 0; k < rounds; k++) {
        for (int which = 0; which < 2; which++) {
            phase_out o;
            double cpu;
            long rss;
            memset(&o, 0, sizeof o);
            if (bench_in_child(phase, which, &o, sizeof o, &cpu, &rss) < 0) {
                fprintf(stderr, "bench_gltf: phase %d failed\n", which);
                return 2;
            }
            (which ? ew : rw)[k] = o.wall;
            (which ? ec : rc)[k] = cpu;
            printf("%-6d %-8s %9.2f %9.2f %8.1f %12llu %10llu\n", k + 1, which ? "export" : "run",
                   o.wall, cpu, rss / 1024.0, (unsigned long long)o.comparisons,
                   (unsigned long long)o.written);
        }
        wr[k] = ew[k] / rw[k];
        cr[k] = ec[k] / rc[k];
        printf("%-6d export/run: %.3fx wall, %.3fx CPU\n", k + 1, wr[k], cr[k]);
        fflush(stdout);
    }
    double cw[5], cc[5];
    for (int k = 0; k < 5; k++) {
        phase_out o;
        long rss;
        memset(&o, 0, sizeof o);
        if (bench_in_child(phase, 2, &o, sizeof o, &cc[k], &rss) < 0) return 2;
        cw[k] = o.wall;
    }
    printf("medians over %d rounds: run %.2f s (CPU %.2f), export %.2f s (CPU %.2f); export/run "
           "%.3fx wall, %.3fx CPU (target <= 1.10x)\n",
           rounds, bench_median(rw, rounds), bench_median(rc, rounds), bench_median(ew, rounds),
           bench_median(ec, rounds), bench_median(wr, rounds), bench_median(cr, rounds));
    printf("check-gltf of %s, median of 5: %.3f s wall, %.3f s CPU (target < 2 s)\n", model,
           bench_median(cw, 5), bench_median(cc, 5));
    bench_rmtree(scratch);
    return 0;
}
