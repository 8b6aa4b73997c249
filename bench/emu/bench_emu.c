/*
 * bench/emu/bench_emu.c: what an emulated call costs on Debian 12's Unicorn
 * 2.0.1, on the stand-in engine: bitReader per call, Battle_ReadAnimation
 * per tick on a synthetic 30-bone clip (with and without the bone-matrix
 * rebuild), instructions per call from the block hook, the HLT-sentinel
 * return against Unicorn's `until`, and the host-side cost of zeroing the
 * stack and scratch per call. Prints a table; not a test, nothing asserted.
 *
 * Usage: bench_emu [path/to/standin.exe]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unicorn/unicorn.h>

#include "common/le.h"
#include "emu/engine/emu.h"
#include "emu/engine/game.h"
#include "emu/engine/image.h"
#include "emu/engine/observe.h"
#include "emu/profiles/profile_builtin.h"
#include "ref/encode.h"

#define BONES 30
#define FRAMES 20

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void die(const char *what, const ff_error *err)
{
    char buf[1024];
    fprintf(stderr, "bench_emu: %s: %s\n", what, ff_error_format(err, buf, sizeof buf));
    exit(1);
}

static uint32_t rng = 0x2545F491u;
static int rnd(int lo, int hi)
{
    rng = rng * 1664525u + 1013904223u;
    return lo + (int)((rng >> 8) % (uint32_t)(hi - lo + 1));
}

/* skeleton (30 bones) | 16 geometry bytes | animation section with one clip */
static size_t make_file(uint8_t *file, size_t cap, uint32_t *geom, uint32_t *anim)
{
    memset(file, 0, cap);
    file[0] = BONES;
    for (int b = 0; b < BONES; b++) {
        uint8_t *bone = file + 16 + 48 * b;
        le_put16(bone, b - 1);
        le_put16(bone + 2, 40);
        for (int k = 0; k < 3; k++)
            le_put16(bone + 10 + 2 * k, 1024);
    }
    *geom = 16 + 48 * BONES;
    *anim = *geom + 16;
    static int16_t rot[FRAMES][BONES * 3];
    enc_frame fr[FRAMES];
    for (int f = 0; f < FRAMES; f++) {
        memset(&fr[f], 0, sizeof fr[f]);
        for (int k = 0; k < 3; k++)
            fr[f].root[k] = (int16_t)rnd(-40, 40);
        for (int i = 0; i < BONES * 3; i++)
            rot[f][i] = (int16_t)(rnd(0, 3) ? rnd(-90, 90) : 0);
        fr[f].rot = rot[f];
    }
    uint8_t *sec = file + *anim;
    sec[0] = 1; /* u32 count = 1, u32 offset = 8 */
    sec[4] = 8;
    enc_writer w;
    enc_init(&w, sec + 8, cap - *anim - 8 - 4);
    ff_error err;
    if (enc_clip(&w, BONES, FRAMES, fr, &err) != 0) die("encoding the clip", &err);
    return *anim + 8 + enc_bytes(&w) + 4;
}

static emu_game *open_game(const emu_image *img, int keep)
{
    emu_game_opts o = {keep, 0, NULL};
    emu_game *g;
    ff_error err;
    if (emu_game_open(img, &o, &g, &err) != 0) die("emu_game_open", &err);
    return g;
}

static void bench_ticks(const emu_image *img, int keep, int cover, const uint8_t *file,
                        size_t size, uint32_t geom, uint32_t anim)
{
    emu_game *g = open_game(img, keep);
    ff_error err;
    if (emu_game_load_file(g, file, size, 0, geom, anim, &err) != 0) die("load", &err);
    emu_blockmap *m = NULL;
    uint8_t *hits = NULL;
    if (cover) {
        if (emu_image_blocks(img, &m, &err) != 0) die("blocks", &err);
        hits = calloc(m->nblocks, 1);
        if (!hits || emu_game_cover(g, m, hits, &err) != 0) die("coverage", &err);
    }
    const int reps = 300;
    uint64_t ticks = 0, insns = 0;
    double t0 = now(), c0 = cpu_now();
    for (int r = 0; r < reps; r++) {
        emu_game_reset_skeleton(g);
        uint32_t ret;
        emu_fault f;
        if (emu_game_start_clip(g, 0, 0, &ret, &f) != 0) {
            fprintf(stderr, "fault: %s %s\n%s", emu_fault_name(f.kind), f.detail, f.disasm);
            exit(1);
        }
        ticks++;
        insns += emu_game_last_insns(g);
        do {
            if (emu_game_read_animation(g, &ret, &f) != 0) exit(1);
            ticks++;
            insns += emu_game_last_insns(g);
        } while (ret == 0);
    }
    double dt = now() - t0, dc = cpu_now() - c0;
    printf("Battle_ReadAnimation tick, 30 bones, %-22s%-13s %8.2f us/tick (CPU %7.2f) %9.0f "
           "insns/tick (%llu ticks)\n",
           keep ? "matrices rebuilt:" : "BuildBoneMatrices=ret:", cover ? " coverage on:" : "",
           dt / (double)ticks * 1e6, dc / (double)ticks * 1e6, (double)insns / (double)ticks,
           (unsigned long long)ticks);
    emu_game_close(g);
    emu_blocks_free(m);
    free(hits);
}

