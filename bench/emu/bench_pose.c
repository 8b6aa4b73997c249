/*
 * bench/emu/bench_pose.c: what the posed skeleton costs under Debian 12's
 * Unicorn 2.0.1, on the stand-in (standin.exe, matrix helpers in integer
 * code) and its x87 variant (standin_x87.exe, fsin/fcos and the Copy5
 * rounding on the x87 as the game's): one BuildBoneMatrices call on a
 * 30-bone skeleton (emu_game_build_matrices, with and without the frame
 * level's return to lift), one ComputeBonesWorldMatrices call, and a
 * Battle_ReadAnimation tick with and without the rebuild for scale.
 * Prints a table (thread CPU time per call and instructions per call); not
 * a test, nothing asserted.
 *
 * Usage: bench_pose [standin.exe standin_x87.exe]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/le.h"
#include "common/rng.h"
#include "emu/engine/game.h"
#include "emu/engine/image.h"
#include "emu/profiles/profile_builtin.h"
#include "ref/encode.h"

#define BONES 30
#define FRAMES 20
#define FILE_CAP 8192

/* CPU time of this thread: on a shared machine it moves far less than the
 * wall clock (the figures are still only indicative). */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, const ff_error *err)
{
    char buf[1024];
    fprintf(stderr, "bench_pose: %s: %s\n", what, ff_error_format(err, buf, sizeof buf));
    exit(1);
}

static void die_fault(const char *what, const emu_fault *f)
{
    fprintf(stderr, "bench_pose: %s: %s: %s\n%s", what, emu_fault_name(f->kind), f->detail,
            f->disasm);
    exit(1);
}

/* A chain of 30 bones (each the child of the previous), rotations drawn
 * from a fixed seed; scales 1.0 or drawn (the scale path); 16 zero
 * geometry bytes; an animation section with one 20-frame clip of small
 * rotation deltas (no scales). Returns the size; *geom set. */
static size_t make_file(uint8_t *file, int scaled, uint32_t *geom)
{
    rng r = rng_make(30, 0xBE4C);
    memset(file, 0, FILE_CAP);
    file[0] = BONES;
    file[1] = (uint8_t)scaled;
    le_put16(file + 2, 256);
    for (int b = 0; b < BONES; b++) {
        uint8_t *bone = file + 16 + 48 * b;
        le_put16(bone, (uint16_t)(b - 1));
        le_put16(bone + 2, 40);
        for (int k = 0; k < 3; k++) {
            le_put16(bone + 4 + 2 * k, (uint16_t)rng_range(&r, -4096, 4096));
            le_put16(bone + 10 + 2 * k, (uint16_t)(scaled ? rng_range(&r, 900, 1100) : 1024));
        }
    }
    *geom = 16 + 48 * BONES;
    uint32_t anim = *geom + 16;
    static int16_t rot[FRAMES][BONES * 3];
    enc_frame fr[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        memset(&fr[f], 0, sizeof fr[f]);
        for (int i = 0; i < BONES * 3; i++)
            rot[f][i] = (int16_t)rng_range(&r, -90, 90);
        fr[f].rot = rot[f];
    }
    uint8_t *sec = file + anim;
    sec[0] = 1; /* u32 count = 1, u32 offset = 8 */
    sec[4] = 8;
    enc_writer w;
    enc_init(&w, sec + 8, FILE_CAP - anim - 8 - 4);
    ff_error err;
    if (enc_clip(&w, BONES, FRAMES, fr, &err) != 0) die("encoding the clip", &err);
    return anim + 8 + enc_bytes(&w) + 4;
}

static emu_game *open_game(const emu_image *img, int keep, const uint8_t *file, size_t size)
{
    emu_game_opts o = {keep, 0, NULL};
    emu_game *g;
    ff_error err;
    if (emu_game_open(img, &o, &g, &err) != 0) die("emu_game_open", &err);
    uint32_t geom = 16 + 48 * BONES;
    if (emu_game_load_file(g, file, size, 0, geom, geom + 16, &err) != 0) die("load", &err);
    return g;
}

