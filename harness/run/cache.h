/*
 * harness/run/cache.h: the content-addressed cache of the original's results.
 * A key names one file in one mode at one level for one executable: the
 * executable's SHA-256, its profile (name and a digest of its addresses),
 * the options that change what the original does (bone matrices, the
 * instruction budget), the file's SHA-256, the mode and the payload format.
 * The value is an opaque payload (the packed outcomes of every clip of that
 * file in that mode, harness/core/outcome.h). A second run with the same
 * executable and corpus then compares without emulating.
 *
 * An entry verifies itself. It is <dir>/<2 hex>/<64 hex>.bin, the 64 hex
 * digits the SHA-256 of the key's text, and holds:
 *   "FF8DCACH", u32 envelope version, u32 key length, u64 payload length,
 *   32-byte SHA-256 of (key text, payload), the key text, the payload
 * (little-endian). cache_get gives a payload only when the entry's own key
 * text is the one asked for (an entry copied or renamed over another's name
 * is refused), its lengths add up to the file's size and the checksum holds
 * (one flipped byte anywhere is refused): anything else is "rejected", never
 * a result, and the caller emulates and stores the entry again.
 *
 * Entries are written whole through a new temporary file and a rename, or
 * not at all; nothing in the cache folder is followed through a symbolic
 * link. A cache that cannot be written (full disk, permissions) fails
 * cache_put with an error, nothing more: the run goes on. When the total
 * passes the size limit, the least recently written entries go first.
 * Thread-safe; nothing here prints or exits.
 */
#ifndef FF8_HARNESS_RUN_CACHE_H
#define FF8_HARNESS_RUN_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "harness/core/modes.h"
#include "common/error.h"

#define CACHE_DEFAULT_LIMIT (2048ull * 1024 * 1024)
#define CACHE_ENTRY_MAX (256u << 20) /* larger entries are refused unread */
#define CACHE_KEY_TEXT 512

typedef struct cache cache;

/* A key: the text stored in the entry, and its SHA-256, the entry's name. */
typedef struct cache_key {
    char text[CACHE_KEY_TEXT];
    char hex[65];
} cache_key;

/* What a unit's results depend on besides the file: from the run's options. */
typedef struct cache_key_in {
    const char *exe_id;   /* "<exe SHA-256>/<profile>/<profile digest>" */
    const char *file_sha; /* the file's SHA-256 */
    mode_id mode;
    const char *level;    /* "frame", "frame+matrices" */
    uint64_t budget;      /* instructions per call, 0: the emulator's default */
    /* The engine's kind ("unicorn", run_engine_key); NULL: none named. */
    const char *engine;
} cache_key_in;

/*
 * Opens (creating) the cache folder; limit 0 means CACHE_DEFAULT_LIMIT.
 * Whether it can be written is tried at once with a probe file: when it
 * cannot, the cache opens read-only, cache_writable says why, and every
 * cache_put fails with that error. On failure *out is untouched.
 */
int cache_open(const char *dir, uint64_t limit, cache **out, ff_error *err);
void cache_close(cache *c);
/* 0 when entries can be stored, -1 with the reason (a copy of it) otherwise. */
int cache_writable(const cache *c, ff_error *err);

/*
 * The key of one file in one mode at one level. Returns 0, or -1 with err
 * when it cannot be computed (a field too long, hashing failed): the unit
 * then has no key and is emulated.
 */
int cache_key_make(cache_key *k, const cache_key_in *in, ff_error *err);
/* 1 when an entry of that name exists (not yet verified: cache_get does). */
int cache_has(cache *c, const cache_key *k);
/*
 * The payload stored under k: 1 with a new buffer (*data, caller frees) when
 * the entry exists and verifies, 0 when there is none, -1 with err when an
 * entry is there but refused (another key, lengths or checksum wrong, not a
 * regular file, unreadable): the caller counts it as rejected.
 */
int cache_get(cache *c, const cache_key *k, uint8_t **data, size_t *len, ff_error *err);
/*
 * Stores payload under k (complete, or nothing), then evicts the oldest
 * entries over the limit. Returns -1 with err when it cannot be written.
 */
int cache_put(cache *c, const cache_key *k, const uint8_t *data, size_t len, ff_error *err);

/*
 * The level an entry's key names (its "level=" field): frame (with or
 * without matrices), pose (frame+pose-base1), entity, convention (a pose
 * convention search's result, harness/run/pose_search.h); OLD: a payload format
 * other than this build's OUTCOME_FORMAT, or a head that cannot be read:
 * never served, gone when evicted or cleared.
 */
#define CACHE_LEVELS(X)                                                                            \
    X(FRAME, "frame") X(POSE, "pose") X(ENTITY, "entity") X(CONVENTION, "convention") X(OLD, "old")
typedef enum cache_level {
#define CACHE_LEVEL_ENUM(id, name) CACHE_LEVEL_##id,
    CACHE_LEVELS(CACHE_LEVEL_ENUM)
#undef CACHE_LEVEL_ENUM
        CACHE_LEVEL__COUNT
} cache_level;
const char *cache_level_name(cache_level l);
/* The level of a key's text (cache_key.text). */
cache_level cache_key_level(const char *text, size_t len);

typedef struct cache_stats {
    uint64_t entries, bytes, limit;
    uint64_t level_entries[CACHE_LEVEL__COUNT], level_bytes[CACHE_LEVEL__COUNT];
} cache_stats;

/*
 * What the folder holds now (read from disk, other processes' entries
 * included): entries and their bytes, per level too (read from each
 * entry's key text, not verified), and this handle's limit. Returns -1
 * with err when the folder cannot be read.
 */
int cache_stat(cache *c, cache_stats *st, ff_error *err);
/*
 * Removes every entry and leftover temporary file; *removed (may be NULL)
 * gets how many entries. Returns -1 with err when one cannot be removed
 * (the others are removed all the same).
 */
int cache_clear(cache *c, uint64_t *removed, ff_error *err);

#endif
