/*
 * tests/corpus/ct.c: helpers for the corpus suites (see ct.h).
 */
#define _XOPEN_SOURCE 700
#include "common/le.h"
#include "tests/corpus/ct.h"

#include <criterion/criterion.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void ct_assert_error(const ff_error *err, ff_errkind kind, const char *file_suffix, int64_t offset,
                     const char *what)
{
    char msg[1024];
    ff_error_format(err, msg, sizeof msg);
    cr_assert_eq(err->kind, kind, "%s: kind %s, expected %s (%s)", what, ff_errkind_name(err->kind),
                 ff_errkind_name(kind), msg);
    if (file_suffix) {
        size_t a = strlen(err->file), b = strlen(file_suffix);
        cr_assert(a >= b && !strcmp(err->file + a - b, file_suffix),
                  "%s: error names file '%s', expected one ending in '%s' (%s)", what, err->file,
                  file_suffix, msg);
    }
    if (offset != -2)
        cr_assert_eq(err->offset, offset, "%s: offset %lld, expected %lld (%s)", what,
                     (long long)err->offset, (long long)offset, msg);
    cr_assert(err->reason[0], "%s: error without a reason", what);
}


/* Folders made by this test process (each test runs in its own process). */
#define CT_DIRS 8
static char made[CT_DIRS][4096];

char *ct_tempdir(void)
{
    const char *base = getenv("TMPDIR");
    char *t = ct_path(base && base[0] ? base : "/tmp", "ff8corpus-test-XXXXXX");
    cr_assert(mkdtemp(t) != NULL, "mkdtemp %s failed", t);
    for (int i = 0; i < CT_DIRS; i++)
        if (!made[i][0]) {
            snprintf(made[i], sizeof made[i], "%s", t);
            break;
        }
    return t;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

void ct_rmtree(char *path)
{
    if (!path) return;
    nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
    for (int i = 0; i < CT_DIRS; i++)
        if (!strcmp(made[i], path)) made[i][0] = '\0';
    free(path);
}

void ct_cleanup(void)
{
    for (int i = 0; i < CT_DIRS; i++)
        if (made[i][0]) {
            nftw(made[i], rm_one, 16, FTW_DEPTH | FTW_PHYS);
            made[i][0] = '\0';
        }
}

char *ct_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    cr_assert(p);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

void ct_write(const char *dir, const char *name, const void *data, size_t size)
{
    char *p = ct_path(dir, name);
    FILE *f = fopen(p, "wb");
    cr_assert(f, "cannot create %s", p);
    cr_assert_eq(fwrite(data, 1, size, f), size, "short write to %s", p);
    cr_assert_eq(fclose(f), 0);
    free(p);
}

char *ct_mkdir(const char *dir, const char *name)
{
    char *p = ct_path(dir, name);
    cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s failed", p);
    return p;
}

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
    CT_OK(synth_plan_make(preset, seed, &p, &err), &err);
    b->n = synth_plan_count(p);
    cr_assert(b->n <= 256);
    for (size_t i = 0; i < b->n; i++) {
        snprintf(b->name[i], sizeof b->name[i], "%s", synth_plan_name(p, i));
        CT_OK(synth_plan_build(p, i, &b->data[i], &b->size[i], &b->sum, &err), &err);
        CT_OK(dat_parse(b->data[i], b->size[i], b->name[i], &b->dat[i], &err), &err);
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
