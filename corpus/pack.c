/*
 * corpus/pack.c: a corpus packed into a 2013 or a Remaster install's shape
 * (pack.h) with the archive and zzz writers.
 *
 * Must not print or exit; holds every packed entry in memory at once (test
 * and bench corpora are small).
 */
#include "corpus/pack.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "corpus/archive.h"
#include "corpus/fileio.h"
#include "corpus/zzz.h"

int pack_layout_from_name(const char *text)
{
    static const char *const names[] = {
#define PACK_LAYOUT_NAME(name, t) t,
        PACK_LAYOUT_MAP(PACK_LAYOUT_NAME)
#undef PACK_LAYOUT_NAME
    };
    for (int i = 0; i < PACK__LAYOUT_COUNT; i++)
        if (!strcmp(text, names[i])) return i;
    return -1;
}

/* The FL path of a file: c:\ff8\data\eng\battle\NAME or, Remaster, ...\x\battle\NAME[_XX]. */
static char *fl_path(const char *name, pack_layout layout, const char *lang)
{
    char buf[512];
    if (layout == PACK_2013) {
        snprintf(buf, sizeof buf, "c:\\ff8\\data\\eng\\battle\\%s", name);
    } else {
        const char *dot = strrchr(name, '.');
        int stem = dot ? (int)(dot - name) : (int)strlen(name);
        int suffix = name[0] == 'd' || name[0] == 'D'; /* the character files */
        snprintf(buf, sizeof buf, "c:\\ff8\\data\\x\\battle\\%.*s%s%s%s", stem, name,
                 suffix ? "_" : "", suffix ? lang : "", dot ? dot : "");
    }
    size_t k = strlen(buf) + 1;
    char *s = malloc(k);
    if (s) memcpy(s, buf, k);
    return s;
}

typedef struct packed {
    arc_input *in;
    uint8_t **data;
    size_t n;
} packed;

static void packed_free(packed *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->data[i]);
        free((char *)p->in[i].path);
    }
    free(p->in);
    free(p->data);
}

static int load_all(const corpus *src, pack_layout layout, const char *lang, packed *p,
                    ff_error *err)
{
    size_t n = corpus_count(src);
    p->in = calloc(n ? n : 1, sizeof *p->in);
    p->data = calloc(n ? n : 1, sizeof *p->data);
    if (!p->in || !p->data) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory");
    uint32_t comp = layout == PACK_2013 ? ARC_LZSS : ARC_LZ4 | ARC_WRITE_4ZL;
    for (size_t i = 0; i < n; i++) {
        if (!corpus_is_dat(src, i)) continue;
        size_t size, k = p->n;
        if (corpus_load(src, i, &p->data[k], &size, err) < 0) return -1;
        char *path = fl_path(corpus_name(src, i), layout, lang);
        p->in[k] = (arc_input){path, p->data[k], size, comp};
        p->n++;
        if (!path) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "no memory");
    }
    return 0;
}

static int write_2013(const arc_image *img, const char *out, const char *lang, ff_error *err)
{
    char dir[4096], fi[4200], fl[4200], fs[4200];
    if (path_format(dir, sizeof dir, err, "%s/Data/lang-%s", out, lang) < 0 ||
        path_format(fi, sizeof fi, err, "%s/battle.fi", dir) < 0 ||
        path_format(fl, sizeof fl, err, "%s/battle.fl", dir) < 0 ||
        path_format(fs, sizeof fs, err, "%s/battle.fs", dir) < 0 || fio_mkdirs(dir, err) < 0)
        return -1;
    return arc_write_image(img, fi, fl, fs, err);
}

static int write_remaster(const arc_image *img, const char *out, const char *lang, uint64_t pad,
                          ff_error *err)
{
    char zpath[4200], names[3][64];
    if (pad > UINT32_MAX) return ff_error_set(err, FF_E_USAGE, out, -1, "padding above 4 GiB");
    if (fio_mkdirs(out, err) < 0 || path_format(zpath, sizeof zpath, err, "%s/main.zzz", out) < 0)
        return -1;
    static const char *const ext[3] = {"fi", "fl", "fs"};
    for (int k = 0; k < 3; k++)
        snprintf(names[k], sizeof names[k], "data\\lang-%.8s\\battle.%s", lang, ext[k]);
    zzz_input in[4] = {{"data\\music\\dmusic\\pad.sgt", NULL, (uint32_t)pad},
                       {names[0], img->fi, (uint32_t)img->fi_size},
                       {names[1], img->fl, (uint32_t)img->fl_size},
                       {names[2], img->fs, (uint32_t)img->fs_size}};
    return zzz_write(zpath, in, 4, err);
}

int corpus_pack(const corpus *src, const char *out, pack_layout layout, const char *lang,
                uint64_t pad, ff_error *err)
{
    packed p = {0};
    arc_image img = {0};
    if (!lang) lang = "en";
    int rc = load_all(src, layout, lang, &p, err);
    if (rc == 0) rc = arc_build(p.in, p.n, &img, err);
    if (rc == 0)
        rc = layout == PACK_2013 ? write_2013(&img, out, lang, err)
                                 : write_remaster(&img, out, lang, pad, err);
    arc_image_free(&img);
    packed_free(&p);
    return rc;
}
