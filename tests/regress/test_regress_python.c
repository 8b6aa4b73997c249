/*
 * tests/regress/test_regress_python.c: the outside-decoder example
 * (examples/decode_dat.py, Python standard library only) decodes the small
 * synthetic corpus in all four modes, and `ff8diff check --against` finds
 * its traces equal to the original's recorded ones, clip for clip.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/ts.h"

Test(python, example_decoder_checks_clean_in_every_mode)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp),
         *script = ts_source("examples/decode_dat.py");
    ts_out o;
    ts_cli(tmp, &o, "record -q --corpus '%s' --out '%s/golden'", corpus, tmp);
    cr_assert_eq(o.status, 0, "record: %s", o.err);
    ts_out_free(&o);
    ts_sh(tmp, &o, "'%s' '%s' '%s'/*.dat --mode all --out '%s/mine'", ts_python(), script, corpus,
          tmp);
    cr_assert_eq(o.status, 0, "decode_dat.py: %s", o.err);
    ts_out_free(&o);
    ts_cli(tmp, &o, "check -q --traces '%s/golden' --against '%s/mine' --out '%s/rep'",
           tmp, tmp, tmp);
    cr_assert_eq(o.status, 0, "check --against: exit %d: %s%s", o.status, o.out, o.err);
    ts_out_free(&o);
    char *rep = ts_path(tmp, "rep");
    cJSON *r = ts_report(rep);
    size_t n;
    char **names = ts_dat_names(corpus, &n);
    unsigned clips = 0;
    for (size_t i = 0; i < n; i++) {
        char *p = ts_path(corpus, names[i]);
        unsigned bones;
        clips += ts_dat_clips(p, &bones);
        free(p);
        free(names[i]);
    }
    free(names);
    cr_assert(clips > 0);
    cr_assert_eq(ts_num(r, "totals.comparisons"), clips * 4);
    cr_assert_eq(ts_num(r, "totals.match"), clips * 4);
    cr_assert_eq(ts_num(r, "totals.mismatch"), 0);
    const cJSON *against = cJSON_GetObjectItem(
        cJSON_GetObjectItem(cJSON_GetObjectItem(r, "run"), "options"), "against");
    cr_assert(cJSON_IsString(against) && strstr(against->valuestring, "mine"));
    cJSON_Delete(r);
    free(rep);
    free(script);
    free(corpus);
    ts_rmtree(tmp);
}

Test(python, example_prints_trace_lines)
{
    char *tmp = ts_tempdir(), *corpus = ts_corpus(tmp),
         *script = ts_source("examples/decode_dat.py");
    ts_out o;
    ts_sh(tmp, &o, "'%s' '%s' '%s/c0m000.dat' --mode slow", ts_python(), script, corpus);
    cr_assert_eq(o.status, 0, "%s", o.err);
    /* The first line: anim 0 tick 0 in the key order of the format. */
    const char *want = "{\"v\":1,\"file\":\"c0m000.dat\",\"model\":\"monster\",\"anim\":0,"
                       "\"mode\":\"slow\",\"tick\":0,\"ret\":0,\"cmd\":{\"frame\":1,";
    cr_assert(strncmp(o.out, want, strlen(want)) == 0, "%.200s", o.out);
    ts_out_free(&o);
    free(script);
    free(corpus);
    ts_rmtree(tmp);
}
