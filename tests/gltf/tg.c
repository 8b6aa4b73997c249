/*
 * tests/gltf/tg.c: what the glTF suites share (tg.h).
 */
#include "tests/gltf/tg.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "corpus/manifest.h"

#include "tests/support/ts.h"

uint8_t *tg_first_monster(const char *corpus, dat_file *d, char **path)
{
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    uint8_t *data = NULL;
    for (size_t i = 0; i < n && !data; i++) {
        char *p = ts_path(corpus, names[i]);
        size_t size;
        uint8_t *b = (uint8_t *)ts_read(p, &size);
        ff_error err;
        /* Named by its path, which outlives the names list (d->name points at it). */
        if (dat_parse(b, size, p, d, &err) == 0 && d->kind == DAT_MONSTER && d->bones > 3) {
            data = b;
            *path = p;
        } else {
            free(b);
            free(p);
        }
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    cr_assert(data, "no monster in the small corpus");
    return data;
}

char *tg_plain_monster(const char *dir)
{
    char *van = ts_path(dir, "vanilla"), *plain = ts_path(dir, "plain");
    ts_out o;
    ts_cli(dir, &o, "corpus synth --out '%s' --preset vanilla --seed 1", van);
    cr_assert_eq(o.status, 0, "corpus synth failed: %s", o.err);
    ts_out_free(&o);
    size_t n;
    char **names = ts_dat_names(van, &n);
    char *found = NULL;
    for (size_t i = 0; i < n && !found; i++) {
        char *p = ts_path(van, names[i]);
        size_t size;
        uint8_t *b = (uint8_t *)ts_read(p, &size);
        manifest_entry e;
        ff_error err;
        if (manifest_analyze(p, b, size, &e, &err) == 0 && e.parsed && e.kind == DAT_MONSTER &&
            e.bones >= 8 && e.bones <= 40 && e.scale_clips == 0)
            found = p;
        else
            free(p);
        manifest_entry_clear(&e);
        free(b);
    }
    for (size_t i = 0; i < n; i++) free(names[i]);
    free(names);
    cr_assert(found, "no plain monster in the vanilla preset");
    ts_sh(dir, &o, "mkdir -p '%s' && cp '%s' '%s/plain.dat'", plain, found, plain);
    cr_assert_eq(o.status, 0, "copy: %s", o.err);
    ts_out_free(&o);
    free(found);
    free(van);
    return plain;
}
