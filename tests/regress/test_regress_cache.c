/*
 * tests/regress/test_regress_cache.c: the cache of the original's results.
 * A second `run` with the same executable and corpus emulates nothing and
 * gives the same results, at the frame level and at the pose level (whose
 * matching clips the cache keeps as digests); --no-cache and `cache clear`
 * bring emulation back; `cache stats` counts one entry per (model file,
 * mode), per level too.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

/* Model files of the corpus, from their headers. */
static unsigned model_files(const char *corpus)
{
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    unsigned models = 0;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(corpus, names[i]);
        unsigned bones;
        models += ts_dat_clips(p, &bones) > 0;
        free(p);
        free(names[i]);
    }
    free(names);
    return models;
}

static cJSON *run(const char *tmp, const char *corpus, const char *extra)
{
    char *rep = ts_path(tmp, "rep");
    ts_out o;
    ts_cli(tmp, &o, "run -q --corpus '%s' --out '%s' %s", corpus, rep, extra);
    cr_assert_eq(o.status, 0, "run %s: exit %d: %s", extra, o.status, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    ts_sh(tmp, &o, "rm -rf '%s'", rep);
    ts_out_free(&o);
    free(rep);
    return r;
}

static cJSON *stats(const char *tmp)
{
    ts_out o;
    ts_cli(tmp, &o, "cache stats --json");
    cr_assert_eq(o.status, 0, "cache stats: %s", o.err);
    cJSON *j = cJSON_Parse(o.out);
    cr_assert(j != NULL, "not JSON: %s", o.out);
    ts_out_free(&o);
    return j;
}

/* Results equal record by record, the source aside. */
static void same_results(const cJSON *a, const cJSON *b)
{
    const cJSON *ra = cJSON_GetObjectItem(a, "results"), *rb = cJSON_GetObjectItem(b, "results");
    cr_assert_eq(cJSON_GetArraySize(ra), cJSON_GetArraySize(rb));
    for (int i = 0; i < cJSON_GetArraySize(ra); i++) {
        cJSON *x = cJSON_Duplicate(cJSON_GetArrayItem(ra, i), 1);
        cJSON *y = cJSON_Duplicate(cJSON_GetArrayItem(rb, i), 1);
        cJSON_DeleteItemFromObject(x, "source");
        cJSON_DeleteItemFromObject(y, "source");
        cr_assert(cJSON_Compare(x, y, 1), "result %d differs", i);
        cJSON_Delete(x);
        cJSON_Delete(y);
    }
    cr_assert(
        cJSON_Compare(cJSON_GetObjectItem(a, "manifest"), cJSON_GetObjectItem(b, "manifest"), 1));
    cr_assert(cJSON_Compare(cJSON_GetObjectItem(a, "groups"), cJSON_GetObjectItem(b, "groups"), 1));
}

/* Two runs with the same options: the second from the cache alone, the same results. */
static void second_run_from_the_cache(const char *extra)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp);
    cJSON *first = run(tmp, corpus, extra);
    cr_assert(ts_num(first, "run.emulated_calls") > 0);
    cr_assert_eq(ts_num(first, "totals.sources.cache"), 0);
    cJSON *second = run(tmp, corpus, extra);
    double comparisons = ts_num(second, "totals.comparisons");
    cr_assert(comparisons > 0);
    cr_assert_eq(ts_num(second, "run.emulated_calls"), 0, "the cached run emulated");
    cr_assert_eq(ts_num(second, "totals.sources.cache"), comparisons);
    cr_assert_eq(ts_num(second, "totals.sources.emulated"), 0);
    cr_assert_eq(ts_num(second, "totals.sources.deduplicated"), 0);
    cr_assert_eq(ts_num(second, "totals.match"), ts_num(first, "totals.match"));
    same_results(first, second);
    cJSON_Delete(first);
    cJSON_Delete(second);
    free(corpus);
    ts_rmtree(tmp);
}

Test(cache, second_run_emulates_nothing_and_reports_the_same)
{
    second_run_from_the_cache("");
}

Test(cache, second_pose_run_emulates_nothing_and_reports_the_same)
{
    second_run_from_the_cache("--levels frame,pose --modes normal,fast");
}

