/*
 * harness/core/outcome.c: outcomes of the original's side and their blob form.
 *
 * Raw blob: "FF8DOUT1" u32 format, u64 field table hash, then records:
 *   u32 clip, u8 faulted, u8 kind, 2 zero bytes, u64 extent, u32 bones,
 *   u32 ticks, u64 fields[2] (the field_set the trace carries), then by kind
 *     ROWS:   ticks rows of the trace's layout (int32 slots)
 *     DELTA:  the same slots, each as its difference from the same slot
 *             of the tick before (the first tick's from 0, mod 2^32),
 *             zigzag-coded (0, -1, 1, -2 .. as 0, 1, 2, 3 ..), stored as
 *             four planes: every slot's low byte, then every slot's
 *             second byte, ... (small differences leave runs of zeros)
 *     DIGEST: the 32-byte outcome_digest of those rows (never faulted)
 *   then emu_fault when faulted
 * all in host order (the cache lives on the machine that wrote it). The
 * head is 20 bytes, a record's head 40 and emu_fault a multiple of 4, so
 * in a blob that starts 4-aligned every record's rows are too, and a
 * reader may lend ROWS to a trace instead of copying (outcome_next_lent).
 * The in-memory forms (dedup, the engine process's answers) are ROWS; the
 * cache's are DIGEST where the reference gave the same rows, else DELTA.
 */
#include "harness/core/outcome.h"

#include "common/sha256.h"
#include "ref/dat.h"

#include <lz4frame.h>
#include <stdlib.h>
#include <string.h>

static const char magic[8] = {'F', 'F', '8', 'D', 'O', 'U', 'T', '1'};
/* magic, u32 format, u64 hash of the field table the records' field sets index */
#define HEAD (sizeof magic + sizeof(uint32_t) + sizeof(uint64_t))

/* How a record holds its rows (the byte after faulted). */
enum { REC_ROWS = 0, REC_DELTA = 1, REC_DIGEST = 2 };

static const char digest_tag[] = "ff8diff-outcome-rows-1";

/* v's difference from prev (mod 2^32), small ones of either sign to small codes. */
static uint32_t zigzag(int32_t v, int32_t prev)
{
    uint32_t d = (uint32_t)v - (uint32_t)prev;
    return (d << 1) ^ (0u - (d >> 31));
}

static int32_t unzigzag(uint32_t z, int32_t prev)
{
    uint32_t d = (z >> 1) ^ (0u - (z & 1u));
    return (int32_t)((uint32_t)prev + d);
}

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
    dst->digested = src->digested;
    dst->digest_ticks = src->digest_ticks;
    memcpy(dst->digest, src->digest, sizeof dst->digest);
    if (src->faulted) dst->fault = src->fault;
    dst->extent = src->extent;
    return trace_copy(&dst->t, &src->t, err);
}

/* The blob's head when raw is empty, then a record's head of the given kind. */
static void append_head(strbuf *raw, uint32_t clip, const orig_outcome *o, int kind, uint32_t ticks)
{
    if (raw->len == 0) {
        uint32_t fmt = OUTCOME_FORMAT;
        uint64_t table = field_table_hash();
        sb_add(raw, magic, sizeof magic);
        sb_add(raw, (const char *)&fmt, sizeof fmt);
        sb_add(raw, (const char *)&table, sizeof table);
    }
    uint8_t faulted[4] = {(uint8_t)(o->faulted != 0), (uint8_t)kind, 0, 0};
    uint32_t bones = o->t.lay.bones;
    sb_add(raw, (const char *)&clip, sizeof clip);
    sb_add(raw, (const char *)faulted, sizeof faulted);
    sb_add(raw, (const char *)&o->extent, sizeof o->extent);
    sb_add(raw, (const char *)&bones, sizeof bones);
    sb_add(raw, (const char *)&ticks, sizeof ticks);
    sb_add(raw, (const char *)o->t.lay.have.w, sizeof o->t.lay.have.w);
}

void outcome_append(strbuf *raw, uint32_t clip, const orig_outcome *o)
{
    uint32_t ticks = (uint32_t)o->t.n;
    append_head(raw, clip, o, REC_ROWS, ticks);
    if (ticks) sb_add(raw, (const char *)o->t.v, (size_t)ticks * o->t.lay.width * sizeof(int32_t));
    if (o->faulted) sb_add(raw, (const char *)&o->fault, sizeof o->fault);
}

int outcome_digest(const trace *t, uint8_t out[32], ff_error *err)
{
    if (t->sparse)
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "a sparse trace has no digest");
    uint32_t head[2] = {t->lay.bones, (uint32_t)t->n};
    sha256_part parts[4] = {{digest_tag, sizeof digest_tag},
                            {head, sizeof head},
                            {t->lay.have.w, sizeof t->lay.have.w},
                            {t->v, t->n * t->lay.width * sizeof(int32_t)}};
    return sha256_parts(parts, t->n ? 4 : 3, out, err);
}

