/*
 * tests/mutants/test_run_level.c: what a whole run guarantees, whatever
 * the engine finds: the same results for any number of jobs, identical
 * clips emulated once with the same results as without deduplication,
 * and cancellation. Faults of the original and bad input as results:
 * test_run_inputs.c.
 *
 * The corpora are the mutants' (mt_corpus.c), whose expected results are
 * worked out there. One more fact used here: mutant a finds nothing in
 * mut_b.dat, which has no 12-bit rotation; what SLOW+FAST reads past its
 * clips 0 and 1 (the next clip's first bytes) holds no rotation either
 * (past clip 0: root deltas 0, 2, 0; past clip 1: 3, 0, -7; all with mode 0
 * and the three rotation presence bits 0).
 */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/synth.h"
#include "harness/run/cache.h"
#include "tests/mutants/mt.h"
#include "tests/mutants/mt_corpus.h"

/* Writes a byte copy of dir/from as dir/to. */
static void copy_file(const char *dir, const char *from, const char *to)
{
    char *a = ts_path(dir, from), *b = ts_path(dir, to);
    size_t size;
    uint8_t *data = (uint8_t *)ts_read(a, &size);
    ts_write(b, (const char *)data, size);
    free(data);
    free(a);
    free(b);
}

/* mutant a's table for mut_a.dat and for each copy named in copies. */
static mt_expect *expect_a_and_copies(const char *const *copies, size_t ncopies, size_t *n)
{
    *n = MT_EXPECT_A * (1 + ncopies);
    mt_expect *e = malloc(*n * sizeof *e);
    cr_assert(e);
    for (size_t c = 0; c <= ncopies; c++)
        for (size_t i = 0; i < MT_EXPECT_A; i++) {
            e[c * MT_EXPECT_A + i] = mt_expect_a[i];
            if (c) e[c * MT_EXPECT_A + i].file = copies[c - 1];
        }
    return e;
}

static int same_source(res_source a, res_source b)
{
    if (a == b) return 1;
    /* Which of identical clips is emulated and which shares may vary. */
    return (a == RES_SRC_EMULATED || a == RES_SRC_SHARED) &&
           (b == RES_SRC_EMULATED || b == RES_SRC_SHARED);
}

static void same_div(const cmp_divergence *a, const cmp_divergence *b, const char *what, size_t i)
{
    cr_assert(a->tick == b->tick && a->field == b->field && a->bone == b->bone &&
                  a->ref == b->ref && a->orig == b->orig && a->cursor_off == b->cursor_off &&
                  a->cursor_bit == b->cursor_bit && a->differing == b->differing &&
                  a->ref_ticks == b->ref_ticks && a->orig_ticks == b->orig_ticks,
              "%s: result %zu: divergences differ (tick %zu/%zu field %d/%d ref %d/%d orig "
              "%d/%d differing %llu/%llu)",
              what, i, a->tick, b->tick, (int)a->field, (int)b->field, a->ref, b->ref, a->orig,
              b->orig, (unsigned long long)a->differing, (unsigned long long)b->differing);
}

static void same_result(const clip_result *a, const clip_result *b, const char *what, size_t i)
{
    cr_assert(a->file == b->file && a->clip == b->clip && a->mode == b->mode,
              "%s: result %zu is a different clip", what, i);
    cr_assert(a->status == b->status, "%s: result %zu: %s vs %s", what, i,
              res_status_name(a->status), res_status_name(b->status));
    cr_assert(same_source(a->source, b->source), "%s: result %zu: source %s vs %s", what, i,
              res_source_name(a->source), res_source_name(b->source));
    cr_assert(a->ref_ticks == b->ref_ticks && a->orig_ticks == b->orig_ticks &&
                  a->frames == b->frames,
              "%s: result %zu: ticks %u/%u vs %u/%u", what, i, a->ref_ticks, a->orig_ticks,
              b->ref_ticks, b->orig_ticks);
    cr_assert_eq(a->group, b->group, "%s: result %zu: group %d vs %d", what, i, a->group, b->group);
    if (a->status == RES_MISMATCH) {
        same_div(&a->div, &b->div, what, i);
        cr_assert(a->stream_off == b->stream_off && a->stream_len == b->stream_len &&
                      memcmp(a->stream, b->stream, a->stream_len) == 0 &&
                      a->cursor_file_off == b->cursor_file_off,
                  "%s: result %zu: stream windows differ", what, i);
    }
    cr_assert_eq(!a->fault, !b->fault, "%s: result %zu: fault on one side only", what, i);
    if (a->fault) cr_assert_eq(a->fault->kind, b->fault->kind);
    cr_assert_eq(!a->error, !b->error, "%s: result %zu: error on one side only", what, i);
    if (a->error) cr_assert_eq(a->error->kind, b->error->kind);
}

