/*
 * tests/harness/test_harness_causes.c: the first differing read of two
 * hand-written read logs (harness/core/readcmp.h) and the merging of
 * hand-built explanations into causes (harness/core/causes.h). Every
 * expectation is worked out in the comments from the records given.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/core/causes.h"
#include "harness/core/readcmp.h"

#define DEC "Battle_ReadAnimation"

static ref_read rd(ref_routine r, int depth, int n, int value, int pos, int bit, int pos_after,
                   int bit_after)
{
    ref_read x = {(uint8_t)r, (uint8_t)depth, (int16_t)n, (int16_t)value, bit, bit_after,
                  pos, pos_after, 0};
    return x;
}

/* A log over a copy of reads[0..n). */
typedef struct xlog {
    ref_read r[32];
    ref_read_log log;
} xlog;

static void make(xlog *x, const ref_read *reads, size_t n)
{
    memcpy(x->r, reads, n * sizeof *reads);
    ref_read_log_init(&x->log, x->r, 32);
    x->log.n = x->log.total = n;
}

/*
 * A rotation of type 2 (presence 1 read as -1, type 2 read as -2, an 8-bit
 * value 100) from byte 1 bit 0, then the mode bit.
 */
static const ref_read base[5] = {
    {REF_R_ROTATION, 0, 0, 100, 0, 3, 1, 2, 0},
    {REF_R_BITREADER, 1, 1, -1, 0, 1, 1, 1, 0},
    {REF_R_BITREADER, 1, 2, -2, 1, 3, 1, 1, 0},
    {REF_R_BITREADER, 1, 8, 100, 3, 3, 1, 2, 0},
    {REF_R_BITREADER, 0, 1, 0, 3, 4, 2, 2, 0},
};

Test(readcmp, identical_logs_agree)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 5);
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 0);
    cr_assert_eq(f.diff, READCMP_NONE);
    cr_assert_eq(f.index, 5u);
}

/* The reader's own value differs, its calls agree: the reader answers (mutant a's shape). */
Test(readcmp, reader_value)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 5);
    b.r[0].value = 356;
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 1);
    cr_assert_eq(f.diff, READCMP_VALUE);
    cr_assert_eq(f.index, 0u);
    cr_assert_str_eq(f.routine, "ReadRotationType");
    cr_assert_str_eq(f.caller, DEC);
    cr_assert_str_eq(f.responsible, "ReadRotationType");
    cr_assert_str_eq(f.cls, "rotation type 2");
    cr_assert_eq(f.ref.value, 100);
    cr_assert_eq(f.orig.value, 356);
}

/* A call inside the reader asks for another bit count: the reader that asked answers,
 * even though the reader's own record (earlier in the log) differs too. */
Test(readcmp, nested_width)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 5);
    b.r[3] = rd(REF_R_BITREADER, 1, 9, 356, 1, 3, 2, 4);
    b.r[0].value = 356;
    b.r[0].pos_after = 2;
    b.r[0].bit_after = 4;
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 1);
    cr_assert_eq(f.diff, READCMP_WIDTH);
    cr_assert_eq(f.index, 3u);
    cr_assert_str_eq(f.routine, "bitReader");
    cr_assert_str_eq(f.caller, "ReadRotationType");
    cr_assert_str_eq(f.responsible, "ReadRotationType");
    cr_assert_str_eq(f.cls, "rotation type 2");
}

/* Same bit count and cursor, another value: bitReader itself answers. */
Test(readcmp, nested_value)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 5);
    b.r[3].value = -100;
    b.r[0].value = -100;
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 1);
    cr_assert_eq(f.diff, READCMP_VALUE);
    cr_assert_eq(f.index, 3u);
    cr_assert_str_eq(f.responsible, "bitReader");
}

/* The original stops early: a different sequence of calls, its caller answers. */
Test(readcmp, fewer_calls)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 4);
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 1);
    cr_assert_eq(f.diff, READCMP_SEQUENCE);
    cr_assert_eq(f.index, 4u);
    cr_assert(f.have_ref && !f.have_orig);
    cr_assert_str_eq(f.routine, "bitReader");
    cr_assert_str_eq(f.responsible, DEC);
    cr_assert_str_eq(f.cls, "1 bit");
}

