/*
 * corpus/pairs.c: pairing bodies with weapons into entities (rules in
 * corpus/pairs.h), reporting weapons that pair with nothing, and laying
 * the entities manifest's attach values on the pairs it names.
 *
 * Pure: reads the caller's list, returns a new one. Must not print, exit,
 * touch files or keep state.
 */
#include "corpus/pairs.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/grow.h"
#include "common/path.h"

static const char *const noweapon_names[] = {
#define PAIRS_NOWEAPON_JSON(name, json, text) json,
    PAIRS_NOWEAPON_MAP(PAIRS_NOWEAPON_JSON)
#undef PAIRS_NOWEAPON_JSON
};
static const char *const noweapon_texts[] = {
#define PAIRS_NOWEAPON_TEXT(name, json, text) text,
    PAIRS_NOWEAPON_MAP(PAIRS_NOWEAPON_TEXT)
#undef PAIRS_NOWEAPON_TEXT
};
static const char *const unpaired_names[] = {
#define PAIRS_UNPAIRED_JSON(name, json, text) json,
    PAIRS_UNPAIRED_MAP(PAIRS_UNPAIRED_JSON)
#undef PAIRS_UNPAIRED_JSON
};
static const char *const unpaired_texts[] = {
#define PAIRS_UNPAIRED_TEXT(name, json, text) text,
    PAIRS_UNPAIRED_MAP(PAIRS_UNPAIRED_TEXT)
#undef PAIRS_UNPAIRED_TEXT
};

const char *pairs_noweapon_name(pairs_noweapon why)
{
    return (unsigned)why < PAIRS__NOWEAPON_COUNT ? noweapon_names[why] : "?";
}

const char *pairs_noweapon_text(pairs_noweapon why)
{
    return (unsigned)why < PAIRS__NOWEAPON_COUNT ? noweapon_texts[why] : "?";
}

const char *pairs_unpaired_name(pairs_unpaired_why why)
{
    return (unsigned)why < PAIRS__UNPAIRED_COUNT ? unpaired_names[why] : "?";
}

const char *pairs_unpaired_text(pairs_unpaired_why why)
{
    return (unsigned)why < PAIRS__UNPAIRED_COUNT ? unpaired_texts[why] : "?";
}

int pairs_parse_name(const char *name, char *character, char *role)
{
    const char *b = path_base(name);
    size_t n = strlen(b);
    if (n < 8 || strcasecmp(b + n - 4, ".dat") != 0) return 0; /* d X c digit .dat */
    unsigned char x = (unsigned char)b[1], r = (unsigned char)tolower((unsigned char)b[2]);
    if (tolower((unsigned char)b[0]) != 'd' || !isalnum(x) || (r != 'c' && r != 'w')) return 0;
    for (size_t i = 3; i < n - 4; i++)
        if (!isdigit((unsigned char)b[i])) return 0;
    *character = (char)tolower(x);
    *role = (char)r;
    return 1;
}

/* What the pairing needs to know of each file. */
typedef struct fileinfo {
    const char *base;
    int named; /* pairs_parse_name accepted it */
    char character, role;
} fileinfo;

/* Counts of a character's files, by what they can do. */
typedef struct tally {
    unsigned bodies, edeas, bad_bodies;     /* named 'c' */
    unsigned weapons, reduced, bad_weapons; /* named 'w' */
} tally;

static tally count_character(const pairs_file *f, const fileinfo *fi, size_t n, char x)
{
    tally t;
    memset(&t, 0, sizeof t);
    for (size_t j = 0; j < n; j++) {
        if (!fi[j].named || fi[j].character != x) continue;
        int parsed = f[j].parsed && (unsigned)f[j].kind < DAT__KIND_COUNT;
        if (fi[j].role == 'c') {
            t.bad_bodies += !parsed;
            t.bodies += parsed && f[j].kind == DAT_BODY;
            t.edeas += parsed && f[j].kind == DAT_EDEA;
        } else {
            t.bad_weapons += !parsed;
            t.weapons += parsed && f[j].kind == DAT_WEAPON;
            t.reduced += parsed && f[j].kind == DAT_WEAPON_REDUCED;
        }
    }
    return t;
}

