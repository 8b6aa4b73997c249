/*
 * tests/fuzz/fz_trace.c: body of fuzz_trace (see fz.h): the Trace JSON
 * Lines v1 reader over arbitrary text, and a writer/reader round trip of
 * every clip it accepts (what the writer prints, the reader must read back
 * to the same trace). Never prints or aborts.
 */
#include <string.h>

#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "harness/traces/trace_json.h"
#include "tests/fuzz/fz.h"

#define FZ_TRACE_NAME "fuzz.jsonl"

/* 1 when s is valid UTF-8 (the writer replaces anything else). */
static int is_utf8(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n = *p < 0x80 ? 1 : utf8_seq_len(p);
        if (n == 0) return 0;
        p += n;
    }
    return 1;
}

static int same_trace(const trace *a, const trace *b)
{
    if (a->lay.bones != b->lay.bones || a->n != b->n || !field_set_eq(&a->lay.have, &b->lay.have))
        return 0;
    return a->n == 0 || memcmp(a->v, b->v, a->n * a->lay.width * sizeof *a->v) == 0;
}

/* Writes one clip and reads it back: the same clip, then the end. */
static int round_trip(const tj_clip *c, const trace *t, fz_report *r)
{
    strbuf b;
    sb_init(&b);
    tj_write_trace(&b, c, t);
    trace back;
    trace_init(&back);
    tj_clip c2;
    ff_error e;
    int rc = -1;
    tj_reader *rd = strbuf_failed(&b) ? NULL : tj_open_mem(b.s, b.len, "round trip", &e);
    if (!rd) {
        rc = fz_broken(r, "round trip: cannot write or open the written trace");
    } else if (tj_next_clip(rd, &c2, &back, &e) != 1) {
        rc = fz_broken(r, "round trip: written clip does not read back: %s", e.reason);
    } else if (!same_trace(t, &back) || c2.anim != c->anim || c2.mode != c->mode) {
        rc = fz_broken(r, "round trip: clip anim %u reads back different", c->anim);
    } else if (is_utf8(c->file) && is_utf8(c->model) &&
               (strcmp(c2.file, c->file) != 0 || strcmp(c2.model, c->model) != 0)) {
        rc = fz_broken(r, "round trip: file/model names read back different");
    } else if (tj_next_clip(rd, &c2, &back, &e) != 0) {
        rc = fz_broken(r, "round trip: one clip written, more read back");
    } else {
        rc = 0;
    }
    tj_close(rd);
    trace_free(&back);
    sb_free(&b);
    return rc;
}

int fz_trace_one(const uint8_t *data, size_t size, fz_report *r)
{
    fz_report_init(r);
    ff_error e;
    tj_reader *rd = tj_open_mem((const char *)data, size, FZ_TRACE_NAME, &e);
    if (!rd) return fz_rejected(r, &e, FZ_TRACE_NAME, "tj_open_mem");
    trace t;
    trace_init(&t);
    tj_clip c;
    int rc = 0;
    /* Every clip takes at least one line: the loop ends within size + 1. */
    for (size_t k = 0; k <= size; k++) {
        int got = tj_next_clip(rd, &c, &t, &e);
        if (got == 0) break;
        if (got < 0) {
            rc = fz_rejected(r, &e, FZ_TRACE_NAME, "tj_next_clip");
            break;
        }
        if (c.bad) { /* a spoiled clip: its own bad input, with a reason; others read on */
            if (!c.error.reason[0]) {
                rc = fz_broken(r, "clip anim %u spoiled without a reason", c.anim);
                break;
            }
            continue;
        }
        r->accepted++;
        if (t.n == 0 || t.lay.bones > 255 || c.anim > 255 || (unsigned)c.mode >= MODE__COUNT) {
            rc = fz_broken(r, "clip accepted with %zu ticks, %u bones, anim %u", t.n, t.lay.bones,
                           c.anim);
            break;
        }
        if ((rc = round_trip(&c, &t, r)) < 0) break;
    }
    trace_free(&t);
    tj_close(rd);
    return rc;
}
