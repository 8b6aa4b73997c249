/*
 * tests/hostile/test_hostile_faulty.c: `ff8diff run` against a faulting
 * engine. standin_faulty.exe's Battle_ReadAnimation loops forever on clip 1
 * and reads unmapped memory (0xDEAD0000) on clip 2 (emu/standin/README.md):
 * both must be reported as faults (kinds budget and read_unmapped) with a
 * disassembly whose marked line is the faulting instruction inside
 * Battle_ReadAnimation, every other clip must still be compared and match,
 * the run must complete, and the exit status must be 1.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "tests/hostile/hs.h"

/* Battle_ReadAnimation's slot in the executable (docs/engine.md section 2:
 * 0x508F90, the next routine at 0x5092A0). */
#define READ_ANIMATION_FIRST 0x508F90u
#define READ_ANIMATION_LAST 0x50929Fu

static unsigned hex(const char *s)
{
    return (unsigned)strtoul(s, NULL, 16);
}

/* The fault of one clip: kind, EIP and the marked disassembly line. */
static void check_fault(const cJSON *r, const char *what, const char *kind)
{
    cr_expect_str_eq(hs_str(r, "status"), "fault", "%s", what);
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(r, "fault");
    cr_assert(cJSON_IsObject(f), "%s: no fault record", what);
    cr_expect_str_eq(hs_str(f, "kind"), kind, "%s: fault kind", what);
    unsigned eip = hex(hs_str(f, "eip"));
    cr_expect(eip >= READ_ANIMATION_FIRST && eip <= READ_ANIMATION_LAST,
              "%s: EIP 0x%x outside Battle_ReadAnimation", what, eip);
    const cJSON *dis = cJSON_GetObjectItemCaseSensitive(f, "disassembly"), *line;
    cr_assert(cJSON_IsArray(dis) && cJSON_GetArraySize(dis) > 0, "%s: no disassembly", what);
    int marked = 0;
    cJSON_ArrayForEach(line, dis)
    {
        cr_assert(cJSON_IsString(line), "%s: disassembly line is not a string", what);
        if (line->valuestring[0] != '>') continue;
        marked++;
        unsigned at = hex(line->valuestring + 1);
        cr_expect(at == eip, "%s: marked line '%s' is not at EIP 0x%x", what, line->valuestring,
                  eip);
        cr_expect(at >= READ_ANIMATION_FIRST && at <= READ_ANIMATION_LAST,
                  "%s: marked line '%s' outside Battle_ReadAnimation", what, line->valuestring);
    }
    cr_expect_eq(marked, 1, "%s: %d marked disassembly lines, expected 1", what, marked);
}

Test(faulty, faulty_engine)
{
    char *tmp = ts_tempdir(), *corpus = ts_path(tmp, "corpus"), *out = ts_path(tmp, "reports"),
         *cache = ts_path(tmp, "cache"), *exe = hs_standin("standin_faulty.exe");
    ff_error e;
    cr_assert(synth_write(corpus, SYNTH_SMALL, 3, NULL, &e) == 0, "synth_write: %s", e.reason);
    synth_plan *sp;
    cr_assert(synth_plan_make(SYNTH_SMALL, 3, &sp, &e) == 0);

    /* A budget of 2M instructions (every routine needs far fewer): the loops end sooner. */
    const char *argv[] = {hs_cli(),     "run",       "--corpus", corpus,    "--exe",
                          exe,          "--profile", "standin",  "--out",   out,
                          "--no-cache", "--jobs",    "2",        "--budget", "2000000",
                          "-q",         NULL};
    int status = hs_run(argv, cache, tmp);
    cr_expect_eq(status, 1, "exit status %d, expected 1 (faults)", status);
    cJSON *report = hs_report(out);

    uint64_t clips = 0, faults = 0;
    for (size_t i = 0; i < synth_plan_count(sp); i++) {
        uint8_t *data;
        size_t size;
        cr_assert(synth_plan_build(sp, i, &data, &size, NULL, &e) == 0);
        unsigned n = hs_clips(data, size);
        free(data);
        const char *name = synth_plan_name(sp, i);
        clips += n;
        for (int k = 0; k < 4; k++)
            for (unsigned c = 0; c < n; c++) {
                char what[96];
                snprintf(what, sizeof what, "%s clip %u %s", name, c, hs_modes[k]);
                const cJSON *r = hs_result(report, name, (int)c, hs_modes[k]);
                cr_assert(r, "%s: no result", what);
                if (c == 1 || c == 2) {
                    check_fault(r, what, c == 1 ? "budget" : "read_unmapped");
                    faults++;
                } else {
                    cr_expect_str_eq(hs_str(r, "status"), "match", "%s", what);
                }
            }
    }
    cr_assert(faults > 0, "the corpus has no clip 1 or 2");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(report, "totals");
    cr_expect_eq(hs_num(t, "comparisons"), 4.0 * (double)clips, "every clip compared");
    cr_expect_eq(hs_num(t, "fault"), (double)faults, "totals.fault");
    cr_expect_eq(hs_num(t, "match"), 4.0 * (double)clips - (double)faults, "totals.match");
    cr_expect_eq(hs_num(t, "not_run"), 0, "totals.not_run");
    cr_expect_eq(hs_num(t, "mismatch") + hs_num(t, "bad_input"), 0, "mismatch/bad_input");
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(report, "run");
    cr_expect(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(run, "interrupted")),
              "run marked interrupted");

    cJSON_Delete(report);
    synth_plan_free(sp);
    free(exe);
    free(cache);
    free(out);
    free(corpus);
    ts_rmtree(tmp);
}
