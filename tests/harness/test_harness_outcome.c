/*
 * tests/harness/test_harness_outcome.c: outcome blobs, the original's side of
 * a file in one mode as the results cache keeps it: round trips with faults,
 * records read in place, a matching clip kept as a digest, rows kept as
 * changes between ticks, the inflation cap and damaged blobs refused.
 * Expected values are worked out by hand in the comments.
 */

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness/core/cells.h"
#include "harness/core/compare.h"
#include "harness/core/fields.h"
#include "harness/core/group.h"
#include "harness/core/levels.h"
#include "harness/core/modes.h"
#include "harness/core/outcome.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"
#include "ref/engine.h"
#include "tests/harness/ft.h"

/* outcome_unpack(data, len) must fail with kind, its reason holding what. */
static void expect_refused(const uint8_t *data, size_t len, ff_errkind kind, const char *what,
                           const char *damage)
{
    uint8_t *raw = NULL;
    size_t rlen = 0;
    ff_error err;
    ff_error_clear(&err);
    int rc = outcome_unpack(data, len, "blob", SIZE_MAX, &raw, &rlen, &err);
    free(raw);
    cr_assert_eq(rc, -1, "%s: accepted", damage);
    cr_assert_eq(err.kind, kind, "%s: kind %d (%s)", damage, (int)err.kind, err.reason);
    cr_assert(strstr(err.reason, what), "%s: \"%s\" does not say \"%s\"", damage, err.reason,
              what);
}

/*
 * Flips, one at a time, every byte that outcome_unpack checks whole:
 *   the LZ4 frame header (bytes 0..14: magic 04 22 4D 18, FLG, BD, the
 *   8-byte content size outcome_pack declares and the header checksum
 *   over them; no dictionary ID), refused by the LZ4 reader;
 *   the blob's magic "FF8DOUT1" (outcome.c), stored as literals at the
 *   start of the first block, refused by the blob header check.
 * A flipped byte of the compressed records is not detected at this layer.
 */
static void expect_flips_refused(uint8_t *packed, size_t plen)
{
    char damage[64];
    cr_assert_gt(plen, 15u);
    for (size_t i = 0; i < 15; i++) {
        packed[i] ^= 0xFF;
        snprintf(damage, sizeof damage, "frame header byte %zu flipped", i);
        expect_refused(packed, plen, FF_E_FORMAT, "LZ4 frame", damage);
        packed[i] ^= 0xFF;
    }
    size_t m = 15;
    while (m + 8 <= plen && memcmp(packed + m, "FF8DOUT1", 8) != 0)
        m++;
    cr_assert_leq(m + 8, plen, "the blob magic is not stored as literals");
    for (size_t i = m; i < m + 8; i++) {
        packed[i] ^= 0xFF;
        snprintf(damage, sizeof damage, "magic byte at %zu flipped", i);
        expect_refused(packed, plen, FF_E_FORMAT, "not an outcome blob", damage);
        packed[i] ^= 0xFF;
    }
}