static void same_group(const res_group *a, const res_group *b, const char *what, size_t i)
{
    cr_assert(!strcmp(a->level, b->level) && !strcmp(a->field, b->field) &&
                  !strcmp(a->mode, b->mode) && !strcmp(a->shape, b->shape),
              "%s: group %zu: %s/%s/%s/%s vs %s/%s/%s/%s", what, i, a->level, a->field, a->mode,
              a->shape, b->level, b->field, b->mode, b->shape);
    cr_assert(a->count == b->count && a->example == b->example,
              "%s: group %zu: count %llu/%llu example %lld/%lld", what, i,
              (unsigned long long)a->count, (unsigned long long)b->count, (long long)a->example,
              (long long)b->example);
    const res_series *x = &a->series, *y = &b->series;
    cr_assert(x->n == y->n && x->ref_n == y->ref_n && x->orig_n == y->orig_n,
              "%s: group %zu: series lengths differ", what, i);
    if (x->n)
        cr_assert(!memcmp(x->ref, y->ref, x->n * sizeof *x->ref) &&
                      !memcmp(x->orig, y->orig, x->n * sizeof *x->orig),
                  "%s: group %zu: series differ", what, i);
}

/* Every result and group of a and b agree (sources up to emulated/deduplicated). */
static void same_results(const run_results *a, const run_results *b, const char *what)
{
    cr_assert_eq(a->nfiles, b->nfiles, "%s: files", what);
    for (size_t f = 0; f < a->nfiles; f++)
        cr_assert(!strcmp(a->files[f].name, b->files[f].name) &&
                      !strcmp(a->files[f].sha256, b->files[f].sha256),
                  "%s: file %zu: %s vs %s", what, f, a->files[f].name, b->files[f].name);
    cr_assert_eq(a->nresults, b->nresults, "%s: results", what);
    for (size_t i = 0; i < a->nresults; i++)
        same_result(&a->results[i], &b->results[i], what, i);
    cr_assert_eq(a->ngroups, b->ngroups, "%s: %zu groups vs %zu", what, a->ngroups, b->ngroups);
    for (size_t g = 0; g < a->ngroups; g++)
        same_group(&a->groups[g], &b->groups[g], what, g);
    for (int s = 0; s < RES__COUNT; s++)
        cr_assert_eq(a->totals.by_status[s], b->totals.by_status[s], "%s: %s totals", what,
                     res_status_name((res_status)s));
    cr_assert_eq(a->totals.ticks_ref, b->totals.ticks_ref);
    cr_assert_eq(a->totals.ticks_orig, b->totals.ticks_orig);
}

/* ---- jobs ---- */

Test(run_level, same_results_for_1_2_and_3_jobs)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_a);
    mt_write_model(dir, &mt_model_b);
    copy_file(dir, "mut_a.dat", "mut_a_copy.dat");
    static const char *const copies[] = {"mut_a_copy.dat"};
    size_t nexp;
    mt_expect *exp = expect_a_and_copies(copies, 1, &nexp);
    emu_image *img = mt_image("standin_mut_a.exe");
    run_results r[3];
    for (unsigned j = 0; j < 3; j++) {
        run_config cfg;
        mt_config(&cfg, dir, img, j + 1);
        mt_execute(&cfg, &r[j]);
        /* 3 files x 3 clips x 4 modes; mutant a's 8 mismatches in each copy. */
        cr_assert_eq(r[j].nresults, 36u, "jobs %u: %zu results", j + 1, r[j].nresults);
        mt_check(&r[j], exp, nexp);
        mt_check_ticks(&r[j]);
    }
    same_results(&r[0], &r[1], "jobs 1 vs 2");
    same_results(&r[0], &r[2], "jobs 1 vs 3");
    for (unsigned j = 0; j < 3; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    free(exp);
    ts_rmtree(dir);
}

