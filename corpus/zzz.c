/*
 * corpus/zzz.c: reading a zzz archive's table (zzz.h) through a 64 KiB
 * window, and handing its entries out as byte ranges.
 *
 * Must not trust a count, length, offset or size before checking it in an
 * order that cannot overflow, allocate in proportion to a count it read
 * (entries grow as they are read), load the archive, print or exit.
 */
#include "corpus/zzz.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/file.h"
#include "common/grow.h"
#include "common/le.h"

#define WINDOW (64u << 10)

struct zzz {
    char *name;
    int fd; /* -1 for a table held in memory */
    uint64_t size;
    zzz_entry *e;
    size_t n, cap;
    ff_error *problems;
    size_t nproblems, kept, pcap;
};

/* Sequential reads of the table, through a window of the file or from memory. */
typedef struct reader {
    const uint8_t *mem;
    int fd;
    uint64_t size, pos, woff;
    size_t wlen;
    uint8_t *win;
    const char *name;
} reader;

/* Reads n bytes at r->pos (the caller checked they are inside the file). */
static int rd_get(reader *r, void *out, size_t n, ff_error *err)
{
    if (r->mem) {
        memcpy(out, r->mem + r->pos, n);
    } else {
        if (r->pos < r->woff || r->pos + n > r->woff + r->wlen) {
            uint64_t left = r->size - r->pos;
            size_t len = left < WINDOW ? (size_t)left : WINDOW;
            if (file_pread(r->fd, r->name, r->pos, r->win, len, err) < 0) return -1;
            r->woff = r->pos;
            r->wlen = len;
        }
        memcpy(out, r->win + (r->pos - r->woff), n);
    }
    r->pos += n;
    return 0;
}

/* Keeps a problem (the first ZZZ_PROBLEMS_MAX; the others are counted). */
static void add_problem(zzz *z, const ff_error *e)
{
    z->nproblems++;
    if (z->kept >= ZZZ_PROBLEMS_MAX) return;
    if (GROW(z->problems, z->pcap, z->kept + 1, 8) < 0) return;
    z->problems[z->kept++] = *e;
}

static void problem(zzz *z, ff_errkind kind, int64_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void problem(zzz *z, ff_errkind kind, int64_t at, const char *fmt, ...)
{
    char reason[FF_ERR_REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    ff_error e;
    ff_error_set(&e, kind, z->name, at, "%s", reason);
    add_problem(z, &e);
}

/* One name byte that is never in a path: NUL or another control byte. */
static int bad_name(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || s[i] == 0x7F) return 1;
    return 0;
}

/* Reads record i at r->pos. Returns 1 at a table error (recorded: stop), 0, or -1 (no memory/io).
 */
static int read_record(zzz *z, reader *r, uint32_t i, ff_error *err)
{
    char what[32];
    snprintf(what, sizeof what, "entry %u", i);
    uint64_t at = r->pos, left = r->size - r->pos;
    uint8_t w[12];
    if (left < 4) {
        problem(z, FF_E_TRUNCATED, (int64_t)at, "%s: the table ends before its name length", what);
        return 1;
    }
    if (rd_get(r, w, 4, err) < 0) return -1;
    uint32_t len = le_u32(w);
    left -= 4;
    if (len == 0 || len > ZZZ_NAME_MAX) {
        problem(z, FF_E_FORMAT, (int64_t)at, "%s: name length %u (1 to %u accepted)", what, len,
                ZZZ_NAME_MAX);
        return 1;
    }
    if (len > left || left - len < 12) {
        problem(z, FF_E_RANGE, (int64_t)at,
                "%s: name length %u: the name, offset and size run past the end of the file "
                "(%llu bytes left)",
                what, len, (unsigned long long)left);
        return 1;
    }
    char *name = malloc((size_t)len + 1);
    if (!name) return ff_error_set(err, FF_E_NOMEM, z->name, -1, "no memory for a name");
    if (rd_get(r, name, len, err) < 0 || rd_get(r, w, 12, err) < 0 ||
        GROW(z->e, z->cap, z->n + 1, 64) < 0) {
        free(name);
        if (err && err->kind == FF_E_IO) return -1;
        return ff_error_set(err, FF_E_NOMEM, z->name, -1, "no memory for the table");
    }
    name[len] = '\0';
    zzz_entry *e = &z->e[z->n++];
    *e = (zzz_entry){name, le_u64(w), le_u32(w + 8), at, 0, ZZZ_PROBLEMS_MAX};
    if (bad_name(name, len)) {
        e->bad = 1;
        e->problem = z->kept;
        problem(z, FF_E_FORMAT, (int64_t)(at + 4), "%s: its name holds a control byte", what);
    } else if (e->offset > z->size || e->size > z->size - e->offset) {
        e->bad = 1;
        e->problem = z->kept;
        problem(z, FF_E_RANGE, (int64_t)(at + 4 + len),
                "%s (%.200s): offset %llu and size %u run past the end of the file (%llu "
                "bytes)",
                what, name, (unsigned long long)e->offset, e->size, (unsigned long long)z->size);
    }
    return 0;
}

static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the normalised name */
    for (; *s; s++) {
        unsigned char c = *s == '/' ? '\\' : (unsigned char)tolower((unsigned char)*s);
        h = (h ^ c) * 1099511628211ull;
    }
    return h;
}

