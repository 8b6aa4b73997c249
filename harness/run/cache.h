/*
 * harness/run/cache.h: the content-addressed cache of the original's results.
 * A key is the SHA-256 of (executable SHA-256 + profile, file SHA-256,
 * mode, level, outcome format version); the value is the packed outcomes of
 * every clip of that file in that mode (harness/core/outcome.h). A second run
 * with the same executable and corpus then compares without emulating.
 *
 * Entries live in <dir>/<2 hex>/<64 hex>.bin, written through a temporary
 * name and a rename, so concurrent writers and readers never see half an
 * entry. When the total passes the size limit, the least recently written
 * entries go first. Thread-safe; nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_CACHE_H
#define FF8_HARNESS_RUN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/modes.h"
#include "common/error.h"

#define CACHE_DEFAULT_LIMIT (2048ull * 1024 * 1024)

typedef struct cache cache;

/* Opens (creating) the cache folder; limit 0 means CACHE_DEFAULT_LIMIT. */
int cache_open(const char *dir, uint64_t limit, cache **out, ff_error *err);
void cache_close(cache *c);

/*
 * The key for one file in one mode at one level. Returns 0, or -1 with err
 * when it cannot be computed (out is then "", which names no entry).
 */
int cache_key(char out[65], const char *run_id, const char *file_sha, mode_id mode,
              const char *level, ff_error *err);
/* 1 when an entry exists. */
int cache_has(cache *c, const char *key);
/* 1 with a new buffer (caller frees), 0 when absent, -1 on a read error. */
int cache_get(cache *c, const char *key, uint8_t **data, size_t *len, ff_error *err);
/* Stores an entry, then evicts the oldest entries over the limit. */
int cache_put(cache *c, const char *key, const uint8_t *data, size_t len, ff_error *err);

typedef struct cache_stats {
    uint64_t entries, bytes, limit;
} cache_stats;

int cache_stat(cache *c, cache_stats *st);
/* Removes every entry; *removed (may be NULL) gets how many. */
int cache_clear(cache *c, uint64_t *removed, ff_error *err);

#endif
