/*
 * harness/core/causes_quirk.c: a checked decoder's clips in the causes
 * (harness/core/causes.h), where the quirk table was tried on them
 * (check --against; clip_result.explain_tried). Clips the reference with
 * one row switched (or two) reproduces, mismatches and clips stopped short
 * alike, merge into one "quirk" cause per set of rows. Mismatches no row
 * explains merge by shape: the class of the first differing field (rot,
 * root, scale, ...) and how the two values differ there (one of a few
 * shapes, causes_shape), across the class's fields and across modes.
 * Clips stopped short that no row explains are one "stopped" cause. Only
 * clips no other cause holds. Needs only the run's results; never prints.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/causes.h"
#include "harness/core/causes_internal.h"
#include "harness/core/fields.h"

/* What a shape says of the candidate's values against the authority's. */
static const struct {
    const char *name, *words;
} shapes[] = {
    {"ending", "end at another tick (one side stops, the other goes on)"},
    {"bits", "have other flag bits"},
    {"no_16bit_wrap", "differ by a multiple of 65536 (no 16-bit wrap)"},
    {"neutral_scale", "are 1.0 (1024) where the engine's are not"},
    {"off_by_one", "are off by one"},
    {"zero_where_nonzero", "are 0 where the engine's are not"},
    {"nonzero_where_zero", "are not 0 where the engine's are"},
    {"sign_flip", "have the opposite sign"},
    {"constant_factor", "are a whole multiple (or a whole fraction) of the engine's"},
    {"power_of_two_offset", "differ by a power of two (2^k, k >= 3)"},
    {"other", "differ in no simple way"},
};

static int is_scale(field_id f)
{
    return f == FIELD_SCALE_X || f == FIELD_SCALE_Y || f == FIELD_SCALE_Z;
}

/* k when the larger magnitude is k times the smaller (2 <= k <= 16), else 0. */
static int64_t factor_of(int64_t a, int64_t b)
{
    if (a < 0) a = -a;
    if (b < 0) b = -b;
    int64_t big = a > b ? a : b, small = a > b ? b : a;
    if (!small || big % small) return 0;
    int64_t k = big / small;
    return k >= 2 && k <= 16 ? k : 0;
}

const char *causes_shape(field_id f, int32_t cand, int32_t auth)
{
    int64_t d = (int64_t)cand - auth, a = d < 0 ? -d : d;
    const field_def *def = field_def_of(f);
    if (f == FIELD_RET) return "ending";
    if (field_is_bits(f)) return "bits";
    if (def && def->type == FIELD_S16 && d % 65536 == 0) return "no_16bit_wrap";
    if (is_scale(f) && cand == 1024) return "neutral_scale";
    if (a == 1) return "off_by_one";
    if (cand == 0) return "zero_where_nonzero";
    if (auth == 0) return "nonzero_where_zero";
    if ((int64_t)cand == -(int64_t)auth) return "sign_flip";
    if (factor_of(cand, auth)) return "constant_factor";
    if (a >= 8 && !(a & (a - 1))) return "power_of_two_offset";
    return "other";
}

static const char *shape_words(const char *name)
{
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        if (!strcmp(shapes[i].name, name)) return shapes[i].words;
    return shapes[sizeof shapes / sizeof shapes[0] - 1].words;
}

/* The class name of field f ("rot"), "?" when it has none. */
static const char *class_of(const field_classes *fc, field_id f)
{
    int k = f >= 0 && f < FIELD__COUNT ? fc->of[f] : -1;
    return k >= 0 ? field_class_name(fc, k) : "?";
}

