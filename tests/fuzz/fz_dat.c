/*
 * tests/fuzz/fz_dat.c: body of fuzz_dat (see fz.h): dat_parse and the
 * reference engine over every clip of a parsed model file in every mode.
 *
 * What an accepted file must satisfy is checked from the raw bytes by the
 * format's own arithmetic (docs/engine.md sections 3 and 6), not through the
 * parser's fields alone. Never prints or aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "tests/fuzz/fz.h"

#define FZ_DAT_NAME "fuzz.dat"
#define FZ_DAT_CLIPS 256     /* clips an AnimCmd can name */
#define FZ_DAT_MAX_TICKS 300 /* an 8-bit frame counter ends any clip within 256 calls */

/* The section table against the raw bytes. */
static int check_table(const uint8_t *data, size_t size, const dat_file *d, fz_report *r)
{
    uint32_t n = d->nsections;
    if (n == 0 || n > DAT_MAX_SECTIONS || dat_kind_sections(d->kind) != n)
        return fz_broken(r, "accepted with %u sections for kind %s", n, dat_kind_name(d->kind));
    if (le_u32(data) != n) return fz_broken(r, "nsections %u, the file says %u", n, le_u32(data));
    uint64_t header = 8 + 4 * (uint64_t)n;
    if (size < header) return fz_broken(r, "accepted a %zu-byte file with %u sections", size, n);
    if (d->section[n] != size || le_u32(data + 4 + 4 * (size_t)n) != size)
        return fz_broken(r, "end field / section[n] 0x%x is not the size 0x%zx", d->section[n],
                         size);
    if (d->section[0] < header)
        return fz_broken(r, "section 0 at 0x%x inside the header", d->section[0]);
    for (uint32_t i = 0; i < n; i++) {
        if (d->section[i] != le_u32(data + 4 + 4 * (size_t)i))
            return fz_broken(r, "section[%u] 0x%x differs from the file", i, d->section[i]);
        if (d->section[i] > d->section[i + 1])
            return fz_broken(r, "section %u at 0x%x after section %u at 0x%x", i, d->section[i],
                             i + 1, d->section[i + 1]);
    }
    return 0;
}

/* Skeleton and animation sections, and every clip offset. */
static int check_model(const uint8_t *data, const dat_file *d, fz_report *r)
{
    const uint32_t *s = d->section;
    if (d->skel_off != s[0] || d->skel_size != s[1] - s[0] || d->anim_off != s[2] ||
        d->anim_size != s[3] - s[2])
        return fz_broken(r, "skeleton/animation sections disagree with the table");
    if (d->bones != data[d->skel_off] || d->bones == 0 ||
        DAT_SKEL_HEADER + DAT_BONE_SIZE * (uint64_t)d->bones > d->skel_size)
        return fz_broken(r, "%u bones accepted in a 0x%x-byte skeleton", d->bones, d->skel_size);
    if (d->anim_size < 4 || d->clips != le_u32(data + d->anim_off) || d->clips == 0 ||
        4 + 4 * (uint64_t)d->clips > d->anim_size)
        return fz_broken(r, "%u clips accepted in a 0x%x-byte animation section", d->clips,
                         d->anim_size);
    for (uint32_t c = 0; c < d->clips; c++) {
        uint32_t rel = le_u32(data + d->anim_off + 4 + 4 * (size_t)c), off = 0;
        if (rel < 4 + 4 * (uint64_t)d->clips || rel >= d->anim_size)
            return fz_broken(r, "clip %u offset 0x%x accepted", c, rel);
        if (dat_clip_offset(d, c, &off, NULL) < 0 || off != d->anim_off + rel)
            return fz_broken(r, "dat_clip_offset(%u) = 0x%x, expected 0x%x", c, off,
                             d->anim_off + rel);
        if (dat_clip_frames(d, c) != data[off])
            return fz_broken(r, "dat_clip_frames(%u) differs from byte 0x%x", c, off);
    }
    ff_error e;
    uint32_t off;
    if (dat_clip_offset(d, d->clips, &off, &e) == 0)
        return fz_broken(r, "dat_clip_offset accepted clip %u of %u", d->clips, d->clips);
    if (e.kind != FF_E_RANGE) return fz_broken(r, "dat_clip_offset(clips) kind %d", (int)e.kind);
    return 0;
}

/* Bytes the engine must never write: everything but root, flag bit 0,
 * bone rotations and bone scales. */
static int check_untouched(const ref_anim *a, const uint8_t *file_skel, const char *what,
                           fz_report *r)
{
    size_t n = ref_skel_size(a->dat);
    for (size_t i = 0; i < n; i++) {
        int animated;
        if (i < DAT_SKEL_HEADER) {
            animated = (i >= DAT_SKEL_ROOT && i < DAT_SKEL_ROOT + 6) || i == DAT_SKEL_FLAGS;
        } else {
            size_t k = (i - DAT_SKEL_HEADER) % DAT_BONE_SIZE;
            animated = k >= DAT_BONE_ROT && k < DAT_BONE_SCALE + 6;
        }
        uint8_t mask = i == DAT_SKEL_FLAGS ? 0xFE : 0xFF;
        if (!animated || i == DAT_SKEL_FLAGS)
            if ((a->skel[i] & mask) != (file_skel[i] & mask))
                return fz_broken(r, "%s: skeleton byte 0x%zx changed", what, i);
    }
    return 0;
}

