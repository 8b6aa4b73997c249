/*
 * tests/emu/test_emu_profile.c: profile parsing: the built-in profiles hold
 * the values of docs/engine.md, and every kind of bad field is refused with an
 * error naming the source and the key.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/image/profile.h"
#include "emu/profiles/profile_builtin.h"
#include "tests/emu/te.h"

Test(profile, steam_profile_holds_the_engine_facts)
{
    emu_profile p;
    ff_error err;
    TS_OK(profile_builtin_by_name("ff8_en_steam2013", &p, &err), &err);
    cr_assert_str_eq(p.source, "(built-in)");
    cr_assert_eq(p.image_base, 0x400000u);
    cr_assert_eq(p.nhashes, 1u);
    cr_assert_str_eq(p.sha256[0],
                     "064d466b5fe2ba901fd44abf19f37c0fd6a2db40aabd95c9e5959195b6589570");
    cr_assert_eq(p.nfingerprints, 3u);
    const uint8_t fp0[8] = {0x83, 0xEC, 0x08, 0x53, 0x8B, 0x5C, 0x24, 0x14};
    cr_assert_eq(p.fingerprints[0].address, 0x508F90u);
    cr_assert_eq(p.fingerprints[0].len, 8u);
    cr_assert_arr_eq(p.fingerprints[0].bytes, fp0, 8);
    const uint8_t fp1[4] = {3, 6, 9, 0x10}, fp2[4] = {3, 6, 8, 0x0C};
    cr_assert_eq(p.fingerprints[1].address, 0xB8B9F0u);
    cr_assert_arr_eq(p.fingerprints[1].bytes, fp1, 4);
    cr_assert_eq(p.fingerprints[2].address, 0xB8B9F4u);
    cr_assert_arr_eq(p.fingerprints[2].bytes, fp2, 4);
    static const struct {
        profile_routine_id id;
        uint32_t addr;
        unsigned args;
    } want[] = {{PROFILE_R_FIELD_ALLOC, 0x5082B0, 1},    {PROFILE_R_FIELD_FREE, 0x5082D0, 1},
                {PROFILE_R_BITREADER, 0x5092A0, 2},      {PROFILE_R_POSITION, 0x509320, 1},
                {PROFILE_R_ROTATION, 0x509370, 1},       {PROFILE_R_SCALE, 0x5093F0, 1},
                {PROFILE_R_READ_ANIMATION, 0x508F90, 2}, {PROFILE_R_START_CLIP, 0x509440, 3},
                {PROFILE_R_BUILD_MATRICES, 0x508C90, 1}, {PROFILE_R_QUEUE_ANIMATION, 0x509520, 2},
                {PROFILE_R_ADVANCE_BY1, 0x5094F0, 1},    {PROFILE_R_WORLD_MATRICES, 0x5095B0, 2}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int k = p.engine[want[i].id];
        cr_assert(k >= 0, "%s missing", profile_routine_name(want[i].id));
        cr_assert_eq(p.routines[k].address, want[i].addr, "%s", p.routines[k].name);
        cr_assert_eq(p.routines[k].args, want[i].args, "%s", p.routines[k].name);
    }
    const profile_routine *ra = profile_find_routine(&p, "Battle_ReadAnimation");
    static const char *const callees[] = {
        "Field_Alloc",   "ReadPositionType",  "bitReader", "ReadRotationType",
        "ReadBoneScale", "BuildBoneMatrices", "Field_Free"};
    cr_assert_eq(ra->ncallees, 7u);
    for (unsigned i = 0; i < 7; i++)
        cr_assert_str_eq(ra->callees[i], callees[i]);
    const profile_routine *bm = profile_find_routine(&p, "BuildBoneMatrices");
    cr_assert_eq(bm->ncallees, 8u);
    /* Its callees in call order: Field_Alloc first, Field_Free last, the helpers by name. */
    cr_assert_str_eq(bm->callees[0], "Field_Alloc");
    cr_assert_str_eq(bm->callees[7], "Field_Free");
    cr_assert_eq(profile_find_routine(&p, bm->callees[1])->address, 0x56CE30u);
    const profile_routine *w = &p.routines[p.engine[PROFILE_R_WORLD_MATRICES]];
    cr_assert_eq(w->ncallees, 1u);
    cr_assert_eq(profile_find_routine(&p, w->callees[0])->address, 0x56C2F0u);
    cr_assert_eq(p.field_alloc_cursor, 0);
    cr_assert_eq(p.globals[0].address, 0x1D999C4u);
    cr_assert_eq(p.globals[0].size, 4u);
    cr_assert_eq(p.scratch_size, 0x10000u);
    cr_assert_eq(p.x87_control, 0x27Fu, "the default control word");
}

