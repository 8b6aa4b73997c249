/*
 * corpus/source.c: resolving a --corpus PATH (folder of .dat, archive,
 * install root, single file) into a list of named entries, and loading one
 * entry at a time.
 *
 * Must not print or exit, nor read any entry's bytes while listing.
 */
#include "corpus/source.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/grow.h"
#include "corpus/archive.h"
#include "common/file.h"
#include "common/path.h"
#include "corpus/names.h"
#include "corpus/source_priv.h"
#include "corpus/zzz.h"


/* A list of strings, for folder listings. */
typedef struct strlist {
    char **s;
    size_t n, cap;
} strlist;

static void strlist_free(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->s[i]);
    free(l->s);
    memset(l, 0, sizeof *l);
}

static int strlist_add(strlist *l, const char *s)
{
    if (GROW(l->s, l->cap, l->n + 1, 16) < 0) return -1;
    size_t k = strlen(s) + 1;
    char *d = malloc(k);
    if (!d) return -1;
    memcpy(d, s, k);
    l->s[l->n++] = d;
    return 0;
}

static int cmp_names(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int c = strcasecmp(x, y);
    return c ? c : strcmp(x, y);
}

char *src_fmt(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    char *s = malloc((size_t)n + 1);
    if (!s) return NULL;
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

int corpus_name_is_dat(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && !strcasecmp(name + n - 4, ".dat");
}

static int is_type(const char *path, mode_t type)
{
    struct stat st;
    return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

/* Which names a folder listing keeps: want exactly or as a prefix (any case), or .dat files. */
typedef struct {
    const char *want; /* NULL: names ending in .dat */
    int prefix;
} name_filter;

static int name_matches(const name_filter *f, const char *nm)
{
    if (!strcmp(nm, ".") || !strcmp(nm, "..")) return 0;
    if (!f->want) return corpus_name_is_dat(nm);
    size_t wn = strlen(f->want);
    return f->prefix ? !strncasecmp(nm, f->want, wn) && nm[wn] : !strcasecmp(nm, f->want);
}

/* Lists dir's entries that pass the filter and whose type is `type`; sorted. */
static int list_dir(const char *dir, const name_filter *f, mode_t type, strlist *out,
                    ff_error *err)
{
    DIR *d = opendir(dir);
    if (!d) return ff_error_set(err, FF_E_IO, dir, -1, "cannot list folder: %s", strerror(errno));
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d)) != NULL) {
        if (!name_matches(f, de->d_name)) continue;
        char *full = path_join_new(dir, de->d_name);
        if (!full || (is_type(full, type) && strlist_add(out, de->d_name) < 0))
            rc = ff_error_set(err, FF_E_NOMEM, dir, -1, "no memory while listing");
        free(full);
    }
    closedir(d);
    if (rc < 0) {
        strlist_free(out);
        return -1;
    }
    if (out->n > 1) qsort(out->s, out->n, sizeof *out->s, cmp_names);
    return 0;
}

/*
 * Lists dir's entries whose name matches (ignoring case) want exactly, or
 * starts with want when prefix is set, and whose type is `type`; sorted.
 */
static int list_ci(const char *dir, const char *want, int prefix, mode_t type, strlist *out,
                   ff_error *err)
{
    name_filter f = {want, prefix};
    return list_dir(dir, &f, type, out, err);
}

/* Path of dir's entry named name in any case (exact case first), or NULL. */
static char *find_ci(const char *dir, const char *name, mode_t type)
{
    strlist l = {0};
    if (list_ci(dir, name, 0, type, &l, NULL) < 0 || l.n == 0) {
        strlist_free(&l);
        return NULL;
    }
    size_t pick = 0;
    for (size_t i = 0; i < l.n; i++)
        if (!strcmp(l.s[i], name)) pick = i;
    char *full = path_join_new(dir, l.s[pick]);
    strlist_free(&l);
    return full;
}

/* The folder of a file system path ('/' only: this is no base name but a place to list). */
static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash) return src_fmt(".");
    if (slash == path) return src_fmt("/");
    return src_fmt("%.*s", (int)(slash - path), path);
}

