/*
 * bench/harness/bench_harness.c: what a run costs and where the time goes.
 *
 * Phases, each in a child process so its peak RSS and CPU time are its own:
 *   run-1    run_execute, --jobs 1, every mode, frame + leaf levels (or
 *            frame + pose with --pose), no cache, coverage on as by default
 *   run-2    the same with --jobs 2
 *   alone    the emulated calls of run-1 alone, on one engine: the same
 *            clips in the same modes (those run-1 emulated, dedup included),
 *            StartClip then Battle_ReadAnimation until 1, and the same leaf
 *            calls; with --pose, after each decoding call the pose calls the
 *            run emulated there (BuildBoneMatrices, ComputeBonesWorldMatrices
 *            under both bases; the ticks whose pose the run's memo replays are
 *            found by an untimed pass first); no reference, no traces, no
 *            comparison
 *   pair     two run-1s at once, each in its own process (the row: their
 *            mean): what this machine gives two jobs that share nothing
 * overhead = run-1 / alone (wall and CPU); speed-up = run-1 wall / run-2 wall;
 * ceiling = 2 x run-1 wall / pair wall, the speed-up two perfectly
 * parallel halves would reach here (2.00 on two idle cores; less where the
 * two virtual cores share a physical one, or the host is busy).
 * CPU seconds are user + system time of the phase's run, its engine
 * processes included: on a loaded machine they hold where wall times do
 * not. With --repeat N the four phases run N times in turn (run-1, alone,
 * run-2, pair, run-1, ...); each row is then the median, and the overhead,
 * speed-up and ceiling are the medians of the ratios of each round's own
 * phases, so a machine whose speed drifts between rounds moves both sides
 * of a ratio together.
 *
 * usage: bench_harness [--corpus DIR] [--preset vanilla] [--standin EXE]
 *                      [--pose] [--no-leaf] [--no-quirks] [--no-dedup] [--keep-matrices]
 *                      [--entity] [--repeat N] [--engine unicorn|native]
 * --no-quirks: run-1 and run-2 without the quirk pass (run --no-quirks), to hold
 * a run to builds older than the pass.
 * --entity: the entity level alone (no frame or leaf level) in run-1 and
 * run-2; the alone phase, which replays frame-level clips, is not run.
 * --engine native: the original on the CPU (run-2 then uses an engine
 * process for its second worker, harness/run/remote.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench/harness/bench_child.h"
#include "corpus/fileio.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "emu/engine/game.h"
#include "emu/image/profile.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/run/leaf.h"
#include "harness/run/pose_side.h"
#include "harness/run/run.h"

typedef struct phase_out {
    double seconds, cpu;
    uint64_t frames, ticks, emulated, shared, calls, leaf_calls, mismatches;
} phase_out;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* This process's CPU time (every thread) and its reaped children's (a run's engine
 * processes), seconds. */
