/*
 * harness/traces/trace_json.c: Trace JSON Lines v1 writer and reader: lines,
 * files, clip identity and tick order (the fields of a line: trace_fields.c).
 */
#include "harness/traces/trace_json.h"

#include "common/file.h"
#include "common/json_read.h"
#include "corpus/fileio.h"
#include "harness/traces/json_keys.h"
#include "harness/traces/trace_fields.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- writer ---- */

void tj_file_name(char *buf, size_t n, const char *file, mode_id mode, int lz4)
{
    snprintf(buf, n, "%s.%s.jsonl%s", file, mode_name(mode), lz4 ? ".lz4" : "");
}

void tj_pair_name(char *buf, size_t n, const char *body, const char *weapon)
{
    snprintf(buf, n, "%s%s%s", body, weapon ? "+" : "", weapon ? weapon : "");
}

void tj_entity_file_name(char *buf, size_t n, const char *body, const char *weapon, mode_id mode,
                         int lz4)
{
    char pair[2 * TJ_NAME_MAX + 2];
    tj_pair_name(pair, sizeof pair, body, weapon);
    snprintf(buf, n, "%s.entity.%s.jsonl%s", pair, mode_name(mode), lz4 ? ".lz4" : "");
}

void tj_write_tick(strbuf *b, const tj_clip *c, const trace *t, size_t i)
{
    sb_puts(b, "{\"v\":1,\"file\":");
    sb_json_str(b, c->file);
    sb_puts(b, ",\"model\":");
    sb_json_str(b, c->model);
    if (c->entity) {
        sb_puts(b, ",\"entity\":{\"body\":");
        sb_json_str(b, c->ent_body);
        sb_puts(b, ",\"weapon\":");
        if (c->ent_weapon[0]) sb_json_str(b, c->ent_weapon);
        else sb_puts(b, "null");
        sb_putc(b, '}');
    }
    sb_puts(b, ",\"anim\":");
    sb_int(b, c->anim);
    sb_puts(b, ",\"mode\":\"");
    sb_puts(b, mode_name(c->mode));
    sb_puts(b, "\",\"tick\":");
    sb_int(b, (int64_t)i);
    tjf_write(b, t, i);
    sb_puts(b, "}\n");
}

void tj_write_trace(strbuf *b, const tj_clip *c, const trace *t)
{
    for (size_t i = 0; i < t->n; i++) tj_write_tick(b, c, t, i);
}

void tj_write_entity(strbuf *b, const char *body, const char *weapon, unsigned anim, mode_id mode,
                     const trace *wt, const trace *bt)
{
    tj_clip id;
    memset(&id, 0, sizeof id);
    id.entity = 1;
    snprintf(id.ent_body, sizeof id.ent_body, "%s", body);
    snprintf(id.ent_weapon, sizeof id.ent_weapon, "%s", weapon ? weapon : "");
    id.anim = anim;
    id.mode = mode;
    if (weapon && wt) {
        snprintf(id.file, sizeof id.file, "%s", weapon);
        snprintf(id.model, sizeof id.model, "weapon");
        tj_write_trace(b, &id, wt);
    }
    snprintf(id.file, sizeof id.file, "%s", body);
    snprintf(id.model, sizeof id.model, "body");
    tj_write_trace(b, &id, bt);
}

int tj_write_file(const char *path, const strbuf *text, int lz4, ff_error *err)
{
    if (strbuf_failed(text)) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    const void *data = text->s ? text->s : "";
    size_t len = text->len;
    uint8_t *packed = NULL;
    if (lz4) {
        size_t cap = LZ4F_compressFrameBound(len, NULL);
        packed = malloc(cap ? cap : 1);
        if (!packed) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
        size_t n = LZ4F_compressFrame(packed, cap, data, len, NULL);
        if (LZ4F_isError(n)) {
            free(packed);
            return ff_error_set(err, FF_E_INTERNAL, path, -1, "LZ4: %s", LZ4F_getErrorName(n));
        }
        data = packed;
        len = n;
    }
    int rc = fio_write_atomic(path, data, len, err);
    free(packed);
    return rc;
}