/* One clip in one mode; *work counts bone-frames. */
static int run_clip(ref_anim *a, uint32_t clip, uint8_t flags, uint64_t *work, fz_report *r)
{
    char what[64];
    snprintf(what, sizeof what, "clip %u flags %u", clip, flags);
    ref_anim_reset_skeleton(a);
    memset(&a->cmd, 0, sizeof a->cmd);
    a->cmd.flags = flags;
    a->stream.high = 0;
    ff_error e;
    int ret = 0, rc = ref_start_clip(a, (int16_t)clip, &ret, &e);
    unsigned ticks = 1;
    while (rc == 0 && ret == 0) {
        if (a->cmd.frame > a->cmd.total || a->cmd.bit < 0 || a->cmd.bit > 7)
            return fz_broken(r, "%s tick %u: frame %u of %u, bit %d", what, ticks, a->cmd.frame,
                             a->cmd.total, a->cmd.bit);
        if (++ticks > FZ_DAT_MAX_TICKS)
            return fz_broken(r, "%s still running after %u calls", what, FZ_DAT_MAX_TICKS);
        *work += a->bones + 1;
        if (*work > FZ_DAT_WORK) return 0;
        rc = ref_read_animation(a, &ret, &e);
    }
    if (a->stream.high > a->dat->size + 2)
        return fz_broken(r, "%s: reader touched byte 0x%zx of a 0x%zx-byte file", what,
                         a->stream.high, a->dat->size);
    if (check_untouched(a, a->dat->data + a->dat->skel_off, what, r) < 0) return -1;
    if (rc < 0) return fz_rejected(r, &e, FZ_DAT_NAME, what);
    r->accepted++;
    return 0;
}

/* StartClip must refuse clips the file or the AnimCmd cannot hold. */
static int run_bad_clips(ref_anim *a, fz_report *r)
{
    int16_t bad[2] = {-1, (int16_t)(a->dat->clips < 256 ? a->dat->clips : 256)};
    for (int i = 0; i < 2; i++) {
        ff_error e;
        int ret;
        if (ref_start_clip(a, bad[i], &ret, &e) == 0)
            return fz_broken(r, "StartClip accepted clip %d of %u", bad[i], a->dat->clips);
        if (e.kind != FF_E_RANGE)
            return fz_broken(r, "StartClip(%d) failed with kind %d", bad[i], (int)e.kind);
    }
    return 0;
}

/* Body + weapon lockstep on clip 0, both models being this file. */
static int run_lockstep(const dat_file *d, uint8_t *skel2, ref_anim *body, uint64_t *work,
                        fz_report *r)
{
    ref_anim weapon;
    ff_error e;
    if (ref_anim_init(&weapon, d, skel2, ref_skel_size(d), &e) < 0)
        return fz_broken(r, "ref_anim_init failed on a parsed model: %s", e.reason);
    ref_anim_reset_skeleton(body);
    memset(&body->cmd, 0, sizeof body->cmd);
    ref_entity ent = {body, &weapon, NULL};
    int ret = 0, rc = ref_queue_animation(&ent, 0, &ret, &e);
    for (unsigned ticks = 1; rc == 0 && ret == 0; ticks++) {
        if (ticks > FZ_DAT_MAX_TICKS) return fz_broken(r, "lockstep still running");
        *work += 2 * (uint64_t)d->bones + 2;
        if (*work > FZ_DAT_WORK) return 0;
        rc = ref_advance_by1(&ent, &ret, &e);
    }
    if (rc < 0) return fz_rejected(r, &e, FZ_DAT_NAME, "lockstep");
    r->accepted++;
    return 0;
}

static int run_model(const dat_file *d, fz_report *r)
{
    size_t n = ref_skel_size(d);
    uint8_t *skel = malloc(n), *skel2 = malloc(n);
    int rc = -1;
    ref_anim a;
    ff_error e;
    if (!skel || !skel2) {
        rc = fz_broken(r, "out of memory for a %zu-byte skeleton", n);
        goto done;
    }
    if (ref_anim_init(&a, d, skel, n, &e) < 0) {
        rc = fz_broken(r, "ref_anim_init failed on a parsed model: %s", e.reason);
        goto done;
    }
    if (run_bad_clips(&a, r) < 0) goto done;
    uint64_t work = 0;
    uint32_t clips = d->clips < FZ_DAT_CLIPS ? d->clips : FZ_DAT_CLIPS;
    for (uint32_t c = 0; c < clips && work <= FZ_DAT_WORK; c++)
        for (uint8_t flags = 0; flags < 4 && work <= FZ_DAT_WORK; flags++)
            if (run_clip(&a, c, flags, &work, r) < 0) goto done;
    rc = work <= FZ_DAT_WORK ? run_lockstep(d, skel2, &a, &work, r) : 0;
done:
    free(skel);
    free(skel2);
    return rc;
}

int fz_dat_one(const uint8_t *data, size_t size, fz_report *r)
{
    fz_report_init(r);
    dat_file d;
    ff_error e;
    if (dat_parse(data, size, FZ_DAT_NAME, &d, &e) < 0)
        return fz_rejected(r, &e, FZ_DAT_NAME, "dat_parse");
    r->accepted++;
    if (check_table(data, size, &d, r) < 0) return -1;
    if (!dat_kind_has_model(d.kind)) return 0;
    if (check_model(data, &d, r) < 0) return -1;
    return run_model(&d, r);
}
