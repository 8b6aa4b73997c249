/*
 * tests/harness/test_harness_cache.c: the results cache verifies itself. A
 * payload comes back only from its own entry, whole: every single flipped
 * byte of an entry, an entry cut or extended, an entry of another key copied
 * over this one's name, a link in the cache folder, are refused (-1), never a
 * result; an absent entry is a miss (0). Keys differ in every field that
 * changes what the original does. Entries that cannot be stored are an
 * error of cache_put alone. Sizes, eviction and clearing are checked against
 * the files on disk; the envelope's size is worked out from its documented
 * layout (56 header bytes + key text + payload).
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "emu/engine/emu.h"
#include "harness/run/cache.h"
#include "harness/run/run.h"
#include "tests/support/ts.h"

#define HEAD 56 /* "FF8DCACH", u32 version, u32 key length, u64 payload length, SHA-256 */

static char *scratch, *dir;

static void setup(void)
{
    scratch = ts_tempdir();
    dir = ts_path(scratch, "results");
}

static void teardown(void)
{
    free(dir);
    ts_rmtree(scratch);
}

static cache_key key_of(const char *file_sha, mode_id mode)
{
    cache_key k;
    static const char exe[] =
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855/standin/0123";
    cache_key_in in = {exe, file_sha, mode, "frame", 0, NULL};
    ff_error err;
    cr_assert_eq(cache_key_make(&k, &in, &err), 0, "%s", err.reason);
    return k;
}

static char *entry_path(const cache_key *k)
{
    char rel[80];
    snprintf(rel, sizeof rel, "%.2s/%s.bin", k->hex, k->hex);
    return ts_path(dir, rel);
}

static void payload(uint8_t *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 7 + seed);
}

/* cache_get must refuse: -1, and no buffer handed out. */
static void assert_refused(cache *c, const cache_key *k, const char *what)
{
    uint8_t *data = NULL;
    size_t len = 0;
    ff_error err;
    ff_error_clear(&err);
    int rc = cache_get(c, k, &data, &len, &err);
    cr_assert_eq(rc, -1, "%s: cache_get gave %d, expected a refusal", what, rc);
    cr_assert_null(data, "%s: a payload was handed out", what);
    cr_assert(err.reason[0], "%s: refused without a reason", what);
}

static void assert_hit(cache *c, const cache_key *k, const uint8_t *want, size_t n)
{
    uint8_t *data = NULL;
    size_t len = 0;
    ff_error err;
    int rc = cache_get(c, k, &data, &len, &err);
    cr_assert_eq(rc, 1, "expected a hit: %s", rc < 0 ? err.reason : "miss");
    cr_assert_eq(len, n);
    ts_assert_mem(data, want, n, "payload");
    free(data);
}

Test(cache, round_trip_and_envelope_size, .init = setup, .fini = teardown)
{
    cache *c;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0, "%s", err.reason);
    cr_assert_eq(cache_writable(c, &err), 0, "%s", err.reason);
    cache_key k = key_of("aa", MODE_SLOW);
    uint8_t blob[300];
    payload(blob, sizeof blob, 1);
    uint8_t *data = NULL;
    size_t len;
    cr_assert_eq(cache_get(c, &k, &data, &len, &err), 0, "nothing stored yet: a miss");
    cr_assert_eq(cache_put(c, &k, blob, sizeof blob, &err), 0, "%s", err.reason);
    cr_assert_eq(cache_has(c, &k), 1);
    assert_hit(c, &k, blob, sizeof blob);
    char *p = entry_path(&k);
    struct stat st;
    cr_assert_eq(stat(p, &st), 0, "the entry is %s", p);
    cr_assert_eq((size_t)st.st_size, HEAD + strlen(k.text) + sizeof blob);
    cache_stats s;
    cr_assert_eq(cache_stat(c, &s, &err), 0);
    cr_assert_eq(s.entries, 1);
    cr_assert_eq(s.bytes, (uint64_t)st.st_size);
    /* The key text is stored as is, after the header. */
    size_t n;
    char *bytes = ts_read(p, &n);
    cr_assert_eq(memcmp(bytes, "FF8DCACH", 8), 0);
    cr_assert_eq(memcmp(bytes + HEAD, k.text, strlen(k.text)), 0);
    free(bytes);
    free(p);
    cache_close(c);
}

