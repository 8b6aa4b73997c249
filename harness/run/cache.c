/*
 * harness/run/cache.c: entries on disk in a self-verifying envelope, and an
 * in-memory index of their sizes and write times for the size limit.
 *
 * Must not trust an entry before its key text, lengths and checksum hold,
 * follow a link inside the cache folder, print or exit. The payload is
 * opaque here: its own format is harness/core/outcome.c's business.
 */
#include "harness/run/cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/le.h"
#include "common/sha256.h"
#include "common/file.h"
#include "corpus/fileio.h"
#include "emu/engine/emu.h"
#include "harness/core/outcome.h"

#define ENV_MAGIC "FF8DCACH"
#define ENV_VERSION 1u
/* magic, version, key length, payload length, digest */
#define ENV_HEAD (8 + 4 + 4 + 8 + SHA256_BYTES)

typedef struct entry {
    char key[65];
    uint64_t bytes;
    int64_t mtime;
} entry;

struct cache {
    char dir[4096];
    int dirfd;
    uint64_t limit, bytes;
    size_t n, cap;
    entry *e;
    int writable;
    ff_error write_err; /* why it is not, when it is not */
    pthread_mutex_t lock;
};

static int is_hex64(const char *s, size_t n)
{
    if (n < 64) return 0;
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return 1;
}

static int is_entry_name(const char *s)
{
    return strlen(s) == 64 + 4 && is_hex64(s, 68) && strcmp(s + 64, ".bin") == 0;
}

/* A temporary file of fio_write_at (".NAME.<hex>.tmp"), left by a killed writer. */
static int is_temp_name(const char *s)
{
    size_t n = strlen(s);
    return s[0] == '.' && n > 4 && strcmp(s + n - 4, ".tmp") == 0;
}

static int add_entry(cache *c, const char *key, uint64_t bytes, int64_t mtime)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->e[i].key, key) == 0) {
            c->bytes -= c->e[i].bytes;
            c->e[i].bytes = bytes;
            c->e[i].mtime = mtime;
            c->bytes += bytes;
            return 0;
        }
    if (GROW(c->e, c->cap, c->n + 1, 256) < 0) return -1;
    entry *e = &c->e[c->n++];
    memcpy(e->key, key, 64);
    e->key[64] = '\0';
    e->bytes = bytes;
    e->mtime = mtime;
    c->bytes += bytes;
    return 0;
}