static void bench_build(const char *name, const emu_image *img, int keep, int scaled)
{
    static uint8_t file[FILE_CAP];
    uint32_t geom;
    size_t size = make_file(file, scaled, &geom);
    emu_game *g = open_game(img, keep, file, size);
    const int n = 2000;
    uint64_t insns = 0;
    uint32_t ret;
    emu_fault f;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        if (emu_game_build_matrices(g, &ret, &f) != 0) die_fault("BuildBoneMatrices", &f);
        insns += emu_game_last_insns(g);
    }
    double dt = now() - t0;
    printf("%-16s BuildBoneMatrices, %-9s %-22s %8.1f us/call %8.0f insns\n", name,
           scaled ? "scaled," : "unscaled,",
           keep ? "original kept:" : "frame return lifted:", dt / n * 1e6, (double)insns / n);
    emu_game_close(g);
}

static void bench_world(const char *name, const emu_image *img)
{
    static uint8_t file[FILE_CAP];
    uint32_t geom;
    size_t size = make_file(file, 0, &geom);
    emu_game *g = open_game(img, 1, file, size);
    uint32_t ret;
    emu_fault f;
    if (emu_game_build_matrices(g, &ret, &f) != 0) die_fault("BuildBoneMatrices", &f);
    const emu_matrix base = {{{0, -4096, 0}, {4096, 0, 0}, {0, 0, 8192}}, 0, {1000, 2000, -3000}};
    emu_matrix world[BONES];
    const int n = 2000;
    uint64_t insns = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        if (emu_game_world_matrices(g, &base, world, BONES, &ret, &f) != 0)
            die_fault("ComputeBonesWorldMatrices", &f);
        insns += emu_game_last_insns(g);
    }
    double dt = now() - t0;
    printf("%-16s ComputeBonesWorldMatrices, skeleton restored:    %8.1f us/call %8.0f "
           "insns\n",
           name, dt / n * 1e6, (double)insns / n);
    emu_game_close(g);
}

/* StartClip then Battle_ReadAnimation to the end, BuildBoneMatrices kept
 * or replaced by a return: the frame level's cost per tick, for scale. */
static void bench_ticks(const char *name, const emu_image *img, int keep)
{
    static uint8_t file[FILE_CAP];
    uint32_t geom;
    size_t size = make_file(file, 0, &geom);
    emu_game *g = open_game(img, keep, file, size);
    const int reps = 100;
    uint64_t ticks = 0, insns = 0;
    uint32_t ret;
    emu_fault f;
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        emu_game_reset_skeleton(g);
        if (emu_game_start_clip(g, 0, 0, &ret, &f) != 0) die_fault("StartClip", &f);
        do {
            ticks++;
            insns += emu_game_last_insns(g);
            if (emu_game_read_animation(g, &ret, &f) != 0) die_fault("ReadAnimation", &f);
        } while (ret == 0);
        ticks++;
        insns += emu_game_last_insns(g);
    }
    double dt = now() - t0;
    printf("%-16s Battle_ReadAnimation tick, %-24s %8.1f us/tick %8.0f insns\n", name,
           keep ? "matrices rebuilt:" : "BuildBoneMatrices=ret:", dt / (double)ticks * 1e6,
           (double)insns / (double)ticks);
    emu_game_close(g);
}

int main(int argc, char **argv)
{
    const char *paths[2] = {FF_BENCH_STANDIN, FF_BENCH_STANDIN_X87};
    if (argc == 3) paths[0] = argv[1], paths[1] = argv[2];
    emu_profile p;
    ff_error err;
    if (profile_builtin_by_name("standin", &p, &err) != 0) die("profile", &err);
    printf("skeleton: %d bones in a chain\n", BONES);
    for (int v = 0; v < 2; v++) {
        emu_image *img;
        if (emu_image_load(paths[v], &p, &img, NULL, 0, &err) != 0) die(paths[v], &err);
        const char *name = v ? "standin_x87.exe" : "standin.exe";
        bench_build(name, img, 1, 0);
        bench_build(name, img, 0, 0);
        bench_build(name, img, 1, 1);
        bench_world(name, img);
        bench_ticks(name, img, 0);
        bench_ticks(name, img, 1);
        emu_image_free(img);
    }
    return 0;
}