/* ---- line input: plain file, LZ4 frame file or memory ---- */

struct tj_reader {
    char name[TJ_NAME_MAX];
    FILE *f;
    LZ4F_dctx *lz4;
    const char *mem; /* tj_open_mem */
    size_t mem_len, mem_pos;
    char *in;        /* compressed input buffer */
    size_t in_len, in_pos;
    strbuf text;     /* decoded text not yet consumed */
    size_t text_pos;
    size_t scanned;  /* bytes after text_pos already searched: no newline there */
    int eof;
    uint64_t inflated, cap; /* LZ4: text decoded so far, and its limit (0: none) */
    unsigned long blank;    /* blank lines just read in a row */
    unsigned long line; /* number of the last line returned */
    tj_format format; /* decided by the first line */
    /* one line of look-ahead: the first line of the next clip */
    cJSON *pending;
    unsigned long pending_line;
    strbuf linebuf;
};

#define TJ_CHUNK (64 * 1024)

static tj_reader *reader_new(const char *name, ff_error *err)
{
    tj_reader *r = calloc(1, sizeof *r);
    if (!r) {
        ff_error_set(err, FF_E_NOMEM, name, -1, "out of memory");
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    sb_init(&r->text);
    sb_init(&r->linebuf);
    return r;
}

tj_reader *tj_open(const char *path, ff_error *err)
{
    tj_reader *r = reader_new(path, err);
    if (!r) return NULL;
    /* A regular file only: a FIFO or a link to /dev/zero would never end. */
    uint64_t size;
    int fd = file_open_regular(path, 0, 0, &size, err);
    if (fd < 0) {
        tj_close(r);
        return NULL;
    }
    r->f = fdopen(fd, "rb");
    if (!r->f) {
        ff_error_set(err, FF_E_IO, path, -1, "cannot open: %s", strerror(errno));
        close(fd);
        tj_close(r);
        return NULL;
    }
    size_t n = strlen(path);
    if (n > 4 && strcmp(path + n - 4, ".lz4") == 0) {
        if (LZ4F_isError(LZ4F_createDecompressionContext(&r->lz4, LZ4F_VERSION)) ||
            !(r->in = malloc(TJ_CHUNK))) {
            ff_error_set(err, FF_E_NOMEM, path, -1, "cannot set up LZ4 decoding");
            tj_close(r);
            return NULL;
        }
    }
    return r;
}

void tj_limit(tj_reader *r, uint64_t max_text)
{
    r->cap = max_text;
}

tj_reader *tj_open_mem(const char *text, size_t len, const char *name, ff_error *err)
{
    tj_reader *r = reader_new(name, err);
    if (!r) return NULL;
    r->mem = text;
    r->mem_len = len;
    return r;
}

void tj_close(tj_reader *r)
{
    if (!r) return;
    if (r->f) fclose(r->f);
    if (r->lz4) LZ4F_freeDecompressionContext(r->lz4);
    free(r->in);
    sb_free(&r->text);
    sb_free(&r->linebuf);
    cJSON_Delete(r->pending);
    free(r);
}

/* Appends more decoded text to r->text; 0 at end of input, -1 on error. */
static int fill(tj_reader *r, ff_error *err)
{
    if (r->eof) return 0;
    if (r->mem) {
        size_t n = r->mem_len - r->mem_pos;
        if (n > TJ_CHUNK) n = TJ_CHUNK;
        sb_add(&r->text, r->mem + r->mem_pos, n);
        r->mem_pos += n;
        if (r->mem_pos == r->mem_len) r->eof = 1;
        return n > 0;
    }
    if (!r->lz4) {
        char buf[TJ_CHUNK];
        size_t n = fread(buf, 1, sizeof buf, r->f);
        if (n == 0) {
            if (ferror(r->f))
                return ff_error_set(err, FF_E_IO, r->name, -1, "read error");
            r->eof = 1;
            return 0;
        }
        sb_add(&r->text, buf, n);
        return 1;
    }
    for (;;) {
        if (r->in_pos == r->in_len) {
            r->in_len = fread(r->in, 1, TJ_CHUNK, r->f);
            r->in_pos = 0;
            if (r->in_len == 0) {
                r->eof = 1;
                return 0;
            }
        }
        char out[TJ_CHUNK];
        size_t out_len = sizeof out, in_len = r->in_len - r->in_pos;
        size_t rc = LZ4F_decompress(r->lz4, out, &out_len, r->in + r->in_pos, &in_len, NULL);
        if (LZ4F_isError(rc))
            return ff_error_set(err, FF_E_FORMAT, r->name, -1, "LZ4 frame: %s",
                                LZ4F_getErrorName(rc));
        r->in_pos += in_len;
        r->inflated += out_len;
        if (r->cap && r->inflated > r->cap)
            return ff_error_set(err, FF_E_RANGE, r->name, -1,
                                "line %lu: the LZ4 frame inflates past %llu MiB, far more than "
                                "the traces of this model can need: refused",
                                r->line + 1, (unsigned long long)(r->cap >> 20));
        if (out_len) {
            sb_add(&r->text, out, out_len);
            return 1;
        }
    }
}

/*
 * Next line without its newline into r->linebuf; 1, 0 at end, -1 on error.
 * Every byte is searched for a newline once (r->scanned), so a line costs
 * time in proportion to its length; a line longer than TJ_LINE_MAX is an
 * error naming it, found before more than TJ_LINE_MAX + TJ_CHUNK bytes are
 * held.
 */
static int next_line(tj_reader *r, ff_error *err)
{
    for (;;) {
        char *start = r->text.s ? r->text.s + r->text_pos : NULL;
        size_t avail = r->text.len - r->text_pos;
        char *nl = start && avail > r->scanned
                       ? memchr(start + r->scanned, '\n', avail - r->scanned)
                       : NULL;
        r->scanned = nl ? 0 : avail;
        size_t len = nl ? (size_t)(nl - start) : avail;
        if (len > TJ_LINE_MAX)
            return ff_error_set(err, FF_E_RANGE, r->name, -1,
                                "line %lu: longer than %u MiB, the limit of a trace line",
                                r->line + 1, TJ_LINE_MAX >> 20);
        if (nl || (r->eof && avail > 0)) {
            sb_reset(&r->linebuf);
            sb_add(&r->linebuf, start, len);
            if (strbuf_failed(&r->linebuf))
                return ff_error_set(err, FF_E_NOMEM, r->name, -1, "line %lu: out of memory",
                                    r->line + 1);
            r->text_pos += len + (nl ? 1 : 0);
            r->line++;
            if (len && r->linebuf.s[len - 1] == '\r') r->linebuf.s[--r->linebuf.len] = '\0';
            return 1;
        }
        if (r->eof) return 0;
        /* Drop consumed text before reading more: the part of one line, moved once. */
        if (r->text_pos) {
            memmove(r->text.s, r->text.s + r->text_pos, avail);
            r->text.len = avail;
            r->text_pos = 0;
        }
        if (strbuf_failed(&r->text))
            return ff_error_set(err, FF_E_NOMEM, r->name, -1, "out of memory");
        int rc = fill(r, err);
        if (rc < 0) return -1;
    }
}

/* ---- parsing one object ---- */

static int line_err(tj_reader *r, unsigned long line, ff_error *err, const char *what)
{
    /* A line number is not a byte offset: it goes in the reason only. */
    return ff_error_set(err, FF_E_FORMAT, r->name, -1, "line %lu: %s", line, what);
}

static int get_int(const cJSON *o, const char *key, long lo, long hi, long *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v)) return -1;
    double d = v->valuedouble;
    /* Range first: converting an out-of-range double is undefined. */
    if (!(d >= (double)lo && d <= (double)hi) || d != (double)(long)d) return -2;
    *out = (long)d;
    return 0;
}

