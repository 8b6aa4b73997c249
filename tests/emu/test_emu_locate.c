/*
 * tests/emu/test_emu_locate.c: the locator on the stand-in linked as other
 * builds (emu/standin/relink.cmake): standin_relinked.exe (every routine
 * and table moved, in another order, other padding, the cursor in a NOLOAD
 * .bss) must be located whole, at the addresses its own symbol table gives
 * (standin_relinked.sym, written by nm: not by the locator), with its
 * patterns, and without them by the routines' sizes and the callees' call
 * order alone (no --from); the two allocator routines of the same shape are
 * told apart by call order (Battle_ReadAnimation calls Field_Alloc first and
 * Field_Free last) or by size, and with neither they are refused as found
 * twice, naming both; with patterns learned from standin.exe they are told
 * apart again; standin_nobbm.exe (BuildBoneMatrices removed) must be
 * refused naming BuildBoneMatrices. The located profile reads back,
 * identifies the build as known and passes the structural check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/profiles/identify.h"
#include "emu/image/locate.h"
#include "emu/profiles/profile_builtin.h"
#include "tests/emu/te.h"

/* The address of name in a .sym file ("name 0xADDRESS" lines); fails when absent. */
static uint32_t sym(const char *file, const char *name)
{
    FILE *f = fopen(te_standin_path(file), "r");
    cr_assert(f, "cannot open %s", file);
    char line[256], n[200];
    unsigned a;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%199s 0x%x", n, &a) == 2 && strcmp(n, name) == 0) {
            fclose(f);
            return a;
        }
    fclose(f);
    cr_assert_fail("%s is not in %s", name, file);
    return 0;
}

/* Profile table and global names, and the stand-in's symbols for them. */
static const struct {
    const char *item, *symbol;
} data_syms[] = {{"position_widths", "standin_position_widths"},
                 {"rotation_widths", "standin_rotation_widths"},
                 {"field_alloc_cursor", "field_alloc_cursor"}};

static locate_result *locate(const char *exe, const emu_profile *p)
{
    size_t size;
    uint8_t *data = ts_read_all(te_standin_path(exe), &size);
    locate_result *r = malloc(sizeof *r);
    ff_error err;
    locate_opts o = {exe, "test", "ff8diff test", NULL};
    TS_OK(locate_buffer(data, size, p, &o, r, &err), &err);
    free(data);
    return r;
}

