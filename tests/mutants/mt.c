/*
 * tests/mutants/mt.c: helpers shared by the mutant and run-level suites
 * (see mt.h). Test code only.
 */
#include "common/le.h"
#include "emu/profiles/profile_builtin.h"
#include "tests/mutants/mt.h"

#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corpus/synth.h"
#include "emu/image/profile.h"
#include "harness/core/field_model.h"
#include "harness/core/fields.h"
#include "harness/core/modes.h"

static void *must(void *p)
{
    cr_assert(p != NULL, "out of memory");
    return p;
}

uint32_t mt_section_offset(const uint8_t *data, uint32_t k)
{
    return le_u32(data + 4 + 4 * k);
}

uint32_t mt_clip_offset(const uint8_t *data, uint32_t c)
{
    uint32_t anim = mt_section_offset(data, DAT_SECTION_ANIMATION);
    return anim + le_u32(data + anim + 4 + 4 * c);
}

/* The clip as synth_model arrays (every array malloc'd, freed by synth_model_free). */
static void fill_clip(synth_clip *k, const mt_clip *c, unsigned bones)
{
    size_t per = (size_t)bones * 3;
    k->frames = c->n;
    k->root = must(calloc(3 * c->n, sizeof *k->root));
    k->mode = must(calloc(c->n, sizeof *k->mode));
    k->rot = must(calloc(per * c->n, sizeof *k->rot));
    k->scale = must(calloc(per * c->n, sizeof *k->scale));
    for (unsigned f = 0; f < c->n; f++) {
        const mt_frame *fr = &c->f[f];
        memcpy(k->root + 3 * f, fr->root, sizeof fr->root);
        k->mode[f] = fr->mode;
        for (unsigned b = 0; b < bones; b++)
            for (int x = 0; x < 3; x++) {
                k->rot[per * f + 3 * b + (unsigned)x] = fr->rot[b][x];
                k->scale[per * f + 3 * b + (unsigned)x] = fr->scale[b][x];
            }
    }
}

uint8_t *mt_encode(const mt_model *m, size_t *size)
{
    cr_assert(m->bones >= 1 && m->bones <= MT_MAX_BONES, "%s: %u bones", m->name, m->bones);
    synth_model s;
    memset(&s, 0, sizeof s);
    s.kind = m->kind;
    s.bones = m->bones;
    s.bone = must(calloc(m->bones, sizeof *s.bone));
    for (unsigned b = 0; b < m->bones; b++) {
        s.bone[b].parent = (int16_t)((int)b - 1);
        s.bone[b].length = 100;
        memcpy(s.bone[b].scale, m->rest_scale, sizeof m->rest_scale);
    }
    s.flags = m->flags;
    s.model_scale = m->model_scale ? m->model_scale : 1024;
    memcpy(s.root, m->root, sizeof m->root);
    s.nclips = m->nclips;
    s.clip = must(calloc(m->nclips, sizeof *s.clip));
    for (unsigned c = 0; c < m->nclips; c++)
        fill_clip(&s.clip[c], &m->clip[c], m->bones);
    s.filler_seed = 7;
    s.geometry_seed = 8;
    s.geometry_size = 64;
    uint8_t *data = NULL;
    ff_error err;
    TS_OK(synth_model_encode(&s, &data, size, &err), &err);
    synth_model_free(&s);
    /* Section 3: what a SLOW+FAST run reads past the last clip. */
    uint32_t from = mt_section_offset(data, 3), to = mt_section_offset(data, 4);
    cr_assert(from <= to && to <= *size, "%s: section 3 at 0x%x..0x%x", m->name, from, to);
    memset(data + from, 0, to - from);
    return data;
}

void mt_write_model(const char *dir, const mt_model *m)
{
    size_t size;
    uint8_t *data = mt_encode(m, &size);
    char *p = ts_path(dir, m->name);
    ts_write(p, (const char *)data, size);
    free(p);
    free(data);
}