static int need_int(tj_reader *r, unsigned long line, const cJSON *o, const char *key, long lo,
                    long hi, long *out, ff_error *err)
{
    int rc = get_int(o, key, lo, hi, out);
    if (rc == 0) return 0;
    char msg[128];
    snprintf(msg, sizeof msg,
             rc == -1 ? "key \"%s\" missing or not a number" : "key \"%s\" out of range %ld..%ld",
             key, lo, hi);
    return line_err(r, line, err, msg);
}

/* Which format a line is written in: a "tick" (engine calls) or a "frame" (poses). */
static int detect(tj_reader *r, unsigned long line, const cJSON *o, ff_error *err)
{
    if (r->format != TJ_FORMAT_UNKNOWN) return 0;
    if (!cJSON_IsObject(o)) return line_err(r, line, err, "not a JSON object");
    if (cJSON_GetObjectItemCaseSensitive(o, "tick"))
        r->format = TJ_FORMAT_TICKS;
    else if (cJSON_GetObjectItemCaseSensitive(o, "frame") ||
             cJSON_GetObjectItemCaseSensitive(o, "error"))
        r->format = TJ_FORMAT_FRAMES;
    else
        return line_err(r, line, err,
                        "neither a trace line (key \"tick\") nor a frame (key \"frame\") nor a "
                        "decoder's \"error\" line");
    return 0;
}

