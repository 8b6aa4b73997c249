/*
 * tests/corpus/test_corpus_pairs.c: which entities a corpus runs. Hand-made
 * name lists with their kinds and clip counts; every expected entity,
 * reason and count is worked out from the rules of corpus/pairs.h (docs/pose.md
 * section 5). The entities manifest: hand-written JSON texts, good and bad.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/path.h"
#include "corpus/pairs.h"
#include "corpus/synth.h"
#include "tests/corpus/ct.h"

#define M DAT_MONSTER
#define B DAT_BODY
#define E DAT_EDEA
#define W DAT_WEAPON
#define RW DAT_WEAPON_REDUCED
#define NM DAT_NO_MODEL
#define N PAIRS_NONE

TestSuite(pairs, .fini = ts_cleanup);

/* What one entity must be: indices into the list, counts, reason. */
typedef struct want_entity {
    size_t body, weapon;
    unsigned body_clips, weapon_clips;
    int mismatch;
    pairs_noweapon why;
} want_entity;

static void build_ok(const pairs_file *f, size_t n, const pairs_attach_list *att, pairs_set *s)
{
    ff_error err;
    TS_OK(pairs_build(f, n, att, s, &err), &err);
}

static void check_entities(const pairs_set *s, const want_entity *w, size_t nw, const char *what)
{
    cr_assert_eq(s->n, nw, "%s: %zu entities, want %zu", what, s->n, nw);
    for (size_t i = 0; i < nw; i++) {
        const pairs_entity *e = &s->e[i];
        cr_assert_eq(e->body, w[i].body, "%s entity %zu: body", what, i);
        cr_assert_eq(e->weapon, w[i].weapon, "%s entity %zu: weapon", what, i);
        cr_assert_eq(e->body_clips, w[i].body_clips, "%s entity %zu: body clips", what, i);
        cr_assert_eq(e->weapon_clips, w[i].weapon_clips, "%s entity %zu: weapon clips", what, i);
        cr_assert_eq(e->pool_mismatch, w[i].mismatch, "%s entity %zu: pool mismatch", what, i);
        cr_assert_eq(e->why, w[i].why, "%s entity %zu: %s, want %s", what, i,
                     pairs_noweapon_name(e->why), pairs_noweapon_name(w[i].why));
    }
}

/* ---- names ---- */

static const struct {
    const char *name;
    int ok;
    char character, role;
} name_cases[] = {
    {"d0c000.dat", 1, '0', 'c'},
    {"DAW035.DAT", 1, 'a', 'w'},
    {"c:\\ff8\\data\\battle\\d4W023.dat", 1, '4', 'w'},
    {"some/folder/d7c016.dat", 1, '7', 'c'},
    {"d1c3.dat", 1, '1', 'c'},
    {"c0m000.dat", 0, 0, 0},
    {"d0x000.dat", 0, 0, 0},
    {"d0c.dat", 0, 0, 0},
    {"d0c00a.dat", 0, 0, 0},
    {"d_c000.dat", 0, 0, 0},
    {"d0c000.dat.bak", 0, 0, 0},
    {"d0c000.da", 0, 0, 0},
    {"d0c000.dat/", 0, 0, 0},
};

Test(pairs, names_give_the_character_and_role)
{
    for (size_t i = 0; i < sizeof name_cases / sizeof name_cases[0]; i++) {
        char x = '?', r = '?';
        int ok = pairs_parse_name(name_cases[i].name, &x, &r);
        cr_assert_eq(ok, name_cases[i].ok, "%s: %d", name_cases[i].name, ok);
        if (!ok) {
            cr_assert(x == '?' && r == '?', "%s: outputs touched", name_cases[i].name);
            continue;
        }
        cr_assert_eq(x, name_cases[i].character, "%s: character %c", name_cases[i].name, x);
        cr_assert_eq(r, name_cases[i].role, "%s: role %c", name_cases[i].name, r);
    }
    cr_assert_str_eq(path_base("a\\b/c.dat"), "c.dat");
    cr_assert_str_eq(path_base("c.dat"), "c.dat");
    cr_assert_str_eq(path_base("dir/"), "");
}

/* ---- pairing ---- */

