/*
 * tests/regress/test_regress_loop.c: the record -> check -> compare-reports
 * loop on the stand-in engine and the small synthetic corpus, through the
 * built ff8diff: the manifest describes the corpus (checked against the
 * files themselves), check finds every clip equal, compressed traces read
 * the same, and compare-reports sees nothing change between run and check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/support/ts.h"

static const char *const modes[] = {"normal", "slow", "fast", "slow+fast"};

/* Comparisons of a full run: clips of every model file, in the 4 modes. */
static unsigned expected_comparisons(const char *corpus)
{
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    unsigned total = 0;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(corpus, names[i]);
        unsigned bones;
        total += ts_dat_clips(p, &bones) * 4;
        free(p);
        free(names[i]);
    }
    free(names);
    return total;
}

static void record(const char *scratch, const char *corpus, const char *out, const char *extra)
{
    ts_out o;
    ts_cli(scratch, &o, "record -q --corpus '%s' --out '%s' %s", corpus, out, extra);
    cr_assert_eq(o.status, 0, "record exit %d: %s%s", o.status, o.out, o.err);
    ts_out_free(&o);
}

Test(loop, manifest_describes_the_corpus)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp), *golden = ts_path(tmp, "golden");
    record(tmp, corpus, golden, "");
    char *mpath = ts_path(golden, "manifest.json");
    cJSON *m = ts_json(mpath);
    cr_assert_str_eq(cJSON_GetObjectItem(m, "format")->valuestring, "ff8diff-traces/1");
    const cJSON *exe = cJSON_GetObjectItem(m, "executable");
    cr_assert_str_eq(cJSON_GetObjectItem(exe, "profile")->valuestring, "standin");
    cr_assert_eq(strlen(cJSON_GetObjectItem(exe, "sha256")->valuestring), 64);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(m, "modes")), 4);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(m, "compressed")));
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    const cJSON *files = cJSON_GetObjectItem(m, "files");
    cr_assert_eq((size_t)cJSON_GetArraySize(files), n, "manifest lists %d files, corpus has %zu",
                 cJSON_GetArraySize(files), n);
    for (size_t i = 0; i < n; i++) {
        const cJSON *f = NULL, *e;
        cJSON_ArrayForEach(e, files)
        {
            if (!strcmp(cJSON_GetObjectItem(e, "name")->valuestring, names[i])) f = e;
        }
        cr_assert(f != NULL, "%s not in the manifest", names[i]);
        char *p = ts_path(corpus, names[i]), sha[65];
        ts_sha256(p, sha);
        struct stat st;
        cr_assert(stat(p, &st) == 0);
        unsigned bones, clips = ts_dat_clips(p, &bones);
        cr_assert_str_eq(cJSON_GetObjectItem(f, "sha256")->valuestring, sha, "%s", names[i]);
        cr_assert_eq(ts_num(f, "size"), (double)st.st_size, "%s", names[i]);
        const cJSON *traces = cJSON_GetObjectItem(f, "traces");
        cr_assert_eq(cJSON_GetArraySize(traces), clips ? 4 : 0, "%s", names[i]);
        if (clips) {
            cr_assert_eq(ts_num(f, "clips"), clips, "%s", names[i]);
            cr_assert_eq(ts_num(f, "bones"), bones, "%s", names[i]);
        }
        for (int k = 0; clips && k < 4; k++) {
            char want[512];
            snprintf(want, sizeof want, "%s.%s.jsonl", names[i], modes[k]);
            const cJSON *t = cJSON_GetObjectItem(traces, modes[k]);
            cr_assert(cJSON_IsString(t) && !strcmp(t->valuestring, want), "%s %s", names[i],
                      modes[k]);
            char *tp = ts_path(golden, want);
            cr_assert(access(tp, R_OK) == 0, "%s missing", want);
            free(tp);
        }
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(f, "faults")), 0, "%s", names[i]);
        free(p);
        free(names[i]);
    }
    free(names);
    cJSON_Delete(m);
    free(mpath);
    free(golden);
    free(corpus);
    ts_rmtree(tmp);
}