Test(outcome, blob_round_trip_with_a_fault)
{
    orig_outcome a, b;
    outcome_init(&a);
    outcome_init(&b);
    ft_make_trace(&a.t, 4);
    a.extent = 1234;
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &a);
    a.faulted = 1;
    a.fault.kind = EMU_FAULT_BUDGET;
    a.fault.eip = 0x508FA0;
    snprintf(a.fault.disasm, sizeof a.fault.disasm, ">0x508fa0: jmp 0x508fa0\n");
    outcome_append(&raw, 1, &a);
    uint8_t *packed, *back;
    size_t plen, blen;
    ff_error err;
    cr_assert_eq(outcome_pack(&raw, &packed, &plen, &err), 0);
    cr_assert_eq(outcome_unpack(packed, plen, "blob", SIZE_MAX, &back, &blen, &err), 0, "%s", err.reason);
    cr_assert_eq(blen, raw.len);
    size_t pos = 0;
    uint32_t clip;
    cmp_divergence d;
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 0);
    cr_assert_eq(b.faulted, 0);
    cr_assert_eq(b.extent, 1234);
    cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0);
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 1);
    cr_assert_eq(b.faulted, 1);
    cr_assert_eq(b.fault.kind, EMU_FAULT_BUDGET);
    cr_assert_eq(b.fault.eip, 0x508FA0);
    cr_assert_eq(outcome_next(back, blen, &pos, &clip, &b, "blob", &err), 0);
    /* A damaged blob is an error, not a crash: cut the last record short. */
    pos = 0;
    cr_assert_eq(outcome_next(back, blen - 10, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(outcome_next(back, blen - 10, &pos, &clip, &b, "blob", &err), -1);
    expect_refused(packed, 0, FF_E_TRUNCATED, "truncated", "no byte");
    expect_refused(packed, plen / 2, FF_E_TRUNCATED, "truncated", "the first half of the frame");
    expect_flips_refused(packed, plen);
    free(packed);
    free(back);
    sb_free(&raw);
    outcome_free(&a);
    outcome_free(&b);
}

/* 1 when p lies in [lo, lo + n). */
static int inside(const void *p, const uint8_t *lo, size_t n)
{
    return (const uint8_t *)p >= lo && (const uint8_t *)p < lo + n;
}

/*
 * Records read lent are read in place: the head is 20 bytes, a record's
 * head 40, its rows 4 bytes a slot and a fault a multiple of 4, so in a
 * blob that starts 4-aligned both records of a 2-record blob are lent; one
 * byte off, they are copied. A lent trace gives its memory back at its next
 * change: a push copies the lent rows first, a clear drops them, and
 * freeing it frees only its own array (under ASan a wrong free or a leak
 * fails the test).
 */
Test(outcome, records_read_lent_are_read_in_place)
{
    orig_outcome a, b;
    outcome_init(&a);
    outcome_init(&b);
    ft_make_trace(&a.t, 4);
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &a);
    a.faulted = 1;
    a.fault.kind = EMU_FAULT_BUDGET;
    outcome_append(&raw, 1, &a);
    size_t rows = 4 * a.t.lay.width * sizeof(int32_t);
    cr_assert_eq(raw.len, 20 + (40 + rows) + (40 + rows + sizeof a.fault));
    cr_assert_eq(sizeof a.fault % 4, 0);
    ft_make_trace(&b.t, 2); /* b has an array of its own before */
    uint8_t *buf = malloc(raw.len + 1);
    cr_assert_not_null(buf);
    size_t pos;
    uint32_t clip;
    ff_error err;
    cmp_divergence d;
    for (int off = 0; off < 2; off++) {
        memcpy(buf + off, raw.s, raw.len);
        pos = 0;
        for (uint32_t k = 0; k < 2; k++) {
            cr_assert_eq(outcome_next_lent(buf + off, raw.len, &pos, &clip, &b, "blob", &err), 1);
            cr_assert_eq(clip, k);
            cr_assert_eq(b.faulted, (int)k);
            cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0);
            cr_assert_eq(b.t.lent, off == 0, "record %u, blob at +%d", k, off);
            cr_assert_eq(inside(b.t.v, buf, raw.len + 1), off == 0, "record %u, blob at +%d", k,
                         off);
        }
        cr_assert_eq(outcome_next_lent(buf + off, raw.len, &pos, &clip, &b, "blob", &err), 0);
    }
    memcpy(buf, raw.s, raw.len);
    /* a push copies the lent rows into b's own array, then appends */
    pos = 0;
    cr_assert_eq(outcome_next_lent(buf, raw.len, &pos, &clip, &b, "blob", &err), 1);
    cr_assert(b.t.lent);
    cr_assert_eq(trace_push_rows(&b.t, trace_row(&a.t, 1), 1, NULL), 0);
    cr_assert_not(b.t.lent);
    cr_assert_not(inside(b.t.v, buf, raw.len));
    cr_assert_eq(b.t.n, 5);
    for (size_t i = 0; i < 5; i++)
        cr_assert_eq(memcmp(trace_row(&b.t, i), trace_row(&a.t, i < 4 ? i : 1),
                            a.t.lay.width * sizeof(int32_t)),
                     0, "tick %zu", i);
    /* a clear drops the lent rows and takes the own array back */
    pos = 0;
    cr_assert_eq(outcome_next_lent(buf, raw.len, &pos, &clip, &b, "blob", &err), 1);
    field_set have = a.t.lay.have;
    trace_clear(&b.t, &have, 2);
    cr_assert_not(b.t.lent);
    cr_assert_eq(b.t.n, 0);
    cr_assert_not(inside(b.t.v, buf, raw.len));
    /* lent, then freed: only its own array is freed */
    pos = 0;
    cr_assert_eq(outcome_next_lent(buf, raw.len, &pos, &clip, &b, "blob", &err), 1);
    outcome_free(&b);
    free(buf);
    sb_free(&raw);
    outcome_free(&a);
}

