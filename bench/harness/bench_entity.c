/*
 * bench/harness/bench_entity.c: what the entity level costs.
 *
 * Phases, each in a child process (its own CPU time and peak RSS):
 *   frame        run_execute, --jobs N, the modes asked, frame level, no cache
 *   frame+entity the same with the entity level: the difference is the
 *                entity level's share of the run
 *   entity alone on one engine, every entity's clips (those both models
 *                have) in every mode: QueueAnimation, then AdvanceBy1 until
 *                the body's end call; nothing else
 *   models alone on one engine, the same entities, clips and modes, each
 *                model decoded on its own: StartClip then
 *                Battle_ReadAnimation until 1 on the body, then on the weapon
 * Target: entity alone <= models alone + 10%, in time and in emulated
 * instructions (counted by the engine's block hook: exact, and the figure
 * to trust on a loaded machine).
 *
 * usage: bench_entity [--corpus DIR] [--preset vanilla|small] [--standin EXE]
 *                     [--modes LIST] [--jobs N]
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/harness/bench_child.h"
#include "corpus/pairs.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "emu/engine/entity.h"
#include "emu/engine/game.h"
#include "emu/image/profile.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/core/modes.h"
#include "harness/run/run.h"

typedef struct phase_out {
    double wall;
    uint64_t calls, insns, comparisons, mismatches;
} phase_out;

static const char *corpus_dir, *standin = FF_BENCH_STANDIN;
static unsigned modes = MODE_ALL, jobs = 2;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int open_image(emu_image **img)
{
    return bench_standin("bench_entity", standin, img, NULL);
}

static int run_phase(int entity, phase_out *o)
{
    emu_image *img;
    if (open_image(&img) < 0) return -1;
    run_config cfg;
    run_config_init(&cfg);
    cfg.corpus_path = corpus_dir;
    cfg.image = img;
    cfg.jobs = jobs;
    cfg.modes = modes;
    cfg.entity_level = entity;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    cfg.progress = &prog;
    run_results res;
    ff_error err;
    double t0 = now();
    int rc = run_execute(&cfg, &res, &err);
    o->wall = now() - t0;
    if (rc < 0) {
        fprintf(stderr, "bench_entity: %s\n", err.reason);
        return -1;
    }
    o->calls = atomic_load(&prog.emulated_calls);
    o->comparisons = res.totals.comparisons + res.totals.entity_comparisons;
    o->mismatches = res.totals.by_status[RES_MISMATCH] + res.totals.entity_by_status[RES_MISMATCH];
    run_results_free(&res);
    emu_image_free(img);
    return 0;
}

/* The corpus's files, parsed, and its entities. */
typedef struct loaded {
    corpus *c;
    size_t n;
    uint8_t **data;
    size_t *size;
    dat_file *dat;
    int *ok;
    pairs_set pairs;
} loaded;

static int load_all(loaded *l)
{
    ff_error err;
    memset(l, 0, sizeof *l);
    if (corpus_open(corpus_dir, &l->c, &err) < 0) return -1;
    size_t n = corpus_count(l->c);
    l->data = calloc(n + 1, sizeof *l->data);
    l->size = calloc(n + 1, sizeof *l->size);
    l->dat = calloc(n + 1, sizeof *l->dat);
    l->ok = calloc(n + 1, sizeof *l->ok);
    pairs_file *pf = calloc(n + 1, sizeof *pf);
    if (!l->data || !l->size || !l->dat || !l->ok || !pf) return -1;
    for (size_t i = 0; i < n; i++) {
        if (!corpus_is_dat(l->c, i)) continue;
        size_t k = l->n++;
        if (corpus_load(l->c, i, &l->data[k], &l->size[k], &err) < 0) return -1;
        l->ok[k] = dat_parse(l->data[k], l->size[k], corpus_name(l->c, i), &l->dat[k], &err) == 0;
        pf[k] = (pairs_file){corpus_name(l->c, i), l->ok[k], l->dat[k].kind, l->dat[k].clips};
    }
    pairs_attach_list att;
    memset(&att, 0, sizeof att);
    if (pairs_attach_load(corpus_dir, &att, &err) < 0 ||
        pairs_build(pf, l->n, &att, &l->pairs, &err) < 0)
        return -1;
    pairs_attach_free(&att);
    free(pf);
    return 0;
}

