/*
 * corpus/manifest.c: per-file descriptions (kind, size, SHA-256, clips,
 * frames, scale-path use) and corpus totals.
 *
 * Must not print or exit, nor let one bad file fail the whole manifest.
 */
#include "corpus/manifest.h"

#include <stdlib.h>
#include <string.h>

#include "common/sha256.h"
#include "ref/engine.h"

/* More calls than any clip of at most 255 frames needs in normal mode. */
#define TICK_LIMIT 512

/* Decodes clip c in normal mode; *scale = 1 when a frame had mode bit 1. */
static int decode_clip(ref_anim *a, uint32_t c, int *scale, ff_error *err)
{
    int ret = 0;
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    if (ref_start_clip(a, (int16_t)c, &ret, err) < 0) return -1;
    *scale = a->skel[DAT_SKEL_FLAGS] & 1;
    for (int tick = 0; ret == 0; tick++) {
        if (tick >= TICK_LIMIT)
            return ff_error_set(err, FF_E_INTERNAL, a->dat->name, -1,
                                "clip %u still running after %d calls", c, TICK_LIMIT);
        if (ref_read_animation(a, &ret, err) < 0) return -1;
        if (ret == 0) *scale |= a->skel[DAT_SKEL_FLAGS] & 1;
    }
    return 0;
}

/* Fills the model figures of e; a decoding error marks e bad. */
static int describe_model(const dat_file *d, manifest_entry *e, ff_error *err)
{
    e->bones = d->bones;
    e->clips = d->clips;
    for (uint32_t c = 0; c < d->clips; c++) {
        unsigned n = dat_clip_frames(d, c);
        e->frames += n;
        e->long_clips += n > 128;
    }
    size_t need = ref_skel_size(d);
    uint8_t *skel = malloc(need ? need : 1);
    if (!skel) return ff_error_set(err, FF_E_NOMEM, d->name, -1, "no memory for a skeleton");
    ref_anim a;
    if (ref_anim_init(&a, d, skel, need, &e->error) < 0) {
        e->bad = 1;
    } else {
        for (uint32_t c = 0; c < d->clips && c <= INT16_MAX; c++) {
            int scale = 0;
            if (decode_clip(&a, c, &scale, &e->error) < 0) {
                ff_error_prefix(&e->error, "clip %u", c);
                e->bad = 1;
                break;
            }
            e->scale_clips += (unsigned)scale;
        }
    }
    free(skel);
    e->scale_path = e->scale_clips > 0;
    return 0;
}

int manifest_analyze(const char *name, const uint8_t *data, size_t size, manifest_entry *e,
                     ff_error *err)
{
    memset(e, 0, sizeof *e);
    ff_error_clear(&e->error);
    size_t k = strlen(name) + 1;
    e->name = malloc(k);
    if (!e->name) return ff_error_set(err, FF_E_NOMEM, name, -1, "no memory for a name");
    memcpy(e->name, name, k);
    e->size = size;
    if (sha256_hex(data, size, e->sha256, err) < 0) goto fail;
    dat_file d;
    if (dat_parse(data, size, e->name, &d, &e->error) < 0) {
        e->bad = 1;
        return 0;
    }
    e->parsed = 1;
    e->kind = d.kind;
    if (dat_kind_has_model(d.kind) && describe_model(&d, e, err) < 0) goto fail;
    return 0;
fail:
    manifest_entry_clear(e);
    return -1;
}

void manifest_entry_clear(manifest_entry *e)
{
    if (!e) return;
    free(e->name);
    free(e->origin);
    memset(e, 0, sizeof *e);
}

void manifest_totals_add(manifest_totals *t, const manifest_entry *e)
{
    t->files++;
    if (e->bad) {
        t->bad++;
        return;
    }
    if ((unsigned)e->kind < DAT__KIND_COUNT) t->by_kind[e->kind]++;
    t->clips += e->clips;
    t->frames += e->frames;
    t->scale_files += e->scale_path != 0;
    t->scale_clips += e->scale_clips;
    if (e->bones > t->max_bones) t->max_bones = e->bones;
    t->long_clips += e->long_clips;
}

/* Marks e bad with a loading error. */
static int load_failed(manifest_entry *e, const char *name, const ff_error *why, ff_error *err)
{
    memset(e, 0, sizeof *e);
    size_t k = strlen(name) + 1;
    e->name = malloc(k);
    if (!e->name) return ff_error_set(err, FF_E_NOMEM, name, -1, "no memory for a name");
    memcpy(e->name, name, k);
    e->bad = 1;
    e->error = *why;
    return 0;
}

int manifest_set_origin(manifest_entry *e, const corpus *c, size_t i, ff_error *err)
{
    char buf[2048];
    free(e->origin);
    e->origin = NULL;
    if (corpus_provenance(c, i, buf, sizeof buf) < 0) return 0;
    size_t k = strlen(buf) + 1;
    e->origin = malloc(k);
    if (!e->origin) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a provenance");
    memcpy(e->origin, buf, k);
    return 0;
}

int manifest_build(const corpus *c, manifest **out, ff_error *err)
{
    manifest *m = calloc(1, sizeof *m);
    size_t n = corpus_count(c);
    if (m) m->e = calloc(n ? n : 1, sizeof *m->e);
    if (!m || !m->e) {
        free(m);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory for a manifest");
    }
    for (size_t i = 0; i < n; i++) {
        if (!corpus_is_dat(c, i)) continue;
        const char *name = corpus_name(c, i);
        uint8_t *data = NULL;
        size_t size = 0;
        ff_error why;
        ff_error_clear(&why);
        int rc = corpus_load(c, i, &data, &size, &why) < 0
                     ? load_failed(&m->e[m->n], name, &why, err)
                     : manifest_analyze(name, data, size, &m->e[m->n], err);
        free(data);
        if (rc == 0) rc = manifest_set_origin(&m->e[m->n], c, i, err);
        if (rc < 0) {
            manifest_free(m);
            return -1;
        }
        manifest_totals_add(&m->totals, &m->e[m->n]);
        m->n++;
    }
    *out = m;
    return 0;
}

void manifest_free(manifest *m)
{
    if (!m) return;
    for (size_t i = 0; i < m->n; i++)
        manifest_entry_clear(&m->e[i]);
    free(m->e);
    free(m);
}