/* clang-format off */
Test(pairs, a_corpus_with_every_kind)
{
    static const pairs_file f[] = {
        {"c0m000.dat", 1, M, 5},                      /* 0 */
        {"D0C000.DAT", 1, B, 42},                     /* 1 */
        {"d0w000.dat", 1, W, 42},                     /* 2 */
        {"c:\\ff8\\data\\battle\\d0w001.dat", 1, W, 41}, /* 3: one clip short */
        {"d1c003.dat", 1, B, 38},                     /* 4 */
        {"d1w008.dat", 1, RW, 0},                     /* 5 */
        {"d7c016.dat", 1, E, 30},                     /* 6 */
        {"d5c011.dat", 1, B, 33},                     /* 7: no weapon file */
        {"d9w034.dat", 1, W, 34},                     /* 8: no body */
        {"c0m127.dat", 1, NM, 0},                     /* 9 */
        {"c0m001.dat", 1, M, 7},                      /* 10 */
    };
    static const want_entity want[] = {
        {0, N, 5, 0, 0, PAIRS_NOWEAPON_MONSTER},
        {1, 2, 42, 42, 0, PAIRS_NOWEAPON_NONE},
        {1, 3, 42, 41, 1, PAIRS_NOWEAPON_NONE},
        {4, N, 38, 0, 0, PAIRS_NOWEAPON_REDUCED_ONLY},
        {6, N, 30, 0, 0, PAIRS_NOWEAPON_EDEA},
        {7, N, 33, 0, 0, PAIRS_NOWEAPON_NO_WEAPON_FILE},
        {10, N, 7, 0, 0, PAIRS_NOWEAPON_MONSTER},
    };
    /* clang-format on */
    pairs_set s;
    build_ok(f, sizeof f / sizeof f[0], NULL, &s);
    check_entities(&s, want, sizeof want / sizeof want[0], "every kind");
    cr_assert_eq(s.monsters, 2);
    cr_assert_eq(s.armed, 2);
    cr_assert_eq(s.pool_mismatches, 1);
    cr_assert_eq(s.attach_unused, 0);
    cr_assert_eq(s.nunpaired, 1);
    cr_assert_eq(s.unpaired[0].weapon, 8);
    cr_assert_eq(s.unpaired[0].why, PAIRS_UNPAIRED_NO_BODY);
    for (size_t i = 0; i < s.n; i++) {
        static const int16_t zero[6] = {0};
        cr_assert_eq(memcmp(&s.e[i].attach, zero, sizeof zero), 0, "entity %zu: attach", i);
    }
    pairs_free(&s);
    cr_assert_eq(s.n, 0);
    cr_assert_null(s.e);
}

/* Cases of one small list each: entities and unpaired weapons. */
typedef struct pair_case {
    const char *what;
    pairs_file f[4];
    size_t n;
    want_entity e[3];
    size_t ne;
    size_t unpaired; /* index of the one unpaired weapon, N: none */
    pairs_unpaired_why uwhy;
} pair_case;

