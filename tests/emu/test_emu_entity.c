/*
 * tests/emu/test_emu_entity.c: the battle entity (emu/engine/entity.h) on the
 * stand-in: QueueAnimation and AdvanceBy1 on a body and a weapon of
 * different clip lengths, and with a NULL weapon slot (values worked out by
 * hand from te.c's clip), the guest layout of the weapon slot, the speed
 * QueueAnimation decides from the entity's +2, status byte and sequence
 * pair (docs/pose.md section 5), a fault of the faulty variant with both files
 * restored, and refusals.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/entity.h"
#include "tests/emu/te.h"

static emu_game *open_game(emu_image *img)
{
    emu_game_opts o = {0, 100000, ts_engine()};
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &o, &g, &err), &err);
    return g;
}

/* A sequence pair whose bytes 0 and 2 agree, and one whose do not. */
static const uint8_t pair_ok[3] = {7, 1, 7}, pair_off[3] = {7, 1, 8};
static const emu_entity_speed te_slow = {0, 0x80, pair_ok}, te_haste = {0, 0x40, pair_ok};

static emu_entity_file file_of(const te_file *f)
{
    return (emu_entity_file){f->data, f->size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF};
}

/* Root x, bone 0 rotation x, AnimCmd frame and total of model m. */
static void expect_model(const emu_entity *e, emu_entity_model m, int root_x, int rot_x, int frame,
                         int total, const char *what)
{
    const uint8_t *sk = emu_entity_skeleton(e, m);
    const uint8_t *cmd = emu_entity_cmd(e, m);
    const char *name = m == EMU_ENTITY_BODY ? "body" : "weapon";
    cr_assert_not_null(sk, "%s: %s has no skeleton", what, name);
    cr_expect_eq(le_s16(sk + 8), root_x, "%s: %s root.x %d", what, name, le_s16(sk + 8));
    cr_expect_eq(le_s16(sk + 20), rot_x, "%s: %s bone[0].rot.x %d", what, name, le_s16(sk + 20));
    cr_expect_eq(cmd[6], frame, "%s: %s cmd.frame %d", what, name, cmd[6]);
    cr_expect_eq(cmd[7], total, "%s: %s cmd.total %d", what, name, cmd[7]);
}

/*
 * te.c's clip: F0 root.x 4, bone 0 rot.x 10; F1 root.x +5, rot.x -6. Body
 * clip 1 has 1 frame, the weapon's 2: after QueueAnimation both decoded
 * F0 (file rotations 100 zeroed first); AdvanceBy1 advances the weapon to
 * F0 + F1 (9, 4) while the body's own end call returns 1 and changes nothing.
 * Clip 2 the other way: the weapon (1 frame) ends first, the body goes on.
 */
Test(entity, body_and_weapon_each_by_their_own_length)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body, weapon;
    static const uint8_t bf[3] = {2, 1, 2}, wf[3] = {2, 2, 1};
    te_make_file(&body, 3, bf);
    te_make_file(&weapon, 3, wf);
    emu_entity_file b = file_of(&body), w = file_of(&weapon);
    TS_OK(emu_entity_load(e, &b, &w, NULL, &err), &err);
    cr_assert(emu_entity_armed(e));
    uint32_t ret = 7;
    emu_fault f;
    TE_CALL(emu_entity_queue(e, NULL, 0, 1, &ret, &f), &f);
    cr_expect_eq(ret, 0u, "QueueAnimation returns the body's StartClip result");
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 1, "clip 1 queue");
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 2, "clip 1 queue");
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    cr_expect_eq(ret, 1u, "the body's end call");
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 1, "clip 1 advance");
    expect_model(e, EMU_ENTITY_WEAPON, 9, 4, 2, 2, "clip 1 advance");

    emu_entity_reset(e);
    expect_model(e, EMU_ENTITY_WEAPON, 0, 100, 2, 2, "reset: the file's rotations");
    TE_CALL(emu_entity_queue(e, NULL, 0, 2, &ret, &f), &f);
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 2, "clip 2 queue");
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 1, "clip 2 queue");
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    cr_expect_eq(ret, 0u, "the body decoded F1; the weapon's own 1 is dropped");
    expect_model(e, EMU_ENTITY_BODY, 9, 4, 2, 2, "clip 2 advance");
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 1, "clip 2 advance");
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    cr_expect_eq(ret, 1u);
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/*
 * The frame level's file and an armed entity on one engine at once (as a
 * worker running both levels holds them): their areas coexist, and the
 * frame level's clip and the entity's do not touch each other's bytes.
 */