/*
 * The cache filled by one job and by two holds the same entries byte for
 * byte (with two jobs natively, an engine process compares and the worker
 * stores the records it sent), and a run read from the two jobs' entries
 * gives the same results. The copy of mut_a.dat has its key (the file's
 * SHA-256): 2 files' entries in 4 modes.
 */
Test(run_level, the_same_cache_entries_for_1_and_2_jobs)
{
    char *dir = ts_tempdir(), *corpus = ts_mkdir(dir, "corpus");
    mt_write_model(corpus, &mt_model_a);
    mt_write_model(corpus, &mt_model_b);
    copy_file(corpus, "mut_a.dat", "mut_a_copy.dat");
    emu_image *img = mt_image("standin_mut_a.exe");
    run_results r[3];
    char *where[2] = {ts_path(dir, "cache1"), ts_path(dir, "cache2")};
    for (unsigned j = 0; j < 3; j++) {
        run_config cfg;
        mt_config(&cfg, corpus, img, j == 1 ? 2 : 1);
        ff_error err;
        cache *c = NULL;
        TS_OK(cache_open(where[j ? 1 : 0], 0, &c, &err), &err);
        cfg.cache = c;
        mt_execute(&cfg, &r[j]);
        cache_close(c);
    }
    cr_assert_eq(r[0].totals.by_source[RES_SRC_CACHE], 0u);
    cr_assert_eq(r[1].totals.by_source[RES_SRC_CACHE], 0u);
    cr_assert_eq(r[2].totals.by_source[RES_SRC_CACHE], 36u, "the third run read %llu results",
                 (unsigned long long)r[2].totals.by_source[RES_SRC_CACHE]);
    same_results(&r[0], &r[1], "jobs 1 vs 2");
    for (size_t i = 0; i < r[2].nresults; i++) {
        cr_assert_eq(r[2].results[i].source, RES_SRC_CACHE, "result %zu", i);
        r[2].results[i].source = r[0].results[i].source; /* compared apart from the rest */
    }
    same_results(&r[0], &r[2], "jobs 1 vs the cache of 2");
    ts_out o;
    ts_sh(dir, &o,
          "cd '%s' && find . -name '*.bin' | sort > ../list1 && cd '%s' && "
          "find . -name '*.bin' | sort > ../list2 && cd .. && cmp list1 list2 && "
          "[ $(wc -l < list1) -eq 8 ] && while read f; do cmp \"cache1/$f\" "
          "\"cache2/$f\" || exit 1; done < list1",
          where[0], where[1]);
    cr_assert_eq(o.status, 0, "the caches differ: %s%s", o.out, o.err);
    ts_out_free(&o);
    for (unsigned j = 0; j < 3; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    free(where[0]);
    free(where[1]);
    free(corpus);
    ts_rmtree(dir);
}

/* Every field of a file's manifest entry, as the plan described it. */
static void same_entry(const run_file *a, const run_file *b, size_t f)
{
    cr_assert_str_eq(a->name, b->name, "file %zu", f);
    cr_assert(a->bad == b->bad && a->parsed == b->parsed && a->kind == b->kind &&
                  a->size == b->size && !strcmp(a->sha256, b->sha256),
              "file %zu (%s): bad %d/%d parsed %d/%d kind %d/%d size %llu/%llu", f, a->name, a->bad,
              b->bad, a->parsed, b->parsed, (int)a->kind, (int)b->kind, (unsigned long long)a->size,
              (unsigned long long)b->size);
    cr_assert(a->bones == b->bones && a->clips == b->clips && a->frames == b->frames &&
                  a->scale_clips == b->scale_clips && a->long_clips == b->long_clips,
              "file %zu (%s): its model's description differs", f, a->name);
    cr_assert(a->error.kind == b->error.kind && !strcmp(a->error.reason, b->error.reason),
              "file %zu (%s): errors '%s' vs '%s'", f, a->name, a->error.reason, b->error.reason);
}

/*
 * The plan loads and describes files on as many threads as the run has
 * jobs: each file's entry lands at its own index with what one thread
 * finds, bad files included.
 */
Test(run_level, files_described_on_several_threads_as_on_one)
{
    char *dir = mt_small_preset();
    ts_write_in(dir, "zz_truncated.dat", "\x01\x02\x03", 3);
    ts_write_in(dir, "aa_garbage.dat", "not a model file at all, no sections", 36);
    emu_image *img = mt_image("standin_mut_a.exe");
    run_results r[2];
    for (unsigned j = 0; j < 2; j++) {
        run_config cfg;
        mt_config(&cfg, dir, img, j ? 3 : 1);
        cfg.modes = 1u << MODE_NORMAL;
        mt_execute(&cfg, &r[j]);
    }
    cr_assert_gt(r[0].nfiles, 8u);
    cr_assert_eq(r[0].nfiles, r[1].nfiles);
    size_t bad = 0;
    for (size_t f = 0; f < r[0].nfiles; f++) {
        same_entry(&r[0].files[f], &r[1].files[f], f);
        bad += r[0].files[f].bad;
    }
    cr_assert_geq(bad, 2u, "the truncated and the garbage file are bad");
    same_results(&r[0], &r[1], "plan on 1 vs 3 threads");
    for (unsigned j = 0; j < 2; j++)
        run_results_free(&r[j]);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* ---- dedup ---- */

/* orig ticks of mut_a.dat in the 4 modes (clips of 3, 1, 3 frames): 10 + 14 + 8 + 10. */
#define TICKS_A 42u
/* mut_b.dat (2, 2, 3 frames): normal 3+3+4, slow 4+4+6, fast 2+2+3, slow+fast 3+3+4. */
#define TICKS_B 41u

Test(run_level, dedup_emulates_identical_clips_once)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_a);
    mt_write_model(dir, &mt_model_b);
    static const char *const copies[] = {"mut_a_copy1.dat", "mut_a_copy2.dat"};
    for (int i = 0; i < 2; i++)
        copy_file(dir, "mut_a.dat", copies[i]);
    size_t nexp;
    mt_expect *exp = expect_a_and_copies(copies, 2, &nexp);
    emu_image *img = mt_image("standin_mut_a.exe");
    run_results r[2];
    run_progress prog[2];
    for (int d = 0; d < 2; d++) {
        run_config cfg;
        mt_config(&cfg, dir, img, 2);
        cfg.dedup = d;
        memset(&prog[d], 0, sizeof prog[d]);
        cfg.progress = &prog[d];
        mt_execute(&cfg, &r[d]);
        cr_assert_eq(r[d].nresults, 48u);
        mt_check(&r[d], exp, nexp);
        mt_check_ticks(&r[d]);
    }
    same_results(&r[0], &r[1], "dedup off vs on");
    /* Without dedup every clip is emulated: 3 copies of a, one b. */
    cr_assert_eq(r[0].totals.by_source[RES_SRC_EMULATED], 48u);
    cr_assert_eq(r[0].totals.by_source[RES_SRC_SHARED], 0u);
    cr_assert_eq(atomic_load(&prog[0].emulated_calls), 3 * TICKS_A + TICKS_B, "calls %llu",
                 (unsigned long long)atomic_load(&prog[0].emulated_calls));
    /* With dedup: each (clip, mode) of the three copies once, two shared. */
    cr_assert_eq(r[1].totals.by_source[RES_SRC_EMULATED], 24u);
    cr_assert_eq(r[1].totals.by_source[RES_SRC_SHARED], 24u);
    cr_assert_eq(atomic_load(&prog[1].emulated_calls), TICKS_A + TICKS_B, "calls %llu",
                 (unsigned long long)atomic_load(&prog[1].emulated_calls));
    for (int32_t c = 0; c < 3; c++)
        for (int m = 0; m < MODE__COUNT; m++) {
            const char *names[3] = {"mut_a.dat", copies[0], copies[1]};
            unsigned emulated = 0;
            for (int k = 0; k < 3; k++) {
                const clip_result *x = mt_find(&r[1], names[k], c, (mode_id)m);
                cr_assert(x);
                emulated += x->source == RES_SRC_EMULATED;
            }
            cr_assert_eq(emulated, 1, "clip %d %s: emulated %u times", c, mt_mode((mode_id)m),
                         emulated);
            const clip_result *b = mt_find(&r[1], "mut_b.dat", c, (mode_id)m);
            cr_assert(b && b->source == RES_SRC_EMULATED, "mut_b.dat clip %d %s: %s", c,
                      mt_mode((mode_id)m), b ? res_source_name(b->source) : "missing");
        }
    for (int d = 0; d < 2; d++)
        run_results_free(&r[d]);
    emu_image_free(img);
    free(exp);
    ts_rmtree(dir);
}