Test(cache, every_flipped_byte_is_refused, .init = setup, .fini = teardown)
{
    cache *c;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0, "%s", err.reason);
    cache_key k = key_of("bb", MODE_NORMAL);
    uint8_t blob[64];
    payload(blob, sizeof blob, 3);
    cr_assert_eq(cache_put(c, &k, blob, sizeof blob, &err), 0, "%s", err.reason);
    char *p = entry_path(&k);
    size_t n;
    char *good = ts_read(p, &n);
    for (size_t i = 0; i < n; i++) {
        for (int bit = 0; bit < 8; bit += 7) { /* the lowest and the highest bit */
            char *bad = malloc(n);
            memcpy(bad, good, n);
            bad[i] ^= (char)(1 << bit);
            ts_write(p, bad, n);
            char what[64];
            snprintf(what, sizeof what, "byte %zu bit %d flipped", i, bit);
            assert_refused(c, &k, what);
            free(bad);
        }
    }
    /* Cut by one byte, one byte added, empty: refused. Restored: a hit again. */
    ts_write(p, good, n - 1);
    assert_refused(c, &k, "cut by one byte");
    char *longer = malloc(n + 1);
    memcpy(longer, good, n);
    longer[n] = 0;
    ts_write(p, longer, n + 1);
    assert_refused(c, &k, "one byte added");
    free(longer);
    ts_write(p, "", 0);
    assert_refused(c, &k, "empty");
    ts_write(p, good, n);
    assert_hit(c, &k, blob, sizeof blob);
    free(good);
    free(p);
    cache_close(c);
}

Test(cache, an_entry_copied_over_another_key_is_refused, .init = setup, .fini = teardown)
{
    /* A clean build's entry copied over a buggy build's name must not read as its result. */
    cache *c;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0, "%s", err.reason);
    cache_key clean = key_of("cc", MODE_FAST), buggy = key_of("dd", MODE_FAST);
    uint8_t a[100], b[100];
    payload(a, sizeof a, 5);
    payload(b, sizeof b, 9);
    cr_assert_eq(cache_put(c, &clean, a, sizeof a, &err), 0);
    cr_assert_eq(cache_put(c, &buggy, b, sizeof b, &err), 0);
    char *pa = entry_path(&clean), *pb = entry_path(&buggy);
    size_t n;
    char *bytes = ts_read(pa, &n);
    ts_write(pb, bytes, n);
    free(bytes);
    uint8_t *data = NULL;
    size_t len;
    cr_assert_eq(cache_get(c, &buggy, &data, &len, &err), -1);
    cr_assert(strstr(err.reason, "another key") && strstr(err.reason, "file=cc"), "%s",
              err.reason);
    assert_hit(c, &clean, a, sizeof a);
    free(pa);
    free(pb);
    cache_close(c);
}

Test(cache, links_in_the_cache_are_not_followed, .init = setup, .fini = teardown)
{
    cache *c;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0, "%s", err.reason);
    cache_key k = key_of("ee", MODE_NORMAL), other = key_of("ff", MODE_NORMAL);
    uint8_t blob[40];
    payload(blob, sizeof blob, 2);
    cr_assert_eq(cache_put(c, &k, blob, sizeof blob, &err), 0);
    /* other's name is a link to k's (valid) entry: refused, not read through. */
    char *pk = entry_path(&k), *po = entry_path(&other);
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p \"$(dirname '%s')\" && ln -sf '%s' '%s'", po, pk, po);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    assert_refused(c, &other, "entry name is a link");
    /* A sub-folder that is a link: nothing is written through it. */
    char *outside = ts_path(scratch, "outside");
    cache_key third = key_of("0a", MODE_SLOW);
    char sub[3] = {third.hex[0], third.hex[1], '\0'};
    char *subpath = ts_path(dir, sub);
    ts_sh(scratch, &o, "mkdir -p '%s' && rm -rf '%s' && ln -s '%s' '%s'", outside, subpath, outside,
          subpath);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    cr_assert_eq(cache_put(c, &third, blob, sizeof blob, &err), -1, "written through a link");
    ts_sh(scratch, &o, "ls -A '%s'", outside);
    cr_assert_str_eq(o.out, "", "something was written outside the cache: %s", o.out);
    ts_out_free(&o);
    free(outside);
    free(subpath);
    free(pk);
    free(po);
    cache_close(c);
}

