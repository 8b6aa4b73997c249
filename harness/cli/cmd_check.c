/*
 * harness/cli/cmd_check.c: `ff8diff check --traces DIR`: the same
 * comparison and reports as `run`, with no executable: the authority is a
 * folder of recorded traces (`ff8diff record`), the candidate the
 * reference engine or, with --against, another trace folder (an outside
 * decoder's output). DIR's manifest, when present, names the corpus and
 * modes, and lets the run refuse traces of a different file and count the
 * original's recorded faults.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "harness/core/fields.h"
#include "harness/core/levels.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/run/run.h"
#include "harness/traces/tracefile.h"
#include "harness/traces/traceset.h"

/* "root, skel_flag, rot, ...": the field table's classes, into buf. */
static void class_list(char *buf, size_t n)
{
    field_classes fc;
    field_classes_make(&fc);
    size_t at = 0;
    buf[0] = '\0';
    for (int k = 0; k < fc.n && at < n; k++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", k ? ", " : "", field_class_name(&fc, k));
}

static void help(FILE *out)
{
    fputs("usage: ff8diff check --traces DIR [--against DIR2 [--require FIELDS]] [--corpus PATH]\n"
          "                     [--modes LIST] [--out DIR] [--jobs N]\n\n"
          "Compares, without any executable, the reference engine (or with --against, a\n"
          "folder of Trace JSON Lines v1 written by another decoder) with the golden traces\n"
          "in DIR (`ff8diff record`), clip by clip, tick by tick, field by field, and\n"
          "writes the same reports as `ff8diff run` into OUT/<run-id>/.\n\n"
          "  --traces DIR      the recorded (golden) traces: the authority (required)\n"
          "  --against DIR2    traces to check instead of the reference engine: one file per\n"
          "                    model file and mode, <file>.<mode>.jsonl or .jsonl.lz4, or\n"
          "                    decoded poses, <file>.frames.jsonl (normal mode; see\n"
          "                    docs/guide.md); modes with no file at all are left out\n"
          "                    (said in the report) unless --modes names them\n"
          "  --require FIELDS  field classes the candidate must supply wherever the golden\n"
          "                    traces carry them, comma-separated (the keys of the trace\n"
          "                    formats, below); a clip that leaves one out is not decoded\n"
          "  --corpus PATH     the .dat files the traces were recorded from (default: the\n"
          "                    corpus DIR/manifest.json names, synthetic presets regenerated)\n"
          "  --preset NAME     synthetic corpus preset when DIR has no manifest (small)\n"
          "  --seed N          synthetic corpus seed when DIR has no manifest (1)\n"
          "  --modes LIST      modes to compare (default: the recorded ones, else all)\n",
          out);
    cli_usage_levels(out, RUN_LEVELS_ALL & ~(1u << RUN_LEVEL_LEAF), " (default: the");
    fputs("                    levels recorded in DIR's manifest, else frame); entity compares\n"
          "                    the entities' traces, <body>+<weapon>.entity.<mode>.jsonl\n"
          "  --pose-options S  the reference's pose convention (default: the one the\n"
          "                    manifest names, found when the traces were recorded)\n"
          "  --jobs N          worker threads (default: all cores;\n"
          "                    FF8DIFF_JOBS in the environment sets another)\n"
          "  --out DIR         reports folder (default: reports)\n"
          "  --no-quirks       skip the quirk pass: no clip is studied for the engine's\n"
          "                    quirks, and no mismatch is tried against the quirk table\n"
          "                    (docs/quirks.md)\n"
          "  -q, --quiet       no progress line\n"
          "  -h, --help        this text\n\n"
          "A clip the candidate did not decode (no trace for it, or fewer frames or ticks\n"
          "than the golden clip, every one given agreeing; a frames file may say why on an\n"
          "\"error\" line) is not decoded, with how far it got: a failure like a mismatch.\n"
          "A clip whose trace is malformed (the error names the line; the other clips of\n"
          "the file are still compared), of another file, mode or bone count, or whose\n"
          "corpus file differs from the one recorded (SHA-256), is bad input; a clip the\n"
          "original faulted on when recorded counts as a fault. Each check says, per field\n"
          "class, on how many clips and frames it compared and where the candidate supplied\n"
          "nothing the golden traces carry.\n"
          "A mismatching clip lists its differing values by effect on the pose: a rotation\n"
          "off by whole turns (a multiple of 4096) has no pose effect beyond trig rounding,\n"
          "but the clip stays a mismatch (reports/README.md).\n"
          "Exit: 0 everything matches, 1 mismatches, faults or clips not decoded, 2 usage or\n"
          "input errors (bad input included), 3 internal or resource errors (memory, a full\n"
          "disk for the report), 130 / 143 interrupted by SIGINT / SIGTERM (a partial report\n"
          "is written).\n",
          out);
    char classes[256];
    class_list(classes, sizeof classes);
    fprintf(out, "Field classes: %s.\n", classes);
}

enum { OPT_TRACES = CLI_OPT_OWN, OPT_AGAINST, OPT_REQUIRE, OPT_OUT, OPT_NO_QUIRKS };

static const struct option opts[] = {
    CLI_OPT_ROW("traces", required_argument, OPT_TRACES),
    CLI_OPT_ROW("against", required_argument, OPT_AGAINST),
    CLI_OPT_ROW("require", required_argument, OPT_REQUIRE),
    CLI_OPT_ROW("corpus", required_argument, CLI_OPT_CORPUS),
    CLI_OPT_ROW("preset", required_argument, CLI_OPT_PRESET),
    CLI_OPT_ROW("seed", required_argument, CLI_OPT_SEED),
    CLI_OPT_ROW("modes", required_argument, CLI_OPT_MODES),
    CLI_OPT_ROW("levels", required_argument, CLI_OPT_LEVELS),
    CLI_OPT_ROW("pose-options", required_argument, CLI_OPT_POSE_OPTIONS),
    CLI_OPT_ROW("jobs", required_argument, CLI_OPT_JOBS),
    CLI_OPT_ROW("quiet", no_argument, CLI_OPT_QUIET),
    CLI_OPT_ROW("out", required_argument, OPT_OUT),
    CLI_OPT_ROW("no-quirks", no_argument, OPT_NO_QUIRKS),
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};


typedef struct check_job {
    const tset *golden;
    char source[4200]; /* "recorded traces (DIR/manifest.json)" */
    char note[256];    /* "no traces for slow: compared normal only", or "" */
} check_job;

/* The report names the executable the golden traces came from. */
static void before_run(void *arg, run_meta *m)
{
    check_job *job = arg;
    const tset *g = job->golden;
    if (job->note[0] && m->nnotes < RUN_META_MAX_NOTES) m->notes[m->nnotes++] = job->note;
    if (!g) return;
    m->exe_path = g->exe_path[0] ? g->exe_path : NULL;
    m->exe_sha256 = strlen(g->exe_sha256) == 64 ? g->exe_sha256 : NULL;
    m->profile = g->profile[0] ? g->profile : NULL;
    m->profile_source = job->source;
    m->exe_verdict = g->verdict;
    m->exe_warning = "";
}

/* Files recorded in the golden folder that the corpus no longer has. */
static void missing_files(const tset *g, const run_results *r)
{
    size_t missing = 0;
    const char *first = NULL;
    for (size_t i = 0; g && i < g->nfiles; i++) {
        int found = 0;
        for (size_t k = 0; k < r->nfiles && !found; k++)
            found = strcmp(r->files[k].name, g->files[i].name) == 0;
        if (!found && g->files[i].ok && !missing++) first = g->files[i].name;
    }
    if (missing)
        cli_warn("%zu recorded file%s not in the corpus (%s%s): not compared", missing,
                 missing == 1 ? " is" : "s are", first, missing > 1 ? ", ..." : "");
}

/* Recorded files the corpus lacks, said once (the run's problems are listed after it). */
static int after_run(void *arg, const run_meta *m, const run_results *r)
{
    const check_job *job = arg;
    (void)m;
    missing_files(job->golden, r);
    return -1;
}

static int load_set(const char *dir, const char *opt, tset **out)
{
    if (!fio_is_dir(dir)) {
        cli_fail("check: %s %s: not a folder", opt, dir);
        return CLI_EXIT_ERROR;
    }
    ff_error err;
    if (tset_load(dir, out, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    return 0;
}

/* The pose level as recorded: the manifest's convention unless --pose-options. */
static int pose_from(const tset *g, const cli_session *s, run_config *cfg)
{
    if (!s->levels_given && g->pose) cfg->pose_level = cfg->frame_level = 1;
    if (cfg->pose_level && !g->pose) {
        cli_fail("check: the golden traces were recorded without the pose level (record "
                 "--levels frame,pose): they hold no matrices to compare");
        return CLI_EXIT_ERROR;
    }
    if (cfg->pose_level) {
        cli_pose_inputs pi = {s->pose_given, s->pose_given && cfg->pose_search, cfg->pose_opts,
                              g->pose_convention, NULL, 0};
        cli_pose_source src;
        ff_error e;
        if (cli_pose_pick(&pi, &cfg->pose_opts, &src, &e) < 0) {
            cli_fail("check: %s", e.reason);
            return CLI_EXIT_ERROR;
        }
        cli_pose_say("check", src, &cfg->pose_opts, s->quiet);
    }
    cfg->pose_search = 0;
    return 0;
}

/* Corpus, modes and levels from the manifest when not given. */
static int defaults_from(const tset *g, cli_session *s, run_config *cfg, int modes_given)
{
    if (!modes_given && g->modes) cfg->modes = g->modes;
    if (!s->levels_given) {
        /* The levels recorded: frame traces of any file, entity traces of any entity. */
        int frame = 0;
        for (size_t i = 0; i < g->nfiles && !frame; i++)
            for (int m = 0; m < MODE__COUNT; m++) frame |= g->files[i].trace[m] != NULL;
        cfg->entity_level = g->nentities > 0;
        cfg->frame_level = frame || !cfg->entity_level;
    }
    if (pose_from(g, s, cfg)) return CLI_EXIT_ERROR;
    if (s->corpus_path) return 0;
    if (g->synthetic) {
        s->preset = g->preset;
        s->seed = g->seed;
        return 0;
    }
    if (g->corpus_path[0]) {
        s->corpus_path = g->corpus_path;
        return 0;
    }
    cli_fail("check: the manifest names no corpus: give --corpus PATH");
    return CLI_EXIT_ERROR;
}

/* "slow, fast" into buf. */
static void mode_list(char *buf, size_t n, unsigned modes)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int m = 0; m < MODE__COUNT; m++)
        if (modes & (1u << m) && used < n)
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? ", " : "",
                                     mode_name((mode_id)m));
}

