/*
 * tests/common/test_common_basics.c: the basics written once in common/:
 * paths joined into fixed buffers with truncation an error (never a cut
 * path), the growable array (capacities doubled from the first, the
 * array kept on a refused size), and bulk buffers (huge pages where the
 * kernel grants them on request).
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/bulk.h"
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

/* This process's AnonHugePages in KiB (smaps_rollup), or -1. */
static long anon_huge_kib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "AnonHugePages: %ld kB", &kib) == 1) break;
    fclose(f);
    return kib;
}

/* Whether the kernel gives huge pages to regions that ask (THP "madvise" or "always"). */
static int huge_pages_on_request(void)
{
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
    char mode[128] = "";
    if (!f) return 0;
    if (!fgets(mode, sizeof mode, f)) mode[0] = 0;
    fclose(f);
    return strstr(mode, "[madvise]") || strstr(mode, "[always]");
}

Test(bulk, small_buffers_are_usable_and_zero_bytes_are_one)
{
    unsigned char *p = bulk_alloc(0), *q = bulk_alloc(4096);
    cr_assert(p && q);
    p[0] = 1;
    memset(q, 0xA5, 4096);
    cr_assert_eq(q[4095], 0xA5);
    free(p);
    free(q);
}

/* Filling a buffer from BULK_HUGE on maps huge pages where the kernel grants them. */
Test(bulk, a_large_buffer_filled_is_on_huge_pages)
{
    if (!huge_pages_on_request() || anon_huge_kib() < 0)
        cr_skip_test("this kernel gives no transparent huge pages on request");
    size_t n = 8 * (size_t)BULK_HUGE;
    long before = anon_huge_kib();
    unsigned char *p = bulk_alloc(n);
    cr_assert(p);
    memset(p, 0x5A, n);
    long after = anon_huge_kib();
    cr_assert_eq(p[n - 1], 0x5A);
    free(p);
    cr_assert_geq(after - before, 2048, "AnonHugePages %ld kB -> %ld kB for %zu bytes written",
                  before, after, n);
}
