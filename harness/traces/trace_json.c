/*
 * harness/traces/trace_json.c: Trace JSON Lines v1 writer and reader.
 */
#include "harness/traces/trace_json.h"

#include "corpus/fileio.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <lz4frame.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- writer ---- */

void tj_file_name(char *buf, size_t n, const char *file, mode_id mode, int lz4)
{
    snprintf(buf, n, "%s.%s.jsonl%s", file, mode_name(mode), lz4 ? ".lz4" : "");
}

static void put_triples(strbuf *b, const int16_t *v, unsigned bones, int first)
{
    sb_putc(b, '[');
    for (unsigned i = 0; i < bones; i++) {
        const int16_t *x = v + (size_t)i * 6 + first;
        if (i) sb_putc(b, ',');
        sb_putc(b, '[');
        sb_int(b, x[0]);
        sb_putc(b, ',');
        sb_int(b, x[1]);
        sb_putc(b, ',');
        sb_int(b, x[2]);
        sb_putc(b, ']');
    }
    sb_putc(b, ']');
}

void tj_write_tick(strbuf *b, const tj_clip *c, const trace *t, size_t i)
{
    const trace_tick *k = &t->ticks[i];
    sb_puts(b, "{\"v\":1,\"file\":");
    sb_json_str(b, c->file);
    sb_puts(b, ",\"model\":");
    sb_json_str(b, c->model);
    sb_puts(b, ",\"anim\":");
    sb_int(b, c->anim);
    sb_puts(b, ",\"mode\":\"");
    sb_puts(b, mode_name(c->mode));
    sb_puts(b, "\",\"tick\":");
    sb_int(b, (int64_t)i);
    sb_puts(b, ",\"ret\":");
    sb_int(b, k->ret);
    sb_puts(b, ",\"cmd\":{\"frame\":");
    sb_int(b, k->cmd[6]);
    sb_puts(b, ",\"total\":");
    sb_int(b, k->cmd[7]);
    sb_puts(b, ",\"flags\":");
    sb_int(b, k->cmd[1]);
    sb_puts(b, ",\"off\":");
    sb_int(b, trace_cmd_off(k));
    sb_puts(b, ",\"bit\":");
    sb_int(b, trace_cmd_bit(k));
    sb_puts(b, "},\"skel_flag\":");
    sb_int(b, k->skel_flag);
    sb_puts(b, ",\"root\":[");
    sb_int(b, k->root[0]);
    sb_putc(b, ',');
    sb_int(b, k->root[1]);
    sb_putc(b, ',');
    sb_int(b, k->root[2]);
    sb_puts(b, "],\"rot\":");
    put_triples(b, trace_bone6(t, i), t->bones, 0);
    sb_puts(b, ",\"scale\":");
    put_triples(b, trace_bone6(t, i), t->bones, 3);
    sb_puts(b, "}\n");
}

void tj_write_trace(strbuf *b, const tj_clip *c, const trace *t)
{
    for (size_t i = 0; i < t->n; i++) tj_write_tick(b, c, t, i);
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
    int eof;
    unsigned long line; /* number of the last line returned */
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
    r->f = fopen(path, "rb");
    if (!r->f) {
        ff_error_set(err, FF_E_IO, path, -1, "cannot open: %s", strerror(errno));
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
        if (out_len) {
            sb_add(&r->text, out, out_len);
            return 1;
        }
    }
}

