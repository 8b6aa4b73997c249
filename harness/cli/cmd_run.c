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

#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/core/levels.h"
#include "harness/run/run.h"

static void help(FILE *out)
{
    fputs(
        "usage: ff8diff run [--exe PATH] [--profile NAME|PATH] [--corpus PATH [--lang XX]]\n"
        "                   [--modes LIST] [--levels LIST] [--pose-options SPEC|auto]\n"
        "                   [--jobs N] [--out DIR]\n\n"
        "Runs the reference engine and the original routines side by side on every clip\n"
        "of every model file in every mode, compares them field by field after every\n"
        "call, and writes a report (report.json, index.html, summary.md, junit.xml) into\n"
        "DIR/<run-id>/.\n\n"
        "  --exe PATH        the game's FF8_EN.exe (default: the built-in stand-in engine)\n"
        "  --profile P       a built-in profile name or a profile file (default: found\n"
        "                    from the executable's hash or fingerprints)\n"
        "  --corpus PATH     a folder of .dat files, a battle.fs (with .fi/.fl beside it),\n"
        "                    an install root (2013 or Remaster), a main.zzz or a battle.fs\n"
        "                    inside one (default: the synthetic corpus)\n"
        "  --lang XX         the language of an install or main.zzz (default en, else the\n"
        "                    first)\n",
        out);
    cli_usage_presets(out);
    fputs("  --seed N          synthetic corpus seed (default 1)\n", out);
    cli_usage_modes(out, "all");
    cli_usage_levels(out, RUN_LEVELS_ALL, " (default frame):");
    fputs(
        "                    pose adds the bone matrices after every decoding call and the\n"
        "                    world matrices under two bases (implies frame); entity drives\n"
        "                    every body with each of its weapons (monsters and unarmed\n"
        "                    bodies alone) by QueueAnimation and AdvanceBy1, each mode\n"
        "                    through the entity's status byte (slow+fast: frame level only)\n"
        "  --pose-options S  the reference's pose convention, ref/pose.h's text form\n"
        "                    (order=xyz,trig=x87-nearest,step=nearest-even,root=model,\n"
        "                    offset=+z,length=parent,scale=stack,width=32; keys left out\n"
        "                    take these; width=N sets width-t, width-cols, width-model and\n"
        "                    width-vec), or auto: searched on the original first (default,\n"
        "                    unless the profile pins a convention; a width site no sampled\n"
        "                    state settles is decided by the first clip that tells 32 from\n"
        "                    64 bits there)\n"
        "  --jobs N          worker threads, one engine each (default: all cores;\n"
        "                    FF8DIFF_JOBS in the environment sets another)\n"
        "  --out DIR         reports folder (default: reports)\n"
        "  --keep-matrices   run the original BuildBoneMatrices (default: replaced by a\n"
        "                    plain return; matrices are not compared at the frame level)\n"
        "  --no-cache        neither read nor write the cache of the original's results\n"
        "  --cache-dir DIR   cache root (default $FF8DIFF_CACHE_DIR, $XDG_CACHE_HOME/ff8diff\n"
        "                    or ~/.cache/ff8diff)\n"
        "  --cache-limit MB  size limit of the results cache (default 2048)\n"
        "  --no-dedup        emulate identical clips (and entities) again instead of once\n"
        "  --explain WHAT    groups (default): replay each group's example with read logs\n"
        "                    and name its first differing read; all: every mismatching\n"
        "                    clip; none: no replay (mismatches are then merged into causes\n"
        "                    only at the leaf level)\n"
        "  --coverage        record which blocks of the original's routines run (default)\n"
        "  --no-coverage     do not\n"
        "  --no-quirks       skip the quirk pass (which clips exercise which of the\n"
        "                    engine's quirks, docs/quirks.md)\n"
        "  --leaf-calls N    bitReader cases at the leaf level (default 100000)\n"
        "  --leaf-seed N     seed of the leaf cases (default 1)\n"
        "  --budget N        instructions per emulated call before a fault (default 20M;\n"
        "                    natively a CPU-time budget of 2 ns an instruction, 20 ms at\n"
        "                    least)\n"
        CLI_ENGINE_HELP
        "  --engine-processes  run the original in confined engine processes whatever the\n"
        "                    engine (the native engine always does: docs/engine.md\n"
        "                    section 9); coverage is then not recorded\n"
        "  -q, --quiet       no progress line\n"
        "  -h, --help        this text\n\n"
        "Exit: 0 everything matches, 1 mismatches or faults, 2 usage, input or executable\n"
        "errors (bad input files included), 3 internal or resource errors (out of memory,\n"
        "the emulator cannot allocate, a full disk for the report, comparisons left not\n"
        "run without a signal), 130 / 143 interrupted by SIGINT / SIGTERM (a partial\n"
        "report marked interrupted is written): the code of the verdict report.json\n"
        "stores. --out, the cache and the record folder are checked for writing before\n"
        "any work.\n",
        out);
}