Test(cache, keys_differ_in_every_field, .init = setup, .fini = teardown)
{
    ff_error err;
    cache_key_in base = {"exe/standin/0123", "aa", MODE_NORMAL, "frame", 0, NULL};
    cache_key k0, k;
    cr_assert_eq(cache_key_make(&k0, &base, &err), 0);
    cache_key_in v[6] = {base, base, base, base, base, base};
    v[0].exe_id = "exe/standin/4567";
    v[1].file_sha = "ab";
    v[2].mode = MODE_SLOW_FAST;
    v[3].level = "frame+matrices";
    v[4].budget = 1000;
    v[5].engine = "unicorn";
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(cache_key_make(&k, &v[i], &err), 0);
        cr_assert_str_neq(k.hex, k0.hex, "field %d does not change the key", i);
        cr_assert_str_neq(k.text, k0.text);
    }
    /* The default budget named or left at 0 is the same emulation. */
    cache_key_in d = base;
    d.budget = EMU_DEFAULT_BUDGET;
    cr_assert_eq(cache_key_make(&k, &d, &err), 0);
    cr_assert_str_eq(k.hex, k0.hex);
    /* A key too long to store is an error, not a truncated key. */
    char huge[600];
    memset(huge, 'x', sizeof huge - 1);
    huge[sizeof huge - 1] = '\0';
    d.exe_id = huge;
    cr_assert_eq(cache_key_make(&k, &d, &err), -1);
    cr_assert_str_eq(k.hex, "");
}

/* The engine is in the key at every level: a run on another engine never takes an entry. */
Test(cache, the_engine_keys_every_level)
{
    run_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cr_assert_str_eq(run_engine_key(&cfg), "unicorn", "the frame level names its engine too");
    cfg.game.engine = emu_engine_ops(EMU_ENGINE_NATIVE);
    cr_assert_str_eq(run_engine_key(&cfg), "native");
    cache_key_in fin = {"exe/standin/0123", "aa", MODE_NORMAL, "frame", 0, "native"};
    cache_key kn, ku;
    ff_error e0;
    cr_assert_eq(cache_key_make(&kn, &fin, &e0), 0);
    fin.engine = "unicorn";
    cr_assert_eq(cache_key_make(&ku, &fin, &e0), 0);
    cr_assert_str_neq(kn.hex, ku.hex, "one frame-level key for both engines");
    cfg.game.engine = NULL;
    cfg.game.keep_matrices = 1;
    cr_assert_str_eq(run_engine_key(&cfg), "unicorn");
    cfg.game.keep_matrices = 0;
    cfg.pose_level = 1;
    cr_assert_str_eq(run_engine_key(&cfg), "unicorn");
    ff_error err;
    cache_key_in in = {"exe/standin/0123", "aa", MODE_NORMAL, "frame+pose-base1", 0,
                       run_engine_key(&cfg)};
    cache_key k;
    cr_assert_eq(cache_key_make(&k, &in, &err), 0);
    cr_assert(strstr(k.text, "|engine=unicorn|"), "%s", k.text);
}

Test(cache, an_unwritable_cache_fails_put_only, .init = setup, .fini = teardown)
{
    /* Every sub-folder name taken by a plain file: no entry can be stored. */
    ts_out o;
    ts_sh(scratch, &o, "mkdir -p '%s' && cd '%s' && for a in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do "
          "for b in 0 1 2 3 4 5 6 7 8 9 a b c d e f; do : > $a$b; done; done",
          dir, dir);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    cache *c;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0, "%s", err.reason);
    cache_key k = key_of("12", MODE_NORMAL);
    uint8_t blob[10] = {0};
    cr_assert_eq(cache_put(c, &k, blob, sizeof blob, &err), -1);
    cr_assert_eq(err.kind, FF_E_IO, "%s", err.reason);
    uint8_t *data = NULL;
    size_t len;
    cr_assert_neq(cache_get(c, &k, &data, &len, &err), 1);
    cache_close(c);
}

