/*
 * harness/core/cdiff.c: comparing two corpora (cdiff.h) with the reference
 * engine.
 *
 * Must not print or exit; holds one pair of files in memory at a time.
 */
#include "harness/core/cdiff.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/sha256.h"
#include "harness/core/json_out.h"
#include "ref/dat.h"
#include "ref/engine.h"

const char *cdiff_status_name(cdiff_status s)
{
    static const char *const n[] = {
#define CDIFF_STATUS_NAME(id, name, heading) name,
        CDIFF_STATUS_MAP(CDIFF_STATUS_NAME)
#undef CDIFF_STATUS_NAME
    };
    return (unsigned)s < CDIFF__COUNT ? n[s] : "?";
}

const char *cdiff_status_heading(cdiff_status s)
{
    static const char *const n[] = {
#define CDIFF_STATUS_HEAD(id, name, heading) heading,
        CDIFF_STATUS_MAP(CDIFF_STATUS_HEAD)
#undef CDIFF_STATUS_HEAD
    };
    return (unsigned)s < CDIFF__COUNT ? n[s] : "?";
}

/* One side of a pair, loaded and parsed. */
typedef struct side {
    uint8_t *data;
    size_t size;
    dat_file dat;
    int parsed;
} side;

static char *dup_str(const char *s)
{
    size_t k = strlen(s) + 1;
    char *d = malloc(k);
    if (d) memcpy(d, s, k);
    return d;
}

/* Decodes one tick after another in both engines; the first tick whose state differs, or -1. */
static int32_t first_frame(ref_anim *a, ref_anim *b, uint32_t clip, mode_id m)
{
    ff_error ea, eb;
    int ra = 0, rb = 0;
    a->cmd = (ref_animcmd){0};
    b->cmd = (ref_animcmd){0};
    a->cmd.flags = b->cmd.flags = mode_flags(m);
    ref_anim_reset_skeleton(a);
    ref_anim_reset_skeleton(b);
    int ka = ref_start_clip(a, (int16_t)clip, &ra, &ea);
    int kb = ref_start_clip(b, (int16_t)clip, &rb, &eb);
    size_t skel = DAT_SKEL_HEADER + 48 * (size_t)a->bones;
    for (int32_t t = 0; t < CDIFF_TICKS_MAX; t++) {
        if (ka != kb || ra != rb || a->cmd.frame != b->cmd.frame || a->cmd.total != b->cmd.total ||
            (ka == 0 && memcmp(a->skel, b->skel, skel)))
            return t;
        if (ka < 0 || ra == 1) return -1;
        ka = ref_read_animation(a, &ra, &ea);
        kb = ref_read_animation(b, &rb, &eb);
    }
    return -1;
}

/* The bytes of clip c: from its offset to the next clip's (or the section's end). */
static int clip_bytes(const dat_file *d, uint32_t c, const uint8_t **p, size_t *n)
{
    uint32_t off, end = d->anim_off + d->anim_size;
    if (dat_clip_offset(d, c, &off, NULL) < 0) return -1;
    uint32_t next;
    if (c + 1 < d->clips && dat_clip_offset(d, c + 1, &next, NULL) == 0 && next > off) end = next;
    *p = d->data + off;
    *n = end > off ? end - off : 0;
    return 0;
}

static int clip_stream_changed(const side *a, const side *b, uint32_t c)
{
    const uint8_t *pa, *pb;
    size_t na, nb;
    if (clip_bytes(&a->dat, c, &pa, &na) < 0 || clip_bytes(&b->dat, c, &pb, &nb) < 0) return 1;
    return na != nb || memcmp(pa, pb, na);
}

static int section_differs(const side *a, const side *b, uint32_t i)
{
    uint32_t la = a->dat.section[i + 1] - a->dat.section[i];
    uint32_t lb = b->dat.section[i + 1] - b->dat.section[i];
    return la != lb || memcmp(a->data + a->dat.section[i], b->data + b->dat.section[i], la);
}

/* Clip by clip, for two parsed model files. */
static int compare_clips(cdiff_file *f, const side *a, const side *b, ff_error *err)
{
    uint32_t n = a->dat.clips > b->dat.clips ? a->dat.clips : b->dat.clips;
    uint8_t *sa = malloc(ref_skel_size(&a->dat) + 1), *sb = malloc(ref_skel_size(&b->dat) + 1);
    f->clip = calloc(n ? n : 1, sizeof *f->clip);
    int rc = 0;
    ref_anim ra, rb;
    if (!sa || !sb || !f->clip) {
        rc = ff_error_set(err, FF_E_NOMEM, f->name, -1, "no memory");
        goto done;
    }
    int same_bones = a->dat.bones == b->dat.bones;
    int engines = same_bones &&
                  ref_anim_init(&ra, &a->dat, sa, ref_skel_size(&a->dat), NULL) == 0 &&
                  ref_anim_init(&rb, &b->dat, sb, ref_skel_size(&b->dat), NULL) == 0;
    int skel = section_differs(a, b, 0);
    for (uint32_t c = 0; c < n; c++) {
        cdiff_clip k = {c, c < a->dat.clips, c < b->dat.clips, (uint8_t)skel, 0, {0}};
        int changed = !k.in_a || !k.in_b || skel;
        if (k.in_a && k.in_b) k.stream = (uint8_t)clip_stream_changed(a, b, c);
        changed |= k.stream;
        for (int m = 0; m < MODE__COUNT; m++) {
            k.first[m] = -1;
            if (k.in_a && k.in_b) k.first[m] = engines ? first_frame(&ra, &rb, c, (mode_id)m) : 0;
            if (k.first[m] >= 0) changed = 1;
        }
        if (changed) f->clip[f->nclips++] = k;
    }
done:
    free(sa);
    free(sb);
    return rc;
}

