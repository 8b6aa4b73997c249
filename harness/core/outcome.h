/*
 * harness/core/outcome.h: the original's side of one clip (its trace, or the
 * fault that stopped it with the ticks before it, and how far its cursor
 * read), and the binary blob that stores the outcomes of one file in one
 * mode in the cache: a versioned record list inside an LZ4 frame.
 */
#ifndef FF8_HARNESS_CORE_OUTCOME_H
#define FF8_HARNESS_CORE_OUTCOME_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "harness/core/strbuf.h"
#include "harness/core/trace.h"
#include "ref/dat.h"
#include "common/error.h"

/* Bump when the blob layout or emu_fault changes: part of every cache key. */
#define OUTCOME_FORMAT 4

typedef struct orig_outcome {
    int faulted;
    emu_fault fault; /* when faulted */
    trace t;         /* the calls made (before the fault, if any) */
    uint64_t extent; /* one past the furthest file byte its cursor reached */
    /*
     * Read from a digest record (outcome_append_cached): t holds the layout
     * and no rows; its rows are those whose outcome_digest is digest, over
     * digest_ticks ticks. Resolved by outcome_resolve, never compared as is.
     */
    int digested;
    uint32_t digest_ticks;
    uint8_t digest[32];
} orig_outcome;

void outcome_init(orig_outcome *o);
void outcome_free(orig_outcome *o);
int outcome_copy(orig_outcome *dst, const orig_outcome *src, ff_error *err);

/* Appends (clip, o) to a raw blob under construction, its rows as they are. */
void outcome_append(strbuf *raw, uint32_t clip, const orig_outcome *o);
/*
 * Appends (clip, o) in the cache's form. When ref (the reference's trace of
 * the same clip, may be NULL) holds exactly o's rows and o did not fault,
 * or o is itself digested, the record is a digest: the SHA-256 of the rows
 * in outcome_digest's form, not the rows. Otherwise the rows are kept whole,
 * each slot stored as its difference from the tick before, in byte planes
 * (the matrices change little from one tick to the next: the planes of
 * high bytes are runs LZ4 packs). Where memory runs out for that, the rows
 * go as they are (outcome_append).
 */
void outcome_append_cached(strbuf *raw, uint32_t clip, const orig_outcome *o, const trace *ref);
/*
 * The digest of a trace's rows in canonical form: SHA-256 of a tag, the
 * bone count, the tick count, the field set and the rows (int32 slots in
 * host order). Returns 0, or -1 with err (a sparse trace has no digest).
 */
int outcome_digest(const trace *t, uint8_t out[32], ff_error *err);
/*
 * A digested outcome o made whole from ref: 1 when ref's digest is o's
 * (ref's rows are then copied into o->t: they are the original's), 0 when
 * it is not (o unchanged but for its rows: the original's side must be
 * emulated again), -1 with err when memory runs out.
 */
int outcome_resolve(orig_outcome *o, const trace *ref, ff_error *err);
/*
 * Reads the record at *pos of a raw blob into (clip, o) and advances *pos.
 * A digest record sets o->digested (o->t then holds no rows).
 * Returns 1, 0 at the end, -1 on a malformed blob (err names name).
 */
int outcome_next(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip,
                 orig_outcome *o, const char *name, ff_error *err);
/*
 * As outcome_next, but the record's rows are lent to o->t (trace_lend) when
 * they lie 4-aligned (in a blob that starts so) and are stored as they are
 * (outcome_append): o is then valid while raw is, until o->t's next change.
 */
int outcome_next_lent(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip, orig_outcome *o,
                      const char *name, ff_error *err);

/*
 * One outcome as a packed blob (its own header and one record, LZ4 at
 * acceleration 8: speed before size), for keeping it compact in memory
 * for a while: caller frees *out. Returns 0, or -1 with
 * err when memory runs out.
 */
int outcome_pack_one(const orig_outcome *o, uint8_t **out, size_t *out_len, ff_error *err);
/*
 * The most raw bytes the outcomes of model d's clips in one mode can take
 * (every tick of SLOW, every field, a fault record per clip): the cap an
 * entry's blob is inflated under.
 */
size_t outcome_raw_max(const dat_file *d);
/* The outcome of a blob from outcome_pack_one into o. Returns 0, or -1 with err. */
int outcome_unpack_one(const uint8_t *packed, size_t len, orig_outcome *o, ff_error *err);

/*
 * Wraps a raw blob (header + records) in an LZ4 frame; caller frees *out.
 * Returns 0, or -1 with err (FF_E_NOMEM also when an append to raw failed).
 */
int outcome_pack(const strbuf *raw, uint8_t **out, size_t *out_len, ff_error *err);
/*
 * Unwraps a packed blob into raw records (caller frees *raw), checking the
 * header's magic and format. A blob that declares or inflates to more than
 * max_raw bytes is refused (FF_E_RANGE) before or while inflating, never
 * inflated whole. Returns -1 with err on any damage.
 */
int outcome_unpack(const uint8_t *packed, size_t len, const char *name, size_t max_raw,
                   uint8_t **raw,
                   size_t *raw_len, ff_error *err);

#endif