/* Opens the archive whose .fs/.fi/.fl is `path`, finding the siblings. */
static int open_archive(corpus *c, const char *path, ff_error *err)
{
    const char *slash = strrchr(path, '/'); /* a file system path: '/' only */
    const char *base = slash ? slash + 1 : path;
    size_t stem = strlen(base) - 3; /* callers checked the 3-char extension */
    char *dir = dir_of(path);
    char *names[3] = {NULL, NULL, NULL}, *paths[3] = {NULL, NULL, NULL};
    static const char *const ext[3] = {".fi", ".fl", ".fs"};
    int rc = -1;
    if (!dir) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    for (int k = 0; k < 3; k++) {
        names[k] = src_fmt("%.*s%s", (int)stem, base, ext[k]);
        if (!names[k]) {
            ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
            goto done;
        }
        paths[k] = find_ci(dir, names[k], S_IFREG);
        if (!paths[k]) {
            char *want = path_join_new(dir, names[k]);
            ff_error_set(err, FF_E_IO, want ? want : names[k], -1,
                         "missing: no %s (in any case) beside %s", names[k], path);
            free(want);
            goto done;
        }
    }
    rc = arc_open(paths[0], paths[1], paths[2], &c->a, err);
    if (rc == 0) c->n = arc_count(c->a);
    if (rc == 0) rc = names_unique(c->a, path, NULL, &c->names, &c->renamed, &c->nrenamed, err);
    if (rc == 0) rc = src_set_origin(c, "2013", path, NULL, 0, NULL, err);
done:
    for (int k = 0; k < 3; k++) {
        free(names[k]);
        free(paths[k]);
    }
    free(dir);
    return rc;
}

size_t src_archive_dats(const arc *a)
{
    size_t k = 0;
    for (size_t i = 0; i < arc_count(a); i++)
        k += corpus_name_is_dat(arc_get(a, i)->base);
    return k;
}

static int describe_archive(corpus *c, const char *path, const char *prefix, ff_error *err)
{
    c->desc =
        src_fmt("%sarchive %s: %zu entries, %zu .dat", prefix, path, c->n, src_archive_dats(c->a));
    return c->desc ? 0 : ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
}

/* Picks want ("en" or "lang-en"; NULL: lang-en) among languages (any case), else the first
 * by name; SIZE_MAX when want was given and is absent. */
static size_t pick_language(const strlist *langs, const char *want)
{
    const char *w = want ? want : "lang-en";
    for (size_t i = 0; i < langs->n; i++)
        if (!strcasecmp(langs->s[i], w) || !strcasecmp(langs->s[i] + 5, w)) return i;
    return want ? SIZE_MAX : 0;
}

/* Keeps the lang-* folders of data that hold a battle.fs (any case). */
static int usable_languages(const char *data, strlist *usable, ff_error *err)
{
    strlist langs = {0};
    if (list_ci(data, "lang-", 1, S_IFDIR, &langs, err) < 0) return -1;
    int rc = 0;
    for (size_t i = 0; i < langs.n && rc == 0; i++) {
        char *ld = path_join_new(data, langs.s[i]);
        char *f = ld ? find_ci(ld, "battle.fs", S_IFREG) : NULL;
        if (f && strlist_add(usable, langs.s[i]) < 0)
            rc = ff_error_set(err, FF_E_NOMEM, data, -1, "no memory");
        free(f);
        free(ld);
    }
    strlist_free(&langs);
    return rc;
}

/* "a, b, c" from a list (NULL when out of memory). */
static char *join_list(const strlist *l)
{
    size_t len = 1;
    for (size_t i = 0; i < l->n; i++)
        len += strlen(l->s[i]) + 2;
    char *all = calloc(1, len);
    for (size_t i = 0; all && i < l->n; i++) {
        if (i) strcat(all, ", ");
        strcat(all, l->s[i]);
    }
    return all;
}

/*
 * Install root: Data/lang-XX/battle.fs, else Data/battle.fs (components in
 * any case), or root is the Data folder itself holding lang-XX/battle.fs.
 * Returns 1 when root is none of these, 0 or -1 otherwise.
 */
