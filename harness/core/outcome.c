/*
 * harness/core/outcome.c: outcomes of the original's side and their blob form.
 *
 * Raw blob: "FF8DOUT1" u32 format, u64 field table hash, then records:
 *   u32 clip, u8 faulted, 3 zero bytes, u64 extent, u32 bones, u32 ticks,
 *   u64 fields[2] (the field_set the trace carries), then ticks rows of the
 *   trace's layout (int32 slots), then emu_fault when faulted
 * all in host order (the cache lives on the machine that wrote it). The
 * head is 20 bytes, a record's head 40 and emu_fault a multiple of 4, so
 * in a blob that starts 4-aligned every record's rows are too, and a
 * reader may lend them to a trace instead of copying (outcome_next_lent).
 */
#include "harness/core/outcome.h"

#include "ref/dat.h"

#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'F', 'F', '8', 'D', 'O', 'U', 'T', '1'};
/* magic, u32 format, u64 hash of the field table the records' field sets index */
#define HEAD (sizeof magic + sizeof(uint32_t) + sizeof(uint64_t))

void outcome_init(orig_outcome *o)
{
    memset(o, 0, sizeof *o);
    trace_init(&o->t);
}

void outcome_free(orig_outcome *o)
{
    trace_free(&o->t);
    outcome_init(o);
}

int outcome_copy(orig_outcome *dst, const orig_outcome *src, ff_error *err)
{
    dst->faulted = src->faulted;
    if (src->faulted) dst->fault = src->fault;
    dst->extent = src->extent;
    return trace_copy(&dst->t, &src->t, err);
}

void outcome_append(strbuf *raw, uint32_t clip, const orig_outcome *o)
{
    if (raw->len == 0) {
        uint32_t fmt = OUTCOME_FORMAT;
        uint64_t table = field_table_hash();
        sb_add(raw, magic, sizeof magic);
        sb_add(raw, (const char *)&fmt, sizeof fmt);
        sb_add(raw, (const char *)&table, sizeof table);
    }
    uint8_t faulted[4] = {(uint8_t)(o->faulted != 0), 0, 0, 0};
    uint32_t bones = o->t.lay.bones, ticks = (uint32_t)o->t.n;
    sb_add(raw, (const char *)&clip, sizeof clip);
    sb_add(raw, (const char *)faulted, sizeof faulted);
    sb_add(raw, (const char *)&o->extent, sizeof o->extent);
    sb_add(raw, (const char *)&bones, sizeof bones);
    sb_add(raw, (const char *)&ticks, sizeof ticks);
    sb_add(raw, (const char *)o->t.lay.have.w, sizeof o->t.lay.have.w);
    if (ticks) sb_add(raw, (const char *)o->t.v, (size_t)ticks * o->t.lay.width * sizeof(int32_t));
    if (faulted[0]) sb_add(raw, (const char *)&o->fault, sizeof o->fault);
}

static int take(const uint8_t *raw, size_t len, size_t *pos, void *dst, size_t n)
{
    if (n > len - *pos) return -1;
    memcpy(dst, raw + *pos, n);
    *pos += n;
    return 0;
}