/* The sub-folder "ab" of the cache, never through a link; -1 when absent or not a folder. */
static int open_sub(const cache *c, const char *sub)
{
    return openat(c->dirfd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Calls fn on every file of every two-hex-digit sub-folder. Returns -1 when fn does. */
typedef int (*visit_fn)(cache *c, int subfd, const char *name, const struct stat *st, void *arg);

static int visit(cache *c, visit_fn fn, void *arg, ff_error *err)
{
    int top_fd = openat(c->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *top = top_fd >= 0 ? fdopendir(top_fd) : NULL;
    if (!top) {
        if (top_fd >= 0) close(top_fd);
        return ff_error_set(err, FF_E_IO, c->dir, -1, "cannot read: %s", strerror(errno));
    }
    int rc = 0;
    for (struct dirent *d; rc == 0 && (d = readdir(top));) {
        if (strlen(d->d_name) != 2 || d->d_name[0] == '.') continue;
        int sub = open_sub(c, d->d_name);
        DIR *dir = sub >= 0 ? fdopendir(sub) : NULL;
        if (!dir) {
            if (sub >= 0) close(sub);
            continue;
        }
        for (struct dirent *f; rc == 0 && (f = readdir(dir));) {
            struct stat st;
            if (f->d_name[0] == '.' && (!f->d_name[1] || !strcmp(f->d_name, ".."))) continue;
            if (fstatat(dirfd(dir), f->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;
            rc = fn(c, dirfd(dir), f->d_name, &st, arg);
        }
        closedir(dir);
    }
    closedir(top);
    if (rc < 0) ff_error_set(err, FF_E_NOMEM, c->dir, -1, "out of memory reading the cache");
    return rc;
}

static int index_one(cache *c, int subfd, const char *name, const struct stat *st, void *arg)
{
    (void)subfd;
    (void)arg;
    if (!S_ISREG(st->st_mode) || !is_entry_name(name)) return 0;
    return add_entry(c, name, (uint64_t)st->st_size, (int64_t)st->st_mtime);
}

/* Rebuilds the index from the disk (lock held). */
static int scan(cache *c, ff_error *err)
{
    c->n = 0;
    c->bytes = 0;
    return visit(c, index_one, NULL, err);
}

/* Tries to create and remove a file: whether entries can be stored at all. */
static void probe(cache *c)
{
    char name[64];
    snprintf(name, sizeof name, ".probe-%ld", (long)getpid());
    ff_error_clear(&c->write_err);
    c->writable = fio_write_at(c->dirfd, c->dir, name, (const uint8_t *)"", 0, 1,
                               &c->write_err) == 0;
    if (c->writable) unlinkat(c->dirfd, name, 0);
}

int cache_open(const char *dir, uint64_t limit, cache **out, ff_error *err)
{
    if (fio_mkdirs(dir, err) < 0) return -1;
    cache *c = calloc(1, sizeof *c);
    if (!c) return ff_error_set(err, FF_E_NOMEM, dir, -1, "out of memory");
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    c->limit = limit ? limit : CACHE_DEFAULT_LIMIT;
    pthread_mutex_init(&c->lock, NULL);
    c->dirfd = -1;
    c->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (c->dirfd < 0) {
        ff_error_set(err, FF_E_IO, dir, -1, "cannot open: %s", strerror(errno));
        cache_close(c);
        return -1;
    }
    if (scan(c, err) < 0) {
        cache_close(c);
        return -1;
    }
    probe(c);
    *out = c;
    return 0;
}

void cache_close(cache *c)
{
    if (!c) return;
    if (c->dirfd >= 0) close(c->dirfd);
    pthread_mutex_destroy(&c->lock);
    free(c->e);
    free(c);
}

int cache_writable(const cache *c, ff_error *err)
{
    if (c->writable) return 0;
    if (err) *err = c->write_err;
    return -1;
}

int cache_key_make(cache_key *k, const cache_key_in *in, ff_error *err)
{
    k->text[0] = k->hex[0] = '\0';
    uint64_t budget = in->budget ? in->budget : EMU_DEFAULT_BUDGET;
    int n = snprintf(k->text, sizeof k->text,
                     "ff8diff-cache|exe=%s|file=%s|mode=%s|level=%s|budget=%llu%s%s"
                     "|payload=outcome-%d",
                     in->exe_id ? in->exe_id : "", in->file_sha, mode_name(in->mode), in->level,
                     (unsigned long long)budget, in->engine ? "|engine=" : "",
                     in->engine ? in->engine : "", OUTCOME_FORMAT);
    if (n < 0 || (size_t)n >= sizeof k->text) {
        k->text[0] = '\0';
        return ff_error_set(err, FF_E_INTERNAL, NULL, -1, "cache key longer than %d bytes",
                            CACHE_KEY_TEXT - 1);
    }
    return sha256_hex(k->text, (size_t)n, k->hex, err);
}

int cache_has(cache *c, const cache_key *k)
{
    pthread_mutex_lock(&c->lock);
    int found = 0;
    for (size_t i = 0; i < c->n && !found; i++) found = strcmp(c->e[i].key, k->hex) == 0;
    pthread_mutex_unlock(&c->lock);
    return found;
}

/* ---- the envelope ---- */

static int digest(const char *key, size_t klen, const uint8_t *data, size_t len,
                  uint8_t out[SHA256_BYTES], ff_error *err)
{
    sha256_part parts[2] = {{key, klen}, {data, len}};
    return sha256_parts(parts, 2, out, err);
}

/* header + key text + payload in one new buffer. */
static uint8_t *wrap(const cache_key *k, const uint8_t *data, size_t len, size_t *out_len,
                     ff_error *err)
{
    size_t klen = strlen(k->text);
    if (len > CACHE_ENTRY_MAX - ENV_HEAD - klen) {
        ff_error_set(err, FF_E_RANGE, NULL, -1, "a %zu-byte cache entry is above the limit", len);
        return NULL;
    }
    uint8_t *buf = malloc(ENV_HEAD + klen + len);
    if (!buf) {
        ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for a cache entry");
        return NULL;
    }
    memcpy(buf, ENV_MAGIC, 8);
    le_put32(buf + 8, ENV_VERSION);
    le_put32(buf + 12, (uint32_t)klen);
    le_put32(buf + 16, (uint32_t)len);
    le_put32(buf + 20, (uint32_t)((uint64_t)len >> 32));
    if (digest(k->text, klen, data, len, buf + 24, err) < 0) {
        free(buf);
        return NULL;
    }
    memcpy(buf + ENV_HEAD, k->text, klen);
    memcpy(buf + ENV_HEAD + klen, data, len);
    *out_len = ENV_HEAD + klen + len;
    return buf;
}

/* Checks an entry read whole against k; on success the payload is buf[*at .. *at + *len). */
static int unwrap(const cache_key *k, const uint8_t *buf, size_t size, const char *path,
                  size_t *at, size_t *len, ff_error *err)
{
    if (size < ENV_HEAD || memcmp(buf, ENV_MAGIC, 8) != 0)
        return ff_error_set(err, FF_E_FORMAT, path, 0, "not a cache entry");
    if (le_u32(buf + 8) != ENV_VERSION)
        return ff_error_set(err, FF_E_FORMAT, path, 8, "cache entry version %u, expected %u",
                            le_u32(buf + 8), ENV_VERSION);
    uint64_t klen = le_u32(buf + 12), plen = le_u64(buf + 16);
    if (klen > size - ENV_HEAD || plen != size - ENV_HEAD - klen)
        return ff_error_set(err, FF_E_FORMAT, path, 12,
                            "lengths (key %llu, payload %llu) do not add up to the entry's %zu "
                            "bytes",
                            (unsigned long long)klen, (unsigned long long)plen, size);
    const char *key = (const char *)buf + ENV_HEAD;
    if (klen != strlen(k->text) || memcmp(key, k->text, (size_t)klen) != 0)
        return ff_error_set(err, FF_E_FORMAT, path, ENV_HEAD,
                            "the entry holds another key (%.*s): misfiled, not used",
                            (int)(klen < 200 ? klen : 200), key);
    uint8_t d[SHA256_BYTES];
    if (digest(key, (size_t)klen, buf + ENV_HEAD + klen, (size_t)plen, d, err) < 0) return -1;
    if (memcmp(d, buf + 24, SHA256_BYTES) != 0)
        return ff_error_set(err, FF_E_FORMAT, path, 24, "checksum does not match: damaged");
    *at = ENV_HEAD + (size_t)klen;
    *len = (size_t)plen;
    return 0;
}

int cache_get(cache *c, const cache_key *k, uint8_t **data, size_t *len, ff_error *err)
{
    char sub[3] = {k->hex[0], k->hex[1], '\0'}, name[72], path[4200];
    snprintf(name, sizeof name, "%s.bin", k->hex);
    snprintf(path, sizeof path, "%s/%s/%s", c->dir, sub, name);
    int sfd = open_sub(c, sub);
    struct stat st;
    if (sfd < 0 || fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        int absent = errno == ENOENT;
        if (sfd >= 0) close(sfd);
        if (absent) return 0;
        return ff_error_set(err, FF_E_IO, path, -1, "cannot read: %s", strerror(errno));
    }
    uint8_t *buf;
    size_t size, at = 0, plen = 0;
    int rc = file_read_at(sfd, name, path, FILE_NOFOLLOW, CACHE_ENTRY_MAX, &buf, &size, err);
    close(sfd);
    if (rc < 0) return -1;
    if (unwrap(k, buf, size, path, &at, &plen, err) < 0) {
        free(buf);
        return -1;
    }
    memmove(buf, buf + at, plen);
    *data = buf;
    *len = plen;
    return 1;
}

static void evict(cache *c)
{
    while (c->bytes > c->limit && c->n > 0) {
        size_t old = 0;
        for (size_t i = 1; i < c->n; i++)
            if (c->e[i].mtime < c->e[old].mtime) old = i;
        char sub[3] = {c->e[old].key[0], c->e[old].key[1], '\0'}, name[72];
        snprintf(name, sizeof name, "%s.bin", c->e[old].key);
        int sfd = open_sub(c, sub);
        if (sfd >= 0) {
            unlinkat(sfd, name, 0);
            close(sfd);
        }
        c->bytes -= c->e[old].bytes;
        c->e[old] = c->e[--c->n];
    }
}

int cache_put(cache *c, const cache_key *k, const uint8_t *data, size_t len, ff_error *err)
{
    if (!c->writable) {
        if (err) *err = c->write_err;
        return -1;
    }
    if (!k->text[0]) return ff_error_set(err, FF_E_INTERNAL, c->dir, -1, "no key to store under");
    char sub[3] = {k->hex[0], k->hex[1], '\0'}, name[72], shown[4200];
    snprintf(name, sizeof name, "%s.bin", k->hex);
    snprintf(shown, sizeof shown, "%s/%s", c->dir, sub);
    if (mkdirat(c->dirfd, sub, 0755) < 0 && errno != EEXIST)
        return ff_error_set(err, FF_E_IO, shown, -1, "cannot create folder: %s", strerror(errno));
    int sfd = open_sub(c, sub);
    if (sfd < 0)
        return ff_error_set(err, FF_E_IO, shown, -1, "cannot open as a folder: %s",
                            strerror(errno));
    size_t total = 0;
    uint8_t *entry_bytes = wrap(k, data, len, &total, err);
    int rc = entry_bytes ? fio_write_at(sfd, shown, name, entry_bytes, total, 1, err) : -1;
    free(entry_bytes);
    struct stat st;
    int64_t now = rc == 0 && fstatat(sfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0
                      ? (int64_t)st.st_mtime
                      : 0;
    close(sfd);
    if (rc < 0) return -1;
    pthread_mutex_lock(&c->lock);
    int added = add_entry(c, k->hex, total, now);
    evict(c);
    pthread_mutex_unlock(&c->lock);
    return added < 0 ? ff_error_set(err, FF_E_NOMEM, c->dir, -1, "out of memory") : 0;
}

const char *cache_level_name(cache_level l)
{
    static const char *const names[] = {
#define CACHE_LEVEL_NAME(id, name) name,
        CACHE_LEVELS(CACHE_LEVEL_NAME)
#undef CACHE_LEVEL_NAME
    };
    return (unsigned)l < CACHE_LEVEL__COUNT ? names[l] : "?";
}

/* The value of "|name=" in a key's text (up to the next '|'), or NULL. */
static const char *key_field(const char *text, size_t len, const char *name, size_t *n)
{
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl + 2 <= len; i++) {
        if (text[i] != '|' || memcmp(text + i + 1, name, nl) != 0 || text[i + 1 + nl] != '=')
            continue;
        const char *v = text + i + nl + 2, *end = memchr(v, '|', len - (size_t)(v - text));
        *n = end ? (size_t)(end - v) : len - (size_t)(v - text);
        return v;
    }
    return NULL;
}

cache_level cache_key_level(const char *text, size_t len)
{
    char want[32];
    size_t n = 0, pn = 0;
    int wn = snprintf(want, sizeof want, "outcome-%d", OUTCOME_FORMAT);
    const char *payload = key_field(text, len, "payload", &pn);
    const char *level = key_field(text, len, "level", &n);
    if (!payload || !level || pn != (size_t)wn || memcmp(payload, want, pn) != 0)
        return CACHE_LEVEL_OLD;
    if (n >= 6 && memcmp(level, "entity", 6) == 0) return CACHE_LEVEL_ENTITY;
    if (n == 11 && memcmp(level, "pose-search", 11) == 0) return CACHE_LEVEL_CONVENTION;
    for (size_t i = 0; i + 4 <= n; i++)
        if (memcmp(level + i, "pose", 4) == 0) return CACHE_LEVEL_POSE;
    return CACHE_LEVEL_FRAME;
}

/* An entry's level from its head and key text, read without the rest. */
static int level_one(cache *c, int subfd, const char *name, const struct stat *st, void *arg)
{
    (void)c;
    cache_stats *cs = arg;
    if (!S_ISREG(st->st_mode) || !is_entry_name(name)) return 0;
    cache_level l = CACHE_LEVEL_OLD;
    uint8_t head[ENV_HEAD + CACHE_KEY_TEXT];
    int fd = openat(subfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    ssize_t got = fd >= 0 ? pread(fd, head, sizeof head, 0) : -1;
    if (fd >= 0) close(fd);
    if (got >= (ssize_t)ENV_HEAD && memcmp(head, ENV_MAGIC, 8) == 0 &&
        le_u32(head + 8) == ENV_VERSION) {
        uint32_t klen = le_u32(head + 12);
        if (klen <= (size_t)got - ENV_HEAD)
            l = cache_key_level((const char *)head + ENV_HEAD, klen);
    }
    cs->level_entries[l]++;
    cs->level_bytes[l] += (uint64_t)st->st_size;
    return 0;
}

int cache_stat(cache *c, cache_stats *st, ff_error *err)
{
    memset(st, 0, sizeof *st);
    pthread_mutex_lock(&c->lock);
    int rc = scan(c, err);
    st->entries = c->n;
    st->bytes = c->bytes;
    st->limit = c->limit;
    if (rc == 0) rc = visit(c, level_one, st, err);
    pthread_mutex_unlock(&c->lock);
    return rc;
}

typedef struct clear_state {
    uint64_t removed, failed;
    ff_error first;
} clear_state;

static int clear_one(cache *c, int subfd, const char *name, const struct stat *st, void *arg)
{
    clear_state *cs = arg;
    int entry = is_entry_name(name);
    if (S_ISDIR(st->st_mode) || (!entry && !is_temp_name(name))) return 0;
    if (unlinkat(subfd, name, 0) == 0) {
        cs->removed += entry;
    } else if (cs->failed++ == 0) {
        ff_error_set(&cs->first, FF_E_IO, c->dir, -1, "cannot remove %s: %s", name,
                     strerror(errno));
    }
    return 0;
}

int cache_clear(cache *c, uint64_t *removed, ff_error *err)
{
    clear_state cs;
    memset(&cs, 0, sizeof cs);
    pthread_mutex_lock(&c->lock);
    int rc = visit(c, clear_one, &cs, err);
    if (rc == 0) rc = scan(c, err);
    pthread_mutex_unlock(&c->lock);
    if (removed) *removed = cs.removed;
    if (rc == 0 && cs.failed) {
        if (err) *err = cs.first;
        ff_error_prefix(err, "%llu of the entries were not removed", (unsigned long long)cs.failed);
        rc = -1;
    }
    return rc;
}