/* Where the cursor starts differs: the caller moved it. */
Test(readcmp, cursor)
{
    xlog a, b;
    make(&a, base, 5);
    make(&b, base, 5);
    b.r[4].bit = 5;
    b.r[4].bit_after = 6;
    readcmp_first f;
    cr_assert_eq(readcmp_compare(&a.log, &b.log, DEC, &f), 1);
    cr_assert_eq(f.diff, READCMP_CURSOR);
    cr_assert_str_eq(f.responsible, DEC);
}

Test(readcmp, classes)
{
    /* position type 2: its 2-bit type comes back sign-extended as -2 */
    const ref_read pos[3] = {rd(REF_R_POSITION, 0, 0, 7, 1, 0, 2, 3),
                             rd(REF_R_BITREADER, 1, 2, -2, 1, 0, 1, 2),
                             rd(REF_R_BITREADER, 1, 9, 7, 1, 2, 2, 3)};
    const ref_read rot[2] = {rd(REF_R_ROTATION, 0, 0, 0, 1, 0, 1, 1),
                             rd(REF_R_BITREADER, 1, 1, 0, 1, 0, 1, 1)};
    const ref_read sc[3] = {rd(REF_R_SCALE, 0, 0, 1100, 1, 0, 3, 1),
                            rd(REF_R_BITREADER, 1, 1, -1, 1, 0, 1, 1),
                            rd(REF_R_BITREADER, 1, 16, 76, 1, 1, 3, 1)};
    xlog x;
    char c[32];
    make(&x, pos, 3);
    readcmp_class(&x.log, 2, c, sizeof c);
    cr_assert_str_eq(c, "position type 2");
    make(&x, rot, 2);
    readcmp_class(&x.log, 0, c, sizeof c);
    cr_assert_str_eq(c, "rotation absent");
    make(&x, sc, 3);
    readcmp_class(&x.log, 1, c, sizeof c);
    cr_assert_str_eq(c, "scale present");
}

Test(causes, relations)
{
    char r[32];
    causes_relation(-1, -2, 0, 0, r, sizeof r);
    cr_assert_str_eq(r, "orig_lower_by_1");
    causes_relation(0, 1, 0, 0, r, sizeof r);
    cr_assert_str_eq(r, "orig_higher_by_1");
    causes_relation(-2048, 2048, 0, 0, r, sizeof r);
    cr_assert_str_eq(r, "differs_by_2^12");
    causes_relation(1024, 1124, 100, 0, r, sizeof r); /* scales added to the previous 100 */
    cr_assert_str_eq(r, "kept_previous");
    causes_relation(1024, 1130, 100, 0, r, sizeof r);
    cr_assert_str_eq(r, "");
    causes_relation(0, 1, 0, 1, r, sizeof r); /* flag bits: xor, not arithmetic */
    cr_assert_str_eq(r, "");
}

/* ---- merging ---- */

static void group(run_results *r, size_t g, const char *field, mode_id m, size_t result,
                  uint32_t file)
{
    res_group *x = &r->groups[g];
    snprintf(x->level, sizeof x->level, "frame");
    snprintf(x->field, sizeof x->field, "%s", field);
    snprintf(x->mode, sizeof x->mode, "%s", mode_name(m));
    snprintf(x->shape, sizeof x->shape, "other");
    x->count = 1;
    x->example = (int64_t)result;
    x->cause = -1;
    clip_result *c = &r->results[result];
    c->status = RES_MISMATCH;
    c->group = (int)g;
    c->mode = m;
    c->file = file;
    c->div.field = (field_id)field_from_kind_name(field);
}

static void read_expl(res_explain *e, const char *routine, const char *cls, int orig_value)
{
    e->state = RES_EXPL_READ;
    e->first.diff = READCMP_VALUE;
    e->first.have_ref = e->first.have_orig = 1;
    e->first.ref = rd(REF_R_ROTATION, 0, 0, 5, 1, 0, 1, 6);
    e->first.orig = rd(REF_R_ROTATION, 0, 0, orig_value, 1, 0, 1, 6);
    snprintf(e->first.routine, sizeof e->first.routine, "%s", routine);
    snprintf(e->first.responsible, sizeof e->first.responsible, "%s", routine);
    snprintf(e->first.caller, sizeof e->first.caller, DEC);
    snprintf(e->first.cls, sizeof e->first.cls, "%s", cls);
}

static void combine_expl(res_explain *e, uint32_t eip, const char *relation)
{
    e->state = RES_EXPL_COMBINE;
    e->have_writer = 1;
    e->writer.writes = 1;
    e->writer.eip = eip;
    snprintf(e->writer.routine, sizeof e->writer.routine, DEC);
    snprintf(e->writer.insn, sizeof e->writer.insn, "mov word ptr [eax], dx");
    snprintf(e->relation, sizeof e->relation, "%s", relation);
}