static int open_install(corpus *c, const char *root, ff_error *err)
{
    char *data = find_ci(root, "data", S_IFDIR);
    if (!data) {
        /* root may be the Data folder itself. */
        strlist probe = {0};
        int here = usable_languages(root, &probe, NULL) == 0 && probe.n > 0;
        strlist_free(&probe);
        if (!here) return 1;
        data = src_fmt("%s", root);
        if (!data) return ff_error_set(err, FF_E_NOMEM, root, -1, "no memory");
    }
    strlist usable = {0};
    char *fs = NULL, *what = NULL, *all = NULL, *lang_dir = NULL;
    int rc = -1;
    if (usable_languages(data, &usable, err) < 0) goto done;
    if (usable.n) {
        size_t k = pick_language(&usable, c->lang_req);
        if (k == SIZE_MAX) {
            all = join_list(&usable);
            ff_error_set(err, FF_E_USAGE, root, -1, "no battle archive for %s (languages: %s)",
                         c->lang_req, all ? all : "?");
            goto done;
        }
        free(c->lang);
        c->lang = src_fmt("%s", usable.s[k]);
        lang_dir = path_join_new(data, usable.s[k]);
        fs = lang_dir ? find_ci(lang_dir, "battle.fs", S_IFREG) : NULL;
        all = join_list(&usable);
        what = all && fs ? src_fmt("%s/%s/%s (languages: %s; using %s)", path_base(data),
                                     usable.s[k], path_base(fs), all, usable.s[k])
                         : NULL;
    } else {
        fs = find_ci(data, "battle.fs", S_IFREG);
        if (!fs) {
            rc = 1;
            goto done;
        }
        what = src_fmt("%s/%s (no language folder)", path_base(data), path_base(fs));
    }
    if (!fs || !what) {
        ff_error_set(err, FF_E_NOMEM, root, -1, "no memory");
        goto done;
    }
    if (open_archive(c, fs, err) < 0) goto done;
    c->kind = CORPUS_INSTALL;
    c->desc = src_fmt("install root %s: archive %s: %zu entries, %zu .dat", root, what, c->n,
                        src_archive_dats(c->a));
    rc = c->desc ? 0 : ff_error_set(err, FF_E_NOMEM, root, -1, "no memory");
done:
    strlist_free(&usable);
    free(fs);
    free(what);
    free(all);
    free(lang_dir);
    free(data);
    return rc;
}

static int take_list(corpus *c, const char *dir, strlist *l, ff_error *err)
{
    c->names = l->s;
    c->n = l->n;
    l->s = NULL;
    l->n = l->cap = 0;
    c->paths = calloc(c->n ? c->n : 1, sizeof *c->paths);
    if (!c->paths) return ff_error_set(err, FF_E_NOMEM, dir, -1, "no memory");
    for (size_t i = 0; i < c->n; i++) {
        c->paths[i] = dir ? path_join_new(dir, c->names[i]) : src_fmt("%s", c->names[i]);
        if (!c->paths[i]) return ff_error_set(err, FF_E_NOMEM, dir, -1, "no memory");
    }
    return 0;
}

/* Lists the regular files of dir whose name ends in .dat (any case), sorted. */
static int list_dats(const char *dir, strlist *out, ff_error *err)
{
    name_filter f = {NULL, 0};
    return list_dir(dir, &f, S_IFREG, out, err);
}

static int open_dir(corpus *c, const char *path, ff_error *err)
{
    int r = open_install(c, path, err);
    if (r <= 0) return r;
    char *zzz = find_ci(path, "main.zzz", S_IFREG);
    if (zzz) {
        int rc = src_open_zzz(c, zzz, NULL, 1, err);
        free(zzz);
        return rc;
    }
    char *fs = find_ci(path, "battle.fs", S_IFREG);
    if (fs) {
        c->kind = CORPUS_ARCHIVE;
        int rc = open_archive(c, fs, err);
        if (rc == 0) rc = describe_archive(c, fs, "", err);
        free(fs);
        return rc;
    }
    strlist l = {0};
    if (list_dats(path, &l, err) < 0) return -1;
    if (l.n == 0)
        return ff_error_set(err, FF_E_USAGE, path, -1,
                            "no .dat files, battle.fs or Data/lang-*/battle.fs in this folder");
    c->kind = CORPUS_FOLDER;
    int rc = take_list(c, path, &l, err);
    if (rc == 0) {
        c->desc = src_fmt("folder %s: %zu .dat files", path, c->n);
        if (!c->desc) rc = ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    }
    return rc;
}

static int has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), k = strlen(ext);
    const char *base = path_base(path);
    return strlen(base) > k && n >= k && !strcasecmp(path + n - k, ext);
}

static int open_file(corpus *c, const char *path, ff_error *err)
{
    if (has_ext(path, ".zzz")) return src_open_zzz(c, path, NULL, 0, err);
    if (has_ext(path, ".fs") || has_ext(path, ".fi") || has_ext(path, ".fl")) {
        c->kind = CORPUS_ARCHIVE;
        if (open_archive(c, path, err) < 0) return -1;
        return describe_archive(c, path, "", err);
    }
    if (!corpus_name_is_dat(path))
        return ff_error_set(err, FF_E_USAGE, path, -1,
                            "not a .dat file, an archive (.fs/.fi/.fl) or a folder");
    strlist l = {0};
    if (strlist_add(&l, path_base(path)) < 0)
        return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    c->kind = CORPUS_FILE;
    if (take_list(c, NULL, &l, err) < 0) return -1;
    free(c->paths[0]);
    c->paths[0] = src_fmt("%s", path);
    c->desc = src_fmt("file %s", path);
    if (!c->paths[0] || !c->desc) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    return 0;
}