/* Growable arrays of the result. */
static int push_entity(pairs_set *s, size_t *cap, pairs_entity e)
{
    if (GROW(s->e, *cap, s->n + 1, 16) < 0) return -1;
    s->e[s->n++] = e;
    return 0;
}

static int push_unpaired(pairs_set *s, size_t *cap, size_t weapon, pairs_unpaired_why why)
{
    if (GROW(s->unpaired, *cap, s->nunpaired + 1, 8) < 0) return -1;
    s->unpaired[s->nunpaired++] = (pairs_unpaired){weapon, why};
    return 0;
}

static pairs_entity lone(size_t i, unsigned clips, pairs_noweapon why)
{
    pairs_entity e;
    memset(&e, 0, sizeof e);
    e.body = i;
    e.weapon = PAIRS_NONE;
    e.body_clips = clips;
    e.why = why;
    return e;
}

/* A body's entities: one per weapon of its character, or one without. */
static int body_entities(const pairs_file *f, const fileinfo *fi, size_t n, size_t i, pairs_set *s,
                         size_t *cap)
{
    if (!fi[i].named || fi[i].role != 'c')
        return push_entity(s, cap, lone(i, f[i].clips, PAIRS_NOWEAPON_UNNAMED));
    unsigned paired = 0;
    for (size_t j = 0; j < n; j++) {
        if (!fi[j].named || fi[j].role != 'w' || fi[j].character != fi[i].character ||
            !f[j].parsed || f[j].kind != DAT_WEAPON)
            continue;
        pairs_entity e = lone(i, f[i].clips, PAIRS_NOWEAPON_NONE);
        e.weapon = j;
        e.weapon_clips = f[j].clips;
        e.pool_mismatch = f[j].clips != f[i].clips;
        if (push_entity(s, cap, e) < 0) return -1;
        paired++;
    }
    if (paired) return 0;
    tally t = count_character(f, fi, n, fi[i].character);
    pairs_noweapon why = t.reduced       ? PAIRS_NOWEAPON_REDUCED_ONLY
                         : t.bad_weapons ? PAIRS_NOWEAPON_WEAPON_BAD
                                         : PAIRS_NOWEAPON_NO_WEAPON_FILE;
    return push_entity(s, cap, lone(i, f[i].clips, why));
}

/* Why a weapon (or reduced weapon) pairs with nothing; -1 when it does. */
static int unpaired_why(const pairs_file *f, const fileinfo *fi, size_t n, size_t j)
{
    if (!fi[j].named || fi[j].role != 'w') return PAIRS_UNPAIRED_UNNAMED;
    tally t = count_character(f, fi, n, fi[j].character);
    if (t.bodies) return -1;
    if (t.edeas) return PAIRS_UNPAIRED_EDEA_ONLY;
    return t.bad_bodies ? PAIRS_UNPAIRED_BODY_BAD : PAIRS_UNPAIRED_NO_BODY;
}

static int listed(const fileinfo *fi, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(fi[i].base, name)) return 1;
    return 0;
}

/* Lays the manifest's values on the pairs; unknown names are errors. */
static int apply_attach(pairs_set *s, const fileinfo *fi, size_t n, const pairs_attach_list *att,
                        ff_error *err)
{
    for (size_t k = 0; k < att->n; k++) {
        const pairs_attach_entry *a = &att->e[k];
        const char *missing = !listed(fi, n, a->body)     ? a->body
                              : !listed(fi, n, a->weapon) ? a->weapon
                                                          : NULL;
        if (missing)
            return ff_error_set(err, FF_E_FORMAT, att->source, -1,
                                "attach entry %zu (%s + %s): %s is not in the corpus", k, a->body,
                                a->weapon, missing);
        int used = 0;
        for (size_t i = 0; i < s->n; i++) {
            pairs_entity *e = &s->e[i];
            if (e->weapon == PAIRS_NONE || strcasecmp(fi[e->body].base, a->body) ||
                strcasecmp(fi[e->weapon].base, a->weapon))
                continue;
            e->attach = a->attach;
            used = 1;
        }
        s->attach_unused += !used;
    }
    return 0;
}