static const locate_item *item(const locate_item *list, unsigned n, const char *name)
{
    for (unsigned i = 0; i < n; i++)
        if (strcmp(list[i].name, name) == 0) return &list[i];
    cr_assert_fail("no item %s", name);
    return NULL;
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

/* p without the evidence named: patterns, sizes, call order (callees sorted by name). */
static void strip(emu_profile *p, int patterns, int sizes, int order)
{
    for (unsigned i = 0; i < p->nroutines; i++) {
        profile_routine *r = &p->routines[i];
        if (patterns) r->npattern = 0;
        if (sizes) r->size = r->insns = 0;
        if (order) qsort(r->callees, r->ncallees, sizeof r->callees[0], by_name);
    }
}

/* Every engine routine of r found where nm says. */
static void assert_at_symbols(const emu_profile *p, const locate_result *r, const char *symfile)
{
    for (unsigned i = 0; i < r->nroutines; i++) {
        const locate_item *it = &r->routines[i];
        if (p->routines[i].test) continue;
        uint32_t want = sym(symfile, it->name);
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", it->name, it->why);
        cr_assert_eq(it->address, want, "%s at 0x%X, nm says 0x%X (%s)", it->name, it->address,
                     want, it->how);
    }
}

Test(locate, the_relinked_standin_is_located_whole)
{
    emu_profile p;
    te_standin_profile(&p);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    unsigned engine = 0;
    for (unsigned i = 0; i < r->nroutines; i++) {
        const locate_item *it = &r->routines[i];
        if (p.routines[i].test) {
            cr_assert_eq(it->status, LOCATE_SKIPPED, "%s", it->name);
            continue;
        }
        engine++;
        uint32_t want = sym("standin_relinked.sym", it->name);
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", it->name, it->why);
        cr_assert_eq(it->address, want, "%s at 0x%X, nm says 0x%X", it->name, it->address, want);
        cr_assert_eq(it->ncandidates, 1);
        cr_assert_eq(it->pattern, 100, "%s: same code, same pattern", it->name);
        cr_assert(it->how[0], "%s: no evidence recorded", it->name);
    }
    /* Every routine the harness calls is among them (the test is not vacuous). */
    for (int id = 0; id < PROFILE_R__COUNT; id++) {
        cr_assert_geq(p.engine[id], 0, "the profile lacks %s", profile_routine_name(id));
        cr_assert_eq(r->routines[p.engine[id]].status, LOCATE_FOUND);
    }
    cr_assert_geq(engine, PROFILE_R__COUNT);
    for (size_t k = 0; k < sizeof data_syms / sizeof data_syms[0]; k++) {
        const locate_item *it = k < 2 ? item(r->tables, r->ntables, data_syms[k].item)
                                      : item(r->globals, r->nglobals, data_syms[k].item);
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", it->name, it->why);
        cr_assert_eq(it->address, sym("standin_relinked.sym", data_syms[k].symbol), "%s", it->name);
    }
    /* The tables are the anchors: each read by its reader. */
    cr_assert(strstr(item(r->routines, r->nroutines, "ReadPositionType")->how,
                     "reads table position_widths"));
    free(r);
}

/* The relinked build really is another layout: the test above means something. */
Test(locate, the_relinked_standin_moves_everything)
{
    static const char *const names[] = {"Field_Alloc",          "Field_Free", "BuildBoneMatrices",
                                        "Battle_ReadAnimation", "bitReader",  "ReadPositionType",
                                        "ReadRotationType",     "StartClip",  "QueueAnimation"};
    int64_t first_delta = 0;
    int deltas_differ = 0, order_changed = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        int64_t d = (int64_t)sym("standin_relinked.sym", names[i]) - sym("standin.sym", names[i]);
        cr_assert_neq(d, 0, "%s did not move", names[i]);
        if (i == 0) first_delta = d;
        deltas_differ |= d != first_delta;
        for (size_t j = 0; j < i; j++)
            order_changed |=
                (sym("standin.sym", names[j]) < sym("standin.sym", names[i])) !=
                (sym("standin_relinked.sym", names[j]) < sym("standin_relinked.sym", names[i]));
    }
    cr_assert(deltas_differ && order_changed);
    int64_t data_delta = (int64_t)sym("standin_relinked.sym", "standin_position_widths") -
                         sym("standin.sym", "standin_position_widths");
    cr_assert_neq(data_delta, 0);
    cr_assert_neq(data_delta, first_delta);
}

Test(locate, the_located_profile_reads_back_and_holds)
{
    emu_profile p;
    te_standin_profile(&p);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    char *text = profile_to_json(&r->located);
    cr_assert(text);
    emu_profile *back = malloc(sizeof *back);
    ff_error err;
    TS_OK(profile_parse(text, strlen(text), "located.json", back, &err), &err);
    cr_assert(back->located);
    cr_assert_str_eq(back->located_from.from_profile, "standin");
    cr_assert_str_eq(back->located_from.executable, "standin_relinked.exe");
    cr_assert_eq(back->routines[back->engine[PROFILE_R_READ_ANIMATION]].address,
                 sym("standin_relinked.sym", "Battle_ReadAnimation"));
    cr_assert_eq(back->globals[back->field_alloc_cursor].address,
                 sym("standin_relinked.sym", "field_alloc_cursor"));
    size_t size;
    uint8_t *data = ts_read_all(te_standin_path("standin_relinked.exe"), &size);
    identify_result *id = malloc(sizeof *id);
    TS_OK(identify_buffer(data, size, back, 1, id, &err), &err);
    cr_assert_eq(id->matches[0].verdict, IDENTIFY_KNOWN, "%s", id->matches[0].reason);
    identify_structure *st = malloc(sizeof *st);
    TS_OK(identify_routines(data, size, back, st, &err), &err);
    cr_assert_eq(st->nproblems, 0, "the located callees are the build's direct calls");
    free(st);
    free(id);
    free(data);
    free(back);
    free(text);
    free(r);
}

