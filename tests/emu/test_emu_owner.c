/*
 * tests/emu/test_emu_owner.c: the routine an instruction belongs to
 * (emu/image/owner.h), by extent. A profile without the matrix helpers' rows
 * (as the game's profile has none) on standin_x87.exe, whose
 * ComputeBonesWorldMatrices calls Fx_Compose, which calls Fx_ComposeTo:
 * an instruction of those helpers is "a routine at ENTRY called from
 * ComputeBonesWorldMatrices", never ComputeBonesWorldMatrices plus the
 * distance to the helper (the nearest profile entry below it); the write
 * watch names the world matrix store that way. Addresses come from the
 * stand-in's own profile rows.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "emu/image/owner.h"
#include "tests/emu/te.h"

/* The stand-in profile without its matrix helpers' rows (every Fx_ routine). */
static void profile_without_helpers(emu_profile *p)
{
    te_standin_profile(p);
    unsigned n = 0;
    for (unsigned i = 0; i < p->nroutines; i++)
        if (strncmp(p->routines[i].name, "Fx_", 3) != 0) p->routines[n++] = p->routines[i];
    p->nroutines = n;
    for (int id = 0; id < PROFILE_R__COUNT; id++) {
        const profile_routine *r = profile_find_routine(p, profile_routine_name(id));
        p->engine[id] = r ? (int)(r - p->routines) : -1;
    }
}

static emu_image *x87_without_helpers(emu_profile *p)
{
    profile_without_helpers(p);
    emu_image *img;
    ff_error err;
    char warn[512];
    TS_OK(emu_image_load(te_standin_path("standin_x87.exe"), p, &img, warn, sizeof warn, &err),
          &err);
    return img;
}

static emu_owner owner(const emu_image *img, uint32_t addr)
{
    emu_owner o;
    ff_error err;
    TS_OK(emu_owner_of(emu_image_pe(img), emu_image_layout(img), emu_image_profile(img), addr, &o,
                       &err),
          &err);
    return o;
}

Test(owner, helpers_outside_the_profile_are_named_by_their_caller)
{
    emu_profile full;
    te_standin_profile(&full);
    uint32_t world = te_routine(&full, "ComputeBonesWorldMatrices");
    uint32_t compose = te_routine(&full, "Fx_Compose");
    uint32_t compose_to = te_routine(&full, "Fx_ComposeTo");
    emu_profile p;
    emu_image *img = x87_without_helpers(&p);

    emu_owner o = owner(img, world + 1);
    cr_assert(o.known && o.in_profile, "%s", o.routine);
    cr_assert_str_eq(o.routine, "ComputeBonesWorldMatrices");
    cr_assert_eq(o.offset, 1u);

    /* Fx_Compose: called by BuildBoneMatrices (the plain path's children,
     * as the game's) and ComputeBonesWorldMatrices, far above its end: named
     * by its first caller in the profile's order. */
    o = owner(img, compose + 2);
    cr_assert(o.known && !o.in_profile, "%s", o.routine);
    char want[96];
    snprintf(want, sizeof want, "a routine at 0x%X called from BuildBoneMatrices", compose);
    cr_assert_str_eq(o.routine, want);
    cr_assert_eq(o.entry, compose);
    cr_assert_eq(o.offset, 2u);

    /* Fx_ComposeTo: one call further. */
    o = owner(img, compose_to);
    cr_assert(o.known && !o.in_profile, "%s", o.routine);
    snprintf(want, sizeof want, "a routine at 0x%X called from 0x%X (from BuildBoneMatrices)",
             compose_to, compose);
    cr_assert_str_eq(o.routine, want);
    cr_assert_eq(o.offset, 0u);

    /* A table is no routine's. */
    o = owner(img, full.tables[0].address);
    cr_assert(!o.known && !o.routine[0], "%s", o.routine);
    emu_image_free(img);
}

/* With the full profile the helper is a profile routine of its own. */
Test(owner, profile_routines_by_extent)
{
    emu_image *img = te_standin_image("standin_x87.exe");
    const emu_profile *p = emu_image_profile(img);
    uint32_t compose = te_routine(p, "Fx_Compose");
    emu_owner o = owner(img, compose + 2);
    cr_assert(o.known && o.in_profile);
    cr_assert_str_eq(o.routine, "Fx_Compose");
    cr_assert_eq(o.offset, 2u);
    emu_image_free(img);
}

/*
 * The write watch on a world matrix cell (bone 0's m[0][0]) under the
 * identity base: the last store is Fx_Compose's copy to the bone, named by
 * its extent.
 */
Test(owner, the_writer_of_a_world_matrix_is_the_helper)
{
    emu_profile full;
    te_standin_profile(&full);
    uint32_t compose = te_routine(&full, "Fx_Compose");
    emu_profile p;
    emu_image *img = x87_without_helpers(&p);
    emu_game_opts opts = {0, 0, ts_unicorn()}; /* a write watch: Unicorn only (EMU_CAP_WATCH) */
    emu_game *g;
    ff_error err;
    TS_OK(emu_game_open(img, &opts, &g, &err), &err);
    te_file f;
    te_make_file(&f, 1, NULL);
    TS_OK(emu_game_load_file(g, f.data, f.size, TE_SKEL_OFF, TE_GEOM_OFF, TE_ANIM_OFF, &err), &err);
    const emu_matrix id = {{{4096, 0, 0}, {0, 4096, 0}, {0, 0, 4096}}, 0, {0, 0, 0}};
    emu_writer w;
    emu_fault fault;
    /* Bone 0's matrix: 16-byte header, matrix at +0x10 of the bone. */
    TS_OK(emu_game_find_pose_writer(g, 0, 0, 0, &id, 16 + 0x10, 2, &w, &fault, &err), &err);
    cr_assert(w.writes > 0, "nothing wrote the cell");
    cr_assert(!w.routine_in_profile, "%s", w.routine);
    char want[96];
    snprintf(want, sizeof want, "a routine at 0x%X called from BuildBoneMatrices", compose);
    cr_assert_str_eq(w.routine, want);
    cr_assert_eq(w.routine_offset, w.eip - compose);
    cr_assert_lt(w.routine_offset, 0x200u, "an offset within the helper");
    emu_game_close(g);
    emu_image_free(img);
}
