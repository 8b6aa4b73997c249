/*
 * harness/run/cache.c: entries on disk, an in-memory index of their sizes and
 * write times for the size limit.
 */
#include "harness/run/cache.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "corpus/fileio.h"
#include "harness/core/outcome.h"
#include "common/sha256.h"

typedef struct entry {
    char key[65];
    uint64_t bytes;
    int64_t mtime;
} entry;

struct cache {
    char dir[4096];
    uint64_t limit, bytes;
    size_t n, cap;
    entry *e;
    pthread_mutex_t lock;
};

static int is_key(const char *s)
{
    if (strlen(s) != 64 + 4 || strcmp(s + 64, ".bin") != 0) return 0;
    for (int i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return 1;
}

static void entry_path(const cache *c, const char *key, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%.2s/%s.bin", c->dir, key, key);
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
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        entry *e = realloc(c->e, cap * sizeof *e);
        if (!e) return -1;
        c->e = e;
        c->cap = cap;
    }
    entry *e = &c->e[c->n++];
    memcpy(e->key, key, 65);
    e->bytes = bytes;
    e->mtime = mtime;
    c->bytes += bytes;
    return 0;
}

static int scan(cache *c, ff_error *err)
{
    DIR *top = opendir(c->dir);
    if (!top) return ff_error_set(err, FF_E_IO, c->dir, -1, "cannot read: %s", strerror(errno));
    struct dirent *d;
    while ((d = readdir(top))) {
        if (strlen(d->d_name) != 2 || d->d_name[0] == '.') continue;
        char sub[4200];
        if (snprintf(sub, sizeof sub, "%s/%s", c->dir, d->d_name) >= (int)sizeof sub) continue;
        DIR *dir = opendir(sub);
        if (!dir) continue;
        struct dirent *f;
        while ((f = readdir(dir))) {
            if (!is_key(f->d_name)) continue;
            char path[4500];
            struct stat st;
            if (snprintf(path, sizeof path, "%s/%s", sub, f->d_name) >= (int)sizeof path ||
                stat(path, &st) != 0)
                continue;
            char key[65];
            memcpy(key, f->d_name, 64);
            key[64] = '\0';
            if (add_entry(c, key, (uint64_t)st.st_size, (int64_t)st.st_mtime) < 0) {
                closedir(dir);
                closedir(top);
                return ff_error_set(err, FF_E_NOMEM, c->dir, -1, "out of memory");
            }
        }
        closedir(dir);
    }
    closedir(top);
    return 0;
}

int cache_open(const char *dir, uint64_t limit, cache **out, ff_error *err)
{
    if (fio_mkdirs(dir, err) < 0) return -1;
    cache *c = calloc(1, sizeof *c);
    if (!c) return ff_error_set(err, FF_E_NOMEM, dir, -1, "out of memory");
    snprintf(c->dir, sizeof c->dir, "%s", dir);
    c->limit = limit ? limit : CACHE_DEFAULT_LIMIT;
    pthread_mutex_init(&c->lock, NULL);
    if (scan(c, err) < 0) {
        cache_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

void cache_close(cache *c)
{
    if (!c) return;
    pthread_mutex_destroy(&c->lock);
    free(c->e);
    free(c);
}

int cache_key(char out[65], const char *run_id, const char *file_sha, mode_id mode,
              const char *level, ff_error *err)
{
    char text[512];
    int n = snprintf(text, sizeof text, "ff8diff-cache|%s|%s|%s|%s|outcome-%d", run_id,
                     file_sha, mode_name(mode), level, OUTCOME_FORMAT);
    return sha256_hex(text, n > 0 ? (size_t)n : 0, out, err);
}

int cache_has(cache *c, const char *key)
{
    pthread_mutex_lock(&c->lock);
    int found = 0;
    for (size_t i = 0; i < c->n && !found; i++) found = strcmp(c->e[i].key, key) == 0;
    pthread_mutex_unlock(&c->lock);
    return found;
}

int cache_get(cache *c, const char *key, uint8_t **data, size_t *len, ff_error *err)
{
    char path[4200];
    entry_path(c, key, path, sizeof path);
    if (access(path, F_OK) != 0) return 0;
    if (fio_read_all(path, data, len, err) < 0) return -1;
    return 1;
}

static void evict(cache *c)
{
    while (c->bytes > c->limit && c->n > 0) {
        size_t old = 0;
        for (size_t i = 1; i < c->n; i++)
            if (c->e[i].mtime < c->e[old].mtime) old = i;
        char path[4200];
        entry_path(c, c->e[old].key, path, sizeof path);
        remove(path);
        c->bytes -= c->e[old].bytes;
        c->e[old] = c->e[--c->n];
    }
}

int cache_put(cache *c, const char *key, const uint8_t *data, size_t len, ff_error *err)
{
    char sub[4200], path[4200];
    snprintf(sub, sizeof sub, "%s/%.2s", c->dir, key);
    entry_path(c, key, path, sizeof path);
    if (fio_mkdirs(sub, err) < 0 || fio_write_atomic(path, data, len, err) < 0) return -1;
    struct stat st;
    int64_t now = stat(path, &st) == 0 ? (int64_t)st.st_mtime : 0;
    pthread_mutex_lock(&c->lock);
    int rc = add_entry(c, key, len, now);
    evict(c);
    pthread_mutex_unlock(&c->lock);
    return rc < 0 ? ff_error_set(err, FF_E_NOMEM, c->dir, -1, "out of memory") : 0;
}

int cache_stat(cache *c, cache_stats *st)
{
    pthread_mutex_lock(&c->lock);
    st->entries = c->n;
    st->bytes = c->bytes;
    st->limit = c->limit;
    pthread_mutex_unlock(&c->lock);
    return 0;
}

int cache_clear(cache *c, uint64_t *removed, ff_error *err)
{
    (void)err;
    pthread_mutex_lock(&c->lock);
    uint64_t n = 0;
    for (size_t i = 0; i < c->n; i++) {
        char path[4200];
        entry_path(c, c->e[i].key, path, sizeof path);
        n += remove(path) == 0;
    }
    c->n = 0;
    c->bytes = 0;
    pthread_mutex_unlock(&c->lock);
    if (removed) *removed = n;
    return 0;
}
