/*
 * emu/engine/game_pose.c: the posed skeleton of the original engine (emu/engine/game.h,
 * docs/pose.md): BuildBoneMatrices called directly on the skeleton as it is,
 * ComputeBonesWorldMatrices under a caller's base with the skeleton put
 * back afterwards, the bone MATRIX read back, and each pose helper called
 * alone at its profile address with the operands its profile row names.
 *
 * Every address comes from the image's profile (engine routines by name,
 * helpers by role): nothing here knows the stand-in. Nothing prints or
 * exits; a fault is returned and the skeleton is put back as it was.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/emu.h"
#include "emu/engine/game.h"
#include "emu/engine/game_internal.h"

/* On a little-endian host the struct is the bytes' layout: one copy each way. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MATRIX_AS_BYTES 1
_Static_assert(sizeof(emu_matrix) == EMU_MATRIX_BYTES && offsetof(emu_matrix, pad) == 18 &&
                   offsetof(emu_matrix, t) == 20,
               "emu_matrix is laid out as the engine's MATRIX");
#else
#define MATRIX_AS_BYTES 0
#endif

void emu_matrix_decode(const uint8_t *bytes, emu_matrix *m)
{
    if (MATRIX_AS_BYTES) {
        memcpy(m, bytes, EMU_MATRIX_BYTES);
        return;
    }
    for (int k = 0; k < 9; k++)
        m->m[k / 3][k % 3] = le_s16(bytes + 2 * k);
    m->pad = le_u16(bytes + 18);
    for (int k = 0; k < 3; k++)
        m->t[k] = (int32_t)le_u32(bytes + 20 + 4 * k);
}

void emu_matrix_encode(const emu_matrix *m, uint8_t *bytes)
{
    if (MATRIX_AS_BYTES) {
        memcpy(bytes, m, EMU_MATRIX_BYTES);
        return;
    }
    for (int k = 0; k < 9; k++)
        le_put16(bytes + 2 * k, (uint16_t)m->m[k / 3][k % 3]);
    le_put16(bytes + 18, m->pad);
    for (int k = 0; k < 3; k++)
        le_put32(bytes + 20 + 4 * k, (uint32_t)m->t[k]);
}

static unsigned bone_count(const emu_game *g)
{
    return g->file ? g->file[g->skel_off] : 0;
}

int emu_game_bone_matrix(const emu_game *g, unsigned i, emu_matrix *out)
{
    if (!g->file || i >= bone_count(g)) return -1;
    emu_matrix_decode(g->file + g->skel_off + 16 + 48 * i + 0x10, out);
    return 0;
}

static int fail(emu_fault *fault, const char *why, const char *what)
{
    return emu_fault_refuse(fault, 0, "%.100s%.100s", why, what);
}

/*
 * Calls a pose routine of the Model. emu_game_call_at keeps the skeleton
 * as it was before the call in pre_skel; after a fault (when the file came
 * back as loaded, which would lose the pose being worked on) it is put back.
 */
static int pose_call(emu_game *g, uint32_t addr, const uint32_t *args, unsigned n, uint32_t *ret,
                     emu_fault *fault)
{
    int rc = emu_game_call_at(g, addr, args, n, ret, fault);
    if (rc != 0) memcpy(g->file + g->skel_off, g->pre_skel, g->skel_len);
    return rc;
}

int emu_game_matrices_patch(emu_game *g, int on, ff_error *err)
{
    if (!g->stub) return 0;
    if (!g->stub_by_patch) {
        emu_stub_set(g->e, on);
        return 0;
    }
    if (on == g->stub_patched) return 0;
    static const uint8_t ret = 0xC3;
    if ((on ? emu_patch(g->e, g->stub, &ret, 1, err) : emu_unpatch(g->e, g->stub, err)) < 0)
        return -1;
    g->stub_patched = on;
    return 0;
}

int emu_game_build_matrices(emu_game *g, uint32_t *ret, emu_fault *fault)
{
    uint32_t addr = emu_game_routine_addr(g, PROFILE_R_BUILD_MATRICES, fault);
    if (!addr || emu_game_no_file(g, fault)) return -1;
    uint32_t args[1] = {GAME_MODEL};
    ff_error err;
    if (emu_game_matrices_patch(g, 0, &err) != 0)
        return fail(fault, "lifting the BuildBoneMatrices return: ", err.reason);
    int rc = pose_call(g, addr, args, 1, ret, fault);
    if (emu_game_matrices_patch(g, 1, &err) != 0)
        return fail(fault, "putting the BuildBoneMatrices return back: ", err.reason);
    return rc;
}

int emu_game_world_matrices(emu_game *g, const emu_matrix *base, emu_matrix *world, size_t cap,
                            uint32_t *ret, emu_fault *fault)
{
    uint32_t addr = emu_game_routine_addr(g, PROFILE_R_WORLD_MATRICES, fault);
    if (!addr || emu_game_no_file(g, fault)) return -1;
    unsigned n = bone_count(g);
    if (cap < n) return fail(fault, "no room for every bone's world matrix", "");
    emu_matrix_encode(base, g->data + (GAME_BASE - GAME_DATA));
    uint32_t args[2] = {GAME_MODEL, GAME_BASE};
    if (pose_call(g, addr, args, 2, ret, fault) != 0) return -1;
    for (unsigned i = 0; i < n; i++)
        emu_game_bone_matrix(g, i, &world[i]);
    memcpy(g->file + g->skel_off, g->pre_skel, g->skel_len);
    return 0;
}

