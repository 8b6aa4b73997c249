/*
 * corpus/pairs.h: which battle entities a corpus runs. An entity is one
 * body (or monster) and at most one weapon model driven by one clock
 * (QueueAnimation / AdvanceBy1, docs/pose.md section 5, docs/engine.md section 3).
 *
 * Rules (corpus/README.md, "Entities"):
 *   - a body dXcYYY.dat (7 sections) gives one entity per weapon dXwZZZ.dat
 *     (8 sections) of the same character X; names are matched ignoring case,
 *     archive paths reduced to their last component;
 *   - a body with no usable weapon (no weapon file of its character, only
 *     reduced 5-section weapon files, only unreadable ones, or a name that
 *     gives no character) and Edea's 10-section body are one entity with no
 *     weapon slot; so is every monster (11 sections);
 *   - a weapon that pairs with no body is reported, never an entity;
 *   - a body and weapon whose clip counts differ still pair; the entity
 *     records both counts and is flagged as a pool mismatch.
 *   - a file that did not parse is in no entity (one that parsed but failed
 *     to decode still is: its error shows where it runs).
 * Weapon slots carry attach rotation and translation fields (docs/pose.md
 * section 5: identity, all zero, in vanilla). They are not in the .dat
 * files: an optional entities manifest (PAIRS_ATTACH_FILE, JSON) beside a
 * folder corpus gives non-zero values per pair; without one they are zero.
 *
 * pairs_build is pure (data in, data out). Only pairs_attach_load touches
 * the file system. Nothing here prints, exits or keeps global state.
 */
#ifndef FF8_CORPUS_PAIRS_H
#define FF8_CORPUS_PAIRS_H

#include <stddef.h>
#include <stdint.h>

#include "corpus/manifest.h"
#include "ref/dat.h"
#include "common/error.h"

/* The entities manifest's file name, looked for in a folder corpus. */
#define PAIRS_ATTACH_FILE "entities.json"
/* Its "format" and "version" values. */
#define PAIRS_ATTACH_FORMAT "ff8diff-entities"
#define PAIRS_ATTACH_VERSION 1
/* Longest base name an attach entry may hold (without the NUL). */
#define PAIRS_NAME_MAX 63

/* No weapon index (pair_entity.weapon). */
#define PAIRS_NONE ((size_t)-1)

/* Why an entity has no weapon slot: reason, JSON name, sentence. */
#define PAIRS_NOWEAPON_MAP(XX)                                                                     \
    XX(NONE, "none", "paired with a weapon")                                                       \
    XX(MONSTER, "monster", "a monster carries no weapon model")                                    \
    XX(EDEA, "edea", "a 10-section body takes no weapon model")                                    \
    XX(NO_WEAPON_FILE, "no_weapon_file", "no weapon file of its character")                        \
    XX(REDUCED_ONLY, "reduced_only", "its character's weapon files are reduced (5 sections)")      \
    XX(WEAPON_BAD, "weapon_bad", "its character's weapon files could not be read")                 \
    XX(UNNAMED, "unnamed", "its name gives no character number (dXcNNN.dat)")

typedef enum pairs_noweapon {
#define PAIRS_NOWEAPON_ENUM(name, json, text) PAIRS_NOWEAPON_##name,
    PAIRS_NOWEAPON_MAP(PAIRS_NOWEAPON_ENUM)
#undef PAIRS_NOWEAPON_ENUM
        PAIRS__NOWEAPON_COUNT
} pairs_noweapon;

/* Why a weapon file is in no entity: reason, JSON name, sentence. */
#define PAIRS_UNPAIRED_MAP(XX)                                                                     \
    XX(NO_BODY, "no_body", "no body file of its character")                                        \
    XX(EDEA_ONLY, "edea_only", "its character's only bodies take no weapon (10 sections)")         \
    XX(BODY_BAD, "body_bad", "its character's body files could not be read")                       \
    XX(UNNAMED, "unnamed", "its name gives no character number (dXwNNN.dat)")

typedef enum pairs_unpaired_why {
#define PAIRS_UNPAIRED_ENUM(name, json, text) PAIRS_UNPAIRED_##name,
    PAIRS_UNPAIRED_MAP(PAIRS_UNPAIRED_ENUM)
#undef PAIRS_UNPAIRED_ENUM
        PAIRS__UNPAIRED_COUNT
} pairs_unpaired_why;

/* One file of the corpus, as the caller knows it. */
typedef struct pairs_file {
    const char *name; /* file name or archive path (borrowed); its base name is used */
    int parsed;       /* 1: dat_parse accepted the file, kind and clips are valid */
    dat_kind kind;
    unsigned clips; /* model kinds: the animation section's clip count */
} pairs_file;

/* A weapon slot's attach fields (docs/pose.md section 5), all zero in vanilla. */
typedef struct pairs_attach {
    int16_t rot[3];   /* slot +20: rotation X, Y, Z (4096 = 360 degrees, ZYX order) */
    int16_t trans[3]; /* slot +28: translation X, Y, Z */
} pairs_attach;