/* clang-format off */
static const pair_case cases[] = {
    {"only an unreadable weapon",
     {{"d2c006.dat", 1, B, 32}, {"d2w013.dat", 0, W, 0}}, 2,
     {{0, N, 32, 0, 0, PAIRS_NOWEAPON_WEAPON_BAD}}, 1, N, 0},
    {"reduced and unreadable weapons: reduced wins",
     {{"d1c003.dat", 1, B, 38}, {"d1w008.dat", 0, RW, 0}, {"d1w009.dat", 1, RW, 0}}, 3,
     {{0, N, 38, 0, 0, PAIRS_NOWEAPON_REDUCED_ONLY}}, 1, N, 0},
    {"a full weapon beside a reduced one pairs",
     {{"d1c003.dat", 1, B, 38}, {"d1w008.dat", 1, RW, 0}, {"d1w009.dat", 1, W, 38}}, 3,
     {{0, 2, 38, 38, 0, PAIRS_NOWEAPON_NONE}}, 1, N, 0},
    {"a body with no character number",
     {{"hero.dat", 1, B, 12}, {"d0w000.dat", 1, W, 12}}, 2,
     {{0, N, 12, 0, 0, PAIRS_NOWEAPON_UNNAMED}}, 1, 1, PAIRS_UNPAIRED_NO_BODY},
    {"a body named as a weapon",
     {{"d0w009.dat", 1, B, 12}, {"d0w000.dat", 1, W, 12}}, 2,
     {{0, N, 12, 0, 0, PAIRS_NOWEAPON_UNNAMED}}, 1, 1, PAIRS_UNPAIRED_NO_BODY},
    {"a weapon with no character number",
     {{"d0c000.dat", 1, B, 4}, {"sword.dat", 1, W, 4}}, 2,
     {{0, N, 4, 0, 0, PAIRS_NOWEAPON_NO_WEAPON_FILE}}, 1, 1, PAIRS_UNPAIRED_UNNAMED},
    {"a weapon named as a body",
     {{"d3c007.dat", 1, B, 38}, {"d3c001.dat", 1, W, 38}}, 2,
     {{0, N, 38, 0, 0, PAIRS_NOWEAPON_NO_WEAPON_FILE}}, 1, 1, PAIRS_UNPAIRED_UNNAMED},
    {"a weapon of Edea's character",
     {{"d7c016.dat", 1, E, 30}, {"d7w000.dat", 1, W, 30}}, 2,
     {{0, N, 30, 0, 0, PAIRS_NOWEAPON_EDEA}}, 1, 1, PAIRS_UNPAIRED_EDEA_ONLY},
    {"a weapon whose body is unreadable",
     {{"d2c006.dat", 0, B, 0}, {"d2w013.dat", 1, W, 32}}, 2,
     {{0}}, 0, 1, PAIRS_UNPAIRED_BODY_BAD},
    {"a reduced weapon with no body",
     {{"c0m000.dat", 1, M, 3}, {"d9w034.dat", 1, RW, 0}}, 2,
     {{0, N, 3, 0, 0, PAIRS_NOWEAPON_MONSTER}}, 1, 1, PAIRS_UNPAIRED_NO_BODY},
    {"two bodies share the weapon",
     {{"d0c000.dat", 1, B, 42}, {"d0w000.dat", 1, W, 42}, {"d0c001.dat", 1, B, 42}}, 3,
     {{0, 1, 42, 42, 0, PAIRS_NOWEAPON_NONE}, {2, 1, 42, 42, 0, PAIRS_NOWEAPON_NONE}}, 2, N, 0},
    {"character a in either case",
     {{"DAC019.DAT", 1, B, 31}, {"daw035.dat", 1, W, 31}}, 2,
     {{0, 1, 31, 31, 0, PAIRS_NOWEAPON_NONE}}, 1, N, 0},
    {"another character's weapon does not pair",
     {{"d2c006.dat", 1, B, 32}, {"d3w018.dat", 1, W, 38}}, 2,
     {{0, N, 32, 0, 0, PAIRS_NOWEAPON_NO_WEAPON_FILE}}, 1, 1, PAIRS_UNPAIRED_NO_BODY},
    {"a weapon with more clips than its body",
     {{"d4w023.dat", 1, W, 33}, {"d4c009.dat", 1, B, 31}}, 2,
     {{1, 0, 31, 33, 1, PAIRS_NOWEAPON_NONE}}, 1, N, 0},
    {"an unreadable monster is no entity",
     {{"c0m000.dat", 0, M, 0}, {"c0m001.dat", 1, M, 2}}, 2,
     {{1, N, 2, 0, 0, PAIRS_NOWEAPON_MONSTER}}, 1, N, 0},
};
/* clang-format on */

Test(pairs, each_rule_on_a_small_list)
{
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const pair_case *c = &cases[k];
        pairs_set s;
        build_ok(c->f, c->n, NULL, &s);
        check_entities(&s, c->e, c->ne, c->what);
        if (c->unpaired == N) {
            cr_assert_eq(s.nunpaired, 0, "%s: %zu unpaired", c->what, s.nunpaired);
        } else {
            cr_assert_eq(s.nunpaired, 1, "%s: %zu unpaired", c->what, s.nunpaired);
            cr_assert_eq(s.unpaired[0].weapon, c->unpaired, "%s: unpaired file", c->what);
            cr_assert_eq(s.unpaired[0].why, c->uwhy, "%s: %s", c->what,
                         pairs_unpaired_name(s.unpaired[0].why));
        }
        pairs_free(&s);
    }
}

