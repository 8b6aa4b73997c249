/*
 * harness/cli/cmd_record.c: `ff8diff record --out DIR`: the original's
 * side of every clip of a corpus in every mode asked for (emulated, or from
 * the results cache), written as Trace JSON Lines v1, one file per model
 * file and mode, plus DIR/manifest.json (harness/traces/traceset.h). `check`
 * compares against such a folder later, without the executable.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/path.h"
#include "corpus/fileio.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/run/run.h"
#include "harness/traces/traceset.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff record --out DIR [--exe PATH] [--profile NAME|PATH] [--corpus PATH]\n"
          "                      [--modes LIST] [--compress] [--jobs N]\n\n"
          "Runs the original routines on every clip of every model file in every mode and\n"
          "writes what they did as Trace JSON Lines v1 (golden traces): DIR/<file>.<mode>.jsonl\n"
          "(.jsonl.lz4 with --compress), and DIR/manifest.json: the executable's identity,\n"
          "the tool version, the corpus, the modes, every file's SHA-256 and trace files, and\n"
          "the clips the original faulted on with their fault record. `ff8diff check` then\n"
          "compares a decoder against DIR without the executable. The traces derive from\n"
          "the game's files: keep them private.\n\n"
          "  --out DIR         the traces folder (created; required)\n"
          "  --exe PATH        the game's FF8_EN.exe (default: the built-in stand-in engine)\n"
          "  --profile P       a built-in profile name or a profile file\n"
          "  --corpus PATH     a folder of .dat files, a battle.fs, an install root (2013\n"
          "                    or Remaster), a main.zzz or a battle.fs inside one\n"
          "  --lang XX         the language of an install or main.zzz (default en)\n"
          "                    (default: the synthetic corpus)\n",
          out);
    cli_usage_presets(out);
    fputs("  --seed N          synthetic corpus seed (default 1)\n", out);
    cli_usage_modes(out, "all");
    fputs("  --levels LIST     frame (default), frame,pose, frame,entity or all three: pose\n"
          "                    makes the traces also carry the bone matrices (\"mat\") and\n"
          "                    the world matrices (\"world\", \"placed\"), the manifest naming\n"
          "                    the convention; entity also records every entity,\n"
          "                    <body>+<weapon>.entity.<mode>.jsonl (<body>.entity.<mode>.jsonl\n"
          "                    without a weapon slot)\n"
          "  --pose-options S  the convention written into the manifest (default auto:\n"
          "                    searched on the original, as `run` does)\n"
          "  --compress        write LZ4 frames (.jsonl.lz4, liblz4): about 10x smaller\n"
          "  --jobs N          worker threads, one engine each (default: all cores;\n"
          "                    FF8DIFF_JOBS in the environment sets another)\n"
          "  --keep-matrices   run the original BuildBoneMatrices (default: a plain return)\n"
          "  --no-cache        neither read nor write the cache of the original's results\n"
          "  --cache-dir DIR   cache root (default $FF8DIFF_CACHE_DIR, $XDG_CACHE_HOME/ff8diff\n"
          "                    or ~/.cache/ff8diff)\n"
          "  --cache-limit MB  size limit of the results cache (default 2048)\n"
          "  --budget N        instructions per emulated call before a fault (default 20M)\n"
          CLI_ENGINE_HELP
          "  -q, --quiet       no progress line\n"
          "  -h, --help        this text\n\n"
          "Exit: 0 recorded (faults of the original are recorded too), 2 usage, input or\n"
          "executable errors (files that cannot be read are listed in the manifest), 3 internal\n"
          "or resource errors (memory, the emulator, a full disk), 130 / 143 interrupted by\n"
          "SIGINT / SIGTERM (no manifest is written).\n",
          out);
}

enum { OPT_OUT = CLI_OPT_OWN, OPT_COMPRESS };

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
    CLI_OPT_ROW("budget", required_argument, CLI_OPT_BUDGET),
    CLI_OPT_ROW("engine", required_argument, CLI_OPT_ENGINE),
    CLI_OPT_ROW("quiet", no_argument, CLI_OPT_QUIET),
    CLI_OPT_ROW("out", required_argument, OPT_OUT),
    CLI_OPT_ROW("compress", no_argument, OPT_COMPRESS),
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

typedef struct record_job {
    const char *dir;
    int compress;
} record_job;

/* Writes the manifest once the traces are in place; says what was recorded. */
static int after_run(void *arg, const run_meta *m, const run_results *r)
{
    const record_job *job = arg;
    if (r->interrupted) {
        cli_fail("record: interrupted: no manifest written, the traces in %s are incomplete",
                 job->dir);
        return cli_interrupted_exit(r->interrupt_signal);
    }
    ff_error err;
    if (tset_write(job->dir, m, r, job->compress, &err) < 0) {
        /* The traces are written; their manifest cannot be (a full disk, no memory). */
        cli_print_error(&err);
        cli_fail("record: the manifest could not be written: internal or resource error");
        return CLI_EXIT_INTERNAL;
    }
    uint64_t faults = 0, models = 0;
    for (size_t i = 0; i < r->nresults; i++)
        faults += r->results[i].fault != NULL;
    for (size_t i = 0; i < r->nentity_results; i++)
        faults += r->entity_results[i].r.fault != NULL;
    for (size_t i = 0; i < r->nfiles; i++)
        models += r->files[i].parsed && dat_kind_has_model(r->files[i].kind);
    const run_totals *t = &r->totals;
    printf("recorded %llu clips of %llu model files (%llu comparisons, %llu faulted) into "
           "%s (%.1f s, %llu emulated calls)\n",
           (unsigned long long)t->clips, (unsigned long long)models,
           (unsigned long long)t->comparisons, (unsigned long long)faults, job->dir, r->seconds,
           (unsigned long long)m->emulated_calls);
    printf("reference engine on the way: %llu match, %llu mismatch, %llu bad input\n",
           (unsigned long long)t->by_status[RES_MATCH],
           (unsigned long long)t->by_status[RES_MISMATCH],
           (unsigned long long)t->by_status[RES_BAD_INPUT]);
    if (r->nentities)
        printf("entities: %llu recorded (%llu comparisons: %llu match, %llu mismatch, %llu bad "
               "input)\n",
               (unsigned long long)t->entities, (unsigned long long)t->entity_comparisons,
               (unsigned long long)t->entity_by_status[RES_MATCH],
               (unsigned long long)t->entity_by_status[RES_MISMATCH],
               (unsigned long long)t->entity_by_status[RES_BAD_INPUT]);
    printf("manifest: %s/%s\n", job->dir, TSET_MANIFEST);
    if (t->bad_files) {
        cli_warn("%llu file%s could not be read and %s no traces (see the manifest)",
                 (unsigned long long)t->bad_files, t->bad_files == 1 ? "" : "s",
                 t->bad_files == 1 ? "has" : "have");
        return CLI_EXIT_ERROR;
    }
    return CLI_EXIT_OK;
}