/*
 * Groups (one clip each; files 0, 0, 1, 1, 2, 2, 2):
 *   0 rot.x normal: ReadRotationType's value, type 3   } cause A (the routine's own
 *   1 rot.x slow:   ReadRotationType's value, type 3   }   value, two modes, two files)
 *   2 rot.y fast:   ReadPositionType's value          cause B (another routine)
 *   3 root.y slow:  write 0x100, 1 lower          } cause C: joined by their arithmetic
 *   4 rot.z slow:   write 0x200, 1 lower          }   relation in the same routine
 *   5 cmd.off slow: write 0x300, no relation        cause D
 *   6 cmd.off fast: write 0x300, no relation        cause D (same writer and field)
 * Order: by clips (C 2, D 2, A 2, B 1), ties by first group: A (0), C (3), D (5), B (2).
 */
Test(causes, merging)
{
    run_results r;
    memset(&r, 0, sizeof r);
    r.nresults = r.ngroups = 7;
    r.nfiles = 3;
    r.results = calloc(7, sizeof *r.results);
    r.groups = calloc(7, sizeof *r.groups);
    r.files = calloc(3, sizeof *r.files);
    static const char *const fields[7] = {"rot.x",  "rot.x", "rot.y",  "root.y",
                                          "rot.z",  "cmd.off", "cmd.off"};
    static const mode_id modes[7] = {MODE_NORMAL, MODE_SLOW, MODE_FAST, MODE_SLOW,
                                     MODE_SLOW,   MODE_SLOW, MODE_FAST};
    static const uint32_t files[7] = {0, 0, 1, 1, 2, 2, 2};
    for (size_t g = 0; g < 7; g++) group(&r, g, fields[g], modes[g], g, files[g]);
    read_expl(&r.groups[0].expl, "ReadRotationType", "rotation type 3", 4000);
    read_expl(&r.groups[1].expl, "ReadRotationType", "rotation type 3", 3000);
    read_expl(&r.groups[2].expl, "ReadPositionType", "position type 2", 7);
    combine_expl(&r.groups[3].expl, 0x100, "orig_lower_by_1");
    combine_expl(&r.groups[4].expl, 0x200, "orig_lower_by_1");
    combine_expl(&r.groups[5].expl, 0x300, "");
    combine_expl(&r.groups[6].expl, 0x300, "");
    cr_assert_eq(causes_build(&r), 0);
    cr_assert_eq(r.ncauses, 4, "%zu causes", r.ncauses);
    static const int want_group_cause[7] = {0, 0, 3, 1, 1, 2, 2};
    for (size_t g = 0; g < 7; g++) {
        cr_assert_eq(r.groups[g].cause, want_group_cause[g], "group %zu: cause %d", g,
                     r.groups[g].cause);
        cr_assert_eq(r.results[g].cause, want_group_cause[g], "result %zu", g);
    }
    const res_cause *a = &r.causes[0], *c = &r.causes[1], *d = &r.causes[2], *b = &r.causes[3];
    cr_assert_str_eq(a->kind, "read");
    cr_assert_str_eq(a->routine, "ReadRotationType");
    cr_assert_eq(a->clips, 2);
    cr_assert_eq(a->files, 1);
    cr_assert_eq(a->modes, 1u << MODE_NORMAL | 1u << MODE_SLOW);
    cr_assert_eq(a->ngroups, 2);
    cr_assert(strstr(a->statement, "ReadRotationType returns 4000 where the reference returns 5"),
              "%s", a->statement);
    cr_assert_eq(b->clips, 1);
    cr_assert_str_eq(b->routine, "ReadPositionType");
    /* A's values: its input class once, original vs reference. */
    cr_assert_eq(a->nvalues, 1, "%u values", a->nvalues);
    cr_assert_str_eq(a->values[0], "rotation type 3: 4000 vs 5");
    cr_assert_str_eq(c->kind, "combine");
    cr_assert_eq(c->clips, 2);
    cr_assert_eq(c->files, 2);
    cr_assert_eq(c->example, 3);
    cr_assert_eq(c->eip, 0x100);
    cr_assert(strstr(c->statement, "1 lower"), "%s", c->statement);
    cr_assert_eq(d->clips, 2);
    cr_assert_eq(d->modes, 1u << MODE_SLOW | 1u << MODE_FAST);
    cr_assert_eq(d->files, 1);
    cr_assert_str_eq(d->values[0], "cmd.off: 0 vs 0");
    run_results_free(&r);
}

