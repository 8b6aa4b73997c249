/*
 * harness/run/pose_side.c: the pose level on both sides (pose_side.h).
 *
 * The memo's key is what BuildBoneMatrices reads: the skeleton header and,
 * per bone, its first 16 bytes (parent, size, rotation, scale). A skeleton
 * with a parent that is not an earlier bone makes the routine read matrices
 * it has not written in this call (the previous call's): its key is then
 * the whole skeleton, matrices included, so no state is ever replayed from
 * an input it did not have. The value is the whole skeleton after the call
 * and the two world states. Entries live in one arena; when the budget is
 * reached the memo is emptied and starts again.
 */
#include "harness/run/pose_side.h"

#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "ref/dat.h"

void pose_base_fixed(ref_matrix *out)
{
    /*
     * Rz(30 degrees) . diag(1.25, 0.75, 2.0), rounded to Q12, then a
     * translation: cos 30 = 3547/4096, sin 30 = 2048/4096.
     *   row 0: 3547 * 1.25 = 4434, -2048 * 0.75 = -1536, 0
     *   row 1: 2048 * 1.25 = 2560,  3547 * 0.75 =  2660, 0
     *   row 2: 0, 0, 8192
     */
    static const ref_matrix base = {
        {{4434, -1536, 0}, {2560, 2660, 0}, {0, 0, 8192}},
        {1200, -34000, 250000},
    };
    *out = base;
}

void pose_base_emu(int which, emu_matrix *out)
{
    memset(out, 0, sizeof *out);
    if (which == 0) {
        for (int i = 0; i < 3; i++)
            out->m[i][i] = 4096;
        return;
    }
    ref_matrix b;
    pose_base_fixed(&b);
    memcpy(out->m, b.m, sizeof out->m);
    memcpy(out->t, b.t, sizeof out->t);
}

/* ---- the memo ---- */

typedef struct entry {
    uint64_t hash;
    size_t key, key_len; /* arena offsets */
    size_t value;        /* 3 skeletons: after the call, world, placed */
    size_t skel_len;
    uint32_t build_ret; /* what BuildBoneMatrices returned */
} entry;

struct pose_memo {
    size_t budget;
    uint8_t *arena;
    size_t used, cap;
    entry *slots; /* open addressing, nslots a power of two; key_len 0: empty */
    size_t nslots, n;
    pose_memo_stats stats;
    uint32_t build_ret; /* BuildBoneMatrices' return of the last pose_orig_run */
};

#define MEMO_SLOTS 16384

pose_memo *pose_memo_new(size_t budget)
{
    pose_memo *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->budget = budget ? budget : 64u << 20;
    m->nslots = MEMO_SLOTS;
    m->slots = calloc(m->nslots, sizeof *m->slots);
    if (!m->slots) {
        free(m);
        return NULL;
    }
    return m;
}

void pose_memo_free(pose_memo *m)
{
    if (!m) return;
    free(m->arena);
    free(m->slots);
    free(m);
}

uint32_t pose_memo_build_ret(const pose_memo *m)
{
    return m->build_ret;
}

pose_memo_stats pose_memo_get_stats(const pose_memo *m)
{
    return m->stats;
}

static void memo_clear(pose_memo *m)
{
    memset(m->slots, 0, m->nslots * sizeof *m->slots);
    m->used = 0;
    m->n = 0;
    m->stats.flushes++;
}

static uint64_t hash_bytes(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001B3ull;
    return h;
}

/* The bytes BuildBoneMatrices reads, into key (skel_len bytes of room); returns their count. */
static size_t make_key(const uint8_t *skel, size_t skel_len, uint8_t *key)
{
    unsigned bones = skel[DAT_SKEL_BONE_COUNT];
    int regular = DAT_SKEL_HEADER + (size_t)bones * DAT_BONE_SIZE <= skel_len;
    for (unsigned b = 0; regular && b < bones; b++) {
        int parent = le_s16(skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + DAT_BONE_PARENT);
        regular = parent == -1 || (parent >= 0 && (unsigned)parent < b);
    }
    if (!regular) {
        memcpy(key, skel, skel_len);
        return skel_len;
    }
    memcpy(key, skel, DAT_SKEL_HEADER);
    size_t n = DAT_SKEL_HEADER;
    for (unsigned b = 0; b < bones; b++, n += 16)
        memcpy(key + n, skel + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE, 16);
    return n;
}

