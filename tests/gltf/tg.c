/*
 * tests/gltf/tg.c: what the glTF suites share (tg.h).
 */
#include "tests/gltf/tg.h"

#include <criterion/criterion.h>
#include <stdlib.h>

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