/* Sets the write time of k's entry (seconds since the epoch). */
static void age(const cache_key *k, time_t when)
{
    char *p = entry_path(k);
    struct timespec t[2] = {{when, 0}, {when, 0}};
    cr_assert_eq(utimensat(AT_FDCWD, p, t, 0), 0);
    free(p);
}

Test(cache, oldest_entries_go_first_over_the_limit, .init = setup, .fini = teardown)
{
    cache *c;
    ff_error err;
    cache_key k1 = key_of("01", MODE_NORMAL), k2 = key_of("02", MODE_NORMAL),
              k3 = key_of("03", MODE_NORMAL);
    uint8_t blob[1000];
    payload(blob, sizeof blob, 4);
    size_t one = HEAD + strlen(k1.text) + sizeof blob;
    cr_assert_eq(cache_open(dir, 0, &c, &err), 0);
    cr_assert_eq(cache_put(c, &k1, blob, sizeof blob, &err), 0);
    cr_assert_eq(cache_put(c, &k2, blob, sizeof blob, &err), 0);
    cache_close(c);
    age(&k1, 1000000);
    age(&k2, 2000000);
    /* Room for two entries, not three: k1, the least recently written, goes. */
    cr_assert_eq(cache_open(dir, 2 * one + one / 2, &c, &err), 0);
    cr_assert_eq(cache_put(c, &k3, blob, sizeof blob, &err), 0);
    cr_assert_eq(cache_has(c, &k1), 0);
    cr_assert_eq(cache_has(c, &k2), 1);
    cr_assert_eq(cache_has(c, &k3), 1);
    char *p1 = entry_path(&k1);
    cr_assert_neq(access(p1, F_OK), 0, "the evicted entry is gone from the disk");
    free(p1);
    cache_stats s;
    cr_assert_eq(cache_stat(c, &s, &err), 0);
    cr_assert_eq(s.entries, 2);
    cr_assert_eq(s.bytes, 2 * one);
    cache_close(c);
}

Test(cache, stat_sees_the_disk_and_clear_empties_it, .init = setup, .fini = teardown)
{
    cache *a, *b;
    ff_error err;
    cr_assert_eq(cache_open(dir, 0, &a, &err), 0);
    cr_assert_eq(cache_open(dir, 0, &b, &err), 0);
    cache_key k1 = key_of("31", MODE_NORMAL), k2 = key_of("32", MODE_FAST);
    uint8_t blob[10] = {1, 2, 3};
    cr_assert_eq(cache_put(a, &k1, blob, sizeof blob, &err), 0);
    cr_assert_eq(cache_put(a, &k2, blob, sizeof blob, &err), 0);
    /* A temporary file left by a killed writer. */
    char sub[3] = {k1.hex[0], k1.hex[1], '\0'}, rel[64];
    snprintf(rel, sizeof rel, "%s/.x.bin.0123456789abcdef.tmp", sub);
    char *tmp = ts_path(dir, rel);
    ts_write(tmp, "half", 4);
    cache_stats s;
    cr_assert_eq(cache_stat(b, &s, &err), 0, "%s", err.reason);
    cr_assert_eq(s.entries, 2, "another handle's entries are counted");
    uint64_t removed = 0;
    cr_assert_eq(cache_clear(b, &removed, &err), 0, "%s", err.reason);
    cr_assert_eq(removed, 2);
    cr_assert_neq(access(tmp, F_OK), 0, "the temporary file is removed too");
    cr_assert_eq(cache_stat(a, &s, &err), 0);
    cr_assert_eq(s.entries, 0);
    cr_assert_eq(s.bytes, 0);
    free(tmp);
    cache_close(a);
    cache_close(b);
}