/* Later entries whose name an earlier good one has are bad (the first wins). */
static int mark_duplicates(zzz *z, ff_error *err)
{
    size_t cap = 16;
    while (cap < 2 * (z->n + 1))
        cap *= 2;
    size_t *slot = malloc(cap * sizeof *slot);
    if (!slot) return ff_error_set(err, FF_E_NOMEM, z->name, -1, "no memory for the names");
    for (size_t k = 0; k < cap; k++)
        slot[k] = SIZE_MAX;
    for (size_t i = 0; i < z->n; i++) {
        if (z->e[i].bad) continue;
        size_t k = (size_t)hash_name(z->e[i].name) & (cap - 1);
        for (; slot[k] != SIZE_MAX; k = (k + 1) & (cap - 1))
            if (zzz_name_eq(z->e[slot[k]].name, z->e[i].name)) break;
        if (slot[k] == SIZE_MAX) {
            slot[k] = i;
            continue;
        }
        z->e[i].bad = 1;
        z->e[i].problem = z->kept;
        problem(z, FF_E_FORMAT, (int64_t)z->e[i].at,
                "entry %zu (%.200s): duplicate name, entry %zu (at %llu) has it; only that "
                "one is read",
                i, z->e[i].name, slot[k], (unsigned long long)z->e[slot[k]].at);
    }
    free(slot);
    return 0;
}

static int parse(zzz *z, reader *r, ff_error *err)
{
    if (z->size < 4) {
        problem(z, FF_E_TRUNCATED, 0, "table: %llu bytes, no room for the entry count",
                (unsigned long long)z->size);
        return 0;
    }
    uint8_t w[4];
    if (rd_get(r, w, 4, err) < 0) return -1;
    uint32_t count = le_u32(w);
    uint64_t fits = (z->size - 4) / ZZZ_RECORD_MIN;
    if (count > fits)
        problem(z, FF_E_FORMAT, 0,
                "table: count %u is larger than the table: the file holds at most %llu "
                "entries (the table is read until it goes bad)",
                count, (unsigned long long)fits);
    /* The table ends where the first entry's data begins: a count that runs past it lies. */
    uint64_t data = z->size;
    for (uint32_t i = 0; i < count; i++) {
        if (r->pos >= data) {
            if (count <= fits)
                problem(z, FF_E_FORMAT, 0,
                        "table: count %u is larger than the table: entry data begins at %llu, "
                        "after %u entries",
                        count, (unsigned long long)data, i);
            break;
        }
        int rc = read_record(z, r, i, err);
        if (rc < 0) return -1;
        if (rc > 0) break;
        const zzz_entry *e = &z->e[z->n - 1];
        if (!e->bad && e->size && e->offset < data) data = e->offset;
    }
    return mark_duplicates(z, err);
}

static int open_common(zzz *z, reader *r, zzz **out, ff_error *err)
{
    if (parse(z, r, err) < 0) {
        zzz_close(z);
        return -1;
    }
    *out = z;
    return 0;
}

