/*
 * tests/fuzz/test_fuzz_replay.c: replays, through the fuzz bodies of fz.h
 * (the very functions the libFuzzer targets call), every reproducer saved
 * under tests/fuzz/regressions/<target>/ and every seed the seed writer
 * made under <build>/tests/fuzz/seeds/. Runs under gcc, under the
 * sanitizers (FF_SANITIZE) and under valgrind alike, without libFuzzer.
 *
 * Every input must end without a broken contract (a refusal is a clean
 * error); seeds named "ok-*" are valid by construction and must be
 * accepted with no refusal at all. Failures name the file.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "tests/fuzz/fz.h"

typedef int (*fz_body)(const uint8_t *data, size_t size, fz_report *r);

static int pe_replay(const uint8_t *data, size_t size, fz_report *r)
{
    return fz_pe_one(data, size, FZ_PE_REPLAY_IMAGE, r);
}

static void dir_path(char *buf, size_t n, const char *env, const char *sub)
{
    const char *root = getenv(env);
    cr_assert(root && root[0], "%s is not set (run through ctest)", env);
    snprintf(buf, n, "%s/tests/fuzz/%s", root, sub);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Replays every regular file of dir (sorted, dot files and README* skipped)
 * through body. Returns the number of files replayed; a missing folder
 * replays nothing when may_be_missing.
 */
static size_t replay_dir(const char *dir, fz_body body, int may_be_missing)
{
    DIR *d = opendir(dir);
    if (!d) {
        cr_assert(may_be_missing, "cannot open %s", dir);
        return 0;
    }
    char **names = NULL;
    size_t n = 0;
    for (struct dirent *de; (de = readdir(d));) {
        if (de->d_name[0] == '.' || strncmp(de->d_name, "README", 6) == 0) continue;
        names = realloc(names, (n + 1) * sizeof *names);
        cr_assert(names && (names[n] = strdup(de->d_name)), "out of memory");
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *data = NULL;
        size_t size = 0;
        ff_error e;
        cr_assert(file_read_all(path, &data, &size, &e) == 0, "%s: %s", path, e.reason);
        fz_report r;
        int rc = body(data, size, &r);
        free(data);
        cr_expect(rc == 0 && !r.broken[0], "%s: broken contract: %s", path, r.broken);
        if (strncmp(names[i], "ok-", 3) == 0)
            cr_expect(r.rejected == 0 && r.accepted > 0,
                      "%s: a valid seed was refused (%u refusals, %u accepted): %s", path,
                      r.rejected, r.accepted, r.last.reason);
        free(names[i]);
    }
    free(names);
    return n;
}

static void replay_regressions(const char *target, fz_body body)
{
    char dir[4096];
    dir_path(dir, sizeof dir, "FF8DIFF_SOURCE_DIR", "regressions");
    strncat(dir, "/", sizeof dir - strlen(dir) - 1);
    strncat(dir, target, sizeof dir - strlen(dir) - 1);
    replay_dir(dir, body, 1);
}

static void replay_seeds(const char *sub, fz_body body, size_t at_least)
{
    char dir[4096];
    dir_path(dir, sizeof dir, "FF8DIFF_BINARY_DIR", "seeds");
    strncat(dir, "/", sizeof dir - strlen(dir) - 1);
    strncat(dir, sub, sizeof dir - strlen(dir) - 1);
    size_t n = replay_dir(dir, body, 0);
    cr_expect(n >= at_least, "%s: %zu seeds, expected at least %zu", dir, n, at_least);
}

/* Seed counts: what fz_seeds.c writes (6 tiny + 11 small-preset files; 6
 * archives; 3 PE; 3 traces). */
Test(replay, dat_seeds)
{
    replay_seeds("dat", fz_dat_one, 17);
}
Test(replay, archive_seeds)
{
    replay_seeds("archive", fz_archive_one, 6);
}
Test(replay, pe_seeds)
{
    replay_seeds("pe", pe_replay, 3);
}
Test(replay, trace_seeds)
{
    replay_seeds("trace", fz_trace_one, 3);
}

Test(replay, zzz_seeds)
{
    replay_seeds("zzz", fz_zzz_one, 7);
}
Test(replay, lz4f_seeds)
{
    replay_seeds("lz4f", fz_lz4f_one, 6);
}
Test(replay, zzz_regressions)
{
    replay_regressions("fuzz_zzz", fz_zzz_one);
}
Test(replay, lz4f_regressions)
{
    replay_regressions("fuzz_lz4f", fz_lz4f_one);
}

Test(replay, dat_regressions)
{
    replay_regressions("fuzz_dat", fz_dat_one);
}
Test(replay, archive_regressions)
{
    replay_regressions("fuzz_archive", fz_archive_one);
}
Test(replay, pe_regressions)
{
    replay_regressions("fuzz_pe", pe_replay);
}
Test(replay, trace_regressions)
{
    replay_regressions("fuzz_trace", fz_trace_one);
}