static int load_side(const corpus *c, size_t i, side *s, ff_error *why)
{
    memset(s, 0, sizeof *s);
    if (corpus_load(c, i, &s->data, &s->size, why) < 0) return -1;
    s->parsed = dat_parse(s->data, s->size, corpus_name(c, i), &s->dat, NULL) == 0;
    return 0;
}

static int compare_pair(cdiff_file *f, const corpus *ca, size_t ia, const corpus *cb, size_t ib,
                        ff_error *err)
{
    side s[2];
    const corpus *c[2] = {ca, cb};
    size_t idx[2] = {ia, ib};
    int rc = 0;
    memset(s, 0, sizeof s);
    for (int k = 0; k < 2; k++) {
        if (load_side(c[k], idx[k], &s[k], &f->error) < 0) {
            f->status = CDIFF_BAD;
            f->bad_side = k ? 'B' : 'A';
            goto done;
        }
        f->size[k] = s[k].size;
        if (sha256_hex(s[k].data, s[k].size, f->sha256[k], err) < 0) {
            rc = -1;
            goto done;
        }
        f->nsections[k] = s[k].parsed ? s[k].dat.nsections : 0;
        f->clips[k] = s[k].parsed && dat_kind_has_model(s[k].dat.kind) ? s[k].dat.clips : 0;
    }
    if (s[0].size == s[1].size && !memcmp(s[0].data, s[1].data, s[0].size)) {
        f->status = CDIFF_SAME;
        goto done;
    }
    f->status = CDIFF_DIFFER;
    f->layout = !s[0].parsed || !s[1].parsed || f->nsections[0] != f->nsections[1];
    for (uint32_t i = 0; !f->layout && i < f->nsections[0]; i++)
        if (section_differs(&s[0], &s[1], i)) f->sections |= 1u << i;
    if (s[0].parsed && s[1].parsed && dat_kind_has_model(s[0].dat.kind) &&
        dat_kind_has_model(s[1].dat.kind))
        rc = compare_clips(f, &s[0], &s[1], err);
done:
    free(s[0].data);
    free(s[1].data);
    return rc;
}

typedef struct named {
    const char *name;
    size_t index;
    int side;
} named;

static int cmp_named(const void *x, const void *y)
{
    const named *a = x, *b = y;
    int c = strcasecmp(a->name, b->name);
    return c ? c : a->side - b->side;
}

static int set_origin(cdiff_file *f, int k, const corpus *c, size_t i)
{
    char buf[2048];
    if (corpus_provenance(c, i, buf, sizeof buf) < 0) return 0;
    f->origin[k] = dup_str(buf);
    return f->origin[k] ? 0 : -1;
}

/* Every .dat of both corpora, sorted by name (A before B on a tie). */
static named *list_both(const corpus *a, const corpus *b, size_t *n)
{
    size_t na = corpus_count(a), nb = corpus_count(b), k = 0;
    named *l = malloc((na + nb + 1) * sizeof *l);
    if (!l) return NULL;
    for (size_t i = 0; i < na; i++)
        if (corpus_is_dat(a, i)) l[k++] = (named){corpus_name(a, i), i, 0};
    for (size_t i = 0; i < nb; i++)
        if (corpus_is_dat(b, i)) l[k++] = (named){corpus_name(b, i), i, 1};
    qsort(l, k, sizeof *l, cmp_named);
    *n = k;
    return l;
}

int cdiff_run(const corpus *a, const corpus *b, cdiff *out, ff_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = 0;
    named *l = list_both(a, b, &n);
    out->f = calloc(n + 1, sizeof *out->f);
    out->desc[0] = dup_str(corpus_describe(a));
    out->desc[1] = dup_str(corpus_describe(b));
    if (!l || !out->f || !out->desc[0] || !out->desc[1]) {
        free(l);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a corpus diff");
    }
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        cdiff_file *f = &out->f[out->n++];
        f->name = dup_str(l[i].name);
        int pair = i + 1 < n && l[i].side == 0 && l[i + 1].side == 1 &&
                   !strcasecmp(l[i].name, l[i + 1].name);
        if (!f->name)
            rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory");
        else if (pair) {
            rc = compare_pair(f, a, l[i].index, b, l[i + 1].index, err);
            if (rc == 0 &&
                (set_origin(f, 0, a, l[i].index) < 0 || set_origin(f, 1, b, l[i + 1].index) < 0))
                rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory");
            i++;
        } else {
            f->status = l[i].side ? CDIFF_ONLY_B : CDIFF_ONLY_A;
            if (set_origin(f, l[i].side, l[i].side ? b : a, l[i].index) < 0)
                rc = ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory");
        }
        out->count[f->status]++;
        out->clips_changed += f->nclips;
    }
    free(l);
    return rc;
}

void cdiff_free(cdiff *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->f[i].name);
        free(d->f[i].clip);
        free(d->f[i].origin[0]);
        free(d->f[i].origin[1]);
    }
    free(d->f);
    free(d->desc[0]);
    free(d->desc[1]);
    memset(d, 0, sizeof *d);
}

int cdiff_exit_code(const cdiff *d)
{
    if (d->count[CDIFF_BAD]) return 2;
    return d->count[CDIFF_DIFFER] || d->count[CDIFF_ONLY_A] || d->count[CDIFF_ONLY_B] ? 1 : 0;
}
