/*
 * harness/cli/cmd_cache.c: `ff8diff cache stats|clear`: the results cache
 * of the original's side (<root>/results, harness/run/cache.h), and the size of
 * the synthetic corpora generated under <root>/corpus.
 */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/path.h"
#include "corpus/fileio.h"
#include "harness/run/cache.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff cache stats [--cache-dir DIR] [--json]\n"
          "       ff8diff cache clear [--cache-dir DIR]\n\n"
          "The results cache keeps the original's side of every (executable, profile, file,\n"
          "mode, level) that `ff8diff run` or `record` emulated, so that the next run with\n"
          "the same executable and corpus compares without emulating. `stats` says how many\n"
          "entries it holds and how big it is, per level (frame, pose, entity, and entries\n"
          "of an older format, never read again), and how big the generated synthetic corpora\n"
          "are; `clear` removes every results entry (the synthetic corpora stay: they are\n"
          "regenerated when missing, so deleting DIR/corpus is safe too).\n\n"
          "  --cache-dir DIR   cache root (default $FF8DIFF_CACHE_DIR, $XDG_CACHE_HOME/ff8diff\n"
          "                    or ~/.cache/ff8diff)\n"
          "  --json            stats as JSON\n"
          "  -h, --help        this text\n\n"
          "The size limit (default 2048 MiB) is applied by each run: run --cache-limit MB.\n",
          out);
}

enum { OPT_CACHE_DIR = 256, OPT_JSON };

static const struct option opts[] = {{"cache-dir", required_argument, 0, OPT_CACHE_DIR},
                                     {"json", no_argument, 0, OPT_JSON},
                                     {"help", no_argument, 0, 'h'},
                                     {0, 0, 0, 0}};

/* Bytes and files under dir, sub-folders included (symbolic links not followed). */
static void tree_size(const char *dir, int depth, uint64_t *bytes, uint64_t *files)
{
    DIR *d = depth < 8 ? opendir(dir) : NULL;
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        char path[4600];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            tree_size(path, depth + 1, bytes, files);
        } else if (S_ISREG(st.st_mode)) {
            *bytes += (uint64_t)st.st_size;
            (*files)++;
        }
    }
    closedir(d);
}

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

static int stats(cache *c, const char *root, const char *results, int json)
{
    cache_stats st;
    ff_error err;
    if (cache_stat(c, &st, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    char corpus[4200];
    if (path_join(corpus, sizeof corpus, root, "corpus", &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    uint64_t cbytes = 0, cfiles = 0;
    tree_size(corpus, 0, &cbytes, &cfiles);
    if (json) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "root", root);
        cJSON *r = cJSON_AddObjectToObject(o, "results");
        cJSON_AddStringToObject(r, "path", results);
        cJSON_AddNumberToObject(r, "entries", (double)st.entries);
        cJSON_AddNumberToObject(r, "bytes", (double)st.bytes);
        cJSON_AddNumberToObject(r, "default_limit", (double)CACHE_DEFAULT_LIMIT);
        cJSON *lv = cJSON_AddObjectToObject(r, "levels");
        for (int l = 0; l < CACHE_LEVEL__COUNT; l++) {
            cJSON *one = cJSON_AddObjectToObject(lv, cache_level_name((cache_level)l));
            cJSON_AddNumberToObject(one, "entries", (double)st.level_entries[l]);
            cJSON_AddNumberToObject(one, "bytes", (double)st.level_bytes[l]);
        }
        cJSON *k = cJSON_AddObjectToObject(o, "corpus");
        cJSON_AddStringToObject(k, "path", corpus);
        cJSON_AddNumberToObject(k, "files", (double)cfiles);
        cJSON_AddNumberToObject(k, "bytes", (double)cbytes);
        char *text = cJSON_PrintUnformatted(o);
        cJSON_Delete(o);
        if (!text) {
            cli_fail("cache: out of memory");
            return CLI_EXIT_ERROR;
        }
        printf("%s\n", text);
        cJSON_free(text);
        return CLI_EXIT_OK;
    }
    printf("cache root: %s\n", root);
    printf("results:   %llu entries, %.1f MiB in %s (limit per run: --cache-limit, "
           "default %.0f MiB)\n",
           (unsigned long long)st.entries, mib(st.bytes), results, mib(CACHE_DEFAULT_LIMIT));
    for (int l = 0; l < CACHE_LEVEL__COUNT; l++) {
        if (!st.level_entries[l]) continue;
        printf("  %-10s %llu entries, %.1f MiB%s\n", cache_level_name((cache_level)l),
               (unsigned long long)st.level_entries[l], mib(st.level_bytes[l]),
               l == CACHE_LEVEL_OLD ? " (another payload format: never read, gone when evicted "
                                      "or cleared)"
                                    : "");
    }
    printf("synthetic corpora: %llu files, %.1f MiB in %s\n", (unsigned long long)cfiles,
           mib(cbytes), corpus);
    return CLI_EXIT_OK;
}

int cmd_cache(int argc, char **argv)
{
    const char *dir = NULL;
    int json = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case OPT_CACHE_DIR:
            dir = optarg;
            break;
        case OPT_JSON:
            json = 1;
            break;
        case 'h':
            help(stdout);
            return CLI_EXIT_OK;
        default:
            help(stderr);
            return CLI_EXIT_ERROR;
        }
    }
    if (argc - optind != 1 ||
        (strcmp(argv[optind], "stats") != 0 && strcmp(argv[optind], "clear") != 0)) {
        cli_fail("cache: say stats or clear");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    if (json && strcmp(argv[optind], "stats") != 0) {
        cli_fail("cache: --json goes with stats");
        return CLI_EXIT_ERROR;
    }
    char root[4096], results[4200];
    cache *ch;
    ff_error err;
    int ok = dir ? path_format(root, sizeof root, &err, "%s", dir)
                 : cli_cache_root(root, sizeof root, &err);
    if (ok < 0 || path_join(results, sizeof results, root, "results", &err) < 0 ||
        cache_open(results, 0, &ch, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    int rc;
    if (strcmp(argv[optind], "stats") == 0) {
        rc = stats(ch, root, results, json);
    } else {
        uint64_t removed = 0;
        cache_stats st;
        rc = cache_stat(ch, &st, &err) < 0 || cache_clear(ch, &removed, &err) < 0 ? CLI_EXIT_ERROR
                                                                                : CLI_EXIT_OK;
        if (rc)
            cli_print_error(&err);
        else
            printf("removed %llu entries (%.1f MiB) from %s\n", (unsigned long long)removed,
                   mib(st.bytes), results);
    }
    cache_close(ch);
    return rc;
}