/* A record into (clip, o): its rows copied, or with lend and 4-aligned, lent (trace_lend). */
static int next(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip, orig_outcome *o,
                const char *name, int lend, ff_error *err)
{
    if (*pos == 0) *pos = HEAD;
    if (*pos > len) return ff_error_set(err, FF_E_FORMAT, name, 0, "outcome blob too short");
    if (*pos == len) return 0;
    size_t at = *pos;
    uint8_t faulted[4];
    uint32_t bones, ticks;
    field_set have;
    if (take(raw, len, pos, clip, sizeof *clip) < 0 || take(raw, len, pos, faulted, 4) < 0 ||
        take(raw, len, pos, &o->extent, sizeof o->extent) < 0 ||
        take(raw, len, pos, &bones, sizeof bones) < 0 ||
        take(raw, len, pos, &ticks, sizeof ticks) < 0 ||
        take(raw, len, pos, have.w, sizeof have.w) < 0 || bones > DAT_MAX_BONES || ticks > 4096)
        return ff_error_set(err, FF_E_FORMAT, name, (int64_t)at, "damaged outcome record");
    trace_clear(&o->t, &have, bones);
    size_t bytes = (size_t)ticks * o->t.lay.width * sizeof(int32_t);
    if (bytes > len - *pos)
        return ff_error_set(err, FF_E_FORMAT, name, (int64_t)*pos, "truncated outcome");
    if (lend && ((uintptr_t)(raw + *pos) & (sizeof(int32_t) - 1)) == 0)
        trace_lend(&o->t, (const int32_t *)(const void *)(raw + *pos), ticks);
    else if (trace_push_rows(&o->t, raw + *pos, ticks, err) < 0)
        return -1;
    *pos += bytes;
    o->faulted = faulted[0] != 0;
    if (o->faulted && take(raw, len, pos, &o->fault, sizeof o->fault) < 0)
        return ff_error_set(err, FF_E_FORMAT, name, (int64_t)*pos, "truncated fault record");
    return 1;
}

int outcome_next(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip, orig_outcome *o,
                 const char *name, ff_error *err)
{
    return next(raw, len, pos, clip, o, name, 0, err);
}

int outcome_next_lent(const uint8_t *raw, size_t len, size_t *pos, uint32_t *clip, orig_outcome *o,
                      const char *name, ff_error *err)
{
    return next(raw, len, pos, clip, o, name, 1, err);
}

/* raw as one LZ4 frame at LZ4F compression level `level` (negative: faster, larger). */
static int pack(const strbuf *raw, int level, uint8_t **out, size_t *out_len, ff_error *err)
{
    /* An append that failed left records out: packing the rest would store a lie. */
    if (strbuf_failed(raw))
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory building outcomes");
    LZ4F_preferences_t prefs;
    memset(&prefs, 0, sizeof prefs);
    prefs.compressionLevel = level;
    /* Declared, so that a reader can refuse an entry too large before inflating it. */
    prefs.frameInfo.contentSize = raw->len;
    size_t cap = LZ4F_compressFrameBound(raw->len, &prefs);
    uint8_t *buf = malloc(cap ? cap : 1);
    if (!buf) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory packing outcomes");
    size_t n = LZ4F_compressFrame(buf, cap, raw->s, raw->len, &prefs);
    if (LZ4F_isError(n)) {
        free(buf);
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "LZ4: %s", LZ4F_getErrorName(n));
    }
    *out = buf;
    *out_len = n;
    return 0;
}

int outcome_pack(const strbuf *raw, uint8_t **out, size_t *out_len, ff_error *err)
{
    return pack(raw, 0, out, out_len, err);
}

size_t outcome_raw_max(const dat_file *d)
{
    size_t row = (size_t)(d->bones + 1) * FIELD__COUNT * sizeof(int32_t), n = HEAD;
    for (uint32_t c = 0; c < d->clips; c++)
        n += 64 + sizeof(emu_fault) + (2 * (size_t)dat_clip_frames(d, c) + 2) * row;
    return n;
}

/*
 * Reads the LZ4 frame's header (*pos: the bytes it takes) and refuses a
 * frame that declares more than max_raw bytes. Returns the decoder's hint
 * for the next call, or 0 with err.
 */
static size_t frame_head(LZ4F_dctx *ctx, const uint8_t *packed, size_t len, const char *name,
                         size_t max_raw, size_t *pos, ff_error *err)
{
    size_t head = len >= LZ4F_HEADER_SIZE_MIN ? LZ4F_headerSize(packed, len) : 0;
    if (!LZ4F_isError(head) && (head == 0 || head > len)) {
        ff_error_set(err, FF_E_TRUNCATED, name, (int64_t)len, "LZ4 frame is truncated");
        return 0;
    }
    LZ4F_frameInfo_t info;
    *pos = len;
    size_t hint = LZ4F_getFrameInfo(ctx, &info, packed, pos);
    if (LZ4F_isError(hint)) {
        ff_error_set(err, FF_E_FORMAT, name, 0, "LZ4 frame: %s", LZ4F_getErrorName(hint));
        return 0;
    }
    if (info.contentSize > max_raw) {
        ff_error_set(err, FF_E_RANGE, name, 0,
                     "declares %llu bytes of outcomes, more than its clips can hold (%zu): "
                     "refused before inflating",
                     (unsigned long long)info.contentSize, max_raw);
        return 0;
    }
    return hint;
}

