/*
 * corpus/source_zzz.c: a corpus read from the Remaster's main.zzz (an
 * install root holding it, the .zzz file, or a battle.fs path through it),
 * and every corpus's provenance: which release, archive, zzz entry and
 * offset its files come from, so that results of two installs never mix.
 *
 * Must not load the zzz (only its table and the entries asked for are
 * read), print or exit.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/path.h"
#include "corpus/names.h"
#include "corpus/source_priv.h"

int src_set_origin(corpus *c, const char *release, const char *archive, const char *entry,
                   uint64_t offset, const char *lang, ff_error *err)
{
    c->release = release;
    free(c->origin_archive);
    free(c->origin_entry);
    c->origin_archive = archive ? src_fmt("%s", archive) : NULL;
    c->origin_entry = entry ? src_fmt("%s", entry) : NULL;
    c->origin_offset = offset;
    if (lang && !c->lang) c->lang = src_fmt("%s", lang);
    if ((archive && !c->origin_archive) || (entry && !c->origin_entry) || (lang && !c->lang))
        return ff_error_set(err, FF_E_NOMEM, archive, -1, "no memory");
    return 0;
}

size_t src_zzz_split(const char *path, char *zpath, size_t n)
{
    for (const char *p = path; (p = strchr(p, '.')) != NULL; p++) {
        if (strncasecmp(p, ".zzz", 4) || (p[4] != '/' && p[4] != '\\' && p[4] != ':')) continue;
        size_t len = (size_t)(p + 4 - path);
        char *head = malloc(len + 1);
        if (!head) return 0;
        memcpy(head, path, len);
        head[len] = '\0';
        struct stat st;
        int ok = stat(head, &st) == 0 && S_ISREG(st.st_mode) && p[5];
        if (ok && n) snprintf(zpath, n, "%s", head);
        free(head);
        if (ok) return len + 1;
    }
    return 0;
}

/* The FS entry named by inner (an .fs, .fi or .fl name), or -1 with an error. */
static int inner_fs(const zzz *z, const char *inner, size_t *fs, ff_error *err)
{
    size_t n = strlen(inner);
    char *name = malloc(n + 1);
    if (!name) return ff_error_set(err, FF_E_NOMEM, zzz_name(z), -1, "no memory");
    memcpy(name, inner, n + 1);
    if (n > 3 && (zzz_name_eq(name + n - 3, ".fi") || zzz_name_eq(name + n - 3, ".fl")))
        name[n - 1] = name[n - 1] == 'I' || name[n - 1] == 'L' ? 'S' : 's';
    int rc = 0;
    if (n < 4 || !zzz_name_eq(name + n - 3, ".fs"))
        rc = ff_error_set(err, FF_E_USAGE, zzz_name(z), -1,
                          "%s is not an archive (.fs, .fi or .fl) inside it", inner);
    else if (zzz_find(z, name, fs) < 0)
        rc = ff_error_set(err, FF_E_IO, zzz_name(z), -1, "no good entry %s in its table", name);
    free(name);
    return rc;
}

/* The language folder in an entry name ("data\lang-fr\battle.fs" -> "lang-fr"), or "". */
static void lang_of(const char *name, char *out, size_t n)
{
    const char *l = strstr(name, "lang-");
    if (!l) l = strstr(name, "LANG-");
    size_t k = l ? strcspn(l, "/\\") : 0;
    snprintf(out, n, "%.*s", (int)k, l ? l : "");
}

int src_open_zzz(corpus *c, const char *zpath, const char *inner, int root, ff_error *err)
{
    char lang[64] = "", langs[512] = "";
    size_t fs = 0;
    if (zzz_open(zpath, &c->z, err) < 0) return -1;
    int rc = inner ? inner_fs(c->z, inner, &fs, err)
                   : zzz_pick_battle(c->z, c->lang_req, &fs, lang, sizeof lang, langs, sizeof langs,
                                     err);
    if (rc < 0) return -1;
    const zzz_entry *e = zzz_get(c->z, fs);
    if (inner) lang_of(e->name, lang, sizeof lang);
    if (zzz_open_archive(c->z, fs, &c->a, err) < 0) return -1;
    c->n = arc_count(c->a);
    const char *code = !strncasecmp(lang, "lang-", 5) ? lang + 5 : NULL;
    if (names_unique(c->a, zpath, code && *code ? code : NULL, &c->names, &c->renamed, &c->nrenamed,
                     err) < 0)
        return -1;
    if (src_set_origin(c, "remaster", zpath, e->name, e->offset, *lang ? lang : NULL, err) < 0)
        return -1;
    c->kind = root ? CORPUS_INSTALL : CORPUS_ARCHIVE;
    c->desc =
        src_fmt("%sremaster %s: %s at offset %llu (%u bytes; languages: %s; using %s): %zu "
                "entries, %zu .dat%s",
                root ? "install root: " : "", zpath, e->name, (unsigned long long)e->offset,
                e->size, *langs ? langs : lang, *lang ? lang : "-", c->n, src_archive_dats(c->a),
                zzz_problem_count(c->z) ? " (its table has problems: see the list)" : "");
    return c->desc ? 0 : ff_error_set(err, FF_E_NOMEM, zpath, -1, "no memory");
}

int src_open_zzz_path(corpus *c, const char *path, ff_error *err)
{
    size_t n = strlen(path) + 1;
    char *zpath = malloc(n);
    if (!zpath) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    size_t at = src_zzz_split(path, zpath, n);
    int rc = at ? src_open_zzz(c, zpath, path + at, 0, err)
                : ff_error_set(err, FF_E_IO, path, -1, "cannot open corpus: no such file");
    free(zpath);
    return rc;
}

/* ---- the public side (source.h) ---- */

corpus_origin corpus_get_origin(const corpus *c)
{
    corpus_origin o = {c->release, c->origin_archive, c->origin_entry, c->origin_offset, c->lang};
    if (!o.release) o.release = c->kind == CORPUS_FILE ? "file" : "folder";
    return o;
}

int corpus_provenance(const corpus *c, size_t i, char *buf, size_t n)
{
    if (i >= c->n) return -1;
    corpus_origin o = corpus_get_origin(c);
    if (!c->a) {
        snprintf(buf, n, "%s %s", o.release, c->paths[i]);
        return 0;
    }
    const arc_entry *e = arc_get(c->a, i);
    if (o.zzz_entry)
        snprintf(buf, n, "%s %s entry %s (offset %llu) file %s (offset %u, at %llu in the zzz)",
                 o.release, o.archive, o.zzz_entry, (unsigned long long)o.zzz_offset, e->path,
                 e->offset, (unsigned long long)(o.zzz_offset + e->offset));
    else
        snprintf(buf, n, "%s %s file %s (offset %u)", o.release, o.archive ? o.archive : "?",
                 e->path, e->offset);
    return 0;
}

size_t corpus_problem_count(const corpus *c)
{
    return c->z ? zzz_problem_count(c->z) : 0;
}

const ff_error *corpus_problem(const corpus *c, size_t k)
{
    return c->z ? zzz_problem(c->z, k) : NULL;
}