static double cpu_now(void)
{
    struct timespec t;
    struct rusage ru;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    double kids = getrusage(RUSAGE_CHILDREN, &ru) == 0
                      ? (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
                            (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6
                      : 0;
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9 + kids;
}

static const char *corpus_dir, *standin = FF_BENCH_STANDIN;
static int dedup = 1, keep_matrices = 0, pose = 0, leaf = 1, entity = 0, quirks = 1;
static const emu_ops *engine; /* --engine: NULL, the default (Unicorn) */

static int open_image(emu_image **img)
{
    return bench_standin("bench_harness", standin, img, NULL);
}

static int run_phase(unsigned jobs, phase_out *o, run_results *keep)
{
    emu_image *img;
    if (open_image(&img) < 0) return -1;
    run_config cfg;
    run_config_init(&cfg);
    cfg.corpus_path = corpus_dir;
    cfg.image = img;
    cfg.jobs = jobs;
    cfg.leaf_level = leaf && !entity;
    cfg.frame_level = !entity;
    cfg.entity_level = entity;
    cfg.pose_level = pose;
    cfg.pose_search = pose; /* the convention searched on the original, as `run` does */
    cfg.dedup = dedup;
    cfg.quirks = quirks;
    cfg.game.keep_matrices = keep_matrices;
    cfg.game.engine = engine;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    cfg.progress = &prog;
    run_results res;
    ff_error err;
    double t0 = now(), c0 = cpu_now();
    int rc = run_execute(&cfg, &res, &err);
    o->seconds = now() - t0;
    o->cpu = cpu_now() - c0;
    if (rc < 0) {
        fprintf(stderr, "bench_harness: %s\n", err.reason);
        return -1;
    }
    size_t n = entity ? res.nentity_results : res.nresults;
    for (size_t i = 0; i < n; i++) {
        const clip_result *x = entity ? &res.entity_results[i].r : &res.results[i];
        o->frames += x->frames;
        o->ticks += x->ref_ticks;
        o->emulated += x->source == RES_SRC_EMULATED;
        o->shared += x->source == RES_SRC_SHARED;
    }
    o->calls = atomic_load(&prog.emulated_calls);
    o->leaf_calls = res.totals.leaf_calls;
    o->mismatches = entity ? res.totals.entity_by_status[RES_MISMATCH]
                           : res.totals.by_status[RES_MISMATCH] + res.totals.leaf_mismatches;
    if (keep) *keep = res;
    else run_results_free(&res);
    emu_image_free(img);
    return 0;
}

/*
 * One pass over the clips run-1 emulated. With a memo (the untimed pass),
 * marks in need[] the decoding calls whose pose the run emulates (its memo
 * misses); without (the timed pass), emulates the pose calls where marked.
 */
static int clips_pass(emu_game *g, const run_results *res, const dat_file *dat, pose_memo *memo,
                      uint8_t *need, uint8_t *world, phase_out *o, ff_error *err)
{
    int64_t loaded = -1;
    size_t k = 0; /* decoding calls so far, the index into need[] */
    emu_matrix base[2];
    pose_bases_plain(base);
    emu_matrix wm[256];
    for (size_t i = 0; i < res->nresults; i++) {
        const clip_result *r = &res->results[i];
        if (r->source != RES_SRC_EMULATED) continue;
        const dat_file *d = &dat[r->file];
        if (loaded != (int64_t)r->file) {
            if (emu_game_load_file(g, d->data, d->size, d->skel_off,
                                   d->section[DAT_SECTION_GEOMETRY], d->anim_off, err) < 0)
                return -1;
            loaded = r->file;
        } else {
            emu_game_reset_skeleton(g);
        }
        uint32_t ret = 0, pret;
        emu_fault f;
        int rc = emu_game_start_clip(g, mode_flags(r->mode), (int16_t)r->clip, &ret, &f);
        while (rc == 0) {
            o->calls++;
            if (pose && ret == 0) {
                if (memo) {
                    int emulated = 0;
                    size_t len = emu_game_skeleton_size(g);
                    if (pose_orig_tick(memo, g, world, world + len, &emulated, &f, err) != 0)
                        break;
                    need[k] = (uint8_t)emulated;
                } else if (need[k]) {
                    unsigned bones = emu_game_skeleton(g)[DAT_SKEL_BONE_COUNT];
                    if (emu_game_build_matrices(g, &pret, &f) != 0 ||
                        emu_game_world_matrices(g, &base[0], wm, bones, &pret, &f) != 0 ||
                        emu_game_world_matrices(g, &base[1], wm, bones, &pret, &f) != 0)
                        break;
                    o->calls += 3;
                }
                k++;
            }
            if (ret == 1) break;
            rc = emu_game_read_animation(g, &ret, &f);
        }
    }
    return 0;
}

/* The emulated calls of a jobs-1 run, alone, on one engine. */
static int alone_phase(phase_out *o)
{
    phase_out plan = {0};
    run_results res;
    if (run_phase(1, &plan, &res) < 0) return -1;
    emu_image *img;
    if (open_image(&img) < 0) return -1;
    emu_game_opts opts = {keep_matrices, 0, engine};
    emu_game *g;
    ff_error err;
    if (emu_game_open(img, &opts, &g, &err) < 0) return -1;
    corpus *c;
    if (corpus_open(corpus_dir, &c, &err) < 0) return -1;
    /* Load every file first: loading is not an emulated call. */
    size_t n = corpus_count(c);
    uint8_t **data = calloc(n, sizeof *data);
    size_t *size = calloc(n, sizeof *size);
    dat_file *dat = calloc(n, sizeof *dat);
    size_t nd = 0;
    for (size_t i = 0; i < n; i++) {
        if (!corpus_is_dat(c, i)) continue;
        if (corpus_load(c, i, &data[nd], &size[nd], &err) < 0 ||
            dat_parse(data[nd], size[nd], corpus_name(c, i), &dat[nd], &err) < 0)
            return -1;
        nd++;
    }
    /* Which decoding calls the run's pose memo sends to the original (untimed). */
    uint8_t *need = NULL, *world = malloc(2 * (DAT_SKEL_HEADER + 256 * DAT_BONE_SIZE));
    if (pose) {
        phase_out scratch = {0};
        pose_memo *memo = pose_memo_new(0);
        need = calloc((size_t)plan.ticks * 2 + 1, 1);
        if (!memo || !need || !world ||
            clips_pass(g, &res, dat, memo, need, world, &scratch, &err) < 0)
            return -1;
        pose_memo_free(memo);
    }
    double t0 = now(), c0 = cpu_now();
    if (clips_pass(g, &res, dat, NULL, need, world, o, &err) < 0) return -1;
    for (int rt = 0; leaf && rt < LEAF_ROUTINES; rt++) {
        uint64_t cases = leaf_case_count((emu_leaf)rt, 100000);
        for (uint64_t k = 0; k < cases; k++) {
            leaf_case lc;
            leaf_case_make((emu_leaf)rt, 1, k, &lc);
            emu_fault f;
            int16_t ax;
            int64_t pos;
            int32_t bit;
            emu_game_leaf(g, (emu_leaf)rt, lc.buf, sizeof lc.buf, 0, lc.bit, lc.n, &ax, &pos,
                          &bit, &f);
            o->leaf_calls++;
        }
    }
    o->seconds = now() - t0;
    o->cpu = cpu_now() - c0;
    o->frames = plan.frames;
    o->ticks = plan.ticks;
    o->emulated = plan.emulated;
    for (size_t i = 0; i < nd; i++) free(data[i]);
    free(data);
    free(size);
    free(dat);
    free(need);
    free(world);
    corpus_close(c);
    emu_game_close(g);
    emu_image_free(img);
    run_results_free(&res);
    return 0;
}

/* One phase, in the child bench_in_child makes (the pair: in each of two). */
static int phase(int which, void *out)
{
    phase_out *r = out;
    return which == 0 || which == 3 ? run_phase(1, r, NULL)
           : which == 1             ? run_phase(2, r, NULL)
                                    : alone_phase(r);
}

/* Two --jobs 1 runs at once, each in its own process: the pair's row holds their mean. */
static int pair_phase(phase_out *o, long *rss)
{
    phase_out two[2];
    if (bench_in_children(phase, 3, 2, two, sizeof two[0]) < 0) return -1;
    *o = two[0];
    o->seconds = (two[0].seconds + two[1].seconds) / 2;
    o->cpu = (two[0].cpu + two[1].cpu) / 2;
    *rss = 0;
    return 0;
}

#define MAX_REPEAT 15

int main(int argc, char **argv)
{
    const char *preset = "vanilla";
    int repeat = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc) corpus_dir = argv[++i];
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc) preset = argv[++i];
        else if (!strcmp(argv[i], "--standin") && i + 1 < argc) standin = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-dedup")) dedup = 0;
        else if (!strcmp(argv[i], "--keep-matrices")) keep_matrices = 1;
        else if (!strcmp(argv[i], "--pose")) pose = 1;
        else if (!strcmp(argv[i], "--no-leaf")) leaf = 0;
        else if (!strcmp(argv[i], "--no-quirks")) quirks = 0;
        else if (!strcmp(argv[i], "--entity"))
            entity = 1;
        else if (!strcmp(argv[i], "--engine") && i + 1 < argc) {
            ++i;
            emu_engine_kind kind = emu_engine_kind_named(argv[i]);
            engine = kind != EMU_ENGINE__COUNT ? emu_engine_ops(kind) : NULL;
            if (!engine) {
                fprintf(stderr, "bench_harness: --engine takes the name of a kind of engine:");
                for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++)
                    fprintf(stderr, " %s", emu_engine_kind_name((emu_engine_kind)k));
                fprintf(stderr, "\n");
                return 2;
            }
        }
        else {
            fprintf(stderr,
                    "usage: bench_harness [--corpus DIR] [--preset NAME] [--standin EXE] "
                    "[--pose] [--no-leaf] [--no-quirks] [--no-dedup] [--keep-matrices] [--entity] "
                    "[--repeat N] [--engine unicorn|native]\n");
            return 2;
        }
    }
    if (repeat < 1 || repeat > MAX_REPEAT) {
        fprintf(stderr, "bench_harness: --repeat takes 1 to %d\n", MAX_REPEAT);
        return 2;
    }
    char tmp[] = "/tmp/ff8diff-bench-XXXXXX";
    if (!corpus_dir) {
        ff_error err;
        int p = synth_preset_from_name(preset);
        if (p < 0 || !mkdtemp(tmp) || synth_write(tmp, (synth_preset)p, 1, NULL, &err) < 0) {
            fprintf(stderr, "bench_harness: cannot write the %s corpus\n", preset);
            return 2;
        }
        corpus_dir = tmp;
    }
    /* Rows in the printed order; phase() numbers them run-1 0, run-2 1, alone 2, pair 3. */
    static const char *const names[] = {"run --jobs 1", "run --jobs 2", "emulated calls alone",
                                        "two --jobs 1 at once"};
    static const int order[] = {0, 2, 1, 3}; /* each round: run-1, alone, run-2, the pair */
    phase_out o[4][MAX_REPEAT];
    long rss[4][MAX_REPEAT];
    printf("corpus %s, 4 modes, levels %s%s%s, dedup %s, bone matrices %s", corpus_dir,
           entity ? "entity" : "frame", pose ? " + pose" : "", leaf && !entity ? " + leaf" : "",
           dedup ? "on" : "off", pose || keep_matrices ? "kept" : "replaced by ret");
    if (repeat > 1) printf(", %d rounds: medians", repeat);
    printf("\n");
    for (int r = 0; r < repeat; r++)
        for (int q = 0; q < 4; q++) {
            int k = order[q];
            memset(&o[k][r], 0, sizeof o[k][r]);
            rss[k][r] = 0;
            if (entity && k == 2) continue; /* the alone phase replays frame-level clips */
            if (k == 3 ? pair_phase(&o[k][r], &rss[k][r]) < 0
                       : bench_in_child(phase, k, &o[k][r], sizeof o[k][r], NULL, &rss[k][r]) < 0) {
                fprintf(stderr, "bench_harness: phase '%s' failed\n", names[k]);
                return 2;
            }
        }
    printf("%-22s %9s %9s %10s %12s %12s %10s %9s\n", "phase", "wall s", "CPU s", "frames/s",
           "emu calls", "leaf calls", "emulated", "RSS MiB");
    double wall[4], cpu[4], ratio_wall[MAX_REPEAT], ratio_cpu[MAX_REPEAT], speed[MAX_REPEAT],
        ceiling[MAX_REPEAT], share[MAX_REPEAT];
    for (int k = 0; k < 4; k++) {
        double w[MAX_REPEAT], c[MAX_REPEAT], m[MAX_REPEAT];
        for (int r = 0; r < repeat; r++) {
            w[r] = o[k][r].seconds;
            c[r] = o[k][r].cpu;
            m[r] = (double)rss[k][r];
        }
        wall[k] = bench_median(w, repeat);
        cpu[k] = bench_median(c, repeat);
        const phase_out *x = &o[k][0];
        if (entity && k == 2) {
            printf("%-22s %9s\n", names[k], "-");
            continue;
        }
        printf("%-22s %9.2f %9.2f %10.0f %12llu %12llu %10llu", names[k], wall[k], cpu[k],
               (double)x->frames / wall[k], (unsigned long long)x->calls,
               (unsigned long long)x->leaf_calls, (unsigned long long)x->emulated);
        if (k == 3)
            printf(" %9s\n", "(each)");
        else
            printf(" %9.1f\n", bench_median(m, repeat) / 1024.0);
    }
    for (int r = 0; r < repeat; r++) {
        ratio_wall[r] = o[0][r].seconds / o[2][r].seconds;
        ratio_cpu[r] = o[0][r].cpu / o[2][r].cpu;
        speed[r] = o[0][r].seconds / o[1][r].seconds;
        /* What two perfectly parallel halves would reach on this machine in this round. */
        ceiling[r] = 2 * o[0][r].seconds / o[3][r].seconds;
        share[r] = speed[r] / ceiling[r];
    }
    printf("frames compared per run: %llu (ticks %llu); mismatches %llu\n",
           (unsigned long long)o[0][0].frames, (unsigned long long)o[0][0].ticks,
           (unsigned long long)o[0][0].mismatches);
    if (!entity)
        printf("overhead (run --jobs 1 / emulated calls alone): %.3fx wall, %.3fx CPU\n",
               bench_median(ratio_wall, repeat), bench_median(ratio_cpu, repeat));
    printf("speed-up with 2 jobs: %.2fx\n", bench_median(speed, repeat));
    printf("2-core ceiling: %.2fx (2 x run --jobs 1 / two --jobs 1 at once); "
           "speed-up / ceiling: %.0f%%\n",
           bench_median(ceiling, repeat), 100 * bench_median(share, repeat));
    return 0;
}