static void unload_all(loaded *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->data[i]);
    free(l->data);
    free(l->size);
    free(l->dat);
    free(l->ok);
    pairs_free(&l->pairs);
    corpus_close(l->c);
}

static unsigned clips_of(const pairs_entity *e)
{
    return e->weapon == PAIRS_NONE || e->body_clips < e->weapon_clips ? e->body_clips
                                                                      : e->weapon_clips;
}

/* One call's cost added to o. */
static void count(phase_out *o, const emu_game *g)
{
    o->calls++;
    o->insns += emu_game_last_insns(g);
}

static emu_entity_file file_of(const dat_file *d)
{
    return (emu_entity_file){d->data, d->size, d->skel_off, d->section[DAT_SECTION_GEOMETRY],
                             d->anim_off};
}

/* QueueAnimation + AdvanceBy1 on every entity clip; only the calls are timed. */
static int entity_alone(phase_out *o)
{
    loaded l;
    emu_image *img;
    emu_game *g;
    emu_entity *ent;
    ff_error err;
    emu_game_opts opts = {0, 0, NULL};
    if (load_all(&l) < 0 || open_image(&img) < 0 || emu_game_open(img, &opts, &g, &err) < 0 ||
        emu_entity_open(g, &ent, &err) < 0)
        return -1;
    double spent = 0;
    for (size_t i = 0; i < l.pairs.n; i++) {
        const pairs_entity *e = &l.pairs.e[i];
        emu_entity_file b = file_of(&l.dat[e->body]), w = {0};
        if (e->weapon != PAIRS_NONE) w = file_of(&l.dat[e->weapon]);
        if (emu_entity_load(ent, &b, e->weapon != PAIRS_NONE ? &w : NULL, NULL, &err) < 0)
            return -1;
        double t0 = now();
        for (int m = 0; m < MODE__COUNT; m++) {
            /* each mode through the status that reaches it, as the entity level does */
            int st = entity_status_of_mode((mode_id)m);
            if (!(modes & (1u << m)) || st < 0) continue;
            static const uint8_t pair[3] = {1, 0, 1};
            emu_entity_speed sp = {0, entity_status_byte((entity_status_id)st), pair};
            for (unsigned c = 0; c < clips_of(e); c++) {
                uint32_t ret = 0;
                emu_fault f;
                emu_entity_reset(ent);
                if (emu_entity_queue(ent, &sp, mode_flags((mode_id)m), (int16_t)c, &ret, &f) < 0)
                    continue;
                count(o, g);
                while (ret != 1 && emu_entity_advance(ent, &ret, &f) == 0)
                    count(o, g);
            }
        }
        spent += now() - t0;
    }
    o->wall = spent;
    emu_entity_close(ent);
    emu_game_close(g);
    emu_image_free(img);
    unload_all(&l);
    return 0;
}

/* StartClip + Battle_ReadAnimation on one model's clips of an entity. */
static int model_clips(emu_game *g, const dat_file *d, unsigned clips, phase_out *o, double *spent)
{
    ff_error err;
    if (emu_game_load_file(g, d->data, d->size, d->skel_off, d->section[DAT_SECTION_GEOMETRY],
                           d->anim_off, &err) < 0)
        return -1;
    double t0 = now();
    for (int m = 0; m < MODE__COUNT; m++) {
        /* the same modes as the entity phase: those an entity status reaches */
        if (!(modes & mode_entity_mask() & (1u << m))) continue;
        for (unsigned c = 0; c < clips; c++) {
            uint32_t ret = 0;
            emu_fault f;
            emu_game_reset_skeleton(g);
            if (emu_game_start_clip(g, mode_flags((mode_id)m), (int16_t)c, &ret, &f) < 0) continue;
            count(o, g);
            while (ret != 1 && emu_game_read_animation(g, &ret, &f) == 0)
                count(o, g);
        }
    }
    *spent += now() - t0;
    return 0;
}

