/*
 * harness/cli/cmd_run.c: `ff8diff run`: the main job. The reference
 * engine against the original's routines (the user's FF8_EN.exe, or the
 * stand-in) over a corpus (a folder, a battle.fs, an install, or the
 * synthetic corpus), every clip in every mode, then the report.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cache.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/run.h"

static void help(FILE *out)
{
    fputs(
        "usage: ff8diff run [--exe PATH] [--profile NAME|PATH] [--corpus PATH]\n"
        "                   [--modes LIST] [--levels leaf,frame] [--jobs N] [--out DIR]\n\n"
        "Runs the reference engine and the original routines side by side on every clip\n"
        "of every model file in every mode, compares them field by field after every\n"
        "call, and writes a report (report.json, index.html, summary.md, junit.xml) into\n"
        "DIR/<run-id>/.\n\n"
        "  --exe PATH        the game's FF8_EN.exe (default: the built-in stand-in engine)\n"
        "  --profile P       a built-in profile name or a profile file (default: found\n"
        "                    from the executable's hash or fingerprints)\n"
        "  --corpus PATH     a folder of .dat files, a battle.fs (with .fi/.fl beside it)\n"
        "                    or an install root (default: the synthetic corpus)\n"
        "  --preset NAME     synthetic corpus preset: small (default) or vanilla\n"
        "  --seed N          synthetic corpus seed (default 1)\n"
        "  --modes LIST      normal,slow,fast,slow+fast or all (default all)\n"
        "  --levels LIST     frame,leaf (default frame)\n"
        "  --jobs N          worker threads, one engine each (default: all cores)\n"
        "  --out DIR         reports folder (default: reports)\n"
        "  --keep-matrices   run the original BuildBoneMatrices (default: replaced by a\n"
        "                    plain return; matrices are not compared at the frame level)\n"
        "  --no-cache        neither read nor write the cache of the original's results\n"
        "  --cache-dir DIR   cache root (default $FF8DIFF_CACHE_DIR, $XDG_CACHE_HOME/ff8diff\n"
        "                    or ~/.cache/ff8diff)\n"
        "  --cache-limit MB  size limit of the results cache (default 2048)\n"
        "  --no-dedup        emulate identical clips again instead of once\n"
        "  --leaf-calls N    bitReader cases at the leaf level (default 100000)\n"
        "  --leaf-seed N     seed of the leaf cases (default 1)\n"
        "  --budget N        instructions per emulated call before a fault (default 20M)\n"
        "  -q, --quiet       no progress line\n"
        "  -h, --help        this text\n\n"
        "Exit: 0 everything matches, 1 mismatches or faults, 2 usage, input or executable\n"
        "errors (bad input files included), 130 interrupted (a partial report is written).\n",
        out);
}

enum {
    OPT_EXE = 256, OPT_PROFILE, OPT_CORPUS, OPT_PRESET, OPT_SEED, OPT_MODES, OPT_LEVELS,
    OPT_JOBS, OPT_OUT, OPT_KEEP, OPT_NO_CACHE, OPT_CACHE_DIR, OPT_CACHE_LIMIT, OPT_NO_DEDUP,
    OPT_LEAF_CALLS, OPT_LEAF_SEED, OPT_BUDGET
};

static const struct option opts[] = {
    {"exe", required_argument, 0, OPT_EXE},
    {"profile", required_argument, 0, OPT_PROFILE},
    {"corpus", required_argument, 0, OPT_CORPUS},
    {"preset", required_argument, 0, OPT_PRESET},
    {"seed", required_argument, 0, OPT_SEED},
    {"modes", required_argument, 0, OPT_MODES},
    {"levels", required_argument, 0, OPT_LEVELS},
    {"jobs", required_argument, 0, OPT_JOBS},
    {"out", required_argument, 0, OPT_OUT},
    {"keep-matrices", no_argument, 0, OPT_KEEP},
    {"no-cache", no_argument, 0, OPT_NO_CACHE},
    {"cache-dir", required_argument, 0, OPT_CACHE_DIR},
    {"cache-limit", required_argument, 0, OPT_CACHE_LIMIT},
    {"no-dedup", no_argument, 0, OPT_NO_DEDUP},
    {"leaf-calls", required_argument, 0, OPT_LEAF_CALLS},
    {"leaf-seed", required_argument, 0, OPT_LEAF_SEED},
    {"budget", required_argument, 0, OPT_BUDGET},
    {"quiet", no_argument, 0, 'q'},
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

int cli_parse_levels(const char *text, int *frame, int *leaf)
{
    *frame = *leaf = 0;
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    for (char *save, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        if (strcmp(w, "frame") == 0) *frame = 1;
        else if (strcmp(w, "leaf") == 0) *leaf = 1;
        else return -1;
    }
    return *frame || *leaf ? 0 : -1;
}

static int bad_number(const char *opt, const char *arg)
{
    cli_fail("run: %s takes a number, not '%s'", opt, arg);
    return CLI_EXIT_ERROR;
}

int cmd_run(int argc, char **argv)
{
    const char *exe = NULL, *profile = NULL, *corpus_path = NULL, *preset = "small";
    const char *out_dir = "reports", *cache_dir = NULL;
    unsigned long seed = 1, cache_limit_mb = 2048, v;
    int use_cache = 1, quiet = 0, c;
    run_config cfg;
    run_config_init(&cfg);
    optind = 1;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        char bad[32];
        switch (c) {
        case OPT_EXE: exe = optarg; break;
        case OPT_PROFILE: profile = optarg; break;
        case OPT_CORPUS: corpus_path = optarg; break;
        case OPT_PRESET: preset = optarg; break;
        case OPT_SEED:
            if (cli_parse_uint(optarg, 0, ~0ul, &seed) < 0) return bad_number("--seed", optarg);
            break;
        case OPT_MODES:
            if (mode_parse_list(optarg, &cfg.modes, bad, sizeof bad) < 0) {
                cli_fail("run: unknown mode '%s' (normal, slow, fast, slow+fast, all)", bad);
                return CLI_EXIT_ERROR;
            }
            break;
        case OPT_LEVELS:
            if (cli_parse_levels(optarg, &cfg.frame_level, &cfg.leaf_level) < 0) {
                cli_fail("run: --levels takes frame, leaf or frame,leaf, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case OPT_JOBS:
            if (cli_parse_uint(optarg, 1, 256, &v) < 0) return bad_number("--jobs", optarg);
            cfg.jobs = (unsigned)v;
            break;
        case OPT_OUT: out_dir = optarg; break;
        case OPT_KEEP: cfg.game.keep_matrices = 1; break;
        case OPT_NO_CACHE: use_cache = 0; break;
        case OPT_CACHE_DIR: cache_dir = optarg; break;
        case OPT_CACHE_LIMIT:
            if (cli_parse_uint(optarg, 1, 1ul << 30, &cache_limit_mb) < 0)
                return bad_number("--cache-limit", optarg);
            break;
        case OPT_NO_DEDUP: cfg.dedup = 0; break;
        case OPT_LEAF_CALLS:
            if (cli_parse_uint(optarg, 1, 1ul << 32, &v) < 0)
                return bad_number("--leaf-calls", optarg);
            cfg.leaf_calls = v;
            break;
        case OPT_LEAF_SEED:
            if (cli_parse_uint(optarg, 0, ~0ul, &v) < 0) return bad_number("--leaf-seed", optarg);
            cfg.seed = v;
            break;
        case OPT_BUDGET:
            if (cli_parse_uint(optarg, 1000, ~0ul, &v) < 0) return bad_number("--budget", optarg);
            cfg.game.budget = v;
            break;
        case 'q': quiet = 1; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (optind < argc) {
        cli_fail("run: unexpected argument '%s'", argv[optind]);
        return CLI_EXIT_ERROR;
    }
    return cli_run_session("run", exe, profile, corpus_path, preset, seed, use_cache, cache_dir,
                           cache_limit_mb, out_dir, quiet, &cfg);
}