/* The pose helpers of the game's profile, with the arities of the public notes (docs/pose.md 2). */
/* The profile's rows of the reading routines are ref/readlog.h's, by name and order. */
Test(profile, reader_rows_are_the_read_logs_routines)
{
    for (int r = 0; r < REF_R__COUNT; r++) {
        profile_routine_id id = profile_reader_id((ref_routine)r);
        cr_assert_lt((int)id, (int)PROFILE_R__COUNT, "routine %d", r);
        cr_assert_str_eq(profile_routine_name(id), ref_routine_name((ref_routine)r));
    }
    cr_assert_eq(profile_reader_id(REF_R__COUNT), PROFILE_R__COUNT);
}

Test(profile, steam_profile_has_the_pose_helper_rows)
{
    emu_profile p;
    ff_error err;
    TS_OK(profile_builtin_by_name("ff8_en_steam2013", &p, &err), &err);
    static const struct {
        profile_helper_id role;
        uint32_t addr;
        const char *params;
        profile_result result;
    } want[] = {
        {PROFILE_H_SCALE_UNIFORM, 0x56BEF0, "m v", PROFILE_RES_NONE},
        {PROFILE_H_COPY5, 0x56C090, "a b out", PROFILE_RES_NONE},
        {PROFILE_H_MUL_INTO, 0x56C270, "a b", PROFILE_RES_NONE},
        {PROFILE_H_COMPOSE, 0x56C2F0, "a b out", PROFILE_RES_NONE},
        {PROFILE_H_APPLY, 0x56C3D0, "a sv vout", PROFILE_RES_NONE},
        {PROFILE_H_ROT_BONE, 0x56CE30, "sv m", PROFILE_RES_NONE},
        {PROFILE_H_ROT_XYZ, 0x56CD50, "sv m", PROFILE_RES_NONE},
        {PROFILE_H_ROT_Y, 0x56D020, "angle m", PROFILE_RES_NONE},
        {PROFILE_H_ROT_Z, 0x56D090, "angle m", PROFILE_RES_NONE},
        {PROFILE_H_SCALE_COLUMNS, 0x508C30, "a v out", PROFILE_RES_NONE},
        {PROFILE_H_SIN, 0x56D130, "angle", PROFILE_RES_EAX},
        {PROFILE_H_COS, 0x56D100, "angle", PROFILE_RES_EAX},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const profile_routine *r = profile_helper(&p, want[i].role);
        const char *role = profile_helper_name(want[i].role);
        cr_assert(r, "no %s row", role);
        cr_assert_eq(r->address, want[i].addr, "%s at 0x%X", role, r->address);
        char params[64] = "";
        for (unsigned k = 0; k < r->args; k++)
            snprintf(params + strlen(params), sizeof params - strlen(params), "%s%s",
                     k ? " " : "", profile_param_name(r->params[k]));
        cr_assert_str_eq(params, want[i].params, "%s", role);
        cr_assert_eq(r->result, want[i].result, "%s", role);
    }
    cr_assert_eq(p.helpers[PROFILE_H_ROT_X], -1, "the notes give no address of RotX");
    cr_assert_eq(p.helpers[PROFILE_H_COMPOSE_TO], -1);
}