Test(entity, beside_the_frame_level_file)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    te_file f;
    te_make_file(&f, 1, NULL);
    ff_error err;
    TS_OK(emu_game_load_file(g, f.data, f.size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err), &err);
    emu_entity *e;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    emu_entity_file b = file_of(&f);
    TS_OK(emu_entity_load(e, &b, &b, NULL, &err), &err);
    uint32_t ret;
    emu_fault fault;
    TE_CALL(emu_entity_queue(e, NULL, 0, 0, &ret, &fault), &fault);
    cr_expect_eq(le_s16(emu_game_skeleton(g) + 20), 100, "the frame level's skeleton untouched");
    TE_CALL(emu_game_start_clip(g, 0, 0, &ret, &fault), &fault);
    TE_CALL(emu_game_read_animation(g, &ret, &fault), &fault);
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 2, "after the frame level's calls");
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 2, "after the frame level's calls");
    cr_expect_eq(le_s16(emu_game_skeleton(g) + 8), 9, "the frame level's clip at F0 + F1");
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/* SLOW on both AnimCmds: totals 2n - 1, the half-step bit set after tick 0. */
Test(entity, mode_flags_on_both_models)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body, weapon;
    static const uint8_t wf[2] = {2, 1};
    te_make_file(&body, 1, NULL);
    te_make_file(&weapon, 2, wf);
    emu_entity_file b = file_of(&body), w = file_of(&weapon);
    TS_OK(emu_entity_load(e, &b, &w, NULL, &err), &err);
    uint32_t ret;
    emu_fault f;
    TE_CALL(emu_entity_queue(e, &te_slow, 0x01, 0, &ret, &f), &f);
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 3, "slow queue");
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 3, "slow queue");
    cr_expect_eq(emu_entity_cmd(e, EMU_ENTITY_BODY)[1], 0x05);
    cr_expect_eq(emu_entity_cmd(e, EMU_ENTITY_WEAPON)[1], 0x05);
    /* Half step: F1 halved (root.x 5/2 = 2, rot.x -6/2 = -3) on both. */
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    expect_model(e, EMU_ENTITY_BODY, 6, 7, 2, 3, "slow advance");
    expect_model(e, EMU_ENTITY_WEAPON, 6, 7, 2, 3, "slow advance");
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/* A NULL weapon slot: QueueAnimation and AdvanceBy1 drive the body alone. */
Test(entity, no_weapon_slot)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body);
    TS_OK(emu_entity_load(e, &b, NULL, NULL, &err), &err);
    cr_assert(!emu_entity_armed(e));
    cr_assert_null(emu_entity_skeleton(e, EMU_ENTITY_WEAPON));
    cr_assert_null(emu_entity_slot(e));
    uint32_t ret;
    emu_fault f;
    TE_CALL(emu_entity_queue(e, NULL, 0, 0, &ret, &f), &f);
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 2, "queue");
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    cr_expect_eq(ret, 0u);
    expect_model(e, EMU_ENTITY_BODY, 9, 4, 2, 2, "advance");
    TE_CALL(emu_entity_advance(e, &ret, &f), &f);
    cr_expect_eq(ret, 1u);
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/* The weapon slot's 68 bytes: AnimCmd at +12, attach fields at +20 and +28. */
Test(entity, weapon_slot_layout)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body);
    emu_attach att = {{300, -2048, 4000}, {-7, 120, 2500}};
    TS_OK(emu_entity_load(e, &b, &b, &att, &err), &err);
    const uint8_t *slot = emu_entity_slot(e);
    cr_assert_not_null(slot);
    static const int16_t want[6] = {300, -2048, 4000, -7, 120, 2500};
    for (int k = 0; k < 6; k++)
        cr_expect_eq(le_s16(slot + 20 + 2 * k + (k >= 3 ? 2 : 0)), want[k], "attach field %d", k);
    for (int k = 36; k < 68; k++)
        cr_expect_eq(slot[k], 0, "attach matrix byte %d", k);
    /* The slot's AnimCmd is the weapon's: QueueAnimation writes it there. */
    uint32_t ret;
    emu_fault f;
    TE_CALL(emu_entity_queue(e, &te_haste, 0x02, 0, &ret, &f), &f);
    cr_expect_eq(emu_entity_cmd(e, EMU_ENTITY_WEAPON), slot + 12);
    cr_expect_eq(slot[12 + 6], 2, "FAST decoded both frames of the weapon");
    cr_expect_eq(le_s16(slot + 20), 300, "the routines leave the attach fields alone");
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/*
 * The faulty variant's Battle_ReadAnimation reads 0xDEAD0000 on clip 2:
 * QueueAnimation faults in the weapon's StartClip; both files come back as
 * loaded and clip 0 then plays.
 */