/*
 * Two files identical as far as the reference reads, different where only
 * the original (mutant f) reads: the shared emulation must not be used
 * for them. mut_f.dat clip 2 (2 zero frames, bits 0..45: 6 bytes) is its
 * last clip; under SLOW the reference reads bits up to 46 (3-byte loads:
 * up to byte 7 of the clip), mutant f decodes one frame more at tick 2 from
 * bit 46 (loads up to byte 10). mut_f_tail.dat sets every byte from clip
 * byte 8 to the end of section 3 to 0x07, so mutant f's extra frame there
 * is: roots 0 (bits 46..60), mode 0 (61), rot.x and rot.y absent (62, 63),
 * rot.z present (64) of type 3 (65, 66) with the 12 bits 67..78 = 0b0000
 * 1110 0000 = 224, halved: 112; its cursor ends at bit 79 = (9, 7) instead
 * of 65 = (8, 1). Fields differing from tick 1 on (slow): mut_f.dat:
 * cmd.off and cmd.bit at ticks 1, 2, 3 = 6; mut_f_tail.dat: tick 1 the
 * same 2, then rot.z 0 vs 112 with cmd.off and cmd.bit at ticks 2 and 3 = 8.
 */
Test(run_level, dedup_checks_the_originals_reach)
{
    char *dir = ts_tempdir();
    const mt_model *fm = mt_mutant_named("f")->models[0];
    cr_assert_str_eq(fm->name, "mut_f.dat");
    size_t size;
    uint8_t *data = mt_encode(fm, &size);
    char *p = ts_path(dir, "mut_f.dat");
    ts_write(p, (const char *)data, size);
    free(p);
    uint32_t clip2 = mt_clip_offset(data, 2);
    uint32_t sec3_end = mt_section_offset(data, 4);
    cr_assert(clip2 + 8 < sec3_end && sec3_end <= size);
    memset(data + clip2 + 8, 0x07, sec3_end - (clip2 + 8));
    p = ts_path(dir, "mut_f_tail.dat");
    ts_write(p, (const char *)data, size);
    free(p);
    free(data);
    emu_image *img = mt_image("standin_mut_f.exe");
    run_results r[2];
    for (int d = 0; d < 2; d++) {
        run_config cfg;
        mt_config(&cfg, dir, img, 2);
        cfg.dedup = d;
        mt_execute(&cfg, &r[d]);
        mt_check_ticks(&r[d]);
    }
    same_results(&r[0], &r[1], "dedup off vs on");
    const clip_result *a = mt_find(&r[1], "mut_f.dat", 2, MODE_SLOW);
    const clip_result *b = mt_find(&r[1], "mut_f_tail.dat", 2, MODE_SLOW);
    cr_assert(a && b);
    cr_assert(a->status == RES_MISMATCH && b->status == RES_MISMATCH);
    cr_assert(a->source == RES_SRC_EMULATED && b->source == RES_SRC_EMULATED,
              "clip 2 slow: %s and %s, expected both emulated", res_source_name(a->source),
              res_source_name(b->source));
    cr_assert_eq(a->div.differing, 6u, "mut_f.dat: %llu", (unsigned long long)a->div.differing);
    cr_assert_eq(b->div.differing, 8u, "mut_f_tail.dat: %llu",
                 (unsigned long long)b->div.differing);
    /* Clip 0 in normal mode reads nothing past the clip on either side: shared. */
    a = mt_find(&r[1], "mut_f.dat", 0, MODE_NORMAL);
    b = mt_find(&r[1], "mut_f_tail.dat", 0, MODE_NORMAL);
    cr_assert(a && b);
    cr_assert((a->source == RES_SRC_SHARED) + (b->source == RES_SRC_SHARED) == 1,
              "clip 0 normal: %s and %s", res_source_name(a->source), res_source_name(b->source));
    for (int d = 0; d < 2; d++)
        run_results_free(&r[d]);
    emu_image_free(img);
    ts_rmtree(dir);
}