Test(pairs, empty_list_and_bad_calls)
{
    pairs_set s;
    build_ok(NULL, 0, NULL, &s);
    cr_assert_eq(s.n + s.nunpaired, 0);
    pairs_free(&s);
    ff_error err;
    cr_assert_eq(pairs_build(NULL, 2, NULL, &s, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    pairs_file f[2] = {{"d0c000.dat", 1, B, 1}, {NULL, 1, W, 1}};
    cr_assert_eq(pairs_build(f, 2, NULL, &s, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    cr_assert(strstr(err.reason, "file 1"), "%s", err.reason);
    cr_assert_eq(s.n, 0, "zeroed on failure");
    pairs_free(NULL);
    cr_assert_str_eq(pairs_noweapon_name(PAIRS_NOWEAPON_REDUCED_ONLY), "reduced_only");
    cr_assert_str_eq(pairs_noweapon_name((pairs_noweapon)99), "?");
    cr_assert_str_eq(pairs_unpaired_name(PAIRS_UNPAIRED_EDEA_ONLY), "edea_only");
    cr_assert_str_eq(pairs_unpaired_text((pairs_unpaired_why)99), "?");
}

Test(pairs, from_a_manifest)
{
    manifest_entry e[4];
    memset(e, 0, sizeof e);
    char n0[] = "d0c000.dat", n1[] = "d0w000.dat", n2[] = "c0m005.dat", n3[] = "d0w001.dat";
    e[0] = (manifest_entry){.name = n0, .parsed = 1, .kind = B, .clips = 4};
    e[1] = (manifest_entry){.name = n1, .parsed = 1, .kind = W, .clips = 4};
    e[2] = (manifest_entry){.name = n2, .parsed = 1, .bad = 1, .kind = M, .clips = 9};
    e[3] = (manifest_entry){.name = n3, .parsed = 0, .bad = 1};
    manifest m = {4, e, {0}};
    pairs_set s;
    ff_error err;
    TS_OK(pairs_from_manifest(&m, NULL, &s, &err), &err);
    /* A parsed file that failed to decode still runs (its error shows there). */
    static const want_entity want[] = {{0, 1, 4, 4, 0, PAIRS_NOWEAPON_NONE},
                                       {2, N, 9, 0, 0, PAIRS_NOWEAPON_MONSTER}};
    check_entities(&s, want, 2, "manifest");
    pairs_free(&s);
}

/* ---- the entities manifest ---- */

static const char good_json[] =
    "{\"format\": \"ff8diff-entities\", \"version\": 1, \"attach\": [\n"
    " {\"body\": \"D0C000.dat\", \"weapon\": \"d0w001.dat\", \"rotation\": [0, 1024, -512],\n"
    "  \"translation\": [40, -120, 300]},\n"
    " {\"weapon\": \"d4w023.dat\", \"body\": \"d4c009.dat\", \"translation\": [-32768, 0, "
    "32767]},\n"
    " {\"body\": \"d1c003.dat\", \"weapon\": \"d1w008.dat\", \"rotation\": [1, 2, 3]}]}\n";

static void parse_ok(const char *text, pairs_attach_list *l)
{
    ff_error err;
    TS_OK(pairs_attach_parse(text, strlen(text), "x/entities.json", l, &err), &err);
}

Test(pairs, manifest_values_reach_their_pair_only)
{
    pairs_attach_list l;
    parse_ok(good_json, &l);
    cr_assert_eq(l.n, 3);
    cr_assert_str_eq(l.e[1].body, "d4c009.dat");
    cr_assert_eq(l.e[1].attach.rot[2], 0, "rotation left out: zero");
    cr_assert_eq(l.e[1].attach.trans[0], -32768);
    static const pairs_file f[] = {
        {"d0c000.dat", 1, B, 4},  {"d0w000.dat", 1, W, 4}, {"archive\\D0W001.DAT", 1, W, 4},
        {"d4c009.dat", 1, B, 6},  {"d4w023.dat", 1, W, 6}, {"d1c003.dat", 1, B, 3},
        {"d1w008.dat", 1, RW, 0},
    };
    pairs_set s;
    build_ok(f, sizeof f / sizeof f[0], &l, &s);
    cr_assert_eq(s.n, 4);
    static const int16_t zero[6] = {0};
    static const pairs_attach a01 = {{0, 1024, -512}, {40, -120, 300}};
    static const pairs_attach a4 = {{0, 0, 0}, {-32768, 0, 32767}};
    cr_assert_eq(memcmp(&s.e[0].attach, zero, sizeof zero), 0, "d0c000 + d0w000 stays zero");
    cr_assert_eq(s.e[1].weapon, 2);
    cr_assert_eq(memcmp(&s.e[1].attach, &a01, sizeof a01), 0, "d0c000 + D0W001");
    cr_assert_eq(memcmp(&s.e[2].attach, &a4, sizeof a4), 0, "d4c009 + d4w023");
    cr_assert_eq(s.e[3].weapon, N, "d1c003 has no weapon slot");
    cr_assert_eq(memcmp(&s.e[3].attach, zero, sizeof zero), 0);
    cr_assert_eq(s.attach_unused, 1, "d1c003 + d1w008 form no pair");
    pairs_free(&s);
    /* A name the corpus does not hold is an error naming the manifest. */
    ff_error err;
    cr_assert_eq(pairs_build(f, 3, &l, &s, &err), -1);
    cr_assert_eq(err.kind, FF_E_FORMAT);
    cr_assert_str_eq(err.file, "x/entities.json");
    cr_assert(strstr(err.reason, "entry 1") && strstr(err.reason, "d4c009.dat"), "%s", err.reason);
    cr_assert_eq(s.n, 0);
    pairs_attach_free(&l);
}

/* A bad manifest: the reason's fragment and the error offset (-1: none). */
static const struct {
    const char *text, *reason;
    int64_t offset;
} bad_json[] = {
    /* Cut short: the error is at the text's end. */
    {"{\"format\": \"ff8diff-entities\",", "not valid JSON: premature EOF", 30},
    {"[]", "not a JSON object", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[]} x", "trailing garbage", 54},
    {"{\"format\":\"other\",\"version\":1,\"attach\":[]}", "\"format\" is not", -1},
    {"{\"version\":1,\"attach\":[]}", "\"format\" is not", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":2,\"attach\":[]}", "\"version\" is not 1", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1}", "\"attach\" is not an array", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[],\"x\":0}", "unknown key \"x\"",
     -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[],\"attach\":[]}",
     "\"attach\" given twice", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[3]}", "entry 0 is not an object",
     -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"weapon\":\"a.dat\"}]}",
     "entry 0: \"body\" is missing", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\"}]}",
     "entry 0: \"weapon\" is missing", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"rotaton\":[0,0,0]}]}",
     "entry 0: unknown key \"rotaton\"", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"rotation\":[0,0]}]}",
     "\"rotation\" is not an array of 3 integers", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"translation\":[0,32768,0]}]}",
     "\"translation\"[1] is not an integer in -32768..32767", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"rotation\":[0,0,1.5]}]}",
     "\"rotation\"[2] is not an integer", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"rotation\":[\"3\",0,0]}]}",
     "\"rotation\"[0] is not an integer", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\",\"rotation\":[1e300,0,0]}]}",
     "\"rotation\"[0] is not an integer", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"dir/a.dat\","
     "\"weapon\":\"b.dat\"}]}",
     "\"body\" is a path", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"\"}]}",
     "\"weapon\" is empty", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"0123456789012345678901234567890123456789012345678901234567890123\"}]}",
     "\"weapon\" is too long", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":7,"
     "\"weapon\":\"b.dat\"}]}",
     "\"body\" is not a string", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"body\":\"c.dat\",\"weapon\":\"b.dat\"}]}",
     "\"body\" given twice", -1},
    {"{\"format\":\"ff8diff-entities\",\"version\":1,\"attach\":[{\"body\":\"a.dat\","
     "\"weapon\":\"b.dat\"},{\"body\":\"A.DAT\",\"weapon\":\"b.dat\"}]}",
     "entries 0 and 1 both name", -1},
};

Test(pairs, bad_manifests_are_clear_errors)
{
    for (size_t i = 0; i < sizeof bad_json / sizeof bad_json[0]; i++) {
        pairs_attach_list l;
        ff_error err;
        int rc = pairs_attach_parse(bad_json[i].text, strlen(bad_json[i].text), "e.json", &l, &err);
        cr_assert_eq(rc, -1, "case %zu accepted: %s", i, bad_json[i].text);
        cr_assert_eq(err.kind, FF_E_FORMAT, "case %zu: kind", i);
        cr_assert_str_eq(err.file, "e.json", "case %zu", i);
        cr_assert(strstr(err.reason, bad_json[i].reason), "case %zu: \"%s\" lacks \"%s\"", i,
                  err.reason, bad_json[i].reason);
        cr_assert_eq(err.offset, bad_json[i].offset, "case %zu: offset %lld", i,
                     (long long)err.offset);
        cr_assert_eq(l.n, 0, "case %zu: list not zeroed", i);
        cr_assert_null(l.e, "case %zu: list not freed", i);
    }
}

Test(pairs, manifest_written_and_read_back)
{
    pairs_attach_entry e[2] = {{"d0c000.dat", "d0w001.dat", {{0, 1024, -512}, {40, -120, 300}}},
                               {"d4c009.dat", "d4w023.dat", {{0, 0, 0}, {0, 0, 0}}}};
    pairs_attach_list l = {"", 2, e};
    char *text;
    size_t len;
    ff_error err;
    TS_OK(pairs_attach_format(&l, &text, &len, &err), &err);
    static const char want[] =
        "{\n  \"format\": \"ff8diff-entities\",\n  \"version\": 1,\n  \"attach\": [\n"
        "    {\"body\":\"d0c000.dat\",\"weapon\":\"d0w001.dat\",\"rotation\":[0,1024,-512],"
        "\"translation\":[40,-120,300]},\n"
        "    {\"body\":\"d4c009.dat\",\"weapon\":\"d4w023.dat\",\"rotation\":[0,0,0],"
        "\"translation\":[0,0,0]}\n  ]\n}\n";
    cr_assert_str_eq(text, want);
    cr_assert_eq(len, strlen(want));
    pairs_attach_list back;
    parse_ok(text, &back);
    cr_assert_eq(back.n, 2);
    cr_assert_eq(memcmp(back.e, e, sizeof e), 0, "read back differs");
    pairs_attach_free(&back);
    free(text);
    /* Empty list: still a manifest. */
    pairs_attach_list none = {"", 0, NULL};
    TS_OK(pairs_attach_format(&none, &text, &len, &err), &err);
    cr_assert_str_eq(text, "{\n  \"format\": \"ff8diff-entities\",\n  \"version\": 1,\n"
                           "  \"attach\": []\n}\n");
    parse_ok(text, &back);
    cr_assert_eq(back.n, 0);
    pairs_attach_free(&back);
    free(text);
    /* What the reader would refuse is not written. */
    snprintf(e[1].body, sizeof e[1].body, "D0C000.DAT");
    snprintf(e[1].weapon, sizeof e[1].weapon, "d0w001.dat");
    cr_assert_eq(pairs_attach_format(&l, &text, &len, &err), -1);
    cr_assert_eq(err.kind, FF_E_USAGE);
    snprintf(e[1].body, sizeof e[1].body, "a/b.dat");
    cr_assert_eq(pairs_attach_format(&l, &text, &len, &err), -1);
    cr_assert(strstr(err.reason, "path"), "%s", err.reason);
}

Test(pairs, manifest_loaded_from_a_folder_when_present)
{
    char *dir = ts_tempdir();
    pairs_attach_list l;
    ff_error err;
    TS_OK(pairs_attach_load(dir, &l, &err), &err);
    cr_assert_eq(l.n, 0, "no manifest: no entries");
    pairs_attach_free(&l);
    ts_write_in(dir, PAIRS_ATTACH_FILE, good_json, strlen(good_json));
    TS_OK(pairs_attach_load(dir, &l, &err), &err);
    cr_assert_eq(l.n, 3);
    cr_assert(strstr(l.source, PAIRS_ATTACH_FILE), "source %s", l.source);
    pairs_attach_free(&l);
    ts_write_in(dir, PAIRS_ATTACH_FILE, "{\"format\": 1}", 13);
    cr_assert_eq(pairs_attach_load(dir, &l, &err), -1);
    cr_assert_eq(err.kind, FF_E_FORMAT);
    cr_assert(strstr(err.file, PAIRS_ATTACH_FILE), "%s", err.file);
    /* A folder in its place cannot be read. */
    char *sub = ts_mkdir(dir, "inner");
    char *inner = ts_mkdir(sub, PAIRS_ATTACH_FILE);
    cr_assert_eq(pairs_attach_load(sub, &l, &err), -1);
    cr_assert_eq(err.kind, FF_E_IO);
    free(inner);
    free(sub);
    ts_rmtree(dir);
}

/* ---- the small preset, end to end ---- */

Test(pairs, small_preset_entities_by_hand)
{
    char *dir = ts_tempdir();
    ff_error err;
    TS_OK(synth_write(dir, SYNTH_SMALL, 3, NULL, &err), &err);
    corpus *c;
    manifest *m;
    pairs_attach_list l;
    pairs_set s;
    TS_OK(corpus_open(dir, &c, &err), &err);
    TS_OK(manifest_build(c, &m, &err), &err);
    TS_OK(pairs_attach_load(dir, &l, &err), &err);
    TS_OK(pairs_from_manifest(m, &l, &s, &err), &err);
    /* corpus/README.md, small preset: 4 monsters (c0m127 has no model),
     * d1c003 with a reduced weapon (2 clips), d4c009 with its 2 weapons (6
     * clips), Edea's d7c016 (2 clips); attach values on d4c009 + d4w024. */
    static const struct {
        const char *body, *weapon;
        unsigned clips;
        pairs_noweapon why;
        pairs_attach attach;
    } want[] = {
        {"c0m000.dat", NULL, 7, PAIRS_NOWEAPON_MONSTER, {{0}, {0}}},
        {"c0m001.dat", NULL, 4, PAIRS_NOWEAPON_MONSTER, {{0}, {0}}},
        {"c0m002.dat", NULL, 7, PAIRS_NOWEAPON_MONSTER, {{0}, {0}}},
        {"c0m003.dat", NULL, 7, PAIRS_NOWEAPON_MONSTER, {{0}, {0}}},
        {"d1c003.dat", NULL, 2, PAIRS_NOWEAPON_REDUCED_ONLY, {{0}, {0}}},
        {"d4c009.dat", "d4w023.dat", 6, PAIRS_NOWEAPON_NONE, {{0}, {0}}},
        {"d4c009.dat", "d4w024.dat", 6, PAIRS_NOWEAPON_NONE, {{300, -2048, 4000}, {-7, 120, 2500}}},
        {"d7c016.dat", NULL, 2, PAIRS_NOWEAPON_EDEA, {{0}, {0}}},
    };
    cr_assert_eq(s.n, sizeof want / sizeof want[0], "%zu entities", s.n);
    for (size_t i = 0; i < s.n; i++) {
        const pairs_entity *e = &s.e[i];
        cr_assert_str_eq(m->e[e->body].name, want[i].body, "entity %zu", i);
        cr_assert_eq(e->body_clips, want[i].clips, "entity %zu", i);
        cr_assert_eq(e->why, want[i].why, "entity %zu: %s", i, pairs_noweapon_name(e->why));
        if (want[i].weapon) {
            cr_assert_str_eq(m->e[e->weapon].name, want[i].weapon, "entity %zu", i);
            cr_assert_eq(e->weapon_clips, want[i].clips, "entity %zu", i);
        } else {
            cr_assert_eq(e->weapon, N, "entity %zu", i);
        }
        cr_assert_eq(memcmp(&e->attach, &want[i].attach, sizeof e->attach), 0, "entity %zu: attach",
                     i);
    }
    cr_assert_eq(s.nunpaired + s.pool_mismatches + s.attach_unused, 0);
    cr_assert_eq(s.armed, 2);
    pairs_free(&s);
    pairs_attach_free(&l);
    manifest_free(m);
    corpus_close(c);
    ts_rmtree(dir);
}
