/*
 * harness/cli/cmd_corpus.c: `ff8diff corpus synth|list|extract|stats`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "corpus/archive.h"
#include "common/path.h"
#include "corpus/fileio.h"
#include "corpus/manifest.h"
#include "corpus/pack.h"
#include "corpus/pairs.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "harness/cli/cli.h"
#include "harness/run/quirkside.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff corpus synth --out DIR [--preset small|vanilla|cover] [--seed N]\n"
          "       ff8diff corpus list PATH [--lang XX]\n"
          "       ff8diff corpus extract PATH --out DIR [--force] [--lang XX]\n"
          "       ff8diff corpus stats PATH [--lang XX]\n"
          "       ff8diff corpus pack PATH --out DIR --layout 2013|remaster [--lang XX]\n"
          "                           [--pad-mib N]\n"
          "       ff8diff corpus diff A B [--json] [--html FILE] (corpus diff --help)\n\n"
          "PATH is a folder of .dat files, a battle.fs (its .fi and .fl beside it), an\n"
          "install root (Data/lang-*/battle.fs, or the Remaster's main.zzz), a .zzz file\n"
          "or a battle.fs inside one (/g/main.zzz/data/lang-en/battle.fs). --lang picks\n"
          "the language (default en, else the first by name).\n\n"
          "  synth     write a synthetic corpus, deterministic by seed (default preset small,\n"
          "            seed 1); vanilla is sized like the game's monster corpus; cover is\n"
          "            the smallest corpus that runs every path of the decoding routines\n"
          "  list      every entry: name, size, and for archives the compression, read from\n"
          "            the index (nothing is decompressed: `stats` reads every entry)\n"
          "  extract   every entry into DIR (byte for byte, decompressed); a file already in\n"
          "            DIR is not replaced unless --force; entries sharing a base name are\n"
          "            written as NAME~2.dat, NAME~3.dat, ... (a warning says which)\n"
          "  stats     totals: files by kind, animations, frames, scale-path use, max bones,\n"
          "            clips longer than 128 frames\n"
          "  pack      the model files of PATH packed as an install (for tests and\n"
          "            benches): 2013 (Data/lang-XX/battle.*, LZSS) or remaster (main.zzz,\n"
          "            4ZL_ LZ4, x folder and _XX names), with N MiB of sparse padding\n"
          "            before the battle archive in main.zzz\n"
          "  diff      two corpora compared file by file and clip by clip\n\n"
          "list and stats end with the entities a run would drive: each body with each\n"
          "weapon of its character (clip counts body/weapon, POOL MISMATCH when they\n"
          "differ, non-zero attach values from DIR/" PAIRS_ATTACH_FILE "), bodies without a\n"
          "weapon and why, weapons that pair with no body; monsters are only counted.\n",
          out);
}