/* Dropping the image's translated code (what arming and disarming a hook costs). */
static void bench_drop(const emu_image *img)
{
    emu_game *g = open_game(img, 0);
    emu_blockmap *m;
    ff_error err;
    if (emu_image_blocks(img, &m, &err) != 0) die("blocks", &err);
    uint8_t *hits = calloc(m->nblocks, 1);
    const int reps = 50;
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        if (emu_game_cover(g, m, hits, &err) != 0) die("coverage", &err);
        emu_game_cover(g, m, NULL, &err);
    }
    printf("coverage hook added and removed (2 code drops of the image):  %8.3f ms\n",
           (now() - t0) / reps * 1e3);
    free(hits);
    emu_blocks_free(m);
    emu_game_close(g);
}

/* A read-log replay of the clip's last delta tick (all calls before it replayed too). */
static void bench_replay(const emu_image *img, const uint8_t *file, size_t size, uint32_t geom,
                         uint32_t anim, uint32_t clip_start)
{
    emu_game *g = open_game(img, 0);
    ff_error err;
    if (emu_game_load_file(g, file, size, 0, geom, anim, &err) != 0) die("load", &err);
    emu_blockmap *m;
    if (emu_image_blocks(img, &m, &err) != 0) die("blocks", &err);
    static ref_read reads[32768];
    ref_read_log log;
    ref_read_log_init(&log, reads, 32768);
    const int reps = 20;
    double t0 = now();
    for (int r = 0; r < reps; r++) {
        emu_fault f;
        if (emu_game_read_log(g, m, 0, 0, FRAMES - 1, clip_start, &log, &f, &err) != 0)
            die("read log", &err);
    }
    double dt = now() - t0;
    printf("read-log replay of tick %d (%d calls, %zu reads logged):        %8.2f ms/replay\n",
           FRAMES - 1, FRAMES, log.n, dt / reps * 1e3);
    emu_game_read_log_end(g);
    emu_blocks_free(m);
    emu_game_close(g);
}

static void bench_bitreader(const emu_image *img)
{
    emu_game *g = open_game(img, 0);
    uint8_t buf[64];
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)rnd(0, 255);
    const int n = 200000;
    uint64_t insns = 0;
    double t0 = now();
    for (int i = 0; i < n; i++) {
        int16_t ax;
        int64_t pos;
        int32_t bit;
        emu_fault f;
        if (emu_game_leaf(g, EMU_LEAF_BITREADER, buf, 16, i % 8, i % 8, (int16_t)(1 + i % 16), &ax,
                          &pos, &bit, &f) != 0)
            exit(1);
        insns += emu_game_last_insns(g);
    }
    double dt = now() - t0;
    printf("bitReader call (emu_game_leaf, 16-byte buffer):        %8.3f us/call %9.1f "
           "insns/call\n",
           dt / n * 1e6, (double)insns / n);
    emu_game_close(g);
}

static void count_write(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value,
                        void *user)
{
    (void)uc, (void)type, (void)addr, (void)size, (void)value, (void)user;
}

/* An MMIO page backed by a buffer: every read and write is a callback. */
static uint64_t mmio_read(uc_engine *uc, uint64_t off, unsigned size, void *user)
{
    (void)uc;
    uint64_t v = 0;
    memcpy(&v, (uint8_t *)user + off, size);
    return v;
}