static zzz *new_zzz(const char *name, ff_error *err)
{
    zzz *z = calloc(1, sizeof *z);
    size_t k = strlen(name) + 1;
    if (z) z->name = malloc(k);
    if (!z || !z->name) {
        free(z);
        ff_error_set(err, FF_E_NOMEM, name, -1, "no memory for a zzz archive");
        return NULL;
    }
    memcpy(z->name, name, k);
    z->fd = -1;
    return z;
}

int zzz_open(const char *path, zzz **out, ff_error *err)
{
    zzz *z = new_zzz(path, err);
    if (!z) return -1;
    z->fd = file_open_regular(path, 0, 0, &z->size, err);
    uint8_t *win = z->fd >= 0 ? malloc(WINDOW) : NULL;
    if (!win) {
        if (z->fd >= 0) ff_error_set(err, FF_E_NOMEM, path, -1, "no memory for a read window");
        zzz_close(z);
        return -1;
    }
    reader r = {NULL, z->fd, z->size, 0, 0, 0, win, z->name};
    int rc = open_common(z, &r, out, err);
    free(win);
    return rc;
}

int zzz_open_mem(const uint8_t *data, size_t size, const char *name, zzz **out, ff_error *err)
{
    static const uint8_t empty[1] = {0};
    zzz *z = new_zzz(name, err);
    if (!z) return -1;
    z->size = size;
    reader r = {data ? data : empty, -1, size, 0, 0, 0, NULL, z->name};
    return open_common(z, &r, out, err);
}

void zzz_close(zzz *z)
{
    if (!z) return;
    if (z->fd >= 0) close(z->fd);
    for (size_t i = 0; i < z->n; i++)
        free(z->e[i].name);
    free(z->e);
    free(z->problems);
    free(z->name);
    free(z);
}

const char *zzz_name(const zzz *z)
{
    return z->name;
}

uint64_t zzz_file_size(const zzz *z)
{
    return z->size;
}

size_t zzz_count(const zzz *z)
{
    return z->n;
}

const zzz_entry *zzz_get(const zzz *z, size_t i)
{
    return i < z->n ? &z->e[i] : NULL;
}

size_t zzz_problem_count(const zzz *z)
{
    return z->nproblems;
}

const ff_error *zzz_problem(const zzz *z, size_t k)
{
    return k < z->kept ? &z->problems[k] : NULL;
}

int zzz_name_eq(const char *a, const char *b)
{
    for (;; a++, b++) {
        unsigned char x = *a == '/' ? '\\' : (unsigned char)tolower((unsigned char)*a);
        unsigned char y = *b == '/' ? '\\' : (unsigned char)tolower((unsigned char)*b);
        if (x != y) return 0;
        if (!x) return 1;
    }
}

int zzz_find(const zzz *z, const char *name, size_t *index)
{
    for (size_t i = 0; i < z->n; i++)
        if (!z->e[i].bad && zzz_name_eq(z->e[i].name, name)) {
            *index = i;
            return 0;
        }
    return -1;
}

int zzz_range(const zzz *z, size_t i, arc_range *r, char *buf, size_t n, ff_error *err)
{
    if (i >= z->n || z->e[i].bad)
        return ff_error_set(err, FF_E_RANGE, z->name, i < z->n ? (int64_t)z->e[i].at : -1,
                            "entry %zu %s", i, i < z->n ? "was refused" : "does not exist");
    if (z->fd < 0)
        return ff_error_set(err, FF_E_UNSUPPORTED, z->name, -1, "a table in memory has no file");
    snprintf(buf, n, "%s:%s", z->name, z->e[i].name);
    *r = (arc_range){z->fd, z->e[i].offset, z->e[i].size, 0, buf};
    return 0;
}

/* The language folder of "data\lang-XX\battle.fs" (any case, either slash), or 0. */
static size_t battle_lang(const char *name, const char **lang)
{
    static const char head[] = "data\\lang-", tail[] = "\\battle.fs";
    size_t n = strlen(name), h = sizeof head - 1, t = sizeof tail - 1;
    if (n <= h + t) return 0;
    char buf[sizeof head];
    snprintf(buf, sizeof buf, "%.*s", (int)h, name);
    if (!zzz_name_eq(buf, head) || !zzz_name_eq(name + n - t, tail)) return 0;
    for (size_t k = h; k < n - t; k++)
        if (name[k] == '/' || name[k] == '\\') return 0;
    *lang = name + 5; /* "lang-XX" */
    return n - t - 5;
}