/* The signature (the cause's key) of result r; kind set; 0 when it takes no cause here. */
static int signature(const field_classes *fc, const clip_result *r, char *sig, size_t n,
                     const char **kind)
{
    if (!r->explain_tried || r->cause >= 0) return 0;
    if (r->status != RES_MISMATCH && r->status != RES_NOT_DECODED) return 0;
    size_t at = 0;
    if (r->explained) {
        *kind = "quirk";
        at = (size_t)snprintf(sig, n, "quirk");
        for (unsigned q = 0; q < REF_Q__COUNT && at < n; q++)
            if (r->explained & REF_QUIRK_BIT(q))
                at +=
                    (size_t)snprintf(sig + at, n - at, "|%s", ref_quirk_def_of((ref_quirk)q)->name);
        return 1;
    }
    if (r->status == RES_NOT_DECODED) {
        *kind = "stopped";
        snprintf(sig, n, "stopped|unexplained");
        return 1;
    }
    *kind = "shape";
    snprintf(sig, n, "shape|%s|%s", class_of(fc, r->div.field),
             causes_shape(r->div.field, r->div.ref, r->div.orig));
    return 1;
}

/* The cause whose signature is sig, added (kind, rows) when none is. -1: out of memory. */
static int cause_for(run_results *res, size_t from, const char *sig, const char *kind,
                     uint32_t rows)
{
    for (size_t c = from; c < res->ncauses; c++)
        if (!strcmp(res->causes[c].signature, sig)) return (int)c;
    res_cause *k = realloc(res->causes, (res->ncauses + 1) * sizeof *k);
    if (!k) return -1;
    res->causes = k;
    k = &res->causes[res->ncauses];
    memset(k, 0, sizeof *k);
    causes_put(k->kind, sizeof k->kind, "%s", kind);
    causes_put(k->signature, sizeof k->signature, "%s", sig);
    k->rows = rows;
    k->example = -1;
    k->example_result = -1;
    return (int)res->ncauses++;
}

/* "rot.x: 0 vs 1" (authority vs candidate, as the causes' values read), unless listed. */
static void add_value(res_cause *k, const clip_result *r)
{
    char v[sizeof k->values[0]];
    size_t cls_len;
    if (r->status == RES_NOT_DECODED) {
        causes_put(v, sizeof v, "not decoded: stopped at tick %u of %u", r->ref_ticks,
                   r->orig_ticks);
        cls_len = strlen("not decoded");
    } else {
        const char *kind = field_kind_name(r->div.field);
        causes_put(v, sizeof v, "%s: %d vs %d", kind, r->div.orig, r->div.ref);
        cls_len = strlen(kind);
    }
    causes_add_value(k, v, cls_len);
}

/* The statement of a quirk cause: your decoder does X (and Y); the engine ...: anchors. */
static void quirk_statement(res_cause *k)
{
    const ref_quirk_def *d[2] = {NULL, NULL};
    for (unsigned q = 0, i = 0; q < REF_Q__COUNT && i < 2; q++)
        if (k->rows & REF_QUIRK_BIT(q)) d[i++] = ref_quirk_def_of((ref_quirk)q);
    if (!d[0]) return;
    if (!d[1])
        causes_put(k->statement, sizeof k->statement, "your decoder %s; the engine %s: %s",
                   d[0]->plain, d[0]->engine, d[0]->anchor);
    else
        causes_put(k->statement, sizeof k->statement,
                   "your decoder %s, and %s; the engine %s, and %s: %s%s%s", d[0]->plain,
                   d[1]->plain, d[0]->engine, d[1]->engine, d[0]->anchor,
                   strcmp(d[0]->anchor, d[1]->anchor) ? ", " : "",
                   strcmp(d[0]->anchor, d[1]->anchor) ? d[1]->anchor : "");
}