/* Same layout and the same rows, no tick limited. */
static int same_rows(const trace *a, const trace *b)
{
    return !a->sparse && !b->sparse && a->lay.bones == b->lay.bones && a->n == b->n &&
           memcmp(a->lay.have.w, b->lay.have.w, sizeof a->lay.have.w) == 0 &&
           (a->n == 0 || memcmp(a->v, b->v, a->n * a->lay.width * sizeof(int32_t)) == 0);
}

void outcome_append_cached(strbuf *raw, uint32_t clip, const orig_outcome *o, const trace *ref)
{
    uint8_t d[SHA256_BYTES];
    ff_error e;
    if (o->digested) {
        append_head(raw, clip, o, REC_DIGEST, o->digest_ticks);
        sb_add(raw, (const char *)o->digest, sizeof o->digest);
        return;
    }
    if (ref && !o->faulted && same_rows(&o->t, ref) && outcome_digest(&o->t, d, &e) == 0) {
        append_head(raw, clip, o, REC_DIGEST, (uint32_t)o->t.n);
        sb_add(raw, (const char *)d, sizeof d);
        return;
    }
    uint32_t ticks = (uint32_t)o->t.n;
    size_t cnt = (size_t)ticks * o->t.lay.width;
    uint8_t *planes = cnt ? malloc(cnt * sizeof(uint32_t)) : NULL;
    if (cnt && !planes) { /* no room to transform: the rows as they are */
        outcome_append(raw, clip, o);
        return;
    }
    append_head(raw, clip, o, REC_DELTA, ticks);
    for (size_t i = 0; i < cnt; i++) {
        uint32_t z = zigzag(o->t.v[i], i < o->t.lay.width ? 0 : o->t.v[i - o->t.lay.width]);
        for (int p = 0; p < 4; p++)
            planes[(size_t)p * cnt + i] = (uint8_t)(z >> (8 * p));
    }
    if (cnt) sb_add(raw, (const char *)planes, cnt * sizeof(uint32_t));
    free(planes);
    if (o->faulted) sb_add(raw, (const char *)&o->fault, sizeof o->fault);
}

int outcome_resolve(orig_outcome *o, const trace *ref, ff_error *err)
{
    uint8_t d[SHA256_BYTES];
    ff_error e;
    if (!o->digested) return 1;
    if (ref->sparse || ref->n != o->digest_ticks || ref->lay.bones != o->t.lay.bones ||
        memcmp(ref->lay.have.w, o->t.lay.have.w, sizeof ref->lay.have.w) != 0 ||
        outcome_digest(ref, d, &e) < 0 || memcmp(d, o->digest, sizeof d) != 0)
        return 0;
    if (trace_copy(&o->t, ref, err) < 0) return -1;
    o->digested = 0;
    return 1;
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
    int kind = faulted[1];
    if (kind > REC_DIGEST || (kind == REC_DIGEST && faulted[0]))
        return ff_error_set(err, FF_E_FORMAT, name, (int64_t)at, "damaged outcome record");
    trace_clear(&o->t, &have, bones);
    o->digested = kind == REC_DIGEST;
    o->digest_ticks = o->digested ? ticks : 0;
    size_t bytes =
        o->digested ? sizeof o->digest : (size_t)ticks * o->t.lay.width * sizeof(int32_t);
    if (bytes > len - *pos)
        return ff_error_set(err, FF_E_FORMAT, name, (int64_t)*pos, "truncated outcome");
    if (o->digested)
        memcpy(o->digest, raw + *pos, sizeof o->digest);
    else if (lend && kind == REC_ROWS && ((uintptr_t)(raw + *pos) & (sizeof(int32_t) - 1)) == 0)
        trace_lend(&o->t, (const int32_t *)(const void *)(raw + *pos), ticks);
    else if (trace_push_rows(&o->t, raw + *pos, ticks, err) < 0)
        return -1;
    if (kind == REC_DELTA) {
        const uint8_t *planes = raw + *pos;
        size_t cnt = (size_t)ticks * o->t.lay.width;
        for (size_t i = 0; i < cnt; i++) {
            uint32_t z = (uint32_t)planes[i] | (uint32_t)planes[cnt + i] << 8 |
                         (uint32_t)planes[2 * cnt + i] << 16 | (uint32_t)planes[3 * cnt + i] << 24;
            o->t.v[i] = unzigzag(z, i < o->t.lay.width ? 0 : o->t.v[i - o->t.lay.width]);
        }
    }
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