Test(entity, fault_restores_both_files)
{
    emu_image *img = te_standin_image("standin_faulty.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    static const uint8_t frames[3] = {2, 2, 2};
    te_make_file(&body, 3, frames);
    emu_entity_file b = file_of(&body);
    TS_OK(emu_entity_load(e, &b, &b, NULL, &err), &err);
    uint32_t ret;
    emu_fault f;
    cr_assert_eq(emu_entity_queue(e, NULL, 0, 2, &ret, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_READ_UNMAPPED, "%s", emu_fault_name(f.kind));
    cr_assert_eq(f.addr, 0xDEAD0000u);
    cr_assert_eq(f.routine, 0x509520u, "QueueAnimation was the routine called");
    for (int m = 0; m < 2; m++)
        cr_expect_eq(le_s16(emu_entity_skeleton(e, (emu_entity_model)m) + 20), 100,
                     "model %d restored", m);
    TE_CALL(emu_entity_queue(e, NULL, 0, 0, &ret, &f), &f);
    expect_model(e, EMU_ENTITY_BODY, 4, 10, 1, 2, "clip 0 after the fault");
    expect_model(e, EMU_ENTITY_WEAPON, 4, 10, 1, 2, "clip 0 after the fault");
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

Test(entity, refusals)
{
    emu_profile p;
    te_standin_profile(&p);
    p.engine[PROFILE_R_ADVANCE_BY1] = -1;
    emu_image *img;
    ff_error err;
    TS_OK(emu_image_load(te_standin_path("standin.exe"), &p, &img, NULL, 0, &err), &err);
    emu_game *g = open_game(img);
    emu_entity *e = NULL;
    cr_assert_eq(emu_entity_open(g, &e, &err), -1);
    cr_assert_eq(err.kind, FF_E_EXE);
    cr_assert(strstr(err.reason, "AdvanceBy1") != NULL, "%s", err.reason);
    emu_game_close(g);
    emu_image_free(img);

    img = te_standin_image("standin.exe");
    g = open_game(img);
    TS_OK(emu_entity_open(g, &e, &err), &err);
    uint32_t ret;
    emu_fault f;
    cr_assert_eq(emu_entity_advance(e, &ret, &f), -1, "nothing loaded");
    cr_assert(strstr(f.detail, "no entity loaded") != NULL, "%s", f.detail);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body), w = file_of(&body);
    TS_OK(emu_entity_load(e, &b, NULL, NULL, &err), &err);
    w.data = body.data;
    body.data[TE_SKEL_OFF] = 200; /* the weapon's 200 bones cannot fit */
    cr_assert_eq(emu_entity_load(e, &b, &w, NULL, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert_str_eq(err.file, "body", "the body is the same bytes and fails first");
    body.data[TE_SKEL_OFF] = 2;
    w.size = 0x4000001;
    cr_assert_eq(emu_entity_load(e, &b, &w, NULL, &err), -1);
    cr_assert_str_eq(err.file, "weapon");
    cr_assert_eq(emu_entity_queue(e, NULL, 0, 0, &ret, &f), -1, "a refused load leaves nothing");
    /* The same areas take the next pair. */
    w.size = body.size;
    for (int i = 0; i < 3; i++) {
        TS_OK(emu_entity_load(e, &b, &w, NULL, &err), &err);
        TE_CALL(emu_entity_queue(e, NULL, 0, 0, &ret, &f), &f);
    }
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/*
 * QueueAnimation's speed, as vectors: the entity's +2, status byte and
 * pair, the flags preset on both AnimCmds, and the speed bits (0-1) each
 * AnimCmd holds after the call. SLOW and FAST preset are cleared; a status
 * sets SLOW (0x80, Slow wins over Haste) or FAST (0x40) only when the
 * pair's bytes 0 and 2 agree and +2 bit 3 is clear; the weapon's bits are
 * the body's whatever it held.
 */
typedef struct speed_vec {
    uint8_t byte2, status;
    const uint8_t *pair;
    uint8_t preset, want;
} speed_vec;

static const speed_vec speed_vecs[] = {
    {0, 0x00, pair_ok, 0x00, 0x00},  {0, 0x00, pair_ok, 0x01, 0x00},
    {0, 0x00, pair_ok, 0x02, 0x00},  {0, 0x00, NULL, 0x03, 0x00},
    {0, 0x80, pair_ok, 0x00, 0x01},  {0, 0x40, pair_ok, 0x00, 0x02},
    {0, 0xC0, pair_ok, 0x00, 0x01},  {0, 0x40, pair_ok, 0x01, 0x02},
    {0, 0x80, pair_off, 0x02, 0x00}, {0x08, 0x80, pair_ok, 0x00, 0x00},
    {0x08, 0x40, pair_ok, 0x02, 0x00}, {0xF7, 0x40, pair_ok, 0x00, 0x02},
    {0, 0x3F, NULL, 0x00, 0x00},     {0, 0x41, pair_ok, 0x00, 0x02},
};

Test(entity, speed_from_status_pair_and_byte2)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body);
    TS_OK(emu_entity_load(e, &b, &b, NULL, &err), &err);
    for (size_t i = 0; i < sizeof speed_vecs / sizeof speed_vecs[0]; i++) {
        const speed_vec *v = &speed_vecs[i];
        emu_entity_speed sp = {v->byte2, v->status, v->pair};
        uint32_t ret;
        emu_fault f;
        emu_entity_reset(e);
        TE_CALL(emu_entity_queue(e, &sp, v->preset, 0, &ret, &f), &f);
        for (int m = 0; m < 2; m++)
            cr_expect_eq(emu_entity_cmd(e, (emu_entity_model)m)[1] & 3, v->want,
                         "vector %zu: %s flags 0x%02x, expected speed bits %d", i,
                         m ? "weapon" : "body", emu_entity_cmd(e, (emu_entity_model)m)[1], v->want);
    }
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/* A status with a NULL pair pointer: the routine reads address 0, a fault. */
Test(entity, status_reads_the_pair_with_no_null_check)
{
    emu_image *img = te_standin_image("standin.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body);
    TS_OK(emu_entity_load(e, &b, NULL, NULL, &err), &err);
    emu_entity_speed sp = {0, 0x40, NULL};
    uint32_t ret;
    emu_fault f;
    cr_assert_eq(emu_entity_queue(e, &sp, 0, 0, &ret, &f), -1);
    cr_assert_eq(f.kind, EMU_FAULT_READ_UNMAPPED, "%s", emu_fault_name(f.kind));
    cr_assert_lt(f.addr, 4u, "read at %#x", f.addr);
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}

/* Mutant m reads Haste as Slow: SLOW on both models where the game sets FAST. */
Test(entity, mutant_m_reads_haste_as_slow)
{
    emu_image *img = te_standin_image("standin_mut_m.exe");
    emu_game *g = open_game(img);
    emu_entity *e;
    ff_error err;
    TS_OK(emu_entity_open(g, &e, &err), &err);
    te_file body;
    te_make_file(&body, 1, NULL);
    emu_entity_file b = file_of(&body);
    TS_OK(emu_entity_load(e, &b, &b, NULL, &err), &err);
    uint32_t ret;
    emu_fault f;
    TE_CALL(emu_entity_queue(e, &te_haste, 0x02, 0, &ret, &f), &f);
    for (int m = 0; m < 2; m++)
        cr_expect_eq(emu_entity_cmd(e, (emu_entity_model)m)[1] & 3, 0x01, "model %d", m);
    emu_entity_reset(e);
    TE_CALL(emu_entity_queue(e, &te_slow, 0x01, 0, &ret, &f), &f);
    for (int m = 0; m < 2; m++)
        cr_expect_eq(emu_entity_cmd(e, (emu_entity_model)m)[1] & 3, 0x01, "model %d", m);
    emu_entity_close(e);
    emu_game_close(g);
    emu_image_free(img);
}