emu_image *mt_image(const char *exe)
{
    emu_profile p;
    ff_error err;
    TS_OK(profile_builtin_by_name("standin", &p, &err), &err);
    char *path = ts_standin(exe);
    emu_image *img = NULL;
    char warn[512];
    TS_OK(emu_image_load(path, &p, &img, warn, sizeof warn, &err), &err);
    free(path);
    return img;
}

void mt_config(run_config *cfg, const char *corpus, const emu_image *img, unsigned jobs)
{
    run_config_init(cfg);
    cfg->corpus_path = corpus;
    cfg->image = img;
    cfg->game.engine = ts_engine();
    cfg->modes = MODE_ALL;
    cfg->frame_level = 1;
    cfg->leaf_level = 0;
    cfg->jobs = jobs;
}

void mt_execute(const run_config *cfg, run_results *out)
{
    ff_error err;
    ff_error_clear(&err);
    TS_OK(run_execute(cfg, out, &err), &err);
}

void mt_run(const char *corpus, const char *exe, unsigned jobs, run_results *out)
{
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config(&cfg, corpus, img, jobs);
    mt_execute(&cfg, out);
    emu_image_free(img);
}

void mt_run_pose(const char *corpus, const char *exe, const char *conv, run_results *out)
{
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config(&cfg, corpus, img, 2);
    cfg.pose_level = 1;
    cfg.pose_search = conv == NULL;
    ff_error err;
    if (conv) TS_OK(ref_pose_opts_parse(conv, &cfg.pose_opts, &err), &err);
    mt_execute(&cfg, out);
    emu_image_free(img);
}

char *mt_small_preset(void)
{
    char *dir = ts_tempdir();
    synth_summary sum;
    ff_error err;
    memset(&sum, 0, sizeof sum);
    TS_OK(synth_write(dir, SYNTH_SMALL, 1, &sum, &err), &err);
    return dir;
}

const char *mt_file(const run_results *r, const clip_result *c)
{
    return c->file < r->nfiles ? r->files[c->file].name : "?";
}

const clip_result *mt_find(const run_results *r, const char *file, int32_t clip, mode_id mode)
{
    for (size_t i = 0; i < r->nresults; i++) {
        const clip_result *c = &r->results[i];
        if (c->clip == clip && c->mode == mode && !strcmp(mt_file(r, c), file)) return c;
    }
    return NULL;
}

const char *mt_mode(mode_id m)
{
    return mode_name(m);
}

static const mt_expect *expected(const run_results *r, const clip_result *c, const mt_expect *e,
                                 size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (e[i].clip == c->clip && e[i].mode == c->mode && !strcmp(e[i].file, mt_file(r, c)))
            return &e[i];
    return NULL;
}