/*
 * No --from, no pattern: the routines' sizes and the call order of their callees locate
 * the relinked build whole (a routine no edge reaches, such as the lean stand-in's
 * ComputeBonesWorldMatrices, by its size among every routine).
 */
Test(locate, without_patterns_sizes_and_call_order_locate_the_relinked_standin)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 0, 0);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    assert_at_symbols(&p, r, "standin_relinked.sym");
    /* The routines no call edge reaches (no callee, no caller in the profile, no table) are
     * found by their size, searched among every routine. */
    for (unsigned i = 0; i < p.nroutines; i++) {
        const profile_routine *rt = &p.routines[i];
        int reached = rt->ncallees > 0;
        for (unsigned q = 0; q < p.nroutines && !reached; q++)
            for (unsigned k = 0; k < p.routines[q].ncallees && !p.routines[q].test; k++)
                reached |= strcmp(p.routines[q].callees[k], rt->name) == 0;
        for (unsigned t = 0; t < p.ntables && !reached; t++)
            for (unsigned k = 0; k < p.tables[t].nreaders; k++)
                reached |= strcmp(p.tables[t].read_by[k], rt->name) == 0;
        if (reached || rt->test) continue;
        const locate_item *it = &r->routines[i];
        cr_assert(strstr(it->how, "instructions, searched among every routine"), "%s: %s",
                  it->name, it->how);
    }
    free(r);
}

/* Call order alone (no pattern, no size) tells the allocator twins apart. */
Test(locate, call_order_tells_routines_of_one_shape_apart)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 1, 0);
    const profile_routine *bra = profile_find_routine(&p, "Battle_ReadAnimation");
    cr_assert_str_eq(bra->callees[0], "Field_Alloc", "learned in call order");
    cr_assert_str_eq(bra->callees[bra->ncallees - 1], "Field_Free", "learned in call order");
    locate_result *r = locate("standin_relinked.exe", &p);
    const char *names[] = {"Field_Alloc", "Field_Free"};
    const char *how[] = {"called first by", "called last by"};
    for (int k = 0; k < 2; k++) {
        const locate_item *it = item(r->routines, r->nroutines, names[k]);
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", names[k], it->why);
        cr_assert_eq(it->address, sym("standin_relinked.sym", names[k]), "%s", names[k]);
        cr_assert(strstr(it->how, how[k]), "%s: %s", names[k], it->how);
    }
    free(r);
}

/* Sizes rank candidates: the twins told apart by size when call order says nothing. */
Test(locate, sizes_rank_candidates_and_never_rule_them_all_out)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 0, 1);
    locate_result *r = locate("standin_relinked.exe", &p);
    const locate_item *fa = item(r->routines, r->nroutines, "Field_Alloc");
    cr_assert_eq(fa->status, LOCATE_FOUND, "%s", fa->why);
    cr_assert_eq(fa->address, sym("standin_relinked.sym", "Field_Alloc"));
    cr_assert(strstr(fa->how, "instructions"), "%s", fa->how);
    free(r);
    /* A size no candidate has is the profile's claim, not this build's: both stay. */
    te_standin_profile(&p);
    strip(&p, 1, 1, 1);
    profile_routine *fr = (profile_routine *)profile_find_routine(&p, "Field_Alloc");
    fr->size = 0x7777;
    fr->insns = 999;
    r = locate("standin_relinked.exe", &p);
    fa = item(r->routines, r->nroutines, "Field_Alloc");
    cr_assert_eq(fa->status, LOCATE_AMBIGUOUS, "%s", fa->why);
    cr_assert_eq(fa->ncandidates, 2);
    free(r);
}

