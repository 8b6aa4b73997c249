/*
 * corpus/source_priv.h: the inside of an open corpus, shared by
 * corpus/source.c (folders, 2013 archives and installs) and
 * corpus/source_zzz.c (the Remaster's main.zzz). Not for other modules.
 */
#ifndef FF8_CORPUS_SOURCE_PRIV_H
#define FF8_CORPUS_SOURCE_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "corpus/archive.h"
#include "corpus/source.h"
#include "corpus/zzz.h"

struct corpus {
    corpus_kind kind;
    char *desc;
    size_t n;
    char **names;     /* owned: file names, or the archive entries' unique names */
    char **paths;     /* folder / file: owned */
    arc *a;           /* archive / install */
    zzz *z;           /* a Remaster archive: a's FI, FL and FS are ranges of it */
    uint8_t *renamed; /* archive: 1 when names[i] is not the FL base name */
    size_t nrenamed;
    char *lang_req; /* the language asked for, NULL: the default */
    char *lang;     /* the language folder used ("lang-en"), NULL: none */
    /* provenance (corpus_origin) */
    const char *release;
    char *origin_archive, *origin_entry;
    uint64_t origin_offset;
};

/* printf into a new string (NULL when out of memory). */
char *src_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* How many entries of a are .dat files. */
size_t src_archive_dats(const arc *a);
/*
 * Sets c's provenance: release ("2013", "remaster", "folder", "file"),
 * archive path, zzz entry and its offset (entry NULL: none), language.
 */
int src_set_origin(corpus *c, const char *release, const char *archive, const char *entry,
                   uint64_t offset, const char *lang, ff_error *err);

/*
 * Opens the battle archive of the zzz at zpath: the entry inner when given
 * (an .fs, .fi or .fl name; its siblings beside it), else the one of
 * c->lang_req (zzz_pick_battle). root: zpath was found in an install root.
 */
int src_open_zzz(corpus *c, const char *zpath, const char *inner, int root, ff_error *err);
/*
 * For a path that does not exist as such: when a component ends in ".zzz"
 * (any case) and is a regular file, writes that file's path into zpath (n
 * bytes; not written when n is 0) and returns the offset of the rest
 * (the entry name, after one separator); 0 otherwise.
 */
size_t src_zzz_split(const char *path, char *zpath, size_t n);
/* src_open_zzz for a path through a zzz ("/g/main.zzz/data/lang-en/battle.fs"). */
int src_open_zzz_path(corpus *c, const char *path, ff_error *err);

#endif