Test(cache, no_cache_stats_and_clear)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp);
    cJSON *r = run(tmp, corpus, "--modes normal,fast");
    cJSON_Delete(r);
    cJSON *st = stats(tmp);
    cr_assert_eq(ts_num(st, "results.entries"), model_files(corpus) * 2,
                 "one entry per model file and mode");
    cr_assert(ts_num(st, "results.bytes") > 0);
    cJSON_Delete(st);
    r = run(tmp, corpus, "--modes normal,fast --no-cache");
    cr_assert(ts_num(r, "run.emulated_calls") > 0, "--no-cache read the cache");
    cJSON_Delete(r);
    /* Another mode is another key. */
    r = run(tmp, corpus, "--modes slow");
    cr_assert(ts_num(r, "run.emulated_calls") > 0);
    cJSON_Delete(r);
    ts_out o;
    ts_cli(tmp, &o, "cache clear");
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, "removed ") != NULL, "%s", o.out);
    ts_out_free(&o);
    st = stats(tmp);
    cr_assert_eq(ts_num(st, "results.entries"), 0);
    cJSON_Delete(st);
    r = run(tmp, corpus, "--modes normal");
    cr_assert(ts_num(r, "run.emulated_calls") > 0, "a cleared cache still answered");
    cJSON_Delete(r);
    free(corpus);
    ts_rmtree(tmp);
}

Test(cache, stats_count_the_synthetic_corpus)
{
    char *tmp = ts_tempdir();
    ts_out o;
    ts_cli(tmp, &o, "run -q --modes normal --out '%s/rep'", tmp);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    cJSON *st = stats(tmp);
    cr_assert(ts_num(st, "corpus.files") >= 1);
    cr_assert(ts_num(st, "corpus.bytes") > 0);
    cJSON_Delete(st);
    ts_cli(tmp, &o, "cache stats");
    cr_assert_eq(o.status, 0);
    cr_assert(strstr(o.out, "synthetic corpora:") != NULL, "%s", o.out);
    ts_out_free(&o);
    ts_rmtree(tmp);
}

Test(cache, record_reads_the_cache)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp);
    cJSON *r = run(tmp, corpus, "");
    cJSON_Delete(r);
    ts_out o;
    ts_cli(tmp, &o, "record -q --corpus '%s' --out '%s/golden'", corpus, tmp);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cr_assert(strstr(o.out, ", 0 emulated calls)") != NULL, "%s", o.out);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q --traces '%s/golden' --out '%s/rep'", tmp, tmp);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    free(corpus);
    ts_rmtree(tmp);
}

/* Entries and bytes of level l in cache stats --json. */
static double level_num(const cJSON *st, const char *l, const char *what)
{
    char key[64];
    snprintf(key, sizeof key, "results.levels.%s.%s", l, what);
    return ts_num(st, key);
}

Test(cache, stats_count_entries_per_level)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp);
    unsigned models = model_files(corpus);
    cJSON *r = run(tmp, corpus, "--modes normal");
    cJSON_Delete(r);
    r = run(tmp, corpus, "--modes normal --levels frame,pose");
    cJSON_Delete(r);
    cJSON *st = stats(tmp);
    cr_assert_eq(level_num(st, "frame", "entries"), models, "one frame entry per model file");
    cr_assert_eq(level_num(st, "pose", "entries"), models, "one pose entry per model file");
    cr_assert_eq(level_num(st, "entity", "entries"), 0);
    cr_assert_eq(level_num(st, "old", "entries"), 0);
    /* The pose run searched the stand-in's convention (its profile pins none): remembered. */
    cr_assert_eq(level_num(st, "convention", "entries"), 1, "the search's result remembered");
    cr_assert_eq(ts_num(st, "results.entries"), 2 * models + 1);
    double sum = 0;
    for (int i = 0; i < 5; i++)
        sum += level_num(st, (const char *[]){"frame", "pose", "entity", "convention", "old"}[i],
                         "bytes");
    cr_assert_eq(sum, ts_num(st, "results.bytes"), "the levels' bytes are the cache's");
    cr_assert(level_num(st, "pose", "bytes") > 0);
    cJSON_Delete(st);
    r = run(tmp, corpus, "--modes normal --levels entity");
    cJSON_Delete(r);
    st = stats(tmp);
    cr_assert_gt(level_num(st, "entity", "entries"), 0, "the entity level's entries");
    cr_assert_eq(level_num(st, "frame", "entries"), models);
    cJSON_Delete(st);
    ts_out o;
    ts_cli(tmp, &o, "cache stats");
    cr_assert_eq(o.status, 0);
    cr_assert(strstr(o.out, "\n  frame ") && strstr(o.out, "\n  pose ") &&
                  strstr(o.out, "\n  entity "),
              "%s", o.out);
    ts_out_free(&o);
    free(corpus);
    ts_rmtree(tmp);
}