/* Evidence kept apart from the fingerprints: bytes, FFNx's version dwords, sizes. */
Test(profile, steam_profile_carries_evidence_apart_from_fingerprints)
{
    emu_profile p;
    ff_error err;
    TS_OK(profile_builtin_by_name("ff8_en_steam2013", &p, &err), &err);
    for (unsigned i = 0; i < p.nfingerprints; i++)
        cr_assert_neq(p.fingerprints[i].address, 0x509482u, "evidence is no fingerprint");
    cr_assert_eq(p.nevidence, 1u);
    const uint8_t slow[7] = {0xD0, 0xE1, 0xFE, 0xC9, 0x88, 0x48, 0x07};
    cr_assert_eq(p.evidence[0].address, 0x509482u);
    cr_assert_eq(p.evidence[0].len, 7u);
    cr_assert_arr_eq(p.evidence[0].bytes, slow, 7);
    int own = -1;
    for (unsigned i = 0; i < p.nversions; i++)
        if (p.versions[i].own) {
            cr_assert_eq(own, -1, "one own build");
            own = (int)i;
        }
    cr_assert_geq(own, 0);
    const profile_version *v = &p.versions[own];
    cr_assert_eq(v->ndwords, 2u);
    cr_assert_eq(v->address[0], 0x401004u);
    cr_assert_eq(v->value[0], 0x3885048Du);
    cr_assert_eq(v->address[1], 0x401404u);
    cr_assert_eq(v->value[1], 0x001597C8u);
    cr_assert_str_eq(v->language, "English");
    /* The Japanese builds share two dwords: the one with a third goes first. */
    int jp_nv = -1, jp = -1;
    for (unsigned i = 0; i < p.nversions; i++)
        if (p.versions[i].value[0] == 0x1B6E9CCu)
            *(p.versions[i].ndwords == 3 ? &jp_nv : &jp) = (int)i;
    cr_assert(jp_nv >= 0 && jp > jp_nv);
    static const struct {
        const char *name;
        uint32_t size;
        unsigned insns;
    } sizes[] = {{"Field_Alloc", 0x1B, 8},         {"Field_Free", 0x18, 7},
                 {"BuildBoneMatrices", 0x2C2, 227}, {"Battle_ReadAnimation", 0x30B, 284},
                 {"bitReader", 0, 49},              {"ReadPositionType", 0, 29},
                 {"ReadRotationType", 0, 51},       {"StartClip", 0x83, 49},
                 {"QueueAnimation", 0x86, 59},      {"ComputeBonesWorldMatrices", 0, 28},
                 {"Copy5", 0x18C, 116}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const profile_routine *r = profile_find_routine(&p, sizes[i].name);
        cr_assert(r, "%s", sizes[i].name);
        cr_assert_eq(r->size, sizes[i].size, "%s", sizes[i].name);
        cr_assert_eq(r->insns, sizes[i].insns, "%s", sizes[i].name);
    }
}

Test(profile, standin_profile_is_built_in)
{
    emu_profile p;
    te_standin_profile(&p);
    cr_assert_eq(p.nhashes, 1u);
    cr_assert_eq(strlen(p.sha256[0]), 64u);
    cr_assert(p.engine[PROFILE_R_READ_ANIMATION] >= 0);
    unsigned tests = 0;
    for (unsigned i = 0; i < p.nroutines; i++)
        tests += p.routines[i].test;
    cr_assert_eq(tests, 7u);
    cr_assert_eq(p.x87_control, 0x27Fu);
    for (int h = 0; h < PROFILE_H__COUNT; h++)
        cr_assert(profile_helper(&p, h) != NULL, "no %s", profile_helper_name(h));
    const profile_routine *c5 = profile_helper(&p, PROFILE_H_COPY5);
    cr_assert_eq(c5->address, 0x56C090u);
    cr_assert_eq(c5->args, 3u);
    cr_assert_eq(c5->params[0], PROFILE_P_A);
    cr_assert_eq(c5->params[1], PROFILE_P_B);
    cr_assert_eq(c5->params[2], PROFILE_P_OUT);
    cr_assert_eq(c5->result, PROFILE_RES_NONE);
    const profile_routine *sn = profile_helper(&p, PROFILE_H_SIN);
    cr_assert_eq(sn->address, 0x56D130u);
    cr_assert_eq(sn->result, PROFILE_RES_EAX);
    cr_assert_eq(profile_helper(&p, PROFILE_H_COS)->address, 0x56D100u);
    cr_assert_eq(profile_helper(&p, PROFILE_H_APPLY)->address, 0x56C3D0u);
    cr_assert_eq(profile_helper(&p, PROFILE_H_COMPOSE)->address, 0x56C2F0u);
    cr_assert_eq(profile_helper(&p, PROFILE_H_ROT_BONE)->address, 0x56CE30u);
    cr_assert_eq(profile_find_routine(&p, "Field_Alloc")->helper, -1);
    /* Its own sizes, learned from standin.exe at build time: every routine has one, and
     * each ends before the next routine of the same executable begins (nm's addresses). */
    for (unsigned i = 0; i < p.nroutines; i++) {
        const profile_routine *r = &p.routines[i];
        cr_assert(r->size && r->insns, "%s has no size", r->name);
        uint32_t next = UINT32_MAX;
        for (unsigned k = 0; k < p.nroutines; k++)
            if (p.routines[k].address > r->address && p.routines[k].address < next)
                next = p.routines[k].address;
        cr_assert_leq(r->size, next - r->address, "%s runs into the next routine", r->name);
        cr_assert_leq(r->insns, r->size, "%s", r->name);
    }
    cr_assert_neq(p.routines[p.engine[PROFILE_R_READ_ANIMATION]].insns, 284u,
                  "the stand-in's sizes are its own, not the game's");
    cr_assert_eq(profile_builtin_count(), 2u);
    ff_error err;
    cr_assert_neq(profile_builtin_by_name("no_such_build", &p, &err), 0);
}