void mt_check(const run_results *r, const mt_expect *e, size_t n)
{
    cr_assert(!r->interrupted, "run interrupted");
    cr_assert(r->nresults > 0, "no results");
    for (size_t i = 0; i < n; i++)
        cr_assert(mt_find(r, e[i].file, e[i].clip, e[i].mode) != NULL,
                  "expectation %zu: no result for %s clip %d %s", i, e[i].file, e[i].clip,
                  mt_mode(e[i].mode));
    for (size_t i = 0; i < r->nresults; i++) {
        const clip_result *c = &r->results[i];
        const char *file = mt_file(r, c);
        const mt_expect *x = expected(r, c, e, n);
        cr_assert(c->source == RES_SRC_EMULATED || c->source == RES_SRC_SHARED,
                  "%s clip %d %s: source %s", file, c->clip, mt_mode(c->mode),
                  res_source_name(c->source));
        if (!x) {
            char name[64] = "";
            if (c->status == RES_MISMATCH) field_name(c->div.field, c->div.bone, name, sizeof name);
            cr_assert(c->status == RES_MATCH,
                      "%s clip %d %s: expected a match, got %s (tick %zu %s ref %d orig %d)", file,
                      c->clip, mt_mode(c->mode), res_status_name(c->status), c->div.tick, name,
                      c->div.ref, c->div.orig);
            continue;
        }
        cr_assert(c->status == RES_MISMATCH, "%s clip %d %s: expected a mismatch, got %s", file,
                  c->clip, mt_mode(c->mode), res_status_name(c->status));
        char name[64];
        field_name(c->div.field, c->div.bone, name, sizeof name);
        cr_assert(c->div.tick == x->tick && !strcmp(name, x->field),
                  "%s clip %d %s: first divergence tick %zu %s (ref %d orig %d), expected tick "
                  "%zu %s",
                  file, c->clip, mt_mode(c->mode), c->div.tick, name, c->div.ref, c->div.orig,
                  x->tick, x->field);
        cr_assert(!field_is_per_bone(c->div.field) || c->div.bone == x->bone,
                  "%s clip %d %s: bone %u, expected %u", file, c->clip, mt_mode(c->mode),
                  c->div.bone, x->bone);
        cr_assert(c->div.ref == x->ref && c->div.orig == x->orig,
                  "%s clip %d %s tick %zu %s: ref %d orig %d, expected ref %d orig %d", file,
                  c->clip, mt_mode(c->mode), c->div.tick, name, c->div.ref, c->div.orig, x->ref,
                  x->orig);
        cr_assert(c->div.cursor_off == x->cur_off && c->div.cursor_bit == x->cur_bit,
                  "%s clip %d %s tick %zu: cursor (%d, %d), expected (%d, %d)", file, c->clip,
                  mt_mode(c->mode), c->div.tick, c->div.cursor_off, c->div.cursor_bit, x->cur_off,
                  x->cur_bit);
        cr_assert(c->group >= 0 && (size_t)c->group < r->ngroups, "%s clip %d %s: group %d", file,
                  c->clip, mt_mode(c->mode), c->group);
    }
    cr_assert_eq(r->totals.by_status[RES_MISMATCH], n, "mismatches: %llu, expected %zu",
                 (unsigned long long)r->totals.by_status[RES_MISMATCH], n);
    cr_assert_eq(r->totals.by_status[RES_FAULT], 0);
    cr_assert_eq(r->totals.by_status[RES_BAD_INPUT], 0);
    cr_assert_eq(r->totals.by_status[RES_NOT_RUN], 0);
    uint64_t grouped = 0;
    for (size_t g = 0; g < r->ngroups; g++)
        if (!strcmp(r->groups[g].level, "frame")) grouped += r->groups[g].count;
    cr_assert_eq(grouped, n, "frame groups hold %llu mismatches, expected %zu",
                 (unsigned long long)grouped, n);
}

void mt_config_entity(run_config *cfg, const char *corpus, const emu_image *img, unsigned jobs)
{
    mt_config(cfg, corpus, img, jobs);
    cfg->entity_level = 1;
}

void mt_run_entity(const char *corpus, const char *exe, unsigned jobs, run_results *out)
{
    emu_image *img = mt_image(exe);
    run_config cfg;
    mt_config_entity(&cfg, corpus, img, jobs);
    mt_execute(&cfg, out);
    emu_image_free(img);
}

static const char *ent_weapon(const run_results *r, const entity_result *er)
{
    int32_t w = r->entities[er->entity].weapon;
    return w >= 0 ? r->files[w].name : NULL;
}

static int same_pair(const run_results *r, const entity_result *er, const char *body,
                     const char *weapon)
{
    const char *w = ent_weapon(r, er);
    return !strcmp(r->files[r->entities[er->entity].body].name, body) &&
           (weapon ? w && !strcmp(w, weapon) : !w);
}

const entity_result *mt_ent_find(const run_results *r, const char *body, const char *weapon,
                                 int32_t clip, mode_id mode)
{
    for (size_t i = 0; i < r->nentity_results; i++) {
        const entity_result *er = &r->entity_results[i];
        if (er->r.clip == clip && er->r.mode == mode && same_pair(r, er, body, weapon)) return er;
    }
    return NULL;
}