/* ---- cancel ---- */

Test(run_level, cancel_before_start)
{
    char *dir = ts_tempdir();
    mt_write_model(dir, &mt_model_a);
    mt_write_model(dir, &mt_model_b);
    emu_image *img = mt_image("standin.exe");
    volatile sig_atomic_t cancel = 1;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.cancel = &cancel;
    cfg.progress = &prog;
    run_results r;
    mt_execute(&cfg, &r);
    cr_assert_eq(r.interrupted, 1);
    cr_assert_eq(r.nfiles, 2u);
    cr_assert_eq(r.nresults, 24u);
    for (size_t i = 0; i < r.nresults; i++)
        cr_assert(r.results[i].status == RES_NOT_RUN && r.results[i].source == RES_SRC_NONE,
                  "result %zu: %s", i, res_status_name(r.results[i].status));
    cr_assert_eq(r.totals.by_status[RES_NOT_RUN], 24u);
    cr_assert_eq(atomic_load(&prog.clips_done), 0u);
    cr_assert_eq(atomic_load(&prog.emulated_calls), 0u);
    cr_assert_eq(r.ngroups, 0);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}

/*
 * A cancel as a signal handler sets it, from the run's own first clip: a sink
 * (called on the workers' threads after each clip) sets *cancel once a clip
 * is done. A watcher thread polling the progress instead lost the race on two
 * cores once native runs got fast: the small corpus finished before it ran.
 */