static int build(const pairs_file *f, const fileinfo *fi, size_t n, pairs_set *s)
{
    size_t cap = 0, ucap = 0;
    for (size_t i = 0; i < n; i++) {
        if (!f[i].parsed) continue;
        int rc = 0;
        switch (f[i].kind) {
        case DAT_MONSTER:
            rc = push_entity(s, &cap, lone(i, f[i].clips, PAIRS_NOWEAPON_MONSTER));
            break;
        case DAT_EDEA:
            rc = push_entity(s, &cap, lone(i, f[i].clips, PAIRS_NOWEAPON_EDEA));
            break;
        case DAT_BODY:
            rc = body_entities(f, fi, n, i, s, &cap);
            break;
        default:
            break;
        }
        if (rc < 0) return -1;
    }
    for (size_t j = 0; j < n; j++) {
        if (!f[j].parsed || (f[j].kind != DAT_WEAPON && f[j].kind != DAT_WEAPON_REDUCED)) continue;
        int why = unpaired_why(f, fi, n, j);
        if (why >= 0 && push_unpaired(s, &ucap, j, (pairs_unpaired_why)why) < 0) return -1;
    }
    for (size_t i = 0; i < s->n; i++) {
        s->monsters += s->e[i].why == PAIRS_NOWEAPON_MONSTER;
        s->armed += s->e[i].weapon != PAIRS_NONE;
        s->pool_mismatches += (unsigned)s->e[i].pool_mismatch;
    }
    return 0;
}

int pairs_build(const pairs_file *files, size_t n, const pairs_attach_list *att, pairs_set *out,
                ff_error *err)
{
    memset(out, 0, sizeof *out);
    if (n && !files)
        return ff_error_set(err, FF_E_USAGE, NULL, -1, "no file list for %zu files", n);
    for (size_t i = 0; i < n; i++)
        if (!files[i].name)
            return ff_error_set(err, FF_E_USAGE, NULL, -1, "file %zu has no name", i);
    fileinfo *fi = calloc(n ? n : 1, sizeof *fi);
    if (!fi) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for %zu file names", n);
    for (size_t i = 0; i < n; i++) {
        fi[i].base = path_base(files[i].name);
        fi[i].named = pairs_parse_name(files[i].name, &fi[i].character, &fi[i].role);
    }
    int rc = 0;
    if (build(files, fi, n, out) < 0)
        rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for the entity list");
    else if (att && apply_attach(out, fi, n, att, err) < 0)
        rc = -1;
    free(fi);
    if (rc < 0) pairs_free(out);
    return rc;
}

int pairs_from_manifest(const manifest *m, const pairs_attach_list *att, pairs_set *out,
                        ff_error *err)
{
    memset(out, 0, sizeof *out);
    pairs_file *f = calloc(m->n ? m->n : 1, sizeof *f);
    if (!f) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for %zu files", m->n);
    for (size_t i = 0; i < m->n; i++) {
        const manifest_entry *e = &m->e[i];
        f[i] = (pairs_file){e->name, e->parsed, e->kind, e->clips};
    }
    int rc = pairs_build(f, m->n, att, out, err);
    free(f);
    return rc;
}

void pairs_free(pairs_set *s)
{
    if (!s) return;
    free(s->e);
    free(s->unpaired);
    memset(s, 0, sizeof *s);
}