void mt_ent_check(const run_results *r, const mt_ent_expect *e, size_t n)
{
    cr_assert(!r->interrupted, "run interrupted");
    cr_assert(r->nentity_results > 0, "no entity results");
    for (size_t i = 0; i < n; i++)
        cr_assert(mt_ent_find(r, e[i].body, e[i].weapon, e[i].clip, e[i].mode) != NULL,
                  "expectation %zu: no result for %s+%s clip %d %s", i, e[i].body,
                  e[i].weapon ? e[i].weapon : "-", e[i].clip, mt_mode(e[i].mode));
    for (size_t i = 0; i < r->nentity_results; i++) {
        const entity_result *er = &r->entity_results[i];
        const clip_result *c = &er->r;
        const char *body = r->files[r->entities[er->entity].body].name, *w = ent_weapon(r, er);
        const mt_ent_expect *x = NULL;
        for (size_t k = 0; k < n && !x; k++)
            if (e[k].clip == c->clip && e[k].mode == c->mode &&
                same_pair(r, er, e[k].body, e[k].weapon))
                x = &e[k];
        char name[64] = "";
        if (c->status == RES_MISMATCH)
            field_model_field_name(c->div.model, c->div.field, c->div.bone, name, sizeof name);
        cr_assert(c->source == RES_SRC_EMULATED || c->source == RES_SRC_SHARED ||
                      c->source == RES_SRC_CACHE,
                  "%s+%s clip %d %s: source %s", body, w ? w : "-", c->clip, mt_mode(c->mode),
                  res_source_name(c->source));
        if (!x) {
            cr_assert(c->status == RES_MATCH,
                      "%s+%s clip %d %s: expected a match, got %s (tick %zu %s ref %d orig %d)",
                      body, w ? w : "-", c->clip, mt_mode(c->mode), res_status_name(c->status),
                      c->div.tick, name, c->div.ref, c->div.orig);
            continue;
        }
        cr_assert(c->status == RES_MISMATCH, "%s+%s clip %d %s: expected a mismatch, got %s",
                  body, w ? w : "-", c->clip, mt_mode(c->mode), res_status_name(c->status));
        cr_assert(c->div.tick == x->tick && !strcmp(name, x->field),
                  "%s+%s clip %d %s: first divergence tick %zu %s (ref %d orig %d), expected tick "
                  "%zu %s",
                  body, w ? w : "-", c->clip, mt_mode(c->mode), c->div.tick, name, c->div.ref,
                  c->div.orig, x->tick, x->field);
        cr_assert(c->div.ref == x->ref && c->div.orig == x->orig,
                  "%s+%s clip %d %s tick %zu %s: ref %d orig %d, expected ref %d orig %d", body,
                  w ? w : "-", c->clip, mt_mode(c->mode), c->div.tick, name, c->div.ref,
                  c->div.orig, x->ref, x->orig);
        cr_assert(c->div.cursor_off == x->cur_off && c->div.cursor_bit == x->cur_bit,
                  "%s+%s clip %d %s tick %zu: cursor (%d, %d), expected (%d, %d)", body,
                  w ? w : "-", c->clip, mt_mode(c->mode), c->div.tick, c->div.cursor_off,
                  c->div.cursor_bit, x->cur_off, x->cur_bit);
        cr_assert(c->group >= 0 && (size_t)c->group < r->ngroups &&
                      !strcmp(r->groups[c->group].level, "entity"),
                  "%s+%s clip %d %s: group %d", body, w ? w : "-", c->clip, mt_mode(c->mode),
                  c->group);
    }
    const run_totals *t = &r->totals;
    cr_assert_eq(t->entity_by_status[RES_MISMATCH], n, "entity mismatches: %llu, expected %zu",
                 (unsigned long long)t->entity_by_status[RES_MISMATCH], n);
    cr_assert_eq(t->entity_by_status[RES_FAULT], 0);
    cr_assert_eq(t->entity_by_status[RES_BAD_INPUT], 0);
    cr_assert_eq(t->entity_by_status[RES_NOT_RUN], 0);
    uint64_t grouped = 0;
    for (size_t g = 0; g < r->ngroups; g++)
        if (!strcmp(r->groups[g].level, "entity")) grouped += r->groups[g].count;
    cr_assert_eq(grouped, n, "entity groups hold %llu mismatches, expected %zu",
                 (unsigned long long)grouped, n);
}

