/*
 * harness/cli/cmd_corpus.c: `ff8diff corpus synth|list|extract|stats`.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/archive.h"
#include "corpus/fileio.h"
#include "corpus/manifest.h"
#include "corpus/source.h"
#include "corpus/synth.h"
#include "harness/cli/cli.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff corpus synth --out DIR [--preset small|vanilla|cover] [--seed N]\n"
          "       ff8diff corpus list PATH\n"
          "       ff8diff corpus extract PATH --out DIR\n"
          "       ff8diff corpus stats PATH\n\n"
          "PATH is a folder of .dat files, a battle.fs (its .fi and .fl beside it) or an\n"
          "install root (Data/lang-*/battle.fs is found).\n\n"
          "  synth     write a synthetic corpus, deterministic by seed (default preset small,\n"
          "            seed 1); vanilla is sized like the game's monster corpus; cover is\n"
          "            the smallest corpus that runs every path of the decoding routines\n"
          "  list      every entry: name, size, and for archives the compression\n"
          "  extract   every entry into DIR (byte for byte, decompressed)\n"
          "  stats     totals: files by kind, animations, frames, scale-path use, max bones,\n"
          "            clips longer than 128 frames\n",
          out);
}

static int open_corpus(const char *path, corpus **c)
{
    ff_error err;
    if (corpus_open(path, c, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    return 0;
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

static int do_list(const char *path)
{
    corpus *c;
    if (open_corpus(path, &c)) return CLI_EXIT_ERROR;
    printf("# %s\n", corpus_describe(c));
    int status = CLI_EXIT_OK;
    for (size_t i = 0; i < corpus_count(c); i++) {
        uint8_t *data;
        size_t size;
        ff_error err;
        if (corpus_load(c, i, &data, &size, &err) < 0) {
            printf("%-24s  ERROR: %s\n", corpus_path(c, i), err.reason);
            status = CLI_EXIT_ERROR;
            continue;
        }
        printf("%-24s  %10zu bytes\n", corpus_path(c, i), size);
        free(data);
    }
    corpus_close(c);
    return status;
}

static int do_extract(const char *path, const char *out)
{
    corpus *c;
    ff_error err;
    if (open_corpus(path, &c)) return CLI_EXIT_ERROR;
    if (fio_mkdirs(out, &err) < 0) {
        cli_print_error(&err);
        corpus_close(c);
        return CLI_EXIT_ERROR;
    }
    int status = CLI_EXIT_OK;
    size_t n = 0;
    for (size_t i = 0; i < corpus_count(c); i++) {
        uint8_t *data;
        size_t size;
        char *dst = fio_join(out, corpus_name(c, i));
        if (!dst || corpus_load(c, i, &data, &size, &err) < 0) {
            if (dst) cli_print_error(&err);
            free(dst);
            status = CLI_EXIT_ERROR;
            continue;
        }
        if (fio_write_atomic(dst, data, size, &err) < 0) {
            cli_print_error(&err);
            status = CLI_EXIT_ERROR;
        } else {
            n++;
        }
        free(data);
        free(dst);
    }
    printf("%zu of %zu entries extracted into %s\n", n, corpus_count(c), out);
    corpus_close(c);
    return status;
}

static int do_stats(const char *path)
{
    corpus *c;
    manifest *m;
    ff_error err;
    if (open_corpus(path, &c)) return CLI_EXIT_ERROR;
    if (manifest_build(c, &m, &err) < 0) {
        cli_print_error(&err);
        corpus_close(c);
        return CLI_EXIT_ERROR;
    }
    const manifest_totals *t = &m->totals;
    printf("# %s\n", corpus_describe(c));
    printf("files:                 %u (%u bad)\n", t->files, t->bad);
    for (int k = 0; k < DAT__KIND_COUNT; k++)
        if (t->by_kind[k]) printf("  %-19s %u\n", dat_kind_name((dat_kind)k), t->by_kind[k]);
    printf("animations:            %llu\n", (unsigned long long)t->clips);
    printf("frames:                %llu\n", (unsigned long long)t->frames);
    printf("scale path:            %u files, %llu animations\n", t->scale_files,
           (unsigned long long)t->scale_clips);
    printf("max bones:             %u\n", t->max_bones);
    printf("clips over 128 frames: %u\n", t->long_clips);
    for (size_t i = 0; i < m->n; i++)
        if (m->e[i].bad) printf("bad: %s: %s\n", m->e[i].name, m->e[i].error.reason);
    int status = t->bad ? CLI_EXIT_ERROR : CLI_EXIT_OK;
    manifest_free(m);
    corpus_close(c);
    return status;
}

int cmd_corpus(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        help(argc < 2 ? stderr : stdout);
        return argc < 2 ? CLI_EXIT_ERROR : CLI_EXIT_OK;
    }
    const char *sub = argv[1];
    if (!strcmp(sub, "synth")) return do_synth(argc - 1, argv + 1);
    if (!strcmp(sub, "list") && argc == 3) return do_list(argv[2]);
    if (!strcmp(sub, "stats") && argc == 3) return do_stats(argv[2]);
    if (!strcmp(sub, "extract")) {
        const char *path = NULL, *out = NULL;
        for (int i = 2; i < argc; i++) {
            if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
            else if (!path) path = argv[i];
            else path = NULL, i = argc;
        }
        if (path && out) return do_extract(path, out);
    }
    cli_fail("corpus: bad usage");
    help(stderr);
    return CLI_EXIT_ERROR;
}