/* One entity to run. */
typedef struct pairs_entity {
    size_t body;           /* index in the file list: the body or the monster */
    size_t weapon;         /* index of the weapon, PAIRS_NONE: no weapon slot */
    unsigned body_clips;   /* the body's clip count */
    unsigned weapon_clips; /* the weapon's clip count; 0 without a weapon */
    int pool_mismatch;     /* 1: a weapon whose clip count differs from the body's */
    pairs_noweapon why;    /* PAIRS_NOWEAPON_NONE exactly when weapon != PAIRS_NONE */
    pairs_attach attach;   /* zero unless the entities manifest names this pair */
} pairs_entity;

/* A weapon file that is in no entity. */
typedef struct pairs_unpaired {
    size_t weapon; /* index in the file list (a weapon or reduced weapon) */
    pairs_unpaired_why why;
} pairs_unpaired;

/* What a corpus runs. Counts are over the entity list. */
typedef struct pairs_set {
    size_t n;
    pairs_entity *e; /* bodies and monsters in file order, each body's weapons in file order */
    size_t nunpaired;
    pairs_unpaired *unpaired; /* in file order */
    unsigned monsters;        /* entities whose why is PAIRS_NOWEAPON_MONSTER */
    unsigned armed;           /* entities with a weapon slot */
    unsigned pool_mismatches; /* entities flagged pool_mismatch */
    unsigned attach_unused;   /* manifest entries whose files are listed but form no pair */
} pairs_set;

/* One entry of the entities manifest: a pair by base names, and its values. */
typedef struct pairs_attach_entry {
    char body[PAIRS_NAME_MAX + 1];
    char weapon[PAIRS_NAME_MAX + 1];
    pairs_attach attach;
} pairs_attach_entry;

typedef struct pairs_attach_list {
    char source[FF_ERR_FILE_MAX]; /* where it was read from, for errors ("" when built) */
    size_t n;
    pairs_attach_entry *e;
} pairs_attach_list;

/* ---- names ---- */


/*
 * Reads a character file name: base name "d" X ("c" | "w") digits ".dat",
 * ignoring case, X one letter or digit. Fills *character (X, lower case)
 * and *role ('c' body, 'w' weapon) and returns 1; returns 0 for any other
 * name (both outputs then untouched).
 */
int pairs_parse_name(const char *name, char *character, char *role);

/* ---- pairing ---- */

/*
 * The entities of n files (rules at the top of this header), with attach
 * values from att (NULL: none). *out is new (pairs_free); on failure it is
 * zeroed. Fails with FF_E_USAGE when files is NULL with n > 0 or a name is
 * NULL, FF_E_FORMAT (file att->source) when an attach entry names a body or
 * weapon that is not in the list, and FF_E_NOMEM. An entry whose two files
 * are listed but form no entity is counted in out->attach_unused.
 */
int pairs_build(const pairs_file *files, size_t n, const pairs_attach_list *att, pairs_set *out,
                ff_error *err);

/*
 * pairs_build over a manifest's entries (name, parsed, kind, clips): the
 * file indices of the result are the manifest's entry indices.
 */
int pairs_from_manifest(const manifest *m, const pairs_attach_list *att, pairs_set *out,
                        ff_error *err);

/* Frees what s holds and zeroes it (NULL is fine). */
void pairs_free(pairs_set *s);

/* "none", "monster", ...; "?" when out of range. */
const char *pairs_noweapon_name(pairs_noweapon why);
/* The reason as a sentence; "?" when out of range. */
const char *pairs_noweapon_text(pairs_noweapon why);
/* "no_body", ...; "?" when out of range. */
const char *pairs_unpaired_name(pairs_unpaired_why why);
/* The reason as a sentence; "?" when out of range. */
const char *pairs_unpaired_text(pairs_unpaired_why why);

/* ---- the entities manifest (corpus/pairs_attach.c) ---- */

/*
 * Parses an entities manifest held in text[0..len) (corpus/README.md gives
 * the format): {"format":"ff8diff-entities","version":1,"attach":[{"body":
 * NAME,"weapon":NAME,"rotation":[x,y,z],"translation":[x,y,z]}, ...]}.
 * rotation and translation may be left out (zero); every value is an
 * integer in -32768..32767; unknown keys, a name with a path separator or
 * longer than PAIRS_NAME_MAX, and the same pair twice are errors. Errors are
 * FF_E_FORMAT naming source (the offset is the JSON's byte offset when the
 * text does not parse, else -1) or FF_E_NOMEM. *out is new
 * (pairs_attach_free); on failure it is zeroed.
 */
int pairs_attach_parse(const char *text, size_t len, const char *source, pairs_attach_list *out,
                       ff_error *err);

/*
 * Reads dir/PAIRS_ATTACH_FILE with pairs_attach_parse. A missing file is
 * no error: *out is then an empty list. Other read failures are FF_E_IO.
 */
int pairs_attach_load(const char *dir, pairs_attach_list *out, ff_error *err);

/*
 * The manifest of l as JSON text (new, NUL-terminated, caller frees;
 * *len excludes the NUL), entries in list order; what pairs_attach_parse
 * reads back. Fails with FF_E_USAGE on an entry with an empty name, a name
 * with a path separator or the same pair twice, and FF_E_NOMEM.
 */
int pairs_attach_format(const pairs_attach_list *l, char **text, size_t *len, ff_error *err);

/* Frees what l holds and zeroes it (NULL is fine). */
void pairs_attach_free(pairs_attach_list *l);

#endif