int corpus_open(const char *path, corpus **out, ff_error *err)
{
    return corpus_open_lang(path, NULL, out, err);
}

int corpus_open_lang(const char *path, const char *lang, corpus **out, ff_error *err)
{
    struct stat st;
    if (!path || !path[0]) return ff_error_set(err, FF_E_USAGE, NULL, -1, "no corpus path given");
    int found = stat(path, &st) == 0;
    if (!found && !src_zzz_split(path, NULL, 0))
        return ff_error_set(err, FF_E_IO, path, -1, "cannot open corpus: %s", strerror(errno));
    corpus *c = calloc(1, sizeof *c);
    if (!c) return ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    c->lang_req = lang && *lang ? src_fmt("%s", lang) : NULL;
    int rc;
    if (lang && *lang && !c->lang_req)
        rc = ff_error_set(err, FF_E_NOMEM, path, -1, "no memory");
    else if (!found)
        rc = src_open_zzz_path(c, path, err);
    else if (S_ISDIR(st.st_mode))
        rc = open_dir(c, path, err);
    else if (S_ISREG(st.st_mode))
        rc = open_file(c, path, err);
    else
        rc = ff_error_set(err, FF_E_USAGE, path, -1, "neither a folder nor a regular file");
    if (rc < 0) {
        corpus_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

void corpus_close(corpus *c)
{
    if (!c) return;
    for (size_t i = 0; c->names && i < c->n; i++)
        free(c->names[i]);
    for (size_t i = 0; c->paths && i < c->n; i++)
        free(c->paths[i]);
    free(c->names);
    free(c->paths);
    free(c->renamed);
    arc_close(c->a);
    zzz_close(c->z);
    free(c->lang_req);
    free(c->lang);
    free(c->origin_archive);
    free(c->origin_entry);
    free(c->desc);
    free(c);
}

corpus_kind corpus_get_kind(const corpus *c)
{
    return c->kind;
}

const char *corpus_kind_name(corpus_kind kind)
{
    static const char *const names[] = {
#define CORPUS_KIND_NAME(name, text) text,
        CORPUS_KIND_MAP(CORPUS_KIND_NAME)
#undef CORPUS_KIND_NAME
    };
    return (unsigned)kind < CORPUS__KIND_COUNT ? names[kind] : "?";
}

const char *corpus_describe(const corpus *c)
{
    return c->desc ? c->desc : "";
}

size_t corpus_count(const corpus *c)
{
    return c->n;
}

const char *corpus_name(const corpus *c, size_t i)
{
    return i < c->n ? c->names[i] : NULL;
}

int corpus_renamed(const corpus *c, size_t i)
{
    return i < c->n && c->renamed && c->renamed[i];
}

size_t corpus_renamed_count(const corpus *c)
{
    return c->nrenamed;
}

const char *corpus_path(const corpus *c, size_t i)
{
    if (i >= c->n) return NULL;
    return c->a ? arc_get(c->a, i)->path : c->paths[i];
}

int corpus_is_dat(const corpus *c, size_t i)
{
    const char *n = corpus_name(c, i);
    return n && corpus_name_is_dat(n);
}

int corpus_find(const corpus *c, const char *name, size_t *index)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcasecmp(c->names[i], name) || !strcasecmp(corpus_path(c, i), name)) {
            *index = i;
            return 0;
        }
    return -1;
}

int corpus_load(const corpus *c, size_t i, uint8_t **data, size_t *size, ff_error *err)
{
    if (i >= c->n)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "corpus entry %zu of %zu does not exist", i,
                            c->n);
    if (c->a) return arc_read(c->a, i, data, size, err);
    return file_read(c->paths[i], 0, CORPUS_ENTRY_MAX, data, size, err);
}

int corpus_entry_info(const corpus *c, size_t i, uint64_t *size, const char **comp, ff_error *err)
{
    if (i >= c->n)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "corpus entry %zu of %zu does not exist", i,
                            c->n);
    if (c->a) {
        const arc_entry *e = arc_get(c->a, i);
        *size = e->size;
        *comp = arc_comp_name(e->comp);
        if (arc_check(c->a, i, err) < 0) return -1;
        arc_framing fr = ARC_FRAMING_NONE;
        if (arc_framing_of(c->a, i, &fr, NULL) == 0 && fr == ARC_FRAMING_ZL4) *comp = "lz4 4ZL_";
        return 0;
    }
    *comp = NULL;
    int fd = file_open_regular(c->paths[i], 0, CORPUS_ENTRY_MAX, size, err);
    if (fd < 0) return -1;
    close(fd);
    return 0;
}