/* Orders two language names ignoring case, a prefix first. */
static int cmp_lang(const char *a, size_t an, const char *b, size_t bn)
{
    int c = strncasecmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

/* Appends "lang" to a ", " separated list in buf (cut when it does not fit). */
static void list_add(char *buf, size_t n, const char *lang, size_t len)
{
    size_t used = strlen(buf);
    if (used + 2 + len + 1 > n) return;
    snprintf(buf + used, n - used, "%s%.*s", used ? ", " : "", (int)len, lang);
}

int zzz_pick_battle(const zzz *z, const char *lang, size_t *fs, char *lang_out, size_t lang_n,
                    char *langs, size_t langs_n, ff_error *err)
{
    char want[64] = "lang-en";
    if (lang)
        snprintf(want, sizeof want, "%s%.50s", strncasecmp(lang, "lang-", 5) ? "lang-" : "", lang);
    size_t pick = SIZE_MAX, first = SIZE_MAX, first_len = 0, pick_len = 0;
    const char *first_lang = NULL, *pick_lang = NULL;
    langs[0] = '\0';
    size_t refused = SIZE_MAX;
    for (size_t i = 0; i < z->n; i++) {
        const char *l;
        size_t len = battle_lang(z->e[i].name, &l);
        if (len && z->e[i].bad && refused == SIZE_MAX) refused = i;
        if (!len || z->e[i].bad) continue;
        list_add(langs, langs_n, l, len);
        if (pick == SIZE_MAX && len == strlen(want) && !strncasecmp(l, want, len))
            pick = i, pick_lang = l, pick_len = len;
        if (first == SIZE_MAX || cmp_lang(l, len, first_lang, first_len) < 0)
            first = i, first_lang = l, first_len = len;
    }
    if (first == SIZE_MAX && refused != SIZE_MAX && z->e[refused].problem < z->kept) {
        if (err) *err = z->problems[z->e[refused].problem];
        return -1;
    }
    if (first == SIZE_MAX)
        return ff_error_set(err, FF_E_USAGE, z->name, -1,
                            "no data\\lang-XX\\battle.fs among its %zu entries", z->n);
    if (pick == SIZE_MAX && lang)
        return ff_error_set(err, FF_E_USAGE, z->name, -1,
                            "no battle archive for %s (languages: %s)", want, langs);
    if (pick == SIZE_MAX) pick = first, pick_lang = first_lang, pick_len = first_len;
    *fs = pick;
    snprintf(lang_out, lang_n, "%.*s", (int)pick_len, pick_lang);
    return 0;
}

int zzz_open_archive(const zzz *z, size_t fs, arc **out, ff_error *err)
{
    const zzz_entry *e = zzz_get(z, fs);
    size_t n = e ? strlen(e->name) : 0;
    if (!e || n < 3 || !zzz_name_eq(e->name + n - 3, ".fs"))
        return ff_error_set(err, FF_E_USAGE, z->name, -1, "entry %zu is not an .fs file", fs);
    size_t idx[3];
    static const char *const ext[3] = {"fi", "fl", "fs"};
    char *sib = malloc(n + 1);
    if (!sib) return ff_error_set(err, FF_E_NOMEM, z->name, -1, "no memory");
    for (int k = 0; k < 3; k++) {
        snprintf(sib, n + 1, "%.*s%s", (int)(n - 2), e->name, ext[k]);
        if (zzz_find(z, sib, &idx[k]) < 0) {
            ff_error_set(err, FF_E_IO, z->name, -1, "missing: no good entry %s beside %s", sib,
                         e->name);
            free(sib);
            return -1;
        }
    }
    free(sib);
    char names[3][FF_ERR_FILE_MAX];
    arc_range r[3];
    for (int k = 0; k < 3; k++)
        if (zzz_range(z, idx[k], &r[k], names[k], sizeof names[k], err) < 0) return -1;
    return arc_open_ranges(&r[0], &r[1], &r[2], out, err);
}