Test(loop, record_check_compare_reports)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp), *golden = ts_path(tmp, "golden");
    char *rep_run = ts_path(tmp, "rep-run"), *rep_check = ts_path(tmp, "rep-check");
    unsigned want = expected_comparisons(corpus);
    cr_assert(want > 0);
    record(tmp, corpus, golden, "");
    ts_out o;
    ts_cli(tmp, &o, "run -q --corpus '%s' --out '%s'", corpus, rep_run);
    cr_assert_eq(o.status, 0, "run: %s", o.err);
    ts_out_free(&o);
    /* No --corpus: the manifest names it. */
    ts_cli(tmp, &o, "check -q --traces '%s' --out '%s'", golden, rep_check);
    cr_assert_eq(o.status, 0, "check exit %d: %s%s", o.status, o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep_check);
    cr_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "command")->valuestring,
                     "check");
    cr_assert_eq(ts_num(r, "totals.comparisons"), want);
    cr_assert_eq(ts_num(r, "totals.match"), want);
    cr_assert_eq(ts_num(r, "totals.sources.traces"), want);
    cr_assert_eq(ts_num(r, "run.emulated_calls"), 0);
    cJSON_Delete(r);
    ts_cli(tmp, &o, "compare-reports --json '%s'/* '%s'/*", rep_run, rep_check);
    cr_assert_eq(o.status, 0, "compare-reports exit %d: %s%s", o.status, o.out, o.err);
    cJSON *d = cJSON_Parse(o.out);
    cr_assert(d != NULL, "not JSON: %s", o.out);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(d, "regressed")));
    cr_assert_eq(ts_num(d, "counts.unchanged"), want);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(d, "changes")), 0);
    cJSON_Delete(d);
    ts_out_free(&o);
    free(rep_run);
    free(rep_check);
    free(golden);
    free(corpus);
    ts_rmtree(tmp);
}

Test(loop, compressed_traces_check_the_same)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp), *golden = ts_path(tmp, "golden");
    char *rep = ts_path(tmp, "rep");
    record(tmp, corpus, golden, "--compress --modes slow,fast");
    char *p = ts_path(golden, "c0m001.dat.slow.jsonl.lz4");
    size_t n;
    char *data = ts_read(p, &n);
    cr_assert(data != NULL, "no compressed trace");
    /* LZ4 frame magic 0x184D2204, little-endian. */
    cr_assert(n > 4 && (unsigned char)data[0] == 0x04 && (unsigned char)data[1] == 0x22 &&
              (unsigned char)data[2] == 0x4D && (unsigned char)data[3] == 0x18);
    free(data);
    free(p);
    p = ts_path(golden, "c0m001.dat.slow.jsonl");
    cr_assert(access(p, F_OK) != 0, "an uncompressed trace was written too");
    free(p);
    ts_out o;
    ts_cli(tmp, &o, "check -q --traces '%s' --out '%s'", golden, rep);
    cr_assert_eq(o.status, 0, "check exit %d: %s%s", o.status, o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    cr_assert_eq(ts_num(r, "totals.comparisons"), expected_comparisons(corpus) / 2);
    cr_assert_eq(ts_num(r, "totals.match"), ts_num(r, "totals.comparisons"));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "modes")), 2,
                 "check takes the recorded modes");
    cJSON_Delete(r);
    free(rep);
    free(golden);
    free(corpus);
    ts_rmtree(tmp);
}

Test(loop, synthetic_corpus_is_regenerated_from_the_manifest)
{
    char *tmp = ts_tempdir(), *golden = ts_path(tmp, "golden"), *rep = ts_path(tmp, "rep");
    ts_out o;
    ts_cli(tmp, &o, "record -q --modes normal --out '%s'", golden);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    /* Drop the generated corpus: check must rebuild it from (preset, seed). */
    ts_sh(tmp, &o, "rm -rf '%s/cache/corpus'", tmp);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q --traces '%s' --out '%s'", golden, rep);
    cr_assert_eq(o.status, 0, "check exit %d: %s%s", o.status, o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    const cJSON *syn = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "corpus"), "synthetic");
    cr_assert_str_eq(cJSON_GetObjectItem(syn, "preset")->valuestring, "small");
    cr_assert(ts_num(r, "totals.comparisons") > 0);
    cr_assert_eq(ts_num(r, "totals.match"), ts_num(r, "totals.comparisons"));
    cJSON_Delete(r);
    free(rep);
    free(golden);
    ts_rmtree(tmp);
}

Test(loop, usage_errors)
{
    char *tmp = ts_tempdir();
    ts_out o;
    ts_cli(tmp, &o, "record -q");
    cr_assert_eq(o.status, 2, "record without --out");
    cr_assert(strstr(o.err, "--out") != NULL, "%s", o.err);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q");
    cr_assert_eq(o.status, 2, "check without --traces");
    ts_out_free(&o);
    ts_cli(tmp, &o, "record -q --out '%s/golden' stray", tmp);
    cr_assert_eq(o.status, 2, "record with an operand");
    cr_assert(strstr(o.err, "record: unexpected argument 'stray'") != NULL, "%s", o.err);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q --traces '%s/none'", tmp);
    cr_assert_eq(o.status, 2, "check of a missing folder");
    ts_out_free(&o);
    ts_cli(tmp, &o, "compare-reports only-one.json");
    cr_assert_eq(o.status, 2, "compare-reports with one report");
    ts_out_free(&o);
    ts_cli(tmp, &o, "cache frobnicate");
    cr_assert_eq(o.status, 2);
    ts_out_free(&o);
    ts_rmtree(tmp);
}