int cmd_record(int argc, char **argv)
{
    cli_session s;
    cli_session_init(&s, "record");
    record_job job = {NULL, 0};
    run_config cfg;
    run_config_init(&cfg);
    int c;
    optind = 1;
    while ((c = cli_next_option(&s, &cfg, argc, argv, opts)) != -1) {
        switch (c) {
        case CLI_OPT_FAILED: return CLI_EXIT_ERROR;
        case OPT_OUT: job.dir = optarg; break;
        case OPT_COMPRESS: job.compress = 1; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (cli_no_operands(&s, argc, argv) < 0) return CLI_EXIT_ERROR;
    if (!job.dir) {
        cli_fail("record: --out DIR is required (the folder the traces go to)");
        return CLI_EXIT_ERROR;
    }
    ff_error err;
    if (cli_dir_writable(job.dir, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    /* A manifest left by an earlier recording must not describe these traces. */
    char path[4200];
    if (path_join(path, sizeof path, job.dir, TSET_MANIFEST, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    if (remove(path) != 0 && errno != ENOENT) {
        cli_fail("record: cannot replace %s: %s", path, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    cfg.record_dir = job.dir;
    cfg.record_lz4 = job.compress;
    s.after = after_run;
    s.arg = &job;
    return cli_session_run(&s, &cfg);
}
