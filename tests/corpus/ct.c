/*
 * tests/corpus/ct.c: helpers for the corpus suites (see ct.h).
 */
#include "common/le.h"
#include "tests/corpus/ct.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ct_decode_clip(const dat_file *d, uint32_t c, uint8_t flags, ff_error *err)
{
    uint8_t skel[16 + 48 * 255];
    ref_anim a;
    if (ref_anim_init(&a, d, skel, sizeof skel, err) < 0) return -1;
    a.cmd.flags = flags;
    int ret = 0, calls = 1;
    if (ref_start_clip(&a, (int16_t)c, &ret, err) < 0) return -1;
    while (ret == 0 && calls < 1024) {
        if (ref_read_animation(&a, &ret, err) < 0) return -1;
        calls++;
    }
    return calls;
}

ct_built *ct_build_preset(synth_preset preset, uint64_t seed)
{
    ct_built *b = calloc(1, sizeof *b);
    cr_assert(b);
    synth_plan *p;
    ff_error err;
    TS_OK(synth_plan_make(preset, seed, &p, &err), &err);
    b->n = synth_plan_count(p);
    cr_assert(b->n <= 256);
    for (size_t i = 0; i < b->n; i++) {
        snprintf(b->name[i], sizeof b->name[i], "%s", synth_plan_name(p, i));
        TS_OK(synth_plan_build(p, i, &b->data[i], &b->size[i], &b->sum, &err), &err);
        TS_OK(dat_parse(b->data[i], b->size[i], b->name[i], &b->dat[i], &err), &err);
    }
    synth_plan_free(p);
    return b;
}

void ct_free_built(ct_built *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->data[i]);
    free(b);
}

long ct_find(const ct_built *b, const char *name)
{
    for (size_t i = 0; i < b->n; i++)
        if (!strcmp(b->name[i], name)) return (long)i;
    return -1;
}

const dat_file *ct_must_find(const ct_built *b, const char *name)
{
    long i = ct_find(b, name);
    cr_assert(i >= 0, "%s missing", name);
    return &b->dat[i];
}
