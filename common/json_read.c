/*
 * common/json_read.c: a cJSON tree built from yajl's events, counted as it
 * grows (the contract is in json_read.h).
 *
 * yajl has no way to report an allocation it could not make (its buffers
 * assume success), so its allocator here jumps back to json_read when
 * memory runs out: yajl's own structures stay as they were before the
 * failed call and are freed as usual. The tree's nodes come from cJSON's
 * allocator and a node that cannot be made ends the parse from the event
 * that wanted it.
 */
#include "common/json_read.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yajl/yajl_parse.h>

typedef struct builder {
    const json_read_limits *lim;
    cJSON *root;
    cJSON *stack[JSON_READ_DEPTH_MAX]; /* open objects and arrays */
    unsigned depth;
    char *key; /* the member's key waiting for its value */
    size_t values;
    json_read_kind stop; /* why an event ended the parse */
    int armed;           /* yajl's allocator jumps to jb on failure */
    jmp_buf jb;
} builder;

/* ---- yajl's allocator ---- */

static void *ya_malloc(void *ctx, size_t n)
{
    builder *b = ctx;
    void *p = malloc(n);
    if (!p && b->armed) longjmp(b->jb, 1);
    return p;
}

static void *ya_realloc(void *ctx, void *p, size_t n)
{
    builder *b = ctx;
    void *q = realloc(p, n);
    if (!q && n && b->armed) longjmp(b->jb, 1);
    return q;
}

static void ya_free(void *ctx, void *p)
{
    (void)ctx;
    free(p);
}

/* ---- building ---- */

/* A NUL-terminated copy of n bytes; NULL when memory runs out. */
static char *copy(const void *s, size_t n)
{
    char *c = malloc(n + 1);
    if (c) {
        memcpy(c, s, n);
        c[n] = '\0';
    }
    return c;
}

/* Puts item where the parse stands. Returns 1 (go on), 0 (stop: b->stop says why). */
static int place(builder *b, cJSON *item)
{
    if (!item) {
        b->stop = JSON_READ_NOMEM;
        return 0;
    }
    if (++b->values > b->lim->max_values) {
        cJSON_Delete(item);
        b->stop = JSON_READ_LIMIT;
        return 0;
    }
    if (b->depth == 0) {
        b->root = item;
        return 1;
    }
    cJSON *parent = b->stack[b->depth - 1];
    int ok;
    if (cJSON_IsObject(parent)) {
        /* The key is handed over, not copied again (cJSON frees it with the item). */
        cJSON_AddItemToObjectCS(parent, "", item);
        item->type &= ~cJSON_StringIsConst;
        item->string = b->key;
        b->key = NULL;
        ok = 1;
    } else {
        ok = cJSON_AddItemToArray(parent, item);
    }
    if (!ok) {
        cJSON_Delete(item);
        b->stop = JSON_READ_NOMEM;
        return 0;
    }
    return 1;
}

static int on_null(void *ctx)
{
    return place(ctx, cJSON_CreateNull());
}

static int on_bool(void *ctx, int v)
{
    return place(ctx, cJSON_CreateBool(v));
}

static int on_number(void *ctx, const char *s, size_t n)
{
    char small[64], *text = n < sizeof small ? small : malloc(n + 1);
    if (!text) return place(ctx, NULL);
    memcpy(text, s, n);
    text[n] = '\0';
    double d = strtod(text, NULL);
    if (text != small) free(text);
    return place(ctx, cJSON_CreateNumber(d));
}

static int on_string(void *ctx, const unsigned char *s, size_t n)
{
    char *c = copy(s, n);
    cJSON *item = c ? cJSON_CreateString(c) : NULL;
    free(c);
    return place(ctx, item);
}

static int open_container(builder *b, cJSON *item)
{
    if (b->depth >= b->lim->max_depth || b->depth >= JSON_READ_DEPTH_MAX) {
        cJSON_Delete(item);
        b->stop = JSON_READ_LIMIT;
        return 0;
    }
    if (!place(b, item)) return 0;
    b->stack[b->depth++] = item;
    return 1;
}

static int on_start_map(void *ctx)
{
    return open_container(ctx, cJSON_CreateObject());
}

static int on_start_array(void *ctx)
{
    return open_container(ctx, cJSON_CreateArray());
}

static int on_end(void *ctx)
{
    builder *b = ctx;
    b->depth--;
    return 1;
}

static int on_key(void *ctx, const unsigned char *s, size_t n)
{
    builder *b = ctx;
    free(b->key);
    if (!(b->key = copy(s, n))) {
        b->stop = JSON_READ_NOMEM;
        return 0;
    }
    return 1;
}