/* A valid profile with one edit applied: replace `from` by `to`; the
 * result in *out when not NULL. */
static int parse_edit_into(const char *from, const char *to, emu_profile *out, ff_error *err)
{
    static const char base[] =
        "{\"format\": \"ff8diff-profile/1\", \"name\": \"t\", \"description\": \"d\","
        " \"image_base\": \"0x400000\", \"sha256\": [],"
        " \"fingerprints\": [{\"address\": \"0x401001\", \"bytes\": \"C3\"}],"
        " \"routines\": [{\"name\": \"Field_Alloc\", \"address\": \"0x401000\","
        " \"signature\": \"u32 Field_Alloc(int n)\", \"args\": 1, \"callees\": []},"
        " {\"name\": \"X\", \"address\": 4198416, \"signature\": \"void X(void)\", \"args\": 0,"
        " \"callees\": [\"Field_Alloc\", \"0x401234\"]}],"
        " \"globals\": [{\"name\": \"field_alloc_cursor\", \"address\": \"0x500000\", \"size\": "
        "4}],"
        " \"scratch_size\": 4096}";
    char text[4096];
    const char *at = strstr(base, from);
    cr_assert(at, "edit \"%s\" does not apply", from);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - base), base, to, at + strlen(from));
    emu_profile p;
    return profile_parse(text, strlen(text), "test.json", out ? out : &p, err);
}

static int parse_edit(const char *from, const char *to, ff_error *err)
{
    return parse_edit_into(from, to, NULL, err);
}

/* Field_Alloc's row in parse_edit's base, and the same with helper keys. */
#define HELPER_ROW "\"callees\": []}"
#define HELPER(role, params, result)                                                               \
    "\"callees\": [], \"helper\": " role ", \"params\": " params ", \"result\": " result "}"