int outcome_unpack(const uint8_t *packed, size_t len, const char *name, size_t max_raw,
                   uint8_t **raw, size_t *raw_len, ff_error *err)
{
    LZ4F_dctx *ctx;
    if (LZ4F_isError(LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION)))
        return ff_error_set(err, FF_E_NOMEM, name, -1, "cannot set up LZ4 decoding");
    strbuf out;
    sb_init(&out);
    size_t pos = 0;
    int rc = 0;
    size_t hint = frame_head(ctx, packed, len, name, max_raw, &pos, err);
    if (hint == 0) rc = -1;
    while (rc == 0 && hint != 0) {
        char buf[64 * 1024];
        size_t out_n = sizeof buf, in_n = len - pos;
        hint = LZ4F_decompress(ctx, buf, &out_n, packed + pos, &in_n, NULL);
        if (LZ4F_isError(hint)) {
            rc = ff_error_set(err, FF_E_FORMAT, name, (int64_t)pos, "LZ4 frame: %s",
                              LZ4F_getErrorName(hint));
            break;
        }
        pos += in_n;
        if (out_n > max_raw - out.len) {
            rc = ff_error_set(err, FF_E_RANGE, name, (int64_t)pos,
                              "inflates past %zu bytes, more than its clips can hold: refused",
                              max_raw);
            break;
        }
        sb_add(&out, buf, out_n);
        if (hint != 0 && pos == len && out_n == 0) {
            rc = ff_error_set(err, FF_E_TRUNCATED, name, (int64_t)pos, "LZ4 frame is truncated");
            break;
        }
    }
    LZ4F_freeDecompressionContext(ctx);
    uint32_t fmt = 0;
    uint64_t table = 0;
    if (rc == 0 &&
        (strbuf_failed(&out) || out.len < HEAD || memcmp(out.s, magic, sizeof magic) != 0))
        rc = ff_error_set(err, FF_E_FORMAT, name, 0, "not an outcome blob");
    if (rc == 0) {
        memcpy(&fmt, out.s + sizeof magic, sizeof fmt);
        memcpy(&table, out.s + sizeof magic + sizeof fmt, sizeof table);
        if (fmt != OUTCOME_FORMAT)
            rc = ff_error_set(err, FF_E_FORMAT, name, 8, "outcome format %u, expected %u", fmt,
                              OUTCOME_FORMAT);
        else if (table != field_table_hash())
            rc = ff_error_set(err, FF_E_FORMAT, name, 12,
                              "outcomes of another field table (a different ff8diff build)");
    }
    if (rc < 0) {
        sb_free(&out);
        return -1;
    }
    *raw = (uint8_t *)out.s;
    *raw_len = out.len;
    return 0;
}

int outcome_pack_one(const orig_outcome *o, uint8_t **out, size_t *out_len, ff_error *err)
{
    strbuf raw;
    sb_init(&raw);
    outcome_append(&raw, 0, o);
    /* Kept in memory only until the slot's last member: LZ4's acceleration 8. */
    int rc = pack(&raw, -8, out, out_len, err);
    sb_free(&raw);
    return rc;
}

int outcome_unpack_one(const uint8_t *packed, size_t len, orig_outcome *o, ff_error *err)
{
    uint8_t *raw;
    size_t raw_len, pos = 0;
    uint32_t clip;
    if (outcome_unpack(packed, len, "kept outcome", SIZE_MAX, &raw, &raw_len, err) < 0) return -1;
    int rc = outcome_next(raw, raw_len, &pos, &clip, o, "kept outcome", err);
    free(raw);
    if (rc == 0) return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "a kept outcome is empty");
    return rc < 0 ? -1 : 0;
}