static void mmio_write(uc_engine *uc, uint64_t off, unsigned size, uint64_t v, void *user)
{
    (void)uc;
    memcpy((uint8_t *)user + off, &v, size);
}

/*
 * 100 stores to an absolute address and 100 loads back, on a RAM page and on
 * an MMIO page: what a guest store costs on Unicorn's store path, and what
 * moving data to MMIO (a callback per access, loads included) would cost.
 */
static void bench_store_pages(uc_engine *uc, uint8_t *code, uint8_t *stack, int n)
{
    static uint8_t mmio[4096];
    /* mov ecx,100; L: mov [A],ecx; mov eax,[A+4]; dec ecx; jnz L; ret  (A patched below) */
    uint8_t loop[] = {0xB9, 100, 0, 0, 0, 0x89, 0x0D, 0, 0, 0, 0, 0xA1, 0, 0, 0, 0,
                      0x49, 0x75, 0xF2, 0xC3};
    if (uc_mmio_map(uc, 0x7E000000, 4096, mmio_read, mmio, mmio_write, mmio) != UC_ERR_OK) exit(1);
    const uint32_t ret_addr = 0x400800, esp = 0x7F00F000;
    static const uint32_t pages[2] = {0x7F000100, 0x7E000100};
    for (int k = 0; k < 2; k++) {
        uint32_t a = pages[k], b = pages[k] + 4;
        memcpy(loop + 7, &a, 4);
        memcpy(loop + 12, &b, 4);
        memcpy(code + 0x200, loop, sizeof loop);
        uc_ctl_remove_cache(uc, 0x400000, 0x401000);
        double t0 = now();
        for (int i = 0; i < n; i++) {
            memcpy(stack + (esp - 0x7F000000), &ret_addr, 4);
            uc_reg_write(uc, UC_X86_REG_ESP, &esp);
            uc_emu_start(uc, 0x400200, 0x400F00, 0, 0);
        }
        printf("100 x (store, load) loop, %-28s %8.3f us/call\n",
               k ? "data on an MMIO page:" : "data on a RAM page:", (now() - t0) / n * 1e6);
    }
}

/* A trivial routine on a bare Unicorn: HLT sentinel against `until`. */
static void bench_return(void)
{
    uc_engine *uc;
    if (uc_open(UC_ARCH_X86, UC_MODE_32, &uc) != UC_ERR_OK) exit(1);
    uint8_t *code = aligned_alloc(4096, 4096), *stack = aligned_alloc(4096, 65536);
    memset(code, 0xF4, 4096);
    static const uint8_t f[] = {0x8B, 0x44, 0x24, 0x04, 0x40, 0xC3}; /* mov eax,[esp+4]; inc; ret */
    memcpy(code, f, sizeof f);
    uc_mem_map_ptr(uc, 0x400000, 4096, UC_PROT_READ | UC_PROT_EXEC, code);
    uc_mem_map_ptr(uc, 0x7F000000, 65536, UC_PROT_READ | UC_PROT_WRITE, stack);
    const uint32_t ret_addr = 0x400800, esp = 0x7F00F000;
    const int n = 200000;
    for (int mode = 0; mode < 2; mode++) {
        double t0 = now();
        for (int i = 0; i < n; i++) {
            memcpy(stack + (esp - 0x7F000000), &ret_addr, 4);
            memcpy(stack + (esp - 0x7F000000) + 4, &i, 4);
            uc_reg_write(uc, UC_X86_REG_ESP, &esp);
            /* mode 0: return onto a HLT, `until` never reached; mode 1: stop at `until`. */
            uc_emu_start(uc, 0x400000, mode ? ret_addr : 0x400F00, 0, 0);
        }
        printf("trivial call returning %-32s %8.3f us/call\n",
               mode ? "at `until` (ret address):" : "on a HLT sentinel:", (now() - t0) / n * 1e6);
    }
    /* 100 stores in a loop, without and with a write hook on a range it never touches
     * (the "zero the top 64 KiB, watch the deep part" option). */
    static const uint8_t stores[] = {
        0xB9, 100,  0,    0,    0,    0x89, 0x4C,
        0x24, 0xF8, 0x49, 0x75, 0xF9, 0xC3}; /* mov ecx,100; L: mov [esp-8],ecx; dec ecx; jnz L; ret
                                              */
    memcpy(code + 0x100, stores, sizeof stores);
    uc_ctl_remove_cache(uc, 0x400000, 0x401000);
    for (int hooked = 0; hooked < 2; hooked++) {
        uc_hook h = 0;
        if (hooked)
            uc_hook_add(uc, &h, UC_HOOK_MEM_WRITE, (void *)count_write, NULL, 0x7F000000,
                        0x7F007FFF);
        uc_ctl_remove_cache(uc, 0x400000, 0x401000);
        double t0 = now();
        for (int i = 0; i < n / 10; i++) {
            memcpy(stack + (esp - 0x7F000000), &ret_addr, 4);
            uc_reg_write(uc, UC_X86_REG_ESP, &esp);
            uc_emu_start(uc, 0x400100, 0x400F00, 0, 0);
        }
        printf("100-store loop, %-38s %8.3f us/call\n",
               hooked ? "write hook on an untouched range:" : "no write hook:",
               (now() - t0) / (n / 10) * 1e6);
        if (hooked) uc_hook_del(uc, h);
    }
    bench_store_pages(uc, code, stack, n / 10);
    uc_close(uc);
    free(code);
    free(stack);
}

