/*
 * tests/common/test_common_basics.c: the basics written once in common/:
 * paths joined into fixed buffers with truncation an error (never a cut
 * path), and the growable array (capacities doubled from the first, the
 * array kept on a refused size).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"
#include "common/path.h"

Test(path, join_puts_one_slash)
{
    static const struct {
        const char *dir, *name, *want;
    } v[] = {
        {"a", "b", "a/b"},       {"a/", "b", "a/b"},   {"", "b", "b"},
        {"/", "etc", "/etc"},    {"a/b", "c/d", "a/b/c/d"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char out[16];
        ff_error err;
        cr_assert_eq(path_join(out, sizeof out, v[i].dir, v[i].name, &err), 0, "%zu", i);
        cr_assert_str_eq(out, v[i].want, "%zu", i);
        char *p = path_join_new(v[i].dir, v[i].name);
        cr_assert_str_eq(p, v[i].want, "%zu: path_join_new", i);
        free(p);
    }
}

/* "dir/name" is 8 bytes: fits in 9, is refused in 8 (no cut path), FF_E_RANGE. */
Test(path, truncation_is_an_error)
{
    char out[9];
    ff_error err;
    cr_assert_eq(path_join(out, 9, "dir", "name", &err), 0);
    cr_assert_str_eq(out, "dir/name");
    cr_assert_eq(path_join(out, 8, "dir", "name", &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert_str_eq(out, "", "a refused path leaves nothing usable behind");
    cr_assert(strstr(err.reason, "8 bytes"), "%s", err.reason);
    cr_assert_eq(path_format(out, sizeof out, &err, "%s/%d", "abcdefgh", 1), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert_eq(path_format(out, sizeof out, NULL, "%s/%d", "abc", 12), 0, "NULL err allowed");
    cr_assert_str_eq(out, "abc/12");
}

/* Both separators split: FL lines and zzz names are Windows paths, file paths use '/'. */
Test(path, base_splits_at_either_slash)
{
    static const struct {
        const char *path, *want;
    } v[] = {{"a\\b/c.dat", "c.dat"}, {"c.dat", "c.dat"}, {"dir/", ""},
             {"data\\lang-en\\battle.fs", "battle.fs"}, {"/g/Data/x/d0c000.dat", "d0c000.dat"},
             {"", ""}, {"\\", ""}};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cr_assert_str_eq(path_base(v[i].path), v[i].want, "%zu: %s", i, v[i].path);
}

Test(grow, doubles_from_the_first_capacity)
{
    int *a = NULL;
    size_t cap = 0, seen[8], nseen = 0;
    for (size_t n = 0; n < 100; n++) {
        cr_assert_eq(GROW(a, cap, n + 1, 4), 0);
        a[n] = (int)n;
        if (!nseen || seen[nseen - 1] != cap) seen[nseen++] = cap;
    }
    static const size_t want[] = {4, 8, 16, 32, 64, 128};
    cr_assert_eq(nseen, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < nseen; i++) cr_assert_eq(seen[i], want[i], "step %zu", i);
    for (size_t n = 0; n < 100; n++) cr_assert_eq(a[n], (int)n, "element %zu kept", n);
    /* One call reaching far: doubled until it holds need. */
    cr_assert_eq(GROW(a, cap, 1000, 4), 0);
    cr_assert_eq(cap, 1024);
    free(a);
}

Test(grow, a_size_that_overflows_is_refused_and_the_array_kept)
{
    uint64_t *a = NULL;
    size_t cap = 0;
    cr_assert_eq(GROW(a, cap, 3, 2), 0);
    a[0] = 7;
    uint64_t *before = a;
    cr_assert_eq(GROW(a, cap, SIZE_MAX / 4, 2), -1);
    cr_assert_eq(a, before, "the array is unchanged");
    cr_assert_eq(cap, 4);
    cr_assert_eq(a[0], 7);
    cr_assert_eq(GROW(a, cap, 2, 2), 0, "room already there");
    free(a);
}