/* The optional "entity" object of a line into c. Returns 0, or -1 with err. */
static int parse_entity(tj_reader *r, unsigned long line, const cJSON *o, tj_clip *c,
                        ff_error *err)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(o, "entity");
    c->entity = 0;
    c->ent_body[0] = c->ent_weapon[0] = '\0';
    if (!e) return 0;
    const cJSON *body = cJSON_GetObjectItemCaseSensitive(e, "body");
    const cJSON *weapon = cJSON_GetObjectItemCaseSensitive(e, "weapon");
    if (!cJSON_IsObject(e) || !cJSON_IsString(body) ||
        !(cJSON_IsString(weapon) || cJSON_IsNull(weapon)))
        return line_err(r, line, err,
                        "key \"entity\" is not {\"body\": name, \"weapon\": name or null}");
    c->entity = 1;
    snprintf(c->ent_body, sizeof c->ent_body, "%s", body->valuestring);
    if (cJSON_IsString(weapon))
        snprintf(c->ent_weapon, sizeof c->ent_weapon, "%s", weapon->valuestring);
    if (strcmp(c->model, "body") != 0 && strcmp(c->model, "weapon") != 0)
        return line_err(r, line, err, "an entity line's \"model\" is \"body\" or \"weapon\"");
    return 0;
}

/*
 * A frames-format "error" line: the decoder's reason for stopping, instead
 * of a frame. 1 when o is one (its text checked), 0 when not, -1 with err.
 */
static int stop_line(tj_reader *r, unsigned long line, const cJSON *o, ff_error *err)
{
    const cJSON *why = cJSON_GetObjectItemCaseSensitive(o, "error");
    if (!why) return 0;
    if (r->format != TJ_FORMAT_FRAMES)
        return line_err(r, line, err, "an \"error\" line belongs to the frames format");
    if (cJSON_GetObjectItemCaseSensitive(o, "frame"))
        return line_err(r, line, err,
                        "a frame carries no \"error\": the decoder's reason goes on a line of "
                        "its own, after its last frame");
    if (!cJSON_IsString(why)) return line_err(r, line, err, "key \"error\" is not a string");
    return 1;
}

