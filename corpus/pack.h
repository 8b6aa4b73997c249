/*
 * corpus/pack.h: a corpus's model files packed into the shape of an
 * install, for tests, fixtures and the benches (never a game file):
 *   2013      DIR/Data/lang-XX/battle.{fi,fl,fs}, FL paths
 *             c:\ff8\data\eng\battle\NAME, entries LZSS;
 *   remaster  DIR/main.zzz holding data\lang-XX\battle.{fi,fl,fs} after a
 *             padding entry (a hole of pad bytes: a sparse file), FL paths in
 *             the language-neutral x folder (c:\ff8\data\x\battle\NAME, the
 *             character files with a _XX suffix), entries LZ4 in the 4ZL_
 *             framing.
 * The same files in both shapes must give the same results.
 *
 * Nothing here prints or exits.
 */
#ifndef FF8_CORPUS_PACK_H
#define FF8_CORPUS_PACK_H

#include <stdint.h>

#include "common/error.h"
#include "corpus/source.h"

/* layout, name */
#define PACK_LAYOUT_MAP(XX)                                                                        \
    XX(2013, "2013")                                                                               \
    XX(REMASTER, "remaster")

typedef enum pack_layout {
#define PACK_LAYOUT_ENUM(name, text) PACK_##name,
    PACK_LAYOUT_MAP(PACK_LAYOUT_ENUM)
#undef PACK_LAYOUT_ENUM
        PACK__LAYOUT_COUNT
} pack_layout;

/* The layout named text, or -1. */
int pack_layout_from_name(const char *text);

/*
 * Packs every .dat entry of src (loaded one by one) into out (created with
 * its parents) as layout, for language lang ("en"; NULL: "en"), with pad
 * bytes of hole before the battle archive (remaster only, below 4 GiB).
 * An entry that does not load is an error (the packed corpus would differ).
 */
int corpus_pack(const corpus *src, const char *out, pack_layout layout, const char *lang,
                uint64_t pad, ff_error *err);

#endif