/* With no pattern, no size and callees in no particular order, the twins are refused. */
Test(locate, twins_without_patterns_sizes_or_order_are_refused_naming_both)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 1, 1);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(!r->complete, "located on a guess");
    uint32_t fa = sym("standin_relinked.sym", "Field_Alloc");
    uint32_t ff = sym("standin_relinked.sym", "Field_Free");
    const char *names[] = {"Field_Alloc", "Field_Free"};
    for (int k = 0; k < 2; k++) {
        const locate_item *it = item(r->routines, r->nroutines, names[k]);
        cr_assert_eq(it->status, LOCATE_AMBIGUOUS, "%s", names[k]);
        cr_assert_eq(it->ncandidates, 2);
        uint32_t lo = fa < ff ? fa : ff, hi = fa < ff ? ff : fa;
        cr_assert(it->candidates[0] == lo && it->candidates[1] == hi, "%s: 0x%X 0x%X", names[k],
                  it->candidates[0], it->candidates[1]);
    }
    char want[160];
    snprintf(want, sizeof want, "Field_Alloc found more than once (2 candidates: 0x%X, 0x%X)",
             fa < ff ? fa : ff, fa < ff ? ff : fa);
    cr_assert(strstr(r->refusal, want), "%s", r->refusal);
    /* Structure alone still finds what it can tell apart. */
    const locate_item *bra = item(r->routines, r->nroutines, "Battle_ReadAnimation");
    cr_assert_eq(bra->status, LOCATE_FOUND);
    cr_assert_eq(bra->address, sym("standin_relinked.sym", "Battle_ReadAnimation"));
    free(r);
}

Test(locate, patterns_learned_from_a_known_build)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 1, 1);
    size_t size;
    uint8_t *known = ts_read_all(te_standin_path("standin.exe"), &size);
    ff_error err;
    TS_OK(locate_learn(known, size, &p, &err), &err);
    free(known);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    const locate_item *fa = item(r->routines, r->nroutines, "Field_Alloc");
    cr_assert_eq(fa->address, sym("standin_relinked.sym", "Field_Alloc"));
    cr_assert(strstr(fa->how, "pattern"), "%s", fa->how);
    free(r);
}

Test(locate, a_build_without_bone_matrices_is_refused_naming_it)
{
    emu_profile p;
    te_standin_profile(&p);
    locate_result *r = locate("standin_nobbm.exe", &p);
    cr_assert(!r->complete, "located a build that has no BuildBoneMatrices");
    const locate_item *bbm = item(r->routines, r->nroutines, "BuildBoneMatrices");
    cr_assert_eq(bbm->status, LOCATE_NOT_FOUND);
    char stub[16];
    snprintf(stub, sizeof stub, "0x%X", sym("standin_nobbm.sym", "BuildBoneMatrices"));
    cr_assert(strstr(bbm->why, stub), "the routine in its place is named: %s", bbm->why);
    char lists[48];
    snprintf(lists, sizeof lists, "the profile lists %u",
             profile_find_routine(&p, "BuildBoneMatrices")->ncallees);
    cr_assert(strstr(bbm->why, lists), "%s", bbm->why);
    cr_assert(strstr(r->refusal, "BuildBoneMatrices not found"), "%s", r->refusal);
    cr_assert(!r->located.nroutines, "no profile is built from a refused build");
    free(r);
}