/* Parses the identity and tick (or frame) number of a line; *stop: an "error" line (no number). */
static int parse_head(tj_reader *r, unsigned long line, const cJSON *o, tj_clip *c, long *tick,
                      int *stop, ff_error *err)
{
    long v = 0, anim = 0; /* set on success; -O3 cannot see it through need_int */
    if (detect(r, line, o, err) < 0) return -1;
    if (!cJSON_IsObject(o)) return line_err(r, line, err, "not a JSON object");
    int frames = r->format == TJ_FORMAT_FRAMES;
    c->stopped = 0;
    c->stop[0] = '\0';
    *stop = stop_line(r, line, o, err);
    if (*stop < 0) return -1;
    if ((!frames || cJSON_GetObjectItemCaseSensitive(o, "v")) &&
        need_int(r, line, o, "v", 1, 1, &v, err) < 0)
        return -1;
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(o, "file");
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(o, "model");
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(o, "mode");
    if (!cJSON_IsString(file)) return line_err(r, line, err, "key \"file\" missing or not a string");
    if (!frames && !cJSON_IsString(model))
        return line_err(r, line, err, "key \"model\" missing or not a string");
    if (!frames && !cJSON_IsString(mode))
        return line_err(r, line, err, "key \"mode\" missing or not a string");
    int m = frames ? MODE_NORMAL : mode_from_name(mode->valuestring);
    if (m < 0) return line_err(r, line, err, "unknown \"mode\"");
    if (need_int(r, line, o, "anim", 0, 255, &anim, err) < 0) return -1;
    if (!*stop && need_int(r, line, o, frames ? "frame" : "tick", 0, 100000, tick, err) < 0)
        return -1;
    snprintf(c->file, sizeof c->file, "%s", file->valuestring);
    snprintf(c->model, sizeof c->model, "%s", cJSON_IsString(model) ? model->valuestring : "");
    c->anim = (unsigned)anim;
    c->mode = (mode_id)m;
    c->entity = 0; /* frames never name an entity */
    c->ent_body[0] = c->ent_weapon[0] = '\0';
    return frames ? 0 : parse_entity(r, line, o, c, err);
}

/* The compared fields of a line into a new tick of t; the clip's first line lays t out. */
static int parse_state(tj_reader *r, unsigned long line, const cJSON *o, const tj_clip *c,
                       trace *t, ff_error *err)
{
    char why[256];
    tjf_format fmt = r->format == TJ_FORMAT_FRAMES             ? TJF_FRAMES
                     : c->entity && !strcmp(c->model, "weapon") ? TJF_WEAPON
                                                                : TJF_TICKS;
    if (t->n == 0) {
        field_set have;
        unsigned bones;
        if (tjf_scan(o, fmt, &have, &bones, why, sizeof why) < 0)
            return line_err(r, line, err, why);
        if (fmt == TJF_FRAMES) have = tjf_frames_fields();
        trace_clear(t, &have, bones);
    }
    ff_error e;
    ff_error_clear(&e);
    if (tjf_read(o, fmt, t, why, sizeof why, &e) == 0) return 0;
    if (e.kind == FF_E_NOMEM) {
        *err = e;
        return -1;
    }
    return line_err(r, line, err, why);
}

static int same_clip(const tj_clip *a, const tj_clip *b)
{
    return a->anim == b->anim && a->mode == b->mode && strcmp(a->file, b->file) == 0 &&
           strcmp(a->model, b->model) == 0 && a->entity == b->entity &&
           strcmp(a->ent_body, b->ent_body) == 0 && strcmp(a->ent_weapon, b->ent_weapon) == 0;
}

/*
 * Takes the next non-empty line as a parsed object (look-ahead first).
 * Returns 1, 0 at the end, -1 when the input cannot be read on (err), -2
 * when this line is not JSON (err names it; the input reads on).
 */
static int take(tj_reader *r, cJSON **obj, unsigned long *line, ff_error *err)
{
    if (r->pending) {
        *obj = r->pending;
        *line = r->pending_line;
        r->pending = NULL;
        return 1;
    }
    for (;;) {
        int rc = next_line(r, err);
        if (rc <= 0) return rc;
        if (r->linebuf.len == 0 || r->linebuf.len == strspn(r->linebuf.s, " \t")) {
            if (++r->blank > TJ_BLANK_RUN_MAX)
                return ff_error_set(err, FF_E_RANGE, r->name, -1,
                                    "line %lu: more than %u blank lines in a row: refused", r->line,
                                    TJ_BLANK_RUN_MAX);
            continue;
        }
        r->blank = 0;
        /* Bounded: a trace line holds some tens of thousands of values at most. */
        static const json_read_limits lim = {TJ_VALUES_MAX, 32};
        json_read_error je;
        *line = r->line;
        if (json_read(r->linebuf.s, r->linebuf.len, &lim, obj, &je) < 0) {
            if (je.kind == JSON_READ_NOMEM)
                return ff_error_set(err, FF_E_NOMEM, r->name, -1, "line %lu: out of memory",
                                    r->line);
            char what[200];
            snprintf(what, sizeof what, "%s at column %zu: %s",
                     je.kind == JSON_READ_SYNTAX ? "not valid JSON" : "refused", je.offset + 1,
                     je.why);
            line_err(r, r->line, err, what);
            return -2;
        }
        char key[96], msg[160];
        if (json_keys_duplicate(*obj, key, sizeof key)) {
            cJSON_Delete(*obj);
            *obj = NULL;
            snprintf(msg, sizeof msg, "key \"%s\" appears twice in one object", key);
            line_err(r, r->line, err, msg);
            return -2;
        }
        return 1;
    }
}