static const struct option opts[] = {
    CLI_OPT_ROW("exe", required_argument, CLI_OPT_EXE),
    CLI_OPT_ROW("profile", required_argument, CLI_OPT_PROFILE),
    CLI_OPT_ROW("corpus", required_argument, CLI_OPT_CORPUS),
    CLI_OPT_ROW("lang", required_argument, CLI_OPT_LANG),
    CLI_OPT_ROW("preset", required_argument, CLI_OPT_PRESET),
    CLI_OPT_ROW("seed", required_argument, CLI_OPT_SEED),
    CLI_OPT_ROW("modes", required_argument, CLI_OPT_MODES),
    CLI_OPT_ROW("levels", required_argument, CLI_OPT_LEVELS),
    CLI_OPT_ROW("pose-options", required_argument, CLI_OPT_POSE_OPTIONS),
    CLI_OPT_ROW("jobs", required_argument, CLI_OPT_JOBS),
    CLI_OPT_ROW("keep-matrices", no_argument, CLI_OPT_KEEP),
    CLI_OPT_ROW("no-cache", no_argument, CLI_OPT_NO_CACHE),
    CLI_OPT_ROW("cache-dir", required_argument, CLI_OPT_CACHE_DIR),
    CLI_OPT_ROW("cache-limit", required_argument, CLI_OPT_CACHE_LIMIT),
    CLI_OPT_ROW("no-dedup", no_argument, CLI_OPT_NO_DEDUP),
    CLI_OPT_ROW("leaf-calls", required_argument, CLI_OPT_LEAF_CALLS),
    CLI_OPT_ROW("leaf-seed", required_argument, CLI_OPT_LEAF_SEED),
    CLI_OPT_ROW("budget", required_argument, CLI_OPT_BUDGET),
    CLI_OPT_ROW("engine", required_argument, CLI_OPT_ENGINE),
    CLI_OPT_ROW("engine-processes", no_argument, CLI_OPT_ENGINE_PROCESSES),
    CLI_OPT_ROW("quiet", no_argument, CLI_OPT_QUIET),
    CLI_OPT_ROW("out", required_argument, CLI_OPT_OWN),
    CLI_OPT_ROW("explain", required_argument, CLI_OPT_OWN + 1),
    CLI_OPT_ROW("coverage", no_argument, CLI_OPT_OWN + 2),
    CLI_OPT_ROW("no-coverage", no_argument, CLI_OPT_OWN + 3),
    CLI_OPT_ROW("no-quirks", no_argument, CLI_OPT_OWN + 4),
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

int cmd_run(int argc, char **argv)
{
    cli_session s;
    cli_session_init(&s, "run");
    s.out_dir = "reports";
    run_config cfg;
    run_config_init(&cfg);
    int c;
    optind = 1;
    while ((c = cli_next_option(&s, &cfg, argc, argv, opts)) != -1) {
        switch (c) {
        case CLI_OPT_FAILED: return CLI_EXIT_ERROR;
        case CLI_OPT_OWN: s.out_dir = optarg; break;
        case CLI_OPT_OWN + 1:
            if (!strcmp(optarg, "none")) cfg.explain = RUN_EXPLAIN_NONE;
            else if (!strcmp(optarg, "groups")) cfg.explain = RUN_EXPLAIN_GROUPS;
            else if (!strcmp(optarg, "all")) cfg.explain = RUN_EXPLAIN_ALL;
            else {
                cli_fail("run: --explain takes none, groups or all, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case CLI_OPT_OWN + 2: cfg.coverage = 1; break;
        case CLI_OPT_OWN + 3: cfg.coverage = 0; break;
        case CLI_OPT_OWN + 4: cfg.quirks = 0; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (cli_no_operands(&s, argc, argv) < 0) return CLI_EXIT_ERROR;
    return cli_session_run(&s, &cfg);
}