static entry *lookup(pose_memo *m, uint64_t h, const uint8_t *key, size_t len, size_t skel_len)
{
    for (size_t i = (size_t)h & (m->nslots - 1);; i = (i + 1) & (m->nslots - 1)) {
        entry *e = &m->slots[i];
        if (!e->key_len) return e;
        if (e->hash == h && e->key_len == len && e->skel_len == skel_len &&
            memcmp(m->arena + e->key, key, len) == 0)
            return e;
    }
}

/* Room for need more arena bytes; the memo is emptied when over budget or half full. */
static int reserve(pose_memo *m, size_t need, ff_error *err)
{
    if (m->used + need > m->budget || m->n + 1 > m->nslots / 2) memo_clear(m);
    if (m->used + need <= m->cap) return 0;
    size_t cap = m->cap ? m->cap * 2 : 1u << 20;
    while (cap < m->used + need)
        cap *= 2;
    if (cap > m->budget) cap = m->budget > m->used + need ? m->budget : m->used + need;
    uint8_t *a = realloc(m->arena, cap);
    if (!a) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
    m->arena = a;
    m->cap = cap;
    return 0;
}

/* The world skeleton: skel with each bone's MATRIX replaced by world[i]. */
static void world_bytes(const uint8_t *skel, size_t len, const emu_matrix *world, unsigned bones,
                        uint8_t *out)
{
    memcpy(out, skel, len);
    for (unsigned b = 0; b < bones; b++)
        emu_matrix_encode(&world[b], out + DAT_SKEL_HEADER + (size_t)b * DAT_BONE_SIZE + 0x10);
}

/* The frame level's target: the game's loaded model. */
static const uint8_t *game_skel(void *self, size_t *len)
{
    *len = emu_game_skeleton_size(self);
    return emu_game_skeleton(self);
}
static void game_set_skel(void *self, const uint8_t *skel)
{
    emu_game_set_skeleton(self, skel);
}
static int game_build(void *self, uint32_t *ret, emu_fault *fault)
{
    return emu_game_build_matrices(self, ret, fault);
}
static int game_world(void *self, const emu_matrix *base, emu_matrix *world, size_t cap,
                      uint32_t *ret, emu_fault *fault)
{
    return emu_game_world_matrices(self, base, world, cap, ret, fault);
}

pose_target pose_target_game(emu_game *g)
{
    return (pose_target){g, game_skel, game_set_skel, game_build, game_world};
}

void pose_bases_plain(emu_matrix base[2])
{
    pose_base_emu(0, &base[0]);
    pose_base_emu(1, &base[1]);
}

static int emulate(const pose_target *t, const emu_matrix base[2], uint8_t *world,
                   uint8_t *placed, uint32_t *build_ret, emu_fault *fault, ff_error *err)
{
    size_t len;
    const uint8_t *skel = t->skeleton(t->self, &len);
    unsigned bones = skel[DAT_SKEL_BONE_COUNT];
    uint32_t ret;
    if (t->build(t->self, build_ret, fault) != 0) return -1;
    emu_matrix *w = malloc((bones ? bones : 1) * sizeof *w);
    if (!w) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for world matrices");
    uint8_t *out[2] = {world, placed};
    for (int which = 0; which < 2; which++) {
        if (t->world(t->self, &base[which], w, bones, &ret, fault) != 0) {
            free(w);
            return -1;
        }
        world_bytes(t->skeleton(t->self, &len), len, w, bones, out[which]);
    }
    free(w);
    return 0;
}

