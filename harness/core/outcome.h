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
#define OUTCOME_FORMAT 3

typedef struct orig_outcome {
    int faulted;
    emu_fault fault; /* when faulted */
    trace t;         /* the calls made (before the fault, if any) */
    uint64_t extent; /* one past the furthest file byte its cursor reached */
} orig_outcome;

void outcome_init(orig_outcome *o);
void outcome_free(orig_outcome *o);
int outcome_copy(orig_outcome *dst, const orig_outcome *src, ff_error *err);

/* Appends (clip, o) to a raw blob under construction. */
void outcome_append(strbuf *raw, uint32_t clip, const orig_outcome *o);
/*
 * Reads the record at *pos of a raw blob into (clip, o) and advances *pos.
 * Returns 1, 0 at the end, -1 on a malformed blob (err names name).
 */
int outcome_next(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip,
                 orig_outcome *o, const char *name, ff_error *err);
/*
 * As outcome_next, but the record's rows are lent to o->t (trace_lend) when
 * they lie 4-aligned (in a blob that starts so): o is then valid while raw
 * is, until o->t's next change.
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
