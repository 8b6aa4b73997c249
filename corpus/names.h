/*
 * corpus/names.h: a name of its own for every entry of an archive, inside
 * the corpus library (source.c). Two entries may share a base name in
 * different FL folders (c:\a\c0m001.dat, c:\b\C0M001.DAT); one would
 * overwrite the other when extracted, and traces and reports name entries
 * by name. The first entry (FL order) keeps its base name; each later one
 * with the same base name, ignoring ASCII case, becomes "stem~2.ext",
 * "stem~3.ext", ...: the first such name that no entry of the archive has.
 *
 * Nothing here prints or exits.
 */
#ifndef FF8_CORPUS_NAMES_H
#define FF8_CORPUS_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "corpus/archive.h"

/*
 * Names every entry of a from names_match_name(path, lang): *names
 * (arc_count entries, each malloc'd, the array too), *renamed (one byte per entry, 1 when its name is not its base
 * name) and *nrenamed. path is used in errors. Returns -1 (FF_E_NOMEM) with
 * nothing allocated when memory runs out. O(n) expected time.
 */
int names_unique(const arc *a, const char *path, const char *lang, char ***names,
                 uint8_t **renamed, size_t *nrenamed, ff_error *err);

/*
 * The name an entry is matched by: its base name (path_base) without a
 * "_<lang>" suffix before the extension when lang ("en", NULL: none) is
 * given, as the Remaster's FL paths carry (c0m001_en.dat is c0m001.dat).
 * Writes it into out (n bytes); returns 1 when a suffix was taken off.
 */
int names_match_name(const char *path, const char *lang, char *out, size_t n);

#endif