Test(profile, bad_fields_name_source_and_key)
{
    static const struct {
        const char *from, *to, *key;
    } cases[] = {
        {"\"name\": \"t\"", "\"name\": \"t\", \"extra\": 1", "(top).extra"},
        {"\"format\": \"ff8diff-profile/1\"", "\"format\": \"v2\"", "format"},
        {"\"image_base\": \"0x400000\"", "\"image_base\": \"0x400001\"", "image_base"},
        {"\"image_base\": \"0x400000\"", "\"image_base\": \"0xZZ\"", "image_base"},
        {"\"sha256\": []", "\"sha256\": [\"abc\"]", "sha256[0]"},
        {"\"bytes\": \"C3\"", "\"bytes\": \"C\"", "fingerprints[0].bytes"},
        {"\"address\": \"0x401000\",", "\"address\": -1,", "routines[0].address"},
        {"\"args\": 0", "\"args\": 99", "routines[1].args"},
        {"\"0x401234\"", "\"NoSuchRoutine\"", "routines[1].callees[1]"},
        {"\"name\": \"X\"", "\"name\": \"Field_Alloc\"", "routines[1].name"},
        {"\"size\": 4", "\"size\": 2", "globals[0].size"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 3", "scratch_size"},
        {"\"scratch_size\": 4096", "\"scratch\": 4096", "(top).scratch"},
        {"\"description\": \"d\",", "", "description"},
        {"\"signature\": \"void X(void)\", ", "", "routines[1].signature"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"x87_control\": 70000", "x87_control"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"x87_control\": \"0xZ\"",
         "x87_control"},
        {HELPER_ROW, "\"callees\": [], \"helper\": \"sin\"}", "routines[0].params"},
        {HELPER_ROW, "\"callees\": [], \"params\": [\"angle\"], \"result\": \"eax\"}",
         "routines[0].helper"},
        {HELPER_ROW, HELPER("\"tan\"", "[\"angle\"]", "\"eax\""), "routines[0].helper"},
        {HELPER_ROW, HELPER("\"sin\"", "[\"angle\"]", "\"xmm0\""), "routines[0].result"},
        {HELPER_ROW, HELPER("\"sin\"", "[\"angle\"]", "\"none\""), "routines[0].result"},
        {HELPER_ROW, HELPER("\"sin\"", "[\"m\"]", "\"eax\""), "routines[0].params"},
        {HELPER_ROW, HELPER("\"sin\"", "[\"nope\"]", "\"eax\""), "routines[0].params[0]"},
        {HELPER_ROW, HELPER("\"sin\"", "[\"angle\", \"m\"]", "\"eax\""), "routines[0].params"},
        {HELPER_ROW, HELPER("\"sin\"", "\"angle\"", "\"eax\""), "routines[0].params"},
        {"\"args\": 1, " HELPER_ROW,
         "\"args\": 2, " HELPER("\"rot_x\"", "[\"angle\", \"angle\"]", "\"none\""),
         "routines[0].params[1]"},
        {HELPER_ROW,
         HELPER("\"sin\"", "[\"angle\"]",
                "\"eax\"") ", {\"name\": \"Y\", \"address\": 1, "
                           "\"signature\": \"int Y(int a)\", \"args\": 1, \"helper\": \"sin\", "
                           "\"params\": [\"angle\"], \"result\": \"eax\"}",
         "routines[1].helper"},
        {"\"args\": 0,", "\"args\": 0, \"pattern\": \"abc\",", "routines[1].pattern"},
        {"\"args\": 0,", "\"args\": 0, \"pattern\": \"12g4\",", "routines[1].pattern"},
        {"\"size\": 4}", "\"size\": 4, \"found_in\": \"Y\"}", "globals[0].found_in"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"tables\": [{\"name\": \"w\", "
         "\"address\": 1, \"bytes\": \"03\", \"read_by\": [\"Y\"]}]", "tables[0].read_by[0]"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"tables\": [{\"name\": \"w\", "
         "\"address\": 1, \"bytes\": \"\", \"read_by\": []}]", "tables[0].bytes"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"located\": {\"from_profile\": "
         "\"s\", \"executable\": \"e\", \"patterns\": \"p\"}", "located.tool"},
        {"\"args\": 0,", "\"args\": 0, \"size\": 0,", "routines[1].size"},
        {"\"args\": 0,", "\"args\": 0, \"insns\": \"many\",", "routines[1].insns"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"evidence\": {}", "evidence"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"evidence\": [{\"what\": \"w\", "
         "\"address\": 1, \"bytes\": \"D0 E\"}]", "evidence[0].bytes"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"evidence\": [{\"address\": 1, "
         "\"bytes\": \"D0\"}]", "evidence[0].what"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"versions\": [{\"build\": \"b\", "
         "\"language\": \"l\", \"dwords\": []}]", "versions[0].dwords"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"versions\": [{\"build\": \"b\", "
         "\"language\": \"l\", \"dwords\": [[\"0x401004\"]]}]", "versions[0].dwords[0]"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"versions\": [{\"build\": \"b\", "
         "\"language\": \"l\", \"own\": 1, \"dwords\": [[1, 2]]}]", "versions[0].own"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"versions\": [{\"build\": \"b\", "
         "\"language\": \"l\", \"own\": true, \"dwords\": [[1, 2]]}, {\"build\": \"c\", "
         "\"language\": \"l\", \"own\": true, \"dwords\": [[1, 3]]}]", "versions"},
        {"\"scratch_size\": 4096", "\"scratch_size\": 4096, \"versions\": [{\"build\": \"b\", "
         "\"dwords\": [[1, 2]]}]", "versions[0].language"},
        {"\"args\": 1, " HELPER_ROW,
         "\"args\": 3, " HELPER("\"scale_columns\"", "[\"m\", \"v\", \"out\"]", "\"none\""),
         "routines[0].params"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ff_error err;
        ff_error_clear(&err);
        cr_expect_eq(parse_edit(cases[i].from, cases[i].to, &err), -1, "case %zu accepted", i);
        cr_expect_eq(err.kind, FF_E_FORMAT, "case %zu: kind %s", i, ff_errkind_name(err.kind));
        cr_expect_str_eq(err.file, "test.json", "case %zu", i);
        char key[128];
        snprintf(key, sizeof key, "key %s:", cases[i].key);
        cr_expect(strstr(err.reason, key) != NULL, "case %zu: \"%s\" lacks \"%s\"", i, err.reason,
                  key);
    }
}

Test(profile, valid_edit_parses_and_invalid_json_is_refused)
{
    ff_error err;
    TS_OK(parse_edit("\"name\": \"t\"", "\"name\": \"t\"", &err), &err);
    emu_profile p;
    TS_OK(parse_edit_into("\"args\": 1, " HELPER_ROW,
                          "\"args\": 2, " HELPER("\"rot_y\"", "[\"m\", \"angle\"]", "\"st0\""), &p,
                          &err),
          &err);
    cr_assert_eq(p.helpers[PROFILE_H_ROT_Y], 0);
    cr_assert_eq(p.routines[0].helper, PROFILE_H_ROT_Y);
    cr_assert_eq(p.routines[0].params[0], PROFILE_P_M);
    cr_assert_eq(p.routines[0].params[1], PROFILE_P_ANGLE);
    cr_assert_eq(p.routines[0].result, PROFILE_RES_ST0);
    cr_assert_eq(p.routines[1].helper, -1);
    cr_assert_eq(p.helpers[PROFILE_H_SIN], -1);
    TS_OK(parse_edit_into("\"scratch_size\": 4096",
                          "\"scratch_size\": 4096, \"x87_control\": \"0x37F\"", &p, &err),
          &err);
    cr_assert_eq(p.x87_control, 0x37Fu);
    /* scale_columns takes the notes' (src, v, dst) or the older in-place (m, v). */
    TS_OK(parse_edit_into("\"args\": 1, " HELPER_ROW,
                          "\"args\": 3, " HELPER("\"scale_columns\"", "[\"a\", \"v\", \"out\"]",
                                                 "\"none\""),
                          &p, &err),
          &err);
    cr_assert_eq(p.helpers[PROFILE_H_SCALE_COLUMNS], 0);
    TS_OK(parse_edit_into("\"args\": 1, " HELPER_ROW,
                          "\"args\": 2, " HELPER("\"scale_columns\"", "[\"m\", \"v\"]", "\"none\""),
                          &p, &err),
          &err);
    cr_assert_eq(p.routines[0].params[0], PROFILE_P_M);
    cr_assert_eq(profile_parse("{\"format\": ", 11, "broken.json", &p, &err), -1);
    cr_assert_str_eq(err.file, "broken.json");
    cr_assert(strstr(err.reason, "JSON") != NULL);
    cr_assert_eq(profile_load_file("/nonexistent/profile.json", &p, &err), -1);
    cr_assert_eq(err.kind, FF_E_IO);
}

Test(profile, load_file_reads_the_source_profile)
{
    const char *src = getenv("FF8DIFF_SOURCE_DIR");
    cr_assert(src);
    char path[1024];
    snprintf(path, sizeof path, "%s/emu/profiles/ff8_en_steam2013.json", src);
    emu_profile p;
    ff_error err;
    TS_OK(profile_load_file(path, &p, &err), &err);
    cr_assert_str_eq(p.source, path);
    cr_assert_str_eq(p.name, "ff8_en_steam2013");
}

/* profile_to_json gives back what it was given: every built-in profile, and one located. */
Test(profile, written_profiles_read_back_the_same)
{
    emu_profile *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    ff_error err;
    for (unsigned i = 0; i <= profile_builtin_count(); i++) {
        if (i < profile_builtin_count()) {
            TS_OK(profile_builtin(i, a, &err), &err);
        } else { /* the last round: a located profile with tables and patterns */
            TS_OK(profile_builtin_by_name("standin", a, &err), &err);
            a->located = 1;
            snprintf(a->located_from.from_profile, sizeof a->located_from.from_profile, "x");
            snprintf(a->located_from.executable, sizeof a->located_from.executable, "y.exe");
            snprintf(a->located_from.patterns, sizeof a->located_from.patterns, "none");
            snprintf(a->located_from.tool, sizeof a->located_from.tool, "ff8diff");
        }
        char *text = profile_to_json(a);
        cr_assert(text);
        TS_OK(profile_parse(text, strlen(text), "(built-in)", b, &err), &err);
        memset(a->source, 0, sizeof a->source); /* where it was read from is not content */
        memset(b->source, 0, sizeof b->source);
        cr_assert(memcmp(a, b, sizeof *a) == 0, "profile %s differs after writing and reading",
                  a->name);
        free(text);
    }
    /* The stand-in's profile carries the routines' patterns and its tables. */
    TS_OK(profile_builtin_by_name("standin", a, &err), &err);
    cr_assert_eq(a->ntables, 2u);
    cr_assert_gt(profile_find_routine(a, "Battle_ReadAnimation")->npattern, 50u);
    cr_assert_str_eq(a->globals[0].found_in, "Field_Alloc");
    free(a);
    free(b);
}