Test(locate, the_standin_itself_is_located_where_its_profile_says)
{
    emu_profile p;
    te_standin_profile(&p);
    locate_result *r = locate("standin.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    for (unsigned i = 0; i < r->nroutines; i++)
        if (!p.routines[i].test)
            cr_assert_eq(r->routines[i].address, p.routines[i].address, "%s", p.routines[i].name);
    free(r);
}

Test(locate, what_is_not_a_pe_is_an_error)
{
    emu_profile p;
    te_standin_profile(&p);
    static const uint8_t junk[] = "MZ not a portable executable at all, just text";
    locate_result *r = malloc(sizeof *r);
    ff_error err;
    cr_assert_eq(locate_buffer(junk, sizeof junk, &p, NULL, r, &err), -1);
    cr_assert_eq(err.kind, FF_E_EXE);
    cr_assert(strstr(err.reason, "not a PE32"), "%s", err.reason);
    free(r);
}

/*
 * Damaged code never crashes the locator: bytes of the relinked build's
 * code changed at random (seeded), each copy either located or refused
 * with a reason, and every item accounted for once.
 */
Test(locate, damaged_code_is_refused_or_located_never_a_crash)
{
    emu_profile p;
    te_standin_profile(&p);
    size_t size;
    uint8_t *data = ts_read_all(te_standin_path("standin_relinked.exe"), &size);
    uint32_t h = le_u32(data + 0x3C);
    unsigned nsec = le_u16(data + h + 6), opt = le_u16(data + h + 20);
    const uint8_t *code = NULL;
    for (unsigned i = 0; i < nsec; i++)
        if (memcmp(data + h + 24 + opt + 40 * i, ".code", 6) == 0)
            code = data + h + 24 + opt + 40 * i;
    cr_assert(code, "no .code section");
    uint32_t off = le_u32(code + 20), len = le_u32(code + 8);
    locate_result *r = malloc(sizeof *r);
    uint8_t *copy = malloc(size);
    uint32_t seed = 2024;
    for (int round = 0; round < 30; round++) {
        memcpy(copy, data, size);
        for (int k = 0; k < 12; k++) {
            seed = seed * 1103515245u + 12345u;
            uint32_t at = off + (seed >> 8) % len;
            seed = seed * 1103515245u + 12345u;
            copy[at] = (uint8_t)(seed >> 16);
        }
        ff_error err;
        cr_assert_eq(locate_buffer(copy, size, &p, NULL, r, &err), 0, "round %d: %s", round,
                     err.reason);
        cr_assert_eq(r->complete, !r->refusal[0], "round %d", round);
        cr_assert_eq(r->nfound + r->nnot_found + r->nambiguous + r->nskipped + r->nhelpers_left,
                     r->nroutines + r->ntables + r->nglobals, "round %d", round);
    }
    free(copy);
    free(r);
    free(data);
}

/*
 * standin_calls_relinked.exe: Battle_ReadAnimation makes one direct call
 * more than the stand-in's profile lists (Anim_Halve), BuildBoneMatrices
 * one fewer (no Fx_BoneRotation), and everything is laid out elsewhere.
 * The profile's call structure disagrees; the rest of the evidence
 * (tables, the edges that hold, patterns, call order) still locates every
 * routine where nm says, and the disagreement is recorded. The one
 * exception is Fx_BoneRotation: its only caller's edge is gone and Fx_RotXYZ
 * has its shape (both patterns 100%), so nothing tells the two apart; as a
 * pose helper it is left out of the located profile, refusing nothing.
 */
static void expect_all_at_their_symbols(const locate_result *r, const emu_profile *p)
{
    cr_assert(r->complete, "refused: %s", r->refusal);
    for (unsigned i = 0; i < r->nroutines; i++) {
        const locate_item *it = &r->routines[i];
        if (p->routines[i].test) continue;
        if (strcmp(it->name, "Fx_BoneRotation") == 0 && it->status != LOCATE_FOUND) {
            cr_assert_geq(p->routines[i].helper, 0, "a pose helper");
            cr_assert_geq(r->nhelpers_left, 1u, "left out of the located profile");
            cr_assert(strstr(it->why, "a pose helper"), "%s", it->why);
            continue;
        }
        uint32_t want = sym("standin_calls_relinked.sym", it->name);
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", it->name, it->why);
        cr_assert_eq(it->address, want, "%s at 0x%X, nm says 0x%X", it->name, it->address, want);
    }
}

Test(locate, another_call_structure_lowers_rank_and_is_recorded)
{
    emu_profile p;
    te_standin_profile(&p);
    locate_result *r = locate("standin_calls_relinked.exe", &p);
    expect_all_at_their_symbols(r, &p);
    const locate_item *bra = item(r->routines, r->nroutines, "Battle_ReadAnimation");
    cr_assert(strstr(bra->disagreed, "makes 8 distinct direct calls, the profile lists 7"), "%s",
              bra->disagreed);
    const locate_item *bbm = item(r->routines, r->nroutines, "BuildBoneMatrices");
    cr_assert(strstr(bbm->disagreed, "the profile lists 4"), "%s", bbm->disagreed);
    /* Weighed by pattern: the candidate kept is the closest, clearly. */
    cr_assert_eq(bbm->best, bbm->address);
    cr_assert_geq(bbm->best_score, LOCATE_CLEAR_SCORE, "%d", bbm->best_score);
    cr_assert_geq(bbm->best_score - bbm->next_score, LOCATE_CLEAR_MARGIN);
    /* Fx_BoneRotation, no longer called by BuildBoneMatrices: the profile's edge points at
     * BuildBoneMatrices' third callee, which here is Field_Free; never taken for it (a
     * pose helper left out, above, rather than a wrong address). */
    const locate_item *rot = item(r->routines, r->nroutines, "Fx_BoneRotation");
    cr_assert(rot->status != LOCATE_FOUND ||
                  rot->address == sym("standin_calls_relinked.sym", "Fx_BoneRotation"),
              "0x%X", rot->address);
    cr_assert_neq(rot->address, sym("standin_calls_relinked.sym", "Field_Free"));
    free(r);
}

Test(locate, the_call_structure_is_learned_from_a_known_build)
{
    emu_profile p;
    te_standin_profile(&p);
    size_t size;
    uint8_t *known = ts_read_all(te_standin_path("standin_calls.exe"), &size);
    ff_error err;
    TS_OK(locate_learn(known, size, &p, &err), &err);
    free(known);
    cr_assert_eq(profile_find_routine(&p, "Battle_ReadAnimation")->ncallees, 8);
    cr_assert_eq(profile_find_routine(&p, "BuildBoneMatrices")->ncallees, 3);
    locate_result *r = locate("standin_calls_relinked.exe", &p);
    expect_all_at_their_symbols(r, &p);
    for (unsigned i = 0; i < r->nroutines; i++)
        cr_assert(!r->routines[i].disagreed[0], "%s: %s", r->routines[i].name,
                  r->routines[i].disagreed);
    free(r);
}

/*
 * The located profile's evidence is this build's: bytes moved with their routine (and kept
 * only where they hold), and the version entry whose dwords hold here as its own build.
 */
Test(locate, the_located_profile_carries_this_builds_evidence)
{
    emu_profile p;
    te_standin_profile(&p);
    const profile_fingerprint *fa = NULL;
    for (unsigned i = 0; i < p.nfingerprints; i++)
        if (p.fingerprints[i].address == 0x5082B0) fa = &p.fingerprints[i];
    cr_assert(fa);
    p.nevidence = 2;
    snprintf(p.evidence[0].what, sizeof p.evidence[0].what, "Field_Alloc's head");
    p.evidence[0].address = fa->address + 1;
    p.evidence[0].len = 3;
    memcpy(p.evidence[0].bytes, fa->bytes + 1, 3);
    p.evidence[1] = p.evidence[0];
    p.evidence[1].bytes[0] ^= 0xFF; /* holds nowhere */
    uint32_t moved = sym("standin_relinked.sym", "Field_Alloc");
    p.nversions = 2;
    memset(p.versions, 0, 2 * sizeof p.versions[0]);
    snprintf(p.versions[0].build, sizeof p.versions[0].build, "the stand-in");
    snprintf(p.versions[1].build, sizeof p.versions[1].build, "the relinked stand-in");
    for (int k = 0; k < 2; k++) {
        snprintf(p.versions[k].language, sizeof p.versions[k].language, "Test");
        p.versions[k].ndwords = 1;
        p.versions[k].value[0] = le_u32(fa->bytes);
    }
    p.versions[0].own = 1;
    p.versions[0].address[0] = fa->address;
    p.versions[1].address[0] = moved;
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(r->complete, "refused: %s", r->refusal);
    const emu_profile *l = &r->located;
    cr_assert_eq(l->nevidence, 1u, "only the bytes that hold here");
    cr_assert_eq(l->evidence[0].address, moved + 1);
    cr_assert_eq(l->nversions, 2u);
    cr_assert_not(l->versions[0].own);
    cr_assert(l->versions[1].own, "the entry whose dwords hold here is this build's");
    free(r);
}

/*
 * The game's profile on the relinked stand-in (another engine: its own sizes, no Compose
 * call in ComputeBonesWorldMatrices, helpers of other shapes): every engine routine it
 * finds is where nm says, the allocators told apart by call order with no pattern; the
 * pose helper rows, optional, never move an engine routine; and ComputeBonesWorldMatrices,
 * which nothing here leads to, is refused rather than guessed.
 */
Test(locate, the_games_profile_finds_only_what_holds_in_another_engine)
{
    emu_profile p;
    ff_error err;
    TS_OK(profile_builtin_by_name("ff8_en_steam2013", &p, &err), &err);
    locate_result *r = locate("standin_relinked.exe", &p);
    cr_assert(!r->complete);
    for (int id = 0; id < PROFILE_R__COUNT; id++) {
        const locate_item *it = &r->routines[p.engine[id]];
        if (id == PROFILE_R_WORLD_MATRICES) {
            cr_assert_eq(it->status, LOCATE_NOT_FOUND, "%s", it->name);
            continue;
        }
        cr_assert_eq(it->status, LOCATE_FOUND, "%s: %s", it->name, it->why);
        cr_assert_eq(it->address, sym("standin_relinked.sym", it->name), "%s (%s)", it->name,
                     it->how);
    }
    cr_assert(strstr(item(r->routines, r->nroutines, "Field_Free")->how, "called last by"));
    for (unsigned i = 0; i < r->nroutines; i++) {
        if (p.routines[i].helper < 0 || r->routines[i].status != LOCATE_FOUND) continue;
        for (int id = 0; id < PROFILE_R__COUNT; id++)
            cr_assert_neq(r->routines[i].address, r->routines[p.engine[id]].address,
                          "helper %s at %s's address", r->routines[i].name,
                          profile_routine_name(id));
    }
    cr_assert(strstr(r->refusal, "ComputeBonesWorldMatrices not found"), "%s", r->refusal);
    cr_assert_eq(r->nnot_found + r->nambiguous, 1u, "only the engine routine refuses: %s",
                 r->refusal);
    free(r);
}

/* Evidence bytes inside a routine tell apart candidates nothing else does. */
Test(locate, evidence_bytes_inside_a_routine_tell_twins_apart)
{
    emu_profile p;
    te_standin_profile(&p);
    strip(&p, 1, 1, 1);
    uint32_t fa = profile_find_routine(&p, "Field_Alloc")->address;
    uint32_t ff = profile_find_routine(&p, "Field_Free")->address;
    emu_image *img = te_standin_image("standin.exe");
    const uint8_t *lay = emu_image_layout(img);
    uint32_t base = emu_image_pe(img)->image_base;
    unsigned k = 0;
    while (k < 16 && memcmp(lay + (fa - base) + k, lay + (ff - base) + k, 4) == 0) k++;
    cr_assert_lt(k, 16u, "the twins' first bytes differ somewhere");
    p.nevidence = 1;
    snprintf(p.evidence[0].what, sizeof p.evidence[0].what, "Field_Free's cursor update");
    p.evidence[0].address = ff + k;
    p.evidence[0].len = 4;
    memcpy(p.evidence[0].bytes, lay + (ff - base) + k, 4);
    emu_image_free(img);
    locate_result *r = locate("standin_relinked.exe", &p);
    const locate_item *it = item(r->routines, r->nroutines, "Field_Free");
    cr_assert_eq(it->status, LOCATE_FOUND, "%s", it->why);
    cr_assert_eq(it->address, sym("standin_relinked.sym", "Field_Free"));
    cr_assert(strstr(it->how, "its evidence bytes"), "%s", it->how);
    it = item(r->routines, r->nroutines, "Field_Alloc");
    cr_assert_eq(it->status, LOCATE_FOUND, "%s", it->why);
    cr_assert_eq(it->address, sym("standin_relinked.sym", "Field_Alloc"));
    free(r);
}