int pose_orig_run(pose_memo *m, const pose_target *t, const emu_matrix base[2], uint8_t *world,
                  uint8_t *placed, int *emulated, emu_fault *fault, ff_error *err)
{
    size_t len = 0;
    const uint8_t *skel = t->skeleton(t->self, &len);
    *emulated = 0;
    if (!skel) return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "no model loaded for the pose");
    /* The key: what BuildBoneMatrices reads, then both bases. */
    uint8_t *key = malloc(len + 2 * EMU_MATRIX_BYTES);
    if (!key) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the pose memo");
    size_t klen = make_key(skel, len, key);
    for (int k = 0; k < 2; k++, klen += EMU_MATRIX_BYTES) emu_matrix_encode(&base[k], key + klen);
    uint64_t h = hash_bytes(0xCBF29CE484222325ull ^ len, key, klen);
    entry *e = lookup(m, h, key, klen, len);
    if (e->key_len) {
        const uint8_t *v = m->arena + e->value;
        t->set_skeleton(t->self, v);
        memcpy(world, v + len, len);
        memcpy(placed, v + 2 * len, len);
        m->build_ret = e->build_ret;
        m->stats.hits++;
        free(key);
        return 0;
    }
    *emulated = 1;
    m->stats.misses++;
    if (emulate(t, base, world, placed, &m->build_ret, fault, err) != 0) {
        free(key);
        return -1;
    }
    if (reserve(m, klen + 3 * len, err) != 0) {
        free(key);
        return -1;
    }
    e = lookup(m, h, key, klen, len); /* again: the memo may have been emptied */
    e->hash = h;
    e->key = m->used;
    e->key_len = klen;
    e->skel_len = len;
    e->build_ret = m->build_ret;
    memcpy(m->arena + m->used, key, klen);
    m->used += klen;
    e->value = m->used;
    memcpy(m->arena + m->used, t->skeleton(t->self, &len), len);
    memcpy(m->arena + m->used + len, world, len);
    memcpy(m->arena + m->used + 2 * len, placed, len);
    m->used += 3 * len;
    m->n++;
    free(key);
    return 0;
}

int pose_orig_tick(pose_memo *m, emu_game *g, uint8_t *world, uint8_t *placed, int *emulated,
                   emu_fault *fault, ff_error *err)
{
    pose_target t = pose_target_game(g);
    emu_matrix base[2];
    pose_bases_plain(base);
    return pose_orig_run(m, &t, base, world, placed, emulated, fault, err);
}

void pose_ref_world_under(const uint8_t *skel, unsigned bones, const ref_pose_opts *o,
                          const ref_matrix base[2], uint8_t *world, uint8_t *placed)
{
    size_t len = DAT_SKEL_HEADER + (size_t)bones * DAT_BONE_SIZE;
    memcpy(world, skel, len);
    memcpy(placed, skel, len);
    ref_world_matrices(world, bones, &base[0], o);
    ref_world_matrices(placed, bones, &base[1], o);
}

void pose_ref_bases(ref_matrix base[2])
{
    static const ref_matrix id = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, {0, 0, 0}};
    base[0] = id;
    pose_base_fixed(&base[1]);
}

void pose_ref_world(const uint8_t *skel, unsigned bones, const ref_pose_opts *o, uint8_t *world,
                    uint8_t *placed)
{
    ref_matrix base[2];
    pose_ref_bases(base);
    pose_ref_world_under(skel, bones, o, base, world, placed);
}

void pose_attach_matrix(const ref_pose_opts *o, const int16_t rot[3], const int16_t trans[3],
                        ref_matrix *out)
{
    memset(out, 0, sizeof *out);
    ref_pose_rotation(rot, REF_ORDER_ZYX, o->trig, o->step, out->m);
    for (int k = 0; k < 3; k++) out->t[k] = trans[k];
}

void pose_attach_bases(const ref_pose_opts *o, const int16_t rot[3], const int16_t trans[3],
                       ref_matrix base[2])
{
    ref_matrix attach, plain[2];
    pose_attach_matrix(o, rot, trans, &attach);
    pose_ref_bases(plain);
    for (int k = 0; k < 2; k++) ref_pose_compose(&plain[k], &attach, o->step, o->width_t, &base[k]);
}

void pose_matrix_to_emu(const ref_matrix *in, emu_matrix *out)
{
    memset(out, 0, sizeof *out);
    memcpy(out->m, in->m, sizeof out->m);
    memcpy(out->t, in->t, sizeof out->t);
}

void pose_bases_to_emu(const ref_matrix in[2], emu_matrix out[2])
{
    for (int k = 0; k < 2; k++) pose_matrix_to_emu(&in[k], &out[k]);
}