static int cancel_after_first(void *arg, const run_sink_clip *c, ff_error *err)
{
    (void)c;
    (void)err;
    *(volatile sig_atomic_t *)arg = 1;
    return 0;
}

Test(run_level, cancel_while_running)
{
    char *dir = ts_tempdir();
    ff_error err;
    TS_OK(synth_write(dir, SYNTH_SMALL, 1, NULL, &err), &err);
    emu_image *img = mt_image("standin.exe");
    volatile sig_atomic_t cancel = 0;
    run_progress prog;
    memset(&prog, 0, sizeof prog);
    run_sink sink = {(void *)&cancel, NULL, cancel_after_first, NULL};
    run_config cfg;
    mt_config(&cfg, dir, img, 2);
    cfg.cancel = &cancel;
    cfg.progress = &prog;
    cfg.sink = &sink;
    run_results r;
    mt_execute(&cfg, &r);
    cr_assert_eq(r.interrupted, 1, "the run did not see the cancel");
    uint64_t not_run = 0, done = 0;
    for (size_t i = 0; i < r.nresults; i++) {
        const clip_result *c = &r.results[i];
        if (c->status == RES_NOT_RUN) {
            not_run++;
            cr_assert_eq(c->source, RES_SRC_NONE, "result %zu", i);
        } else {
            done++;
            cr_assert_eq(c->status, RES_MATCH, "result %zu (%s clip %d %s): %s", i, mt_file(&r, c),
                         c->clip, mt_mode(c->mode), res_status_name(c->status));
        }
    }
    cr_assert(done >= 1 && not_run >= 1, "done %llu, not run %llu", (unsigned long long)done,
              (unsigned long long)not_run);
    cr_assert_eq(done, atomic_load(&prog.clips_done));
    cr_assert_eq(r.totals.by_status[RES_NOT_RUN], not_run);
    run_results_free(&r);
    emu_image_free(img);
    ts_rmtree(dir);
}