static void bench_zeroing(const emu_image *img)
{
    emu_game *g = open_game(img, 1);
    (void)g;
    static uint8_t big[1 << 20];
    const size_t sizes[] = {4096, 8192, 65536, 1 << 20};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int reps = (int)(2000000000u / sizes[k]);
        if (reps > 200000) reps = 200000;
        double t0 = now();
        for (int i = 0; i < reps; i++) {
            memset(big, 0, sizes[k]);
            __asm__ volatile("" ::"r"(big) : "memory");
        }
        printf("memset of %7zu bytes per call:                      %8.3f us\n", sizes[k],
               (now() - t0) / reps * 1e6);
    }
    emu_game_close(g);
}

/* Field_Alloc(0): 5 instructions, so the time is almost all per-call overhead. */
static void bench_overhead(const emu_image *img)
{
    emu_config cfg = {emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), 0,
                      NULL};
    emu *e;
    ff_error err;
    if (emu_open(&cfg, &e, &err) != 0) die("emu_open", &err);
    const profile_routine *fa = profile_find_routine(emu_image_profile(img), "Field_Alloc");
    const int n = 200000;
    uint32_t arg = 0, eax;
    emu_fault f;
    double t0 = now();
    for (int i = 0; i < n; i++)
        if (emu_call(e, fa->address, &arg, 1, &eax, &f) != 0) exit(1);
    printf("emu_call(Field_Alloc, 0), %llu insns, stack hot %u B, scratch hot %u B: %6.3f "
           "us/call\n",
           (unsigned long long)emu_last_insns(e), emu_stack_hot(e), emu_scratch_hot(e),
           (now() - t0) / n * 1e6);
    emu_close(e);
}

int main(int argc, char **argv)
{
    const char *path = argc > 1 ? argv[1] : FF_BENCH_STANDIN;
    emu_profile p;
    ff_error err;
    if (profile_builtin_by_name("standin", &p, &err) != 0) die("profile", &err);
    emu_image *img;
    double t0 = now();
    if (emu_image_load(path, &p, &img, NULL, 0, &err) != 0) die(path, &err);
    double t1 = now();
    emu_game *g = open_game(img, 1);
    printf("emu_image_load %.2f ms, emu_game_open %.2f ms\n", (t1 - t0) * 1e3, (now() - t1) * 1e3);
    emu_game_close(g);
    static uint8_t file[16384];
    uint32_t geom, anim;
    size_t size = make_file(file, sizeof file, &geom, &anim);
    printf("synthetic clip: %d bones, %d frames, file %zu bytes\n", BONES, FRAMES, size);
    bench_bitreader(img);
    bench_ticks(img, 0, 0, file, size, geom, anim);
    bench_ticks(img, 0, 1, file, size, geom, anim);
    bench_ticks(img, 0, 0, file, size, geom, anim);
    bench_ticks(img, 0, 1, file, size, geom, anim);
    bench_ticks(img, 1, 0, file, size, geom, anim);
    bench_ticks(img, 1, 1, file, size, geom, anim);
    bench_replay(img, file, size, geom, anim, anim + le_u32(file + anim + 4));
    bench_drop(img);
    bench_overhead(img);
    bench_return();
    bench_zeroing(img);
    emu_image_free(img);
    return 0;
}
