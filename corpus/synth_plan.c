/*
 * corpus/synth_plan.c: a plan, the list of named recipes a preset makes
 * (synth_presets.c, synth_vanilla.c): adding models, copies and
 * characters, the entities manifest's attach values, and building one
 * entry's bytes on demand (synth_plan_build) with the corpus summary.
 *
 * Must not print or exit.
 */
#include "common/grow.h"
#include "corpus/synth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth_plan.h"
#include "common/rng.h"

void synth_plan_free(synth_plan *p)
{
    if (!p) return;
    for (size_t i = 0; i < p->n; i++)
        free(p->e[i].clips);
    free(p->e);
    pairs_attach_free(&p->attach);
    free(p);
}

size_t synth_plan_count(const synth_plan *p)
{
    return p->n;
}

const char *synth_plan_name(const synth_plan *p, size_t i)
{
    return i < p->n ? p->e[i].name : NULL;
}

const synth_file_spec *synth_plan_spec(const synth_plan *p, size_t i)
{
    return i < p->n ? &p->e[i].spec : NULL;
}

long synth_plan_dup_of(const synth_plan *p, size_t i)
{
    return i < p->n ? p->e[i].dup_of : -1;
}

const pairs_attach_list *synth_plan_attach(const synth_plan *p)
{
    return &p->attach;
}

long synth_plan_add(synth_plan *p, const char *name, dat_kind kind, unsigned bones, unsigned nclips,
                    const synth_clip_spec *clips, ff_error *err)
{
    if (GROW(p->e, p->cap, p->n + 1, 32) < 0)
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
    plan_entry *e = &p->e[p->n];
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", name);
    e->dup_of = -1;
    if (nclips) {
        e->clips = calloc(nclips, sizeof *e->clips);
        if (!e->clips) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
        for (unsigned c = 0; c < nclips; c++)
            e->clips[c] = clips ? clips[c] : (synth_clip_spec){1, 0, SYNTH_CLIP_RANDOM};
    }
    rng r = rng_make(p->seed, rng_label(name));
    e->spec.kind = kind;
    e->spec.seed = rng_next(&r);
    e->spec.geometry_seed = rng_next(&r);
    e->spec.bones = bones;
    e->spec.nclips = nclips;
    e->spec.clip = e->clips;
    return (long)p->n++;
}

int synth_plan_copy_model(synth_plan *p, size_t dst, size_t src, ff_error *err)
{
    plan_entry *d = &p->e[dst];
    const plan_entry *s = &p->e[src];
    synth_clip_spec *clips = NULL;
    if (s->spec.nclips) {
        clips = malloc(s->spec.nclips * sizeof *clips);
        if (!clips) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
        memcpy(clips, s->clips, s->spec.nclips * sizeof *clips);
    }
    free(d->clips);
    d->clips = clips;
    uint64_t geometry = d->spec.geometry_seed;
    d->spec = s->spec;
    d->spec.geometry_seed = geometry;
    d->spec.clip = clips;
    d->dup_of = (long)src;
    return 0;
}

int synth_plan_attach_add(synth_plan *p, const char *body, const char *weapon, const int16_t rot[3],
                          const int16_t trans[3], ff_error *err)
{
    pairs_attach_list *l = &p->attach;
    pairs_attach_entry *e = realloc(l->e, (l->n + 1) * sizeof *e);
    if (!e) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a plan");
    l->e = e;
    e = &l->e[l->n++];
    memset(e, 0, sizeof *e);
    snprintf(e->body, sizeof e->body, "%s", body);
    snprintf(e->weapon, sizeof e->weapon, "%s", weapon);
    memcpy(e->attach.rot, rot, sizeof e->attach.rot);
    memcpy(e->attach.trans, trans, sizeof e->attach.trans);
    return 0;
}

int synth_plan_character(synth_plan *p, const synth_character *c, ff_error *err)
{
    for (unsigned b = 0; b < c->nbodies; b++)
        if (synth_plan_add(p, c->body[b], c->body_kind, c->bones, c->nclips, c->clips, err) < 0)
            return -1;
    int model = dat_kind_has_model(c->weapon_kind);
    for (unsigned w = 0; w < c->nweapons; w++) {
        long k = synth_plan_add(p, c->weapon[w], c->weapon_kind, model ? c->weapon_bones : 0,
                                model ? c->nclips : 0, c->clips, err);
        if (k < 0) return -1;
        for (unsigned i = 0; model && i < c->nlonger; i++) {
            if (c->longer[i] >= c->nclips || p->e[k].clips[c->longer[i]].frames == 255)
                return ff_error_set(err, FF_E_USAGE, c->weapon[w], -1,
                                    "clip %u cannot be made longer", c->longer[i]);
            p->e[k].clips[c->longer[i]].frames++;
        }
    }
    return 0;
}

static void add_summary(const synth_plan *p, size_t i, const synth_model *m, synth_summary *s)
{
    s->files++;
    s->by_kind[m->kind]++;
    if (!dat_kind_has_model(m->kind)) return;
    if (m->bones > s->max_bones) s->max_bones = m->bones;
    if (!s->min_bones || m->bones < s->min_bones) s->min_bones = m->bones;
    unsigned scale = 0;
    for (unsigned c = 0; c < m->nclips; c++) {
        const synth_clip *k = &m->clip[c];
        int any = 0;
        for (unsigned f = 0; f < k->frames; f++)
            any |= k->mode[f];
        scale += (unsigned)any;
        s->frames += k->frames;
        s->long_clips += k->frames > 128;
    }
    s->clips += m->nclips;
    s->scale_clips += scale;
    s->scale_files += scale > 0;
    if (p->e[i].dup_of >= 0) {
        s->dup_files++;
        s->dup_clips += m->nclips;
    }
}

int synth_plan_build(const synth_plan *p, size_t i, uint8_t **data, size_t *size,
                     synth_summary *sum, ff_error *err)
{
    if (i >= p->n) return ff_error_set(err, FF_E_RANGE, NULL, -1, "plan entry %zu of %zu", i, p->n);
    synth_model m;
    if (synth_spec_model(&p->e[i].spec, &m, err) < 0) {
        if (err) snprintf(err->file, sizeof err->file, "%s", p->e[i].name);
        return -1;
    }
    int rc = synth_model_encode(&m, data, size, err);
    if (rc < 0 && err)
        snprintf(err->file, sizeof err->file, "%s", p->e[i].name);
    else if (sum)
        add_summary(p, i, &m, sum);
    synth_model_free(&m);
    return rc;
}