/* The first problem of the clip being read: the rest of its lines are skipped. */
static void spoil(tj_clip *c, const ff_error *e)
{
    if (!c->bad) c->error = *e;
    c->bad = 1;
}

/*
 * One line of the clip being read (or of its first line when *open is 0).
 * Returns 1 when the line belongs to the clip, 0 when it starts the next
 * one (kept as pending), -1 when the input cannot be read on.
 */
static int clip_line(tj_reader *r, cJSON *o, unsigned long line, tj_clip *c, trace *t, int *open,
                     ff_error *err)
{
    ff_error e;
    ff_error_clear(&e);
    tj_clip head;
    long tick = 0;
    int stop = 0;
    if (parse_head(r, line, o, &head, &tick, &stop, &e) < 0) {
        cJSON_Delete(o);
        spoil(c, &e);
        return 1;
    }
    if (*open && !same_clip(&head, c)) {
        r->pending = o;
        r->pending_line = line;
        return 0;
    }
    if (!*open) {
        int bad = c->bad;
        ff_error kept = c->error;
        *c = head;
        c->line = line;
        c->bad = bad;
        c->error = kept;
        *open = 1;
    }
    if (!c->bad && c->stopped) {
        line_err(r, line, &e, "a line of this clip after its \"error\" line");
        spoil(c, &e);
    }
    if (stop) {
        if (!c->bad) {
            c->stopped = 1;
            snprintf(c->stop, sizeof c->stop, "%s",
                     cJSON_GetObjectItemCaseSensitive(o, "error")->valuestring);
        }
        cJSON_Delete(o);
        return 1;
    }
    const char *unit = r->format == TJ_FORMAT_FRAMES ? "frame" : "tick";
    if (!c->bad && tick != (long)t->n) {
        char msg[96];
        if (t->n == 0)
            snprintf(msg, sizeof msg, "a clip's first %s must be 0", unit);
        else
            snprintf(msg, sizeof msg, "%s %ld out of order (expected %zu)", unit, tick, t->n);
        line_err(r, line, &e, msg);
        spoil(c, &e);
    }
    if (!c->bad && parse_state(r, line, o, c, t, &e) < 0) {
        if (e.kind == FF_E_NOMEM) {
            *err = e;
            cJSON_Delete(o);
            return -1;
        }
        spoil(c, &e);
    }
    cJSON_Delete(o);
    return 1;
}

int tj_next_clip(tj_reader *r, tj_clip *c, trace *t, ff_error *err)
{
    field_set none = {{0, 0}};
    trace_clear(t, &none, 0);
    memset(c, 0, sizeof *c);
    int open = 0;
    for (;;) {
        cJSON *o = NULL;
        unsigned long line = 0;
        ff_error e;
        int rc = take(r, &o, &line, &e);
        if (rc == -1) {
            *err = e;
            return -1;
        }
        if (rc == -2) {
            spoil(c, &e); /* a line that is not JSON belongs to the clip being read */
            continue;
        }
        if (rc == 0) break;
        rc = clip_line(r, o, line, c, t, &open, err);
        if (rc < 0) return -1;
        if (rc == 0) break;
    }
    if (open) return 1;
    if (c->bad) {
        /* Broken lines at the end, after every clip: nothing to give them to. */
        *err = c->error;
        return -1;
    }
    return 0;
}

tj_format tj_reader_format(const tj_reader *r)
{
    return r->format;
}