/*
 * The cache's form (outcome_append_cached): a clip whose reference trace
 * holds the very rows is a 32-byte digest record, resolved only by a trace
 * with that digest (another is refused and leaves the record unresolved); a
 * clip whose reference differs, or that faulted, keeps its rows (stored as
 * tick-to-tick deltas, read back exact and never lent); a digest passes
 * through a second append unchanged.
 */
Test(outcome, the_cached_form_keeps_a_matching_clip_as_a_digest)
{
    orig_outcome a, b;
    trace same, other;
    outcome_init(&a);
    outcome_init(&b);
    ft_make_trace(&a.t, 6);
    a.extent = 77;
    trace_init(&same);
    trace_init(&other);
    cr_assert_eq(trace_copy(&same, &a.t, NULL), 0);
    cr_assert_eq(trace_copy(&other, &a.t, NULL), 0);
    other.v[4 * other.lay.width + 1] ^= 1; /* tick 4: one slot differs */
    size_t rows = 6 * a.t.lay.width * sizeof(int32_t);
    strbuf raw;
    sb_init(&raw);
    outcome_append_cached(&raw, 0, &a, &same);
    cr_assert_eq(raw.len, 20 + 40 + 32, "a matching clip is its digest, not its %zu bytes of rows",
                 rows);
    outcome_append_cached(&raw, 1, &a, &other);
    cr_assert_eq(raw.len, 20 + 40 + 32 + 40 + rows, "a mismatching clip keeps its rows");
    a.faulted = 1;
    a.fault.kind = EMU_FAULT_BUDGET;
    outcome_append_cached(&raw, 2, &a, &same);
    cr_assert_eq(raw.len, 20 + 40 + 32 + 2 * (40 + rows) + sizeof a.fault,
                 "a faulted clip keeps its rows and its fault");
    a.faulted = 0;
    size_t pos = 0;
    uint32_t clip;
    ff_error err;
    cmp_divergence d;
    /* clip 0: a digest, resolved by the same rows only */
    cr_assert_eq(outcome_next((const uint8_t *)raw.s, raw.len, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 0);
    cr_assert(b.digested);
    cr_assert_eq(b.t.n, 0, "a digest record holds no rows");
    cr_assert_eq(b.digest_ticks, 6);
    cr_assert_eq(b.extent, 77);
    strbuf again;
    sb_init(&again);
    outcome_append_cached(&again, 0, &b, NULL);
    cr_assert_eq(again.len, 20 + 40 + 32);
    cr_assert_eq(memcmp(again.s, raw.s, again.len), 0, "a digest passes through unchanged");
    sb_free(&again);
    cr_assert_eq(outcome_resolve(&b, &other, &err), 0, "another trace is not the original's");
    cr_assert(b.digested);
    cr_assert_eq(b.t.n, 0);
    cr_assert_eq(outcome_resolve(&b, &same, &err), 1);
    cr_assert_not(b.digested);
    cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0, "resolved: the original's rows");
    /* clip 1: rows as deltas, read back exact, copied (not lent) */
    cr_assert_eq(outcome_next_lent((const uint8_t *)raw.s, raw.len, &pos, &clip, &b, "blob", &err),
                 1);
    cr_assert_eq(clip, 1);
    cr_assert_not(b.digested);
    cr_assert_not(b.t.lent);
    cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0, "tick %zu differs", d.tick);
    /* clip 2: the fault kept */
    cr_assert_eq(outcome_next((const uint8_t *)raw.s, raw.len, &pos, &clip, &b, "blob", &err), 1);
    cr_assert_eq(clip, 2);
    cr_assert(b.faulted);
    cr_assert_eq(b.fault.kind, EMU_FAULT_BUDGET);
    cr_assert_eq(cmp_traces(&a.t, &b.t, &d), 0);
    cr_assert_eq(outcome_next((const uint8_t *)raw.s, raw.len, &pos, &clip, &b, "blob", &err), 0);
    /* A digest record that claims a fault is damage. */
    raw.s[20 + 4] = 1;
    pos = 0;
    cr_assert_eq(outcome_next((const uint8_t *)raw.s, raw.len, &pos, &clip, &b, "blob", &err), -1);
    sb_free(&raw);
    trace_free(&same);
    trace_free(&other);
    outcome_free(&a);
    outcome_free(&b);
}