static int open_corpus(const char *path, const char *lang, corpus **c)
{
    ff_error err;
    if (corpus_open_lang(path, lang, c, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    return 0;
}

/* The problems of a zzz's table (the corpus opened with what was left): one line each. */
static int print_problems(const corpus *c)
{
    size_t n = corpus_problem_count(c), k = 0;
    for (; k < n && corpus_problem(c, k); k++) cli_print_error(corpus_problem(c, k));
    if (n > k) cli_fail("... and %zu more problems in the archive's table", n - k);
    return n ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

static int do_synth(int argc, char **argv)
{
    static const struct option opts[] = {{"out", required_argument, 0, 'o'},
                                         {"preset", required_argument, 0, 'p'},
                                         {"seed", required_argument, 0, 's'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *out = NULL, *preset = "small";
    unsigned long seed = 1;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'p': preset = optarg; break;
        case 's':
            if (cli_parse_uint(optarg, 0, ~0ul, &seed) < 0) {
                cli_fail("corpus synth: --seed takes a number, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    int p = synth_preset_from_name(preset);
    if (!out || p < 0 || optind != argc) {
        cli_fail(p < 0 ? "corpus synth: unknown preset '%s' (small, vanilla, cover)"
                       : "corpus synth: --out DIR is required (%s)",
                 preset);
        return CLI_EXIT_ERROR;
    }
    synth_summary s;
    memset(&s, 0, sizeof s);
    ff_error err;
    if (synth_write(out, (synth_preset)p, seed, &s, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    printf("%s: %u files, %u clips, %llu frames, scale path in %u files / %u clips, bones "
           "%u..%u, %u clips over 128 frames, %u files copying another's animations\n",
           out, s.files, s.clips, (unsigned long long)s.frames, s.scale_files, s.scale_clips,
           s.min_bones, s.max_bones, s.long_clips, s.dup_files);
    return CLI_EXIT_OK;
}

/* "  rot x y z trans x y z" when a pair has attach values, else "". */
static const char *attach_text(const pairs_attach *a, char *buf, size_t n)
{
    static const int16_t zero[3] = {0, 0, 0};
    if (!memcmp(a->rot, zero, sizeof zero) && !memcmp(a->trans, zero, sizeof zero)) return "";
    snprintf(buf, n, "  attach rot %d %d %d trans %d %d %d", a->rot[0], a->rot[1], a->rot[2],
             a->trans[0], a->trans[1], a->trans[2]);
    return buf;
}

/* The entities, short: one line per character entity, monsters counted. */
static void print_entities(const pairs_set *s, const pairs_file *f)
{
    printf("entities:              %zu (%u monsters, %u with a weapon, %u pool mismatches)\n", s->n,
           s->monsters, s->armed, s->pool_mismatches);
    for (size_t i = 0; i < s->n; i++) {
        const pairs_entity *e = &s->e[i];
        if (e->why == PAIRS_NOWEAPON_MONSTER) continue;
        char clips[32], buf[96];
        const char *body = path_base(f[e->body].name);
        if (e->weapon == PAIRS_NONE) {
            snprintf(clips, sizeof clips, "%u", e->body_clips);
            printf("  %-12s  %-12s  %-7s  no weapon: %s\n", body, "-", clips,
                   pairs_noweapon_text(e->why));
            continue;
        }
        snprintf(clips, sizeof clips, "%u/%u", e->body_clips, e->weapon_clips);
        const char *extra = attach_text(&e->attach, buf, sizeof buf);
        int pad = strlen(clips) < 7 && (e->pool_mismatch || *extra) ? 7 - (int)strlen(clips) : 0;
        printf("  %-12s  %-12s  %s%*s%s%s\n", body, path_base(f[e->weapon].name), clips, pad,
               "", e->pool_mismatch ? "  POOL MISMATCH" : "", extra);
    }
    for (size_t i = 0; i < s->nunpaired; i++)
        printf("  unpaired weapon %s: %s\n", path_base(f[s->unpaired[i].weapon].name),
               pairs_unpaired_text(s->unpaired[i].why));
    if (s->attach_unused)
        printf("  %u attach entries name files that form no pair\n", s->attach_unused);
}

/*
 * Pairs files[0..n) with the attach values of a folder corpus and prints
 * them. A bad entities manifest is reported (status 2) and the pairs are
 * shown without it.
 */
static int show_entities(const corpus *c, const char *path, const pairs_file *files, size_t n)
{
    pairs_attach_list att;
    pairs_set s;
    ff_error err;
    int status = CLI_EXIT_OK, have = 0;
    memset(&att, 0, sizeof att);
    if (corpus_get_kind(c) == CORPUS_FOLDER) {
        if (pairs_attach_load(path, &att, &err) < 0) {
            cli_print_error(&err);
            status = CLI_EXIT_ERROR;
        } else {
            have = 1;
        }
    }
    if (pairs_build(files, n, have ? &att : NULL, &s, &err) < 0) {
        cli_print_error(&err);
        status = CLI_EXIT_ERROR;
        if (pairs_build(files, n, NULL, &s, &err) < 0) {
            cli_print_error(&err);
            pairs_attach_free(&att);
            return CLI_EXIT_ERROR;
        }
    }
    print_entities(&s, files);
    pairs_free(&s);
    pairs_attach_free(&att);
    return status;
}

/* One listing line: the name (escaped), then the size and compression or the refusal. */
static void list_line(const corpus *c, size_t i, uint64_t size, const char *comp,
                      const ff_error *err)
{
    char name[1024];
    cli_safe(corpus_path(c, i), name, sizeof name);
    if (err) {
        char why[FF_ERR_REASON_MAX + 64];
        printf("%-24s  ERROR: %s\n", name, cli_safe(err->reason, why, sizeof why));
        return;
    }
    char as[300] = "";
    if (strcmp(corpus_name(c, i), path_base(corpus_path(c, i))))
        snprintf(as, sizeof as, "  as %s", corpus_name(c, i)); /* a suffix off, or renamed */
    printf("%-24s  %10llu bytes%s%s%s\n", name, (unsigned long long)size, comp ? "  " : "",
           comp ? comp : "", as);
}

static int do_list(const char *path, const char *lang)
{
    corpus *c;
    if (open_corpus(path, lang, &c)) return CLI_EXIT_ERROR;
    char desc[1200];
    printf("# %s\n", cli_safe(corpus_describe(c), desc, sizeof desc));
    int status = print_problems(c);
    for (size_t i = 0; i < corpus_count(c); i++) {
        uint64_t size = 0;
        const char *comp = NULL;
        ff_error err;
        int rc = corpus_entry_info(c, i, &size, &comp, &err);
        list_line(c, i, size, comp, rc < 0 ? &err : NULL);
        if (rc < 0) status = CLI_EXIT_ERROR;
    }
    corpus_close(c);
    return status;
}

/* Entries renamed because another has the same base name: one warning each. */
static void warn_renamed(const corpus *c)
{
    for (size_t i = 0; i < corpus_count(c); i++)
        if (corpus_renamed(c, i))
            cli_warn("%s: another entry has the same base name: written as %s",
                     corpus_path(c, i), corpus_name(c, i));
}

/* Without --force: destinations that exist (links included) are named, and nothing is written. */
static int refuse_existing(const corpus *c, const char *out)
{
    size_t taken = 0;
    for (size_t i = 0; i < corpus_count(c); i++) {
        char *dst = path_join_new(out, corpus_name(c, i));
        struct stat st;
        if (dst && lstat(dst, &st) == 0) {
            if (taken++ < 5) cli_fail("corpus extract: %s exists", dst);
        }
        free(dst);
    }
    if (!taken) return 0;
    cli_fail("corpus extract: %zu file%s in %s would be replaced: nothing extracted (--force "
             "replaces them)",
             taken, taken == 1 ? "" : "s", out);
    return CLI_EXIT_ERROR;
}

static int extract_one(const corpus *c, size_t i, const char *out, int force, ff_error *err)
{
    uint8_t *data;
    size_t size;
    char *dst = path_join_new(out, corpus_name(c, i));
    if (!dst) return ff_error_set(err, FF_E_NOMEM, out, -1, "out of memory");
    int rc = corpus_load(c, i, &data, &size, err);
    if (rc == 0) {
        rc = force ? fio_write_atomic(dst, data, size, err) : fio_write_new(dst, data, size, err);
        free(data);
    }
    free(dst);
    return rc;
}

static int do_extract(const char *path, const char *lang, const char *out, int force)
{
    corpus *c;
    ff_error err;
    if (open_corpus(path, lang, &c)) return CLI_EXIT_ERROR;
    if (fio_mkdirs(out, &err) < 0) {
        cli_print_error(&err);
        corpus_close(c);
        return CLI_EXIT_ERROR;
    }
    if (!force && refuse_existing(c, out)) {
        corpus_close(c);
        return CLI_EXIT_ERROR;
    }
    warn_renamed(c);
    int status = CLI_EXIT_OK;
    size_t n = 0;
    for (size_t i = 0; i < corpus_count(c); i++) {
        if (extract_one(c, i, out, force, &err) < 0) {
            cli_print_error(&err);
            status = err.kind == FF_E_NOMEM ? CLI_EXIT_INTERNAL : CLI_EXIT_ERROR;
        } else {
            n++;
        }
    }
    printf("%zu of %zu entries extracted into %s\n", n, corpus_count(c), out);
    corpus_close(c);
    return status;
}

/* The engine's quirks the corpus's clips exercise (clip x mode pairs, docs/quirks.md). */
static void stats_quirks(const corpus *c, const manifest *m)
{
    uint32_t counts[REF_Q__COUNT] = {0};
    char text[512];
    for (size_t i = 0; i < m->n; i++) {
        if (!m->e[i].parsed || m->e[i].bad || !dat_kind_has_model(m->e[i].kind)) continue;
        uint8_t *data = NULL;
        size_t size = 0;
        dat_file d;
        ff_error err;
        size_t at;
        if (corpus_find(c, m->e[i].name, &at) == 0 && corpus_load(c, at, &data, &size, &err) == 0 &&
            dat_parse(data, size, m->e[i].name, &d, &err) == 0 &&
            quirkside_file(&d, counts, &err) < 0 && err.kind == FF_E_NOMEM) {
            free(data);
            printf("quirks:                not studied (out of memory)\n");
            return;
        }
        free(data);
    }
    quirkside_counts_text(counts, text, sizeof text);
    printf("quirks (clip x mode):  %s\n", text);
}

static int do_stats(const char *path, const char *lang)
{
    corpus *c;
    manifest *m;
    ff_error err;
    if (open_corpus(path, lang, &c)) return CLI_EXIT_ERROR;
    if (manifest_build(c, &m, &err) < 0) {
        cli_print_error(&err);
        corpus_close(c);
        return CLI_EXIT_ERROR;
    }
    const manifest_totals *t = &m->totals;
    char text[1200], why[FF_ERR_REASON_MAX + 64];
    printf("# %s\n", cli_safe(corpus_describe(c), text, sizeof text));
    printf("files:                 %u (%u bad)\n", t->files, t->bad);
    for (int k = 0; k < DAT__KIND_COUNT; k++)
        if (t->by_kind[k]) printf("  %-19s %u\n", dat_kind_name((dat_kind)k), t->by_kind[k]);
    printf("animations:            %llu\n", (unsigned long long)t->clips);
    printf("frames:                %llu\n", (unsigned long long)t->frames);
    printf("scale path:            %u files, %llu animations\n", t->scale_files,
           (unsigned long long)t->scale_clips);
    printf("max bones:             %u\n", t->max_bones);
    printf("clips over 128 frames: %u\n", t->long_clips);
    stats_quirks(c, m);
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].bad)
            printf("bad: %s: %s\n", cli_safe(m->e[i].name, text, sizeof text),
                   cli_safe(m->e[i].error.reason, why, sizeof why));
    int status = t->bad ? CLI_EXIT_ERROR : CLI_EXIT_OK;
    pairs_file *files = calloc(m->n ? m->n : 1, sizeof *files);
    if (!files) {
        cli_fail("out of memory");
        status = CLI_EXIT_ERROR;
    } else {
        for (size_t i = 0; i < m->n; i++)
            files[i] = (pairs_file){m->e[i].name, m->e[i].parsed, m->e[i].kind, m->e[i].clips};
        if (show_entities(c, path, files, m->n) != CLI_EXIT_OK) status = CLI_EXIT_ERROR;
        free(files);
    }
    manifest_free(m);
    corpus_close(c);
    return status;
}

static int do_pack(const char *path, const char *lang, const char *out, const char *layout,
                   unsigned long pad_mib)
{
    int l = layout ? pack_layout_from_name(layout) : -1;
    if (l < 0) {
        cli_fail("corpus pack: --layout takes 2013 or remaster");
        return CLI_EXIT_ERROR;
    }
    corpus *c;
    ff_error err;
    if (open_corpus(path, NULL, &c)) return CLI_EXIT_ERROR;
    int rc = corpus_pack(c, out, (pack_layout)l, lang, (uint64_t)pad_mib << 20, &err);
    if (rc < 0) cli_print_error(&err);
    else printf("%s: packed as a %s install\n", out, layout);
    corpus_close(c);
    return rc < 0 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

/* The options list, extract, stats and pack take after PATH. */
typedef struct sub_args {
    const char *path, *out, *lang, *layout;
    int force, bad;
    unsigned long pad_mib;
} sub_args;

static void sub_parse(int argc, char **argv, sub_args *a)
{
    for (int i = 2; i < argc; i++) {
        int more = i + 1 < argc;
        if (!strcmp(argv[i], "--out") && more) a->out = argv[++i];
        else if (!strcmp(argv[i], "--lang") && more) a->lang = argv[++i];
        else if (!strcmp(argv[i], "--layout") && more) a->layout = argv[++i];
        else if (!strcmp(argv[i], "--pad-mib") && more) {
            if (cli_parse_uint(argv[++i], 0, 4095, &a->pad_mib) < 0) a->bad = 1;
        } else if (!strcmp(argv[i], "--force")) a->force = 1;
        else if (!a->path && argv[i][0] != '-') a->path = argv[i];
        else a->bad = 1;
    }
}

int cmd_corpus(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "synth")) return do_synth(argc - 1, argv + 1);
    if (!strcmp(sub, "diff")) return cmd_corpus_diff(argc - 1, argv + 1);
    sub_args a = {0};
    sub_parse(argc, argv, &a);
    int plain = a.path && !a.bad && !a.out && !a.layout && !a.force && !a.pad_mib;
    if (!strcmp(sub, "list") && plain) return do_list(a.path, a.lang);
    if (!strcmp(sub, "stats") && plain) return do_stats(a.path, a.lang);
    if (!strcmp(sub, "extract") && a.path && a.out && !a.bad && !a.layout && !a.pad_mib)
        return do_extract(a.path, a.lang, a.out, a.force);
    if (!strcmp(sub, "pack") && a.path && a.out && !a.bad && !a.force)
        return do_pack(a.path, a.lang, a.out, a.layout, a.pad_mib);
    cli_fail("corpus: bad usage");
    help(stderr);
    return CLI_EXIT_ERROR;
}