/* A bit count asked by the original's call at eip in routine+off: the caller answers. */
static void width_expl(res_explain *e, const char *cls, int orig_n, int ref_n, uint32_t eip,
                       const char *routine, uint32_t off)
{
    e->state = RES_EXPL_READ;
    e->first.diff = READCMP_WIDTH;
    e->first.have_ref = e->first.have_orig = 1;
    e->first.ref = rd(REF_R_BITREADER, 1, ref_n, 5, 1, 3, 2, 3);
    e->first.orig = rd(REF_R_BITREADER, 1, orig_n, 5, 1, 3, 2, 3);
    snprintf(e->first.routine, sizeof e->first.routine, "bitReader");
    snprintf(e->first.caller, sizeof e->first.caller, "%s", routine);
    snprintf(e->first.responsible, sizeof e->first.responsible, "%s", routine);
    snprintf(e->first.cls, sizeof e->first.cls, "%s", cls);
    e->call_eip = eip;
    snprintf(e->call_insn, sizeof e->call_insn, "call 0x5092a0");
    snprintf(e->call_routine, sizeof e->call_routine, "%s", routine);
    e->call_in_profile = 1;
    e->call_offset = off;
}

/*
 * Groups (one clip each, file 0):
 *   0 rot.x normal: type 3, 16 vs 12 bits, call at 0x509396 (ReadRotationType+0x26) } cause A:
 *   1 rot.x slow:   type 2, 9 vs 8 bits, the same call                              } one call
 *   2 rot.y normal: type 3, 16 vs 12 bits, the same call                            } instruction
 *   3 root.x normal: position type 1, 7 vs 6 bits, call at 0x509350           cause B (another
 *                    (ReadPositionType+0x30)                                    instruction)
 * A lists type 3 once (its example's first), then type 2: "16 vs 12 bits", "9 vs 8 bits".
 */
Test(causes, keyed_by_the_instruction)
{
    run_results r;
    memset(&r, 0, sizeof r);
    r.nresults = r.ngroups = 4;
    r.nfiles = 1;
    r.results = calloc(4, sizeof *r.results);
    r.groups = calloc(4, sizeof *r.groups);
    r.files = calloc(1, sizeof *r.files);
    static const char *const fields[4] = {"rot.x", "rot.x", "rot.y", "root.x"};
    static const mode_id modes[4] = {MODE_NORMAL, MODE_SLOW, MODE_NORMAL, MODE_NORMAL};
    for (size_t g = 0; g < 4; g++) group(&r, g, fields[g], modes[g], g, 0);
    width_expl(&r.groups[0].expl, "rotation type 3", 16, 12, 0x509396, "ReadRotationType", 0x26);
    width_expl(&r.groups[1].expl, "rotation type 2", 9, 8, 0x509396, "ReadRotationType", 0x26);
    width_expl(&r.groups[2].expl, "rotation type 3", 16, 12, 0x509396, "ReadRotationType", 0x26);
    width_expl(&r.groups[3].expl, "position type 1", 7, 6, 0x509350, "ReadPositionType", 0x30);
    cr_assert_eq(causes_build(&r), 0);
    cr_assert_eq(r.ncauses, 2, "%zu causes", r.ncauses);
    const res_cause *a = &r.causes[0], *b = &r.causes[1];
    cr_assert_str_eq(a->signature, "read|ReadRotationType+0x26|width");
    cr_assert_eq(a->clips, 3);
    cr_assert_eq(a->eip, 0x509396);
    cr_assert_eq(a->nvalues, 2, "%u values", a->nvalues);
    cr_assert_str_eq(a->values[0], "rotation type 3: 16 vs 12 bits");
    cr_assert_str_eq(a->values[1], "rotation type 2: 9 vs 8 bits");
    cr_assert_str_eq(b->signature, "read|ReadPositionType+0x30|width");
    cr_assert_eq(b->clips, 1);
    cr_assert_str_eq(b->values[0], "position type 1: 7 vs 6 bits");
    for (size_t g = 0; g < 4; g++)
        cr_assert_eq(r.groups[g].cause, g < 3 ? 0 : 1, "group %zu: cause %d", g, r.groups[g].cause);
    run_results_free(&r);
}