/*
 * A cache entry's blob is inflated under a cap (the most its clips can
 * hold): one that declares more is refused before a byte is inflated, one
 * that declares nothing (an older writer's, or forged) is stopped as soon
 * as it inflates past the cap. Either way nothing past the cap is held.
 */
Test(outcome, a_blob_larger_than_its_cap_is_never_inflated_whole)
{
    orig_outcome a;
    outcome_init(&a);
    ft_make_trace(&a.t, 64);
    strbuf raw;
    sb_init(&raw);
    for (uint32_t c = 0; c < 8; c++) outcome_append(&raw, c, &a);
    uint8_t *packed, *back = NULL;
    size_t plen, blen;
    ff_error err;
    cr_assert_eq(outcome_pack(&raw, &packed, &plen, &err), 0);
    cr_assert_eq(outcome_unpack(packed, plen, "blob", raw.len, &back, &blen, &err), 0, "%s",
                 err.reason);
    cr_assert_eq(blen, raw.len, "a cap equal to the blob's size holds it");
    free(back);
    back = NULL;
    cr_assert_eq(outcome_unpack(packed, plen, "blob", raw.len - 1, &back, &blen, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert(strstr(err.reason, "refused before inflating"), "%s", err.reason);
    cr_assert_null(back);
    free(packed);
    /* Without a declared size: stopped while inflating, once past the cap. */
    size_t cap = LZ4F_compressFrameBound(raw.len, NULL);
    packed = malloc(cap);
    plen = LZ4F_compressFrame(packed, cap, raw.s, raw.len, NULL);
    cr_assert(!LZ4F_isError(plen));
    cr_assert_eq(outcome_unpack(packed, plen, "blob", raw.len / 4, &back, &blen, &err), -1);
    cr_assert_eq(err.kind, FF_E_RANGE);
    cr_assert(strstr(err.reason, "inflates past"), "%s", err.reason);
    cr_assert_null(back);
    cr_assert_eq(outcome_unpack(packed, plen, "blob", raw.len, &back, &blen, &err), 0, "%s",
                 err.reason);
    free(back);
    free(packed);
    sb_free(&raw);
    outcome_free(&a);
}

Test(outcome, pack_refuses_a_buffer_that_lost_an_append)
{
    orig_outcome a;
    outcome_init(&a);
    ft_make_trace(&a.t, 2);
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, &a);
    /* An append too large to grow the buffer for: it is dropped, the buffer marked failed. */
    sb_add(&raw, "", SIZE_MAX);
    cr_assert(strbuf_failed(&raw));
    uint8_t *packed = NULL;
    size_t plen = 0;
    ff_error err;
    ff_error_clear(&err);
    cr_assert_eq(outcome_pack(&raw, &packed, &plen, &err), -1);
    cr_assert_eq(err.kind, FF_E_NOMEM, "kind %d: %s", (int)err.kind, err.reason);
    cr_assert_null(packed);
    sb_free(&raw);
    outcome_free(&a);
}