/* The statement of a shape cause, from its signature, values and modes. */
static void shape_statement(res_cause *k)
{
    const char *cls = strchr(k->signature, '|') + 1, *shape = strchr(cls, '|') + 1;
    char fields[96] = "";
    size_t at = 0, nf = 0;
    for (size_t i = 0; i < k->nvalues && at < sizeof fields; i++, nf++) {
        const char *colon = strchr(k->values[i], ':');
        int len = colon ? (int)(colon - k->values[i]) : 0;
        at += (size_t)snprintf(fields + at, sizeof fields - at, "%s%.*s", i ? ", " : "", len,
                               k->values[i]);
    }
    char modes[64] = "";
    at = 0;
    for (int m = 0; m < MODE__COUNT && at < sizeof modes; m++)
        if (k->modes >> m & 1)
            at += (size_t)snprintf(modes + at, sizeof modes - at, "%s%s", at ? ", " : "",
                                   mode_name((mode_id)m));
    causes_put(k->statement, sizeof k->statement,
               "your decoder's %.*s values %s at their first divergence (%zu field%s: %s%s; "
               "mode%s %s); no row of the quirk table (one or two switched) reproduces them",
               (int)(shape - cls - 1), cls, shape_words(shape), nf + k->more_values,
               nf + k->more_values == 1 ? "" : "s", fields, k->more_values ? ", ..." : "",
               strchr(modes, ',') ? "s" : "", modes);
}

/* Counts, groups, example and statement of the causes from first on. -1: out of memory. */
static int fill(run_results *res, size_t first)
{
    uint8_t *seen = malloc(res->nfiles ? res->nfiles : 1);
    uint8_t *gseen = malloc(res->ngroups ? res->ngroups : 1);
    if (!seen || !gseen) {
        free(seen);
        free(gseen);
        return -1;
    }
    int rc = 0;
    for (size_t c = first; c < res->ncauses && rc == 0; c++) {
        res_cause *k = &res->causes[c];
        memset(seen, 0, res->nfiles ? res->nfiles : 1);
        memset(gseen, 0, res->ngroups ? res->ngroups : 1);
        for (size_t i = 0; i < res->nresults; i++) {
            const clip_result *r = &res->results[i];
            if (r->cause != (int)c) continue;
            if (k->example_result < 0) k->example_result = (int64_t)i;
            k->clips++;
            k->modes |= 1u << r->mode;
            if (r->file < res->nfiles && !seen[r->file]) {
                seen[r->file] = 1;
                k->files++;
            }
            if (r->group >= 0 && (size_t)r->group < res->ngroups) gseen[r->group] = 1;
            add_value(k, r);
        }
        for (size_t g = 0; g < res->ngroups; g++) {
            if (!gseen[g]) continue;
            int *gs = realloc(k->groups, (k->ngroups + 1) * sizeof *gs);
            if (!gs) {
                rc = -1;
                break;
            }
            k->groups = gs;
            k->groups[k->ngroups++] = (int)g;
            if (k->example < 0) k->example = (int64_t)g;
        }
        if (!strcmp(k->kind, "quirk"))
            quirk_statement(k);
        else if (!strcmp(k->kind, "shape"))
            shape_statement(k);
        else
            causes_put(k->statement, sizeof k->statement,
                       "your decoder stopped short of the engine's last tick where no row of the "
                       "quirk table explains it (none stops there, no quirk departs there): "
                       "unexplained");
    }
    free(seen);
    free(gseen);
    return rc;
}

int causes_add_quirk(run_results *res)
{
    field_classes fc;
    field_classes_make(&fc);
    size_t first = res->ncauses;
    for (size_t c = 0; c < first; c++)
        res->causes[c].example_result = -1;
    for (size_t i = 0; i < res->nresults; i++) {
        clip_result *r = &res->results[i];
        char sig[sizeof res->causes[0].signature];
        const char *kind = NULL;
        if (!signature(&fc, r, sig, sizeof sig, &kind)) continue;
        int c = cause_for(res, first, sig, kind, r->explained);
        if (c < 0) return -1;
        r->cause = c;
    }
    if (fill(res, first) < 0) return -1;
    /* A group no other cause holds takes its example's. */
    for (size_t g = 0; g < res->ngroups; g++) {
        res_group *grp = &res->groups[g];
        if (grp->cause >= 0 || grp->example < 0 || strcmp(grp->level, "frame")) continue;
        if ((size_t)grp->example < res->nresults) grp->cause = res->results[grp->example].cause;
    }
    return 0;
}
