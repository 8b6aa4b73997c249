/*
 * tests/fuzz/fz_zzz.c: body of fuzz_zzz (see fz.h): the zzz table reader
 * over the whole input as a zzz file, the battle archive picked from it,
 * and that archive's index and entries read from the input's slices. Never
 * prints or aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/archive.h"
#include "corpus/zzz.h"
#include "tests/fuzz/fz.h"

#define ZZZ_NAME "fuzz.zzz"

/* What zzz.h promises of every entry and problem. */
static int check_table(const zzz *z, size_t size, fz_report *r)
{
    for (size_t i = 0; i < zzz_count(z); i++) {
        const zzz_entry *e = zzz_get(z, i);
        if (e->bad) continue; /* kept as read: its name may hold a NUL */
        size_t len = e->name ? strlen(e->name) : 0;
        if (len == 0 || len > ZZZ_NAME_MAX)
            return fz_broken(r, "entry %zu: name length %zu", i, len);
        if (e->at + 4 + len + 12 > size) return fz_broken(r, "entry %zu: record past the file", i);
        if (e->offset > size || e->size > size - e->offset)
            return fz_broken(r, "entry %zu: a good entry runs past the file", i);
        for (size_t j = 0; j < i; j++)
            if (!zzz_get(z, j)->bad && zzz_name_eq(zzz_get(z, j)->name, e->name))
                return fz_broken(r, "entries %zu and %zu: two good entries share a name", j, i);
    }
    for (size_t k = 0; zzz_problem(z, k); k++)
        if (fz_rejected(r, zzz_problem(z, k), ZZZ_NAME, "zzz problem") < 0) return -1;
    return 0;
}

/* The battle archive's three entries as slices of the input: index and every entry. */
static int read_battle(const zzz *z, const uint8_t *data, size_t fs, fz_report *r)
{
    const zzz_entry *e = zzz_get(z, fs);
    size_t n = strlen(e->name), idx[3];
    char sib[ZZZ_NAME_MAX + 1];
    static const char *const ext[3] = {"fi", "fl", "fs"};
    for (int k = 0; k < 3; k++) {
        snprintf(sib, sizeof sib, "%.*s%s", (int)(n - 2), e->name, ext[k]);
        if (zzz_find(z, sib, &idx[k]) < 0) return 0;
    }
    const zzz_entry *fi = zzz_get(z, idx[0]), *fl = zzz_get(z, idx[1]), *fse = zzz_get(z, idx[2]);
    arc_entry *ent = NULL;
    size_t count = 0;
    ff_error err;
    if (arc_index_parse(data + fi->offset, fi->size, "fi", data + fl->offset, fl->size, "fl", &ent,
                        &count, &err) < 0)
        return fz_rejected(r, &err, NULL, "battle index");
    for (size_t i = 0; i < count && i < FZ_ARC_ENTRIES; i++) {
        uint8_t *out = NULL;
        size_t got = 0;
        if (arc_extract_mem(ent, count, i, data + fse->offset, fse->size, "fi", "fs", &out, &got,
                            &err) < 0) {
            if (fz_rejected(r, &err, NULL, "battle entry") < 0) break;
            continue;
        }
        if (got != ent[i].size)
            fz_broken(r, "battle entry %zu: %zu bytes, FI says %u", i, got, ent[i].size);
        free(out);
        r->accepted++;
    }
    arc_entries_free(ent, count);
    return r->broken[0] ? -1 : 0;
}

int fz_zzz_one(const uint8_t *data, size_t size, fz_report *r)
{
    fz_report_init(r);
    zzz *z = NULL;
    ff_error err;
    if (zzz_open_mem(data, size, ZZZ_NAME, &z, &err) < 0)
        return fz_rejected(r, &err, NULL, "zzz_open_mem");
    r->accepted++;
    int rc = check_table(z, size, r);
    char lang[64], langs[512];
    size_t fs;
    if (rc == 0 && zzz_pick_battle(z, NULL, &fs, lang, sizeof lang, langs, sizeof langs, &err) == 0)
        rc = read_battle(z, data, fs, r);
    else if (rc == 0 && err.kind != FF_E_USAGE) /* a refused battle entry: its own problem */
        rc = fz_rejected(r, &err, ZZZ_NAME, "zzz_pick_battle");
    arc_range range;
    char name[FF_ERR_FILE_MAX];
    if (rc == 0 && zzz_count(z) && zzz_range(z, 0, &range, name, sizeof name, &err) == 0)
        rc = fz_broken(r, "a table in memory handed out a file range");
    zzz_close(z);
    return rc;
}