/* Next line without its newline into r->linebuf; 1, 0 at end, -1 on error. */
static int next_line(tj_reader *r, ff_error *err)
{
    for (;;) {
        char *start = r->text.s ? r->text.s + r->text_pos : NULL;
        size_t avail = r->text.len - r->text_pos;
        char *nl = start ? memchr(start, '\n', avail) : NULL;
        if (nl || (r->eof && avail > 0)) {
            size_t len = nl ? (size_t)(nl - start) : avail;
            sb_reset(&r->linebuf);
            sb_add(&r->linebuf, start, len);
            r->text_pos += len + (nl ? 1 : 0);
            r->line++;
            if (len && r->linebuf.s[len - 1] == '\r') r->linebuf.s[--r->linebuf.len] = '\0';
            return 1;
        }
        if (r->eof) return 0;
        /* Drop consumed text before reading more. */
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

/* A number that is a 16-bit integer (range checked before the cast). */
static int is_s16(const cJSON *v)
{
    return cJSON_IsNumber(v) && v->valuedouble >= INT16_MIN && v->valuedouble <= INT16_MAX &&
           v->valuedouble == (double)(int16_t)v->valuedouble;
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

static int read_triples(tj_reader *r, unsigned long line, const cJSON *o, const char *key,
                        int16_t *dst, unsigned bones, ff_error *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    char msg[160];
    if (!cJSON_IsArray(a)) {
        snprintf(msg, sizeof msg, "key \"%s\" missing or not an array", key);
        return line_err(r, line, err, msg);
    }
    if ((unsigned)cJSON_GetArraySize(a) != bones) {
        snprintf(msg, sizeof msg, "\"%s\" has %d bones, expected %u", key, cJSON_GetArraySize(a),
                 bones);
        return line_err(r, line, err, msg);
    }
    unsigned i = 0;
    const cJSON *t;
    cJSON_ArrayForEach(t, a)
    {
        if (!cJSON_IsArray(t) || cJSON_GetArraySize(t) != 3) {
            snprintf(msg, sizeof msg, "\"%s\"[%u] is not an [x,y,z] triple", key, i);
            return line_err(r, line, err, msg);
        }
        for (int c = 0; c < 3; c++) {
            const cJSON *v = cJSON_GetArrayItem(t, c);
            if (!is_s16(v)) {
                snprintf(msg, sizeof msg, "\"%s\"[%u][%d] is not a 16-bit integer", key, i, c);
                return line_err(r, line, err, msg);
            }
            dst[(size_t)i * 6 + c] = (int16_t)v->valuedouble;
        }
        i++;
    }
    return 0;
}

/* Parses the identity and tick number of a line. */
static int parse_head(tj_reader *r, unsigned long line, const cJSON *o, tj_clip *c, long *tick,
                      ff_error *err)
{
    long v = 0, anim = 0; /* set on success; -O3 cannot see it through need_int */
    if (!cJSON_IsObject(o)) return line_err(r, line, err, "not a JSON object");
    if (need_int(r, line, o, "v", 1, 1, &v, err) < 0) return -1;
    const cJSON *file = cJSON_GetObjectItemCaseSensitive(o, "file");
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(o, "model");
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(o, "mode");
    if (!cJSON_IsString(file)) return line_err(r, line, err, "key \"file\" missing or not a string");
    if (!cJSON_IsString(model))
        return line_err(r, line, err, "key \"model\" missing or not a string");
    if (!cJSON_IsString(mode)) return line_err(r, line, err, "key \"mode\" missing or not a string");
    int m = mode_from_name(mode->valuestring);
    if (m < 0) return line_err(r, line, err, "unknown \"mode\"");
    if (need_int(r, line, o, "anim", 0, 255, &anim, err) < 0) return -1;
    if (need_int(r, line, o, "tick", 0, 100000, tick, err) < 0) return -1;
    snprintf(c->file, sizeof c->file, "%s", file->valuestring);
    snprintf(c->model, sizeof c->model, "%s", model->valuestring);
    c->anim = (unsigned)anim;
    c->mode = (mode_id)m;
    return 0;
}

static int parse_state(tj_reader *r, unsigned long line, const cJSON *o, unsigned anim,
                       trace *t, ff_error *err)
{
    long ret = 0, frame = 0, total = 0, flags = 0, off = 0, bit = 0, skel = 0; /* as above */
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(o, "cmd");
    if (need_int(r, line, o, "ret", INT32_MIN, INT32_MAX, &ret, err) < 0) return -1;
    if (!cJSON_IsObject(cmd)) return line_err(r, line, err, "key \"cmd\" missing or not an object");
    if (need_int(r, line, cmd, "frame", 0, 255, &frame, err) < 0 ||
        need_int(r, line, cmd, "total", 0, 255, &total, err) < 0 ||
        need_int(r, line, cmd, "flags", 0, 255, &flags, err) < 0 ||
        need_int(r, line, cmd, "off", INT16_MIN, INT16_MAX, &off, err) < 0 ||
        need_int(r, line, cmd, "bit", INT16_MIN, INT16_MAX, &bit, err) < 0 ||
        need_int(r, line, o, "skel_flag", 0, 255, &skel, err) < 0)
        return -1;
    const cJSON *root = cJSON_GetObjectItemCaseSensitive(o, "root");
    if (!cJSON_IsArray(root) || cJSON_GetArraySize(root) != 3)
        return line_err(r, line, err, "key \"root\" missing or not an [x,y,z] triple");
    trace_tick k = {0};
    for (int c = 0; c < 3; c++) {
        const cJSON *v = cJSON_GetArrayItem(root, c);
        if (!is_s16(v))
            return line_err(r, line, err, "\"root\" holds a value that is not a 16-bit integer");
        k.root[c] = (int16_t)v->valuedouble;
    }
    k.ret = (int32_t)ret;
    k.cmd[0] = (uint8_t)anim;
    k.cmd[1] = (uint8_t)flags;
    k.cmd[2] = (uint8_t)((uint16_t)off & 0xFF);
    k.cmd[3] = (uint8_t)((uint16_t)off >> 8);
    k.cmd[4] = (uint8_t)((uint16_t)bit & 0xFF);
    k.cmd[5] = (uint8_t)((uint16_t)bit >> 8);
    k.cmd[6] = (uint8_t)frame;
    k.cmd[7] = (uint8_t)total;
    k.skel_flag = (uint8_t)skel;
    const cJSON *rot = cJSON_GetObjectItemCaseSensitive(o, "rot");
    if (t->n == 0) {
        if (!cJSON_IsArray(rot)) return line_err(r, line, err, "key \"rot\" missing or not an array");
        int bones = cJSON_GetArraySize(rot);
        if (bones > 255) return line_err(r, line, err, "\"rot\" has more than 255 bones");
        trace_clear(t, (unsigned)bones);
    }
    int16_t bone6[255 * 6];
    if (read_triples(r, line, o, "rot", bone6, t->bones, err) < 0 ||
        read_triples(r, line, o, "scale", bone6 + 3, t->bones, err) < 0)
        return -1;
    if (trace_push(t, &k, bone6, err) < 0) return -1;
    return 0;
}

static int same_clip(const tj_clip *a, const tj_clip *b)
{
    return a->anim == b->anim && a->mode == b->mode && strcmp(a->file, b->file) == 0 &&
           strcmp(a->model, b->model) == 0;
}

/* Takes the next non-empty line as a parsed object (look-ahead first). */
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
        if (r->linebuf.len == 0) continue;
        *obj = cJSON_ParseWithLength(r->linebuf.s, r->linebuf.len);
        *line = r->line;
        if (!*obj) return line_err(r, r->line, err, "not valid JSON");
        return 1;
    }
}

int tj_next_clip(tj_reader *r, tj_clip *c, trace *t, ff_error *err)
{
    cJSON *o;
    unsigned long line;
    int rc = take(r, &o, &line, err);
    if (rc <= 0) return rc;
    long tick;
    trace_clear(t, 0);
    if (parse_head(r, line, o, c, &tick, err) < 0) goto fail;
    c->line = line;
    if (tick != 0) {
        line_err(r, line, err, "a clip's first tick must be 0");
        goto fail;
    }
    for (;;) {
        if (parse_state(r, line, o, c->anim, t, err) < 0) goto fail;
        cJSON_Delete(o);
        rc = take(r, &o, &line, err);
        if (rc < 0) return -1;
        if (rc == 0) return 1;
        tj_clip next;
        if (parse_head(r, line, o, &next, &tick, err) < 0) goto fail;
        if (!same_clip(&next, c)) {
            r->pending = o;
            r->pending_line = line;
            return 1;
        }
        if (tick != (long)t->n) {
            char msg[96];
            snprintf(msg, sizeof msg, "tick %ld out of order (expected %zu)", tick, t->n);
            line_err(r, line, err, msg);
            goto fail;
        }
    }
fail:
    cJSON_Delete(o);
    return -1;
}