static const yajl_callbacks events = {
    on_null,   on_bool, NULL, NULL, on_number, on_string, on_start_map, on_key,
    on_end,    on_start_array, on_end,
};

/* ---- the parse ---- */

static int fail(json_read_error *e, json_read_kind kind, size_t offset, const char *why)
{
    e->kind = kind;
    e->offset = offset;
    snprintf(e->why, sizeof e->why, "%s", why);
    return -1;
}

/* yajl's sentence for a syntax error, without its "parse error: " prefix. */
static void syntax_why(yajl_handle h, char *dst, size_t n)
{
    unsigned char *msg = yajl_get_error(h, 0, NULL, 0);
    const char *s = msg ? (const char *)msg : "not valid JSON";
    if (strncmp(s, "parse error: ", 13) == 0) s += 13;
    snprintf(dst, n, "%s", s);
    size_t k = strlen(dst);
    while (k && (dst[k - 1] == '\n' || dst[k - 1] == ' ')) dst[--k] = '\0';
    if (msg) yajl_free_error(h, msg);
}

int json_read(const char *text, size_t len, const json_read_limits *lim, cJSON **out,
              json_read_error *e)
{
    *out = NULL;
    memset(e, 0, sizeof *e);
    size_t skip = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
    builder *b = calloc(1, sizeof *b);
    if (!b) return fail(e, JSON_READ_NOMEM, 0, "out of memory");
    b->lim = lim;
    yajl_alloc_funcs afs = {ya_malloc, ya_realloc, ya_free, b};
    yajl_handle h = yajl_alloc(&events, &afs, b);
    if (!h) {
        free(b);
        return fail(e, JSON_READ_NOMEM, 0, "out of memory");
    }
    /* Strings are bytes, as cJSON takes them: validity is not this reader's call. */
    yajl_config(h, yajl_dont_validate_strings, 1);
    yajl_status st;
    volatile size_t at = len; /* where an error was found (the end for one found there) */
    b->armed = 1;
    if (setjmp(b->jb) == 0) {
        st = yajl_parse(h, (const unsigned char *)text + skip, len - skip);
        /* yajl stops after the token at fault: its last byte is where the error is. */
        size_t used = yajl_get_bytes_consumed(h);
        if (st != yajl_status_ok) at = skip + (used ? used - 1 : 0);
        else st = yajl_complete_parse(h);
    } else {
        st = yajl_status_client_canceled;
        b->stop = JSON_READ_NOMEM;
    }
    b->armed = 0;
    int rc = 0;
    if (st != yajl_status_ok) {
        char why[sizeof e->why];
        if (b->stop == JSON_READ_NOMEM) {
            rc = fail(e, JSON_READ_NOMEM, at, "out of memory");
        } else if (b->stop == JSON_READ_LIMIT) {
            snprintf(why, sizeof why,
                     b->values > lim->max_values ? "holds more than %zu values"
                                                 : "nested deeper than %zu levels",
                     b->values > lim->max_values ? lim->max_values : (size_t)lim->max_depth);
            rc = fail(e, JSON_READ_LIMIT, at, why);
        } else if (!b->root && at == len) {
            rc = fail(e, JSON_READ_SYNTAX, at, "no JSON value");
        } else {
            syntax_why(h, why, sizeof why);
            rc = fail(e, JSON_READ_SYNTAX, at, why);
        }
    } else if (!b->root) {
        rc = fail(e, JSON_READ_SYNTAX, len, "no JSON value");
    } else {
        /* yajl takes VT and FF for whitespace; JSON does not (nor inside a string, raw). */
        const char *vt = memchr(text, '\v', len), *ff = memchr(text, '\f', len);
        const char *bad = vt && (!ff || vt < ff) ? vt : ff;
        if (bad)
            rc = fail(e, JSON_READ_SYNTAX, (size_t)(bad - text),
                      bad == vt ? "a vertical tab is not JSON whitespace"
                                : "a form feed is not JSON whitespace");
    }
    yajl_free(h);
    if (rc == 0) *out = b->root;
    else cJSON_Delete(b->root);
    free(b->key);
    free(b);
    return rc;
}

int json_read_doc(const char *text, size_t len, const json_read_limits *lim, const char *source,
                  cJSON **out, ff_error *err)
{
    json_read_error e;
    if (json_read(text, len, lim, out, &e) == 0) return 0;
    if (e.kind == JSON_READ_NOMEM) return ff_error_set(err, FF_E_NOMEM, source, -1, "out of memory");
    return ff_error_set(err, e.kind == JSON_READ_LIMIT ? FF_E_RANGE : FF_E_FORMAT, source,
                        (int64_t)e.offset, "%s%s", e.kind == JSON_READ_SYNTAX ? "not valid JSON: " : "",
                        e.why);
}