uint32_t mt_ticks(unsigned n, mode_id m)
{
    uint8_t flags = mode_flags(m);
    /* StartClip: total = n, or (2n - 1) mod 256 under SLOW. */
    unsigned total = (flags & 1) ? ((2 * n - 1) & 0xFF) : n;
    /* One call per frame (two under FAST) until frame >= total, then the call returning 1. */
    unsigned calls = (flags & 2) ? (total + 1) / 2 : total;
    return calls + 1;
}

void mt_check_ticks(const run_results *r)
{
    for (size_t i = 0; i < r->nresults; i++) {
        const clip_result *c = &r->results[i];
        if (c->clip < 0 || c->status == RES_NOT_RUN || c->status == RES_BAD_INPUT) continue;
        uint32_t want = mt_ticks(c->frames, c->mode);
        cr_assert_eq(c->ref_ticks, want,
                     "%s clip %d (%u frames) %s: %u reference ticks, expected %u", mt_file(r, c),
                     c->clip, c->frames, mt_mode(c->mode), c->ref_ticks, want);
        if (c->status == RES_MATCH)
            cr_assert_eq(c->orig_ticks, want, "%s clip %d %s: %u original ticks, expected %u",
                         mt_file(r, c), c->clip, mt_mode(c->mode), c->orig_ticks, want);
    }
}

void mt_same_entities(const run_results *a, const run_results *b, const char *what)
{
    cr_assert_eq(a->nentities, b->nentities, "%s: entities", what);
    cr_assert_eq(a->nentity_results, b->nentity_results, "%s: entity results", what);
    for (size_t i = 0; i < a->nentity_results; i++) {
        const entity_result *x = &a->entity_results[i], *y = &b->entity_results[i];
        const cmp_divergence *p = &x->r.div, *q = &y->r.div;
        cr_assert(x->entity == y->entity && x->r.clip == y->r.clip && x->r.mode == y->r.mode &&
                      x->r.status == y->r.status && x->r.group == y->r.group &&
                      x->r.ref_ticks == y->r.ref_ticks && x->r.orig_ticks == y->r.orig_ticks &&
                      x->weapon_end_ref == y->weapon_end_ref &&
                      x->weapon_end_orig == y->weapon_end_orig,
                  "%s: entity result %zu differs", what, i);
        if (x->r.status == RES_MISMATCH)
            cr_assert(p->tick == q->tick && p->model == q->model && p->field == q->field &&
                          p->ref == q->ref && p->orig == q->orig && p->differing == q->differing &&
                          x->r.cursor_file_off == y->r.cursor_file_off,
                      "%s: entity result %zu: divergences differ", what, i);
    }
    cr_assert_eq(a->ngroups, b->ngroups, "%s: groups", what);
    for (size_t g = 0; g < a->ngroups; g++)
        cr_assert(!strcmp(a->groups[g].field, b->groups[g].field) &&
                      a->groups[g].count == b->groups[g].count &&
                      a->groups[g].example == b->groups[g].example,
                  "%s: group %zu differs", what, g);
    for (size_t e = 0; e < a->nentities; e++) {
        const res_entity *x = &a->entities[e], *y = &b->entities[e];
        cr_assert(x->plot_clip == y->plot_clip && x->plot_mode == y->plot_mode &&
                      x->offset[0].n == y->offset[0].n,
                  "%s: entity %zu: plots differ", what, e);
        for (int k = 0; k < 3; k++)
            cr_assert(!x->offset[k].n || !memcmp(x->offset[k].orig, y->offset[k].orig,
                                                 x->offset[k].n * sizeof *x->offset[k].orig),
                      "%s: entity %zu axis %d", what, e, k);
    }
}