/* Guest address of each operand kind (profile_param order). */
static const uint32_t operand_addr[PROFILE_P__COUNT] = {
    [PROFILE_P_A] = GAME_POSE_A,       [PROFILE_P_B] = GAME_POSE_B,   [PROFILE_P_M] = GAME_POSE_M,
    [PROFILE_P_OUT] = GAME_POSE_OUT,   [PROFILE_P_SV] = GAME_POSE_SV, [PROFILE_P_V] = GAME_POSE_V,
    [PROFILE_P_VOUT] = GAME_POSE_VOUT,
};

static uint8_t *at(emu_game *g, uint32_t addr)
{
    return g->data + (addr - GAME_DATA);
}

static void put_vector(uint8_t *p, const int32_t v[4])
{
    for (int k = 0; k < 4; k++)
        le_put32(p + 4 * k, (uint32_t)v[k]);
}

static void get_vector(const uint8_t *p, int32_t v[4])
{
    for (int k = 0; k < 4; k++)
        v[k] = (int32_t)le_u32(p + 4 * k);
}

static void place_operands(emu_game *g, const emu_pose_io *io)
{
    emu_matrix_encode(&io->a, at(g, GAME_POSE_A));
    emu_matrix_encode(&io->b, at(g, GAME_POSE_B));
    emu_matrix_encode(&io->m, at(g, GAME_POSE_M));
    emu_matrix_encode(&io->out, at(g, GAME_POSE_OUT));
    for (int k = 0; k < 4; k++)
        le_put16(at(g, GAME_POSE_SV) + 2 * k, (uint16_t)io->sv[k]);
    put_vector(at(g, GAME_POSE_V), io->v);
    put_vector(at(g, GAME_POSE_VOUT), io->vout);
}

static void read_operands(emu_game *g, emu_pose_io *io)
{
    emu_matrix_decode(at(g, GAME_POSE_A), &io->a);
    emu_matrix_decode(at(g, GAME_POSE_B), &io->b);
    emu_matrix_decode(at(g, GAME_POSE_M), &io->m);
    emu_matrix_decode(at(g, GAME_POSE_OUT), &io->out);
    for (int k = 0; k < 4; k++)
        io->sv[k] = le_s16(at(g, GAME_POSE_SV) + 2 * k);
    get_vector(at(g, GAME_POSE_V), io->v);
    get_vector(at(g, GAME_POSE_VOUT), io->vout);
}

int emu_game_pose_helper(emu_game *g, profile_helper_id role, emu_pose_io *io, emu_fault *fault)
{
    const emu_profile *p = emu_image_profile(g->img);
    const profile_routine *r = profile_helper(p, role);
    if (!r) {
        char what[96];
        snprintf(what, sizeof what, "%s (profile %s)", profile_helper_name(role), p->name);
        return fail(fault, "no pose helper for the role ", what);
    }
    uint32_t args[PROFILE_MAX_ARGS];
    for (unsigned i = 0; i < r->args; i++)
        args[i] =
            r->params[i] == PROFILE_P_ANGLE ? (uint32_t)io->angle : operand_addr[r->params[i]];
    place_operands(g, io);
    if (emu_call(g->e, r->address, args, r->args, &io->eax, fault) != 0) return -1;
    read_operands(g, io);
    io->has_st0 = emu_x87_st0(g->e, &io->st0, io->st0_raw) == 0;
    io->value = r->result == PROFILE_RES_EAX  ? (int32_t)io->eax
                : r->result == PROFILE_RES_AX ? (int16_t)(uint16_t)(io->eax & 0xFFFF)
                                              : 0;
    if (r->result == PROFILE_RES_ST0 && !io->has_st0)
        return fail(fault, r->name, " left the x87 stack empty, but its profile row says st0");
    return 0;
}

int emu_game_find_pose_writer(emu_game *g, uint8_t flags, int16_t clip, size_t tick,
                              const emu_matrix *base, uint32_t offset, uint32_t size,
                              emu_writer *w, emu_fault *fault, ff_error *err)
{
    memset(w, 0, sizeof *w);
    if (emu_require(g->e, EMU_CAP_WATCH, err) < 0) return -1;
    if (!g->file) return ff_error_set(err, FF_E_USAGE, NULL, -1, "no file loaded");
    if (size == 0 || offset > g->skel_len || size > g->skel_len - offset)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "watch range %u+%u outside the skeleton",
                            offset, size);
    emu_game_reset_skeleton(g);
    uint32_t ret = 0;
    for (size_t t = 0; t <= tick; t++) {
        int rc = t == 0 ? emu_game_start_clip(g, flags, clip, &ret, fault)
                        : emu_game_read_animation(g, &ret, fault);
        if (rc < 0) return ff_error_set(err, FF_E_FAULT, NULL, -1, "the original faulted replaying");
        if (t < tick && ret == 1)
            return ff_error_set(err, FF_E_RANGE, NULL, -1,
                                "clip %d returned 1 at call %zu, before call %zu", clip, t, tick);
    }
    uint32_t addr = GAME_FILE + g->skel_off + offset;
    emu_matrix *world = NULL;
    if (base) {
        /* The world call composes onto the matrices of this call's rebuild. */
        if (emu_game_build_matrices(g, &ret, fault) < 0)
            return ff_error_set(err, FF_E_FAULT, NULL, -1, "the original faulted replaying");
        world = malloc((bone_count(g) ? bone_count(g) : 1) * sizeof *world);
        if (!world) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    }
    if (emu_watch_writes(g->e, addr, size, err) < 0) {
        free(world);
        return -1;
    }
    int rc = base ? emu_game_world_matrices(g, base, world, bone_count(g), &ret, fault)
                  : emu_game_build_matrices(g, &ret, fault);
    emu_watch_result(g->e, w);
    free(world);
    if (emu_unwatch(g->e, err) < 0) return -1;
    if (rc < 0) ff_error_set(err, FF_E_FAULT, NULL, -1, "the original faulted while replaying");
    return rc;
}