/*
 * Without --modes, the modes the candidate has no trace file for at all are
 * left out, said once in a note, rather than reported clip by clip as bad
 * input. Returns 0 or CLI_EXIT_ERROR.
 */
static int candidate_modes(check_job *job, run_config *cfg, int modes_given)
{
    unsigned have;
    ff_error err;
    if (!cfg->against_dir || modes_given) return 0;
    if (tf_modes_in(cfg->against_dir, &have, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    unsigned missing = cfg->modes & ~have;
    if (!missing) return 0;
    if (missing == cfg->modes) {
        cli_fail("check: %s holds no <file>.<mode>.jsonl or <file>.frames.jsonl trace file",
                 cfg->against_dir);
        return CLI_EXIT_ERROR;
    }
    char lacks[64], kept[64];
    cfg->modes &= have;
    mode_list(lacks, sizeof lacks, missing);
    mode_list(kept, sizeof kept, cfg->modes);
    snprintf(job->note, sizeof job->note, "no traces for %s: compared %s only", lacks, kept);
    cli_warn("%s (--modes asks for others)", job->note);
    return 0;
}

static int check(cli_session *s, run_config *cfg, int modes_given)
{
    check_job job;
    memset(&job, 0, sizeof job);
    tset *golden = NULL, *other = NULL;
    int rc = load_set(cfg->traces_dir, "--traces", &golden);
    if (rc == 0 && cfg->against_dir) rc = load_set(cfg->against_dir, "--against", &other);
    if (rc == 0 && !golden)
        cli_warn("%s has no %s: corpus file hashes and the original's faults are not "
                 "checked",
                 cfg->traces_dir, TSET_MANIFEST);
    if (rc == 0 && golden) rc = defaults_from(golden, s, cfg, modes_given);
    if (rc == 0) rc = candidate_modes(&job, cfg, modes_given);
    if (rc == 0) {
        job.golden = golden;
        snprintf(job.source, sizeof job.source, "recorded traces (%s/%s)", cfg->traces_dir,
                 TSET_MANIFEST);
        cfg->traces_set = golden;
        cfg->against_set = other;
        s->before = before_run;
        s->after = after_run;
        s->arg = &job;
        rc = cli_session_run(s, cfg);
    }
    tset_free(golden);
    tset_free(other);
    return rc;
}

/* "scale,rot" into a set of field classes (bit k). Returns 0, or -1 after saying what is wrong. */
static int parse_require(const char *text, unsigned *out)
{
    field_classes fc;
    field_classes_make(&fc);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", text);
    *out = 0;
    for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int k = field_class_find(&fc, tok);
        if (k < 0) {
            char known[256];
            class_list(known, sizeof known);
            cli_fail("check: --require: no field class \"%s\" (one of: %s)", tok, known);
            return -1;
        }
        *out |= 1u << k;
    }
    if (!*out) {
        cli_fail("check: --require names no field class");
        return -1;
    }
    return 0;
}

int cmd_check(int argc, char **argv)
{
    cli_session s;
    cli_session_init(&s, "check");
    s.out_dir = "reports";
    run_config cfg;
    run_config_init(&cfg);
    int c;
    optind = 1;
    while ((c = cli_next_option(&s, &cfg, argc, argv, opts)) != -1) {
        switch (c) {
        case CLI_OPT_FAILED: return CLI_EXIT_ERROR;
        case OPT_TRACES: cfg.traces_dir = optarg; break;
        case OPT_AGAINST: cfg.against_dir = optarg; break;
        case OPT_REQUIRE:
            if (parse_require(optarg, &cfg.require) < 0) return CLI_EXIT_ERROR;
            break;
        case OPT_OUT: s.out_dir = optarg; break;
        case OPT_NO_QUIRKS: cfg.quirks = 0; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (cli_no_operands(&s, argc, argv) < 0) return CLI_EXIT_ERROR;
    if (!cfg.traces_dir) {
        cli_fail("check: --traces DIR is required (the recorded traces: ff8diff record)");
        return CLI_EXIT_ERROR;
    }
    if (cfg.require && !cfg.against_dir) {
        cli_fail("check: --require asks an outside decoder's traces for fields: give --against");
        return CLI_EXIT_ERROR;
    }
    return check(&s, &cfg, s.modes_given);
}
