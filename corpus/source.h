/*
 * corpus/source.h: what a --corpus PATH names, as a list of named files:
 *   - a folder of .dat files (listed by name, ignoring case; ".dat" in any
 *     case);
 *   - an archive: a battle.fs path (its .fi and .fl beside it, names matched
 *     ignoring case), or a folder holding battle.fs;
 *   - an install root: Data/lang-XX/battle.fs (path components matched
 *     ignoring case; lang-en preferred among several languages, otherwise
 *     the first by name), or Data/battle.fs; or that Data folder itself;
 *   - a single .dat file;
 *   - the 2019 Remaster: an install root holding main.zzz, a .zzz file, or a
 *     battle.fs path through one ("/g/main.zzz/data/lang-en/battle.fs"):
 *     data\lang-XX\battle.{fs,fi,fl} found in its table (zzz.h), read in
 *     place through the zzz's offsets (nothing extracted or loaded).
 * Listing is separate from loading: corpus_open checks the listing only,
 * corpus_load reads one entry, so a bad entry is that entry's error.
 *
 * Nothing here prints or exits. An open corpus is read-only: corpus_load
 * may run on several threads at once.
 */
#ifndef FF8_CORPUS_SOURCE_H
#define FF8_CORPUS_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "corpus/archive.h"

/* Largest entry loaded, folder file or archive entry (ARC_ENTRY_MAX). */
#define CORPUS_ENTRY_MAX ARC_ENTRY_MAX

/* kind, name: a folder of .dat files, a battle.fs/fi/fl archive, an
 * install root (through its archive), one .dat file. */
#define CORPUS_KIND_MAP(XX)                                                                        \
    XX(FOLDER, "folder")                                                                           \
    XX(ARCHIVE, "archive")                                                                         \
    XX(INSTALL, "install")                                                                         \
    XX(FILE, "file")

typedef enum corpus_kind {
#define CORPUS_KIND_ENUM(name, text) CORPUS_##name,
    CORPUS_KIND_MAP(CORPUS_KIND_ENUM)
#undef CORPUS_KIND_ENUM
        CORPUS__KIND_COUNT
} corpus_kind;

typedef struct corpus corpus;

/*
 * Resolves path and lists its entries, trying in this order for a folder:
 * install root, Data folder, folder holding battle.fs, folder of .dat files.
 * Fails with FF_E_IO when path does not exist or a needed file (.fi, .fl)
 * is missing, FF_E_USAGE when a folder holds neither .dat files nor an
 * archive, or with the archive's index errors. On failure *out is untouched.
 */
int corpus_open(const char *path, corpus **out, ff_error *err);
/*
 * corpus_open with a language: lang ("fr" or "lang-fr"; NULL: lang-en when
 * present, else the first by name) picks the language folder of an
 * install root or the battle archive of a main.zzz. FF_E_USAGE when lang
 * is given and absent (the error lists the languages seen).
 */
int corpus_open_lang(const char *path, const char *lang, corpus **out, ff_error *err);
/* Closes c (NULL is fine); names and descriptions are invalid afterwards. */
void corpus_close(corpus *c);

/* What path turned out to be. */
corpus_kind corpus_get_kind(const corpus *c);
/* "folder", "archive", "install", "file"; "?" when out of range. */
const char *corpus_kind_name(corpus_kind kind);
/*
 * One sentence saying what was found, e.g. "install root /g: archive
 * Data/lang-en/battle.fs (languages: lang-en, lang-fr; using lang-en)".
 */
const char *corpus_describe(const corpus *c);

/* Number of entries: every .dat of a folder, every record of an archive. */
size_t corpus_count(const corpus *c);
/*
 * Entry i's name: the file name for a folder; for an archive, the base name
 * of the FL path, made unique: when an earlier entry has the same base name
 * (ignoring case), "stem~2.ext", "stem~3.ext", ... (the first such name no
 * entry has). No two entries share a name. NULL when i is out of range.
 * Valid until corpus_close.
 */
const char *corpus_name(const corpus *c, size_t i);
/* 1 when entry i's name is not its FL base name (a duplicate, renamed). */
int corpus_renamed(const corpus *c, size_t i);
/* How many entries were renamed. */
size_t corpus_renamed_count(const corpus *c);
/* Entry i's full path (folder: the file's path; archive: the FL line). */
const char *corpus_path(const corpus *c, size_t i);
/* 1 when entry i is a model file candidate (name ends in .dat, any case). */
int corpus_is_dat(const corpus *c, size_t i);
/* Finds an entry by name or full path, ignoring case; -1 when absent. */
int corpus_find(const corpus *c, const char *name, size_t *index);

/*
 * Loads entry i's bytes (decompressed) into a new buffer (*data, caller
 * frees). Errors name the file and offset (see arc_read for archives); an
 * entry above CORPUS_ENTRY_MAX or a file that is not a regular file is
 * refused before anything is read or allocated.
 */
int corpus_load(const corpus *c, size_t i, uint8_t **data, size_t *size, ff_error *err);

/*
 * What entry i is without reading its data: *size (the FI size, or the
 * file's), *comp (the compression's name for an archive entry, else NULL).
 * For LZ4, *comp says "lz4 4ZL_" when the entry has the Remaster's framing
 * (its first 12 bytes are read).
 * Returns 0, or -1 with the error corpus_load would give for what can be
 * told without decompressing (size above the limit, unknown compression,
 * offset past the data file, not a regular file); *size is set either way.
 */
int corpus_entry_info(const corpus *c, size_t i, uint64_t *size, const char **comp, ff_error *err);

/* Where a corpus's files come from (strings valid until corpus_close). */
typedef struct corpus_origin {
    const char *release;   /* "2013" (FI/FL/FS files), "remaster" (main.zzz), "folder", "file" */
    const char *archive;   /* the battle.fs or .zzz path; NULL for a folder or a file */
    const char *zzz_entry; /* the FS entry's name in the zzz; NULL when none */
    uint64_t zzz_offset;   /* that entry's offset in the zzz */
    const char *lang;      /* the language folder used ("lang-en"); NULL when none */
} corpus_origin;

corpus_origin corpus_get_origin(const corpus *c);
/*
 * Entry i's provenance in one line (release, archive, zzz entry and offset,
 * FL path and FS offset) into buf (n bytes). -1 when i is out of range.
 */
int corpus_provenance(const corpus *c, size_t i, char *buf, size_t n);
/*
 * Problems of a Remaster zzz's table (a table gone bad, entries past the
 * end, duplicate names): the corpus opened with what was left. Count, and
 * problem k (NULL beyond the kept ones). 0 for other corpora.
 */
size_t corpus_problem_count(const corpus *c);
const ff_error *corpus_problem(const corpus *c, size_t k);

/* 1 when name ends in ".dat", ignoring case. */
int corpus_name_is_dat(const char *name);

#endif