/* The same entities' models decoded each on its own. */
static int models_alone(phase_out *o)
{
    loaded l;
    emu_image *img;
    emu_game *g;
    ff_error err;
    emu_game_opts opts = {0, 0, NULL};
    if (load_all(&l) < 0 || open_image(&img) < 0 || emu_game_open(img, &opts, &g, &err) < 0)
        return -1;
    double spent = 0;
    for (size_t i = 0; i < l.pairs.n; i++) {
        const pairs_entity *e = &l.pairs.e[i];
        if (model_clips(g, &l.dat[e->body], clips_of(e), o, &spent) < 0) return -1;
        if (e->weapon != PAIRS_NONE &&
            model_clips(g, &l.dat[e->weapon], clips_of(e), o, &spent) < 0)
            return -1;
    }
    o->wall = spent;
    emu_game_close(g);
    emu_image_free(img);
    unload_all(&l);
    return 0;
}

/* One phase, in the child bench_in_child makes. */
static int phase(int which, void *out)
{
    phase_out *r = out;
    return which == 0   ? run_phase(0, r)
           : which == 1 ? run_phase(1, r)
           : which == 2 ? entity_alone(r)
                        : models_alone(r);
}

int main(int argc, char **argv)
{
    const char *preset = "vanilla";
    for (int i = 1; i < argc; i++) {
        char bad[32];
        if (!strcmp(argv[i], "--corpus") && i + 1 < argc)
            corpus_dir = argv[++i];
        else if (!strcmp(argv[i], "--preset") && i + 1 < argc)
            preset = argv[++i];
        else if (!strcmp(argv[i], "--standin") && i + 1 < argc)
            standin = argv[++i];
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--modes") && i + 1 < argc &&
                 mode_parse_list(argv[++i], &modes, bad, sizeof bad) == 0)
            continue;
        else {
            fprintf(stderr, "usage: bench_entity [--corpus DIR] [--preset vanilla|small] "
                            "[--standin EXE] [--modes LIST] [--jobs N]\n");
            return 2;
        }
    }
    char tmp[] = "/tmp/ff8diff-bench-XXXXXX";
    int own = !corpus_dir;
    if (!corpus_dir) {
        ff_error err;
        int p = synth_preset_from_name(preset);
        if (p < 0 || !mkdtemp(tmp) || synth_write(tmp, (synth_preset)p, 1, NULL, &err) < 0) {
            fprintf(stderr, "bench_entity: cannot write the %s corpus\n", preset);
            return 2;
        }
        corpus_dir = tmp;
    }
    static const char *const names[] = {"run frame", "run frame+entity", "entity alone",
                                        "models alone"};
    phase_out o[4];
    double cpu[4];
    long rss[4];
    printf("corpus %s, modes 0x%x, --jobs %u, dedup on, no cache, bone matrices replaced by ret\n",
           corpus_dir, modes, jobs);
    printf("%-18s %9s %9s %12s %15s %12s %8s\n", "phase", "wall s", "CPU s", "emu calls",
           "instructions", "comparisons", "RSS MiB");
    for (int k = 0; k < 4; k++) {
        memset(&o[k], 0, sizeof o[k]);
        if (bench_in_child(phase, k, &o[k], sizeof o[k], &cpu[k], &rss[k]) < 0) {
            fprintf(stderr, "bench_entity: phase '%s' failed\n", names[k]);
            return 2;
        }
        printf("%-18s %9.2f %9.2f %12llu %15llu %12llu %8.1f\n", names[k], o[k].wall, cpu[k],
               (unsigned long long)o[k].calls, (unsigned long long)o[k].insns,
               (unsigned long long)o[k].comparisons, rss[k] / 1024.0);
    }
    printf("mismatches: frame %llu, frame+entity %llu\n", (unsigned long long)o[0].mismatches,
           (unsigned long long)o[1].mismatches);
    printf("entity level's share of the run: %.1f%% of the wall time, %.1f%% of the CPU time\n",
           100.0 * (o[1].wall - o[0].wall) / o[1].wall, 100.0 * (cpu[1] - cpu[0]) / cpu[1]);
    printf("entity alone / models alone: %.3fx instructions, %.3fx time (target <= 1.10x)\n",
           (double)o[2].insns / (double)o[3].insns, o[2].wall / o[3].wall);
    if (own) bench_rmtree(tmp); /* the corpus written here */
    return 0;
}
