/*
 * harness/cli/cmd_export.c: `ff8diff export`: the game's poses as glTF.
 * Every model file of a corpus becomes a .glb (harness/gltf/export.h),
 * every armed body one more with its weapon; the terminal gets a line per
 * file with its animations, keyframes, its joint layout (under their
 * parents, or some placed by their world transform) and how far the TRS
 * decomposition is from the engine's matrices. The original's poses come from a run
 * (cli_session_run, the export as its sink), the reference's from the
 * export library alone.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/gltf/export.h"

static void help(FILE *out)
{
    fputs(
        "usage: ff8diff export [--exe PATH] [--profile NAME|PATH] [--corpus PATH]\n"
        "                      [--modes LIST] [--source original|reference]\n"
        "                      [--pose-options SPEC] [--joint-tolerance F]\n"
        "                      [--no-unscale-nodes] [--jobs N] [--no-cache] --out DIR\n\n"
        "Writes the game's own poses as glTF 2.0: for each model file of the corpus\n"
        "DIR/<name>.glb, and for each body with a weapon DIR/<body>+<weapon>.glb with both\n"
        "skeletons in one scene (the weapon under base o attach, as the engine draws\n"
        "it). Each bone is a joint named bone_NNN (NNN its index) with a small bone\n"
        "shape; each clip and mode is an animation (clip_NNN, clip_NNN_slow, ...) with\n"
        "one keyframe per engine tick at 15 per second, taken from the bone matrices the\n"
        "original routines leave after each decoding call: the poses of a run of the\n"
        "frame and pose levels (`ff8diff run --levels frame,pose`: identical clips\n"
        "emulated once, the results cache read and filled). Each animation's extras say\n"
        "how far the translation/rotation/scale decomposition is from those matrices.\n"
        "A joint hangs under its parent's node, with its transform relative to the\n"
        "parent's as a translation, rotation and scale, wherever a viewer composing the\n"
        "file's nodes puts it and what hangs on it (its children at their rest offsets,\n"
        "a leaf's tip) within the joint tolerance of the engine on every keyframe;\n"
        "where a scale under a rotation (the scale path's stack) keeps it from that,\n"
        "under its parent's un-scaling node (bone_NNN_unscale: no joint, no mesh, an\n"
        "animated scale that cancels the parent's, so that the joint composes from the\n"
        "parent's rotation and translation alone); where that fails too (a singular\n"
        "parent) under the model's node by its world transform. Each file's\n"
        "asset.extras name the layout (joint_layout: hierarchy, world or mixed), the\n"
        "joints placed by world and the tolerance; the terminal says it per file.\n\n"
        "  --exe PATH        the game's FF8_EN.exe (default: the built-in stand-in engine)\n"
        "  --profile P       a built-in profile name or a profile file\n"
        "  --corpus PATH     a folder of .dat files, a battle.fs, an install root (2013\n"
        "                    or Remaster), a main.zzz or a battle.fs inside one\n"
        "  --lang XX         the language of an install or main.zzz (default en)\n"
        "                    (default: the synthetic corpus)\n",
        out);
    cli_usage_presets(out);
    fputs("  --seed N          synthetic corpus seed (default 1)\n", out);
    cli_usage_modes(out, "normal");
    fputs(
        "  --source S        original (default) or reference: the reference engine's\n"
        "                    poses under the pose convention, for comparison (no emulation)\n"
        "  --pose-options S  the convention of the run's reference side, as `run` takes it\n"
        "                    (default: the profile's pinned one, else searched); for\n"
        "                    --source reference the poses' own: default the profile's,\n"
        "                    else the search's result remembered for this executable in\n"
        "                    the results cache (a run's or an export's), else searched on\n"
        "                    the original here and remembered (auto: searched). Also the\n"
        "                    attach matrix's trig and step. The terminal and each file's\n"
        "                    asset.extras (pose_convention, pose_convention_source) name\n"
        "                    the convention and where it came from\n"
        "  --joint-tolerance F  how far (a fraction of the skeleton's size: the diagonal\n"
        "                    of the box holding the model's origin and its joints at\n"
        "                    rest) the file's composition of a joint and what hangs on\n"
        "                    it may be from the engine's for the joint to hang under its\n"
        "                    parent (default 0.001, check-gltf's default tolerance)\n"
        "  --no-unscale-nodes  no un-scaling node: a joint that no TRS under its parent\n"
        "                    holds is placed by its world transform (every node a joint)\n"
        "  --jobs N          worker threads (default: all cores;\n"
        "                    FF8DIFF_JOBS in the environment sets another)\n"
        "  --budget N        instructions per emulated call before a fault\n"
        CLI_ENGINE_HELP
        "  --no-cache        neither read nor fill the results cache\n"
        "  --cache-dir DIR   the results cache's folder\n"
        "  --out DIR         the output folder (created when missing)\n"
        "  -q, --quiet       no line per file, no progress line\n"
        "  -h, --help        this text\n\n"
        "Exit: 0 every file written, 1 clips cut short by a fault of the original,\n"
        "2 usage, input or executable errors (bad input files included), 3 internal or\n"
        "resource errors, 130 / 143 interrupted.\n",
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
    CLI_OPT_ROW("pose-options", required_argument, CLI_OPT_POSE_OPTIONS),
    CLI_OPT_ROW("jobs", required_argument, CLI_OPT_JOBS),
    CLI_OPT_ROW("budget", required_argument, CLI_OPT_BUDGET),
    CLI_OPT_ROW("engine", required_argument, CLI_OPT_ENGINE),
    CLI_OPT_ROW("quiet", no_argument, CLI_OPT_QUIET),
    CLI_OPT_ROW("no-cache", no_argument, CLI_OPT_NO_CACHE),
    CLI_OPT_ROW("cache-dir", required_argument, CLI_OPT_CACHE_DIR),
    CLI_OPT_ROW("out", required_argument, CLI_OPT_OWN),
    CLI_OPT_ROW("source", required_argument, CLI_OPT_OWN + 1),
    CLI_OPT_ROW("joint-tolerance", required_argument, CLI_OPT_OWN + 2),
    CLI_OPT_ROW("no-unscale-nodes", no_argument, CLI_OPT_OWN + 3),
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

/* How the joints of a written file are laid out, in words. */
static void layout_words(const gexport_item *it, char *buf, size_t n)
{
    char via[96] = "";
    if (it->unscaled_joints)
        snprintf(via, sizeof via, " (%u under their parent's un-scaling node)", it->unscaled_joints);
    if (!strcmp(it->layout, "hierarchy"))
        snprintf(buf, n, "joints under their parents%s", via);
    else
        snprintf(buf, n, "%u of %u joints placed by their world transform (no TRS a viewer "
                         "can compose under their parent within the tolerance)%s",
                 it->world_joints, it->joints, via);
}

static int report(const gexport_result *r, int quiet)
{
    size_t done = 0, failed = 0, cut = 0, skipped = 0, by_world = 0;
    unsigned long long joints = 0, world = 0, unscaled = 0;
    char lay[256];
    char msg[1024], name[640];
    for (size_t i = 0; i < r->n; i++) {
        const gexport_item *it = &r->items[i];
        cli_safe(it->name, name, sizeof name);
        switch (it->status) {
        case GEXPORT_DONE:
            done++;
            cut += it->clips_cut != 0;
            by_world += it->world_joints != 0;
            joints += it->joints;
            world += it->world_joints;
            unscaled += it->unscaled_joints;
            layout_words(it, lay, sizeof lay);
            if (!quiet)
                printf("%s: %zu animations, %zu keyframes, %s; decomposition error %.3g "
                       "(position %.3g units; placement %.3g units, tolerance %.3g)\n",
                       it->output, it->animations, it->keyframes, lay, it->decomposition_error,
                       it->position_error, it->placement_error, it->tolerance);
            if (it->clips_cut) cli_warn("%s: %zu clips cut short; %s", name, it->clips_cut, it->note);
            break;
        case GEXPORT_FAILED:
            failed++;
            cli_fail("%s: %s", name, ff_error_format(&it->err, msg, sizeof msg));
            break;
        case GEXPORT_SKIPPED:
            skipped++;
            if (!quiet) printf("%s: skipped (%s)\n", name, it->err.reason);
            break;
        case GEXPORT_NOT_RUN: break;
        }
    }
    printf("export: %zu .glb written, %zu failed, %zu skipped; joint layout: %zu with joints "
           "placed by their world transform, %zu with every joint under its parent; %llu of "
           "%llu joints under their parents (roots under the model's node; %llu of them under "
           "their parent's un-scaling node)\n",
           done, failed, skipped, by_world, done - by_world, joints - world, joints, unscaled);
    return failed ? CLI_EXIT_ERROR : cut ? CLI_EXIT_DIFF : CLI_EXIT_OK;
}

/* The export of the original: a run of the frame and pose levels feeding the export's sink. */
typedef struct ex_cli {
    gexport_config ec;
    gexport *x;
    int quiet;
    const run_config *cfg;
    const run_sink *inner; /* the export's sink, behind this command's begin */
    run_sink sink;
    char pose_text[REF_POSE_OPTS_TEXT_MAX];
} ex_cli;

static void before(void *arg, run_meta *m)
{
    ex_cli *c = arg;
    c->ec.meta.exe = m->exe_sha256;
    c->ec.meta.profile = m->profile;
    /* Where the run's convention comes from: the run's own rule (session.c). */
    c->ec.meta.pose_source = cli_pose_source_name(c->cfg->pose_search   ? CLI_POSE_SEARCH
                                                  : c->cfg->pose_pinned ? CLI_POSE_PROFILE
                                                                        : CLI_POSE_GIVEN);
}

/* The convention chosen (after the run's search): into every file's asset.extras, said. */
static int begin(void *arg, const run_results *res, const ref_pose_opts *pose, ff_error *err)
{
    ex_cli *c = arg;
    if (pose) {
        ref_pose_opts_format(pose, c->pose_text, sizeof c->pose_text);
        c->ec.meta.pose = c->pose_text;
        if (!c->quiet)
            fprintf(stderr, "export: pose convention %s (%s)\n", c->pose_text,
                    c->ec.meta.pose_source);
    }
    return c->inner->begin ? c->inner->begin(c->inner->arg, res, pose, err) : 0;
}
static int clip(void *arg, const run_sink_clip *k, ff_error *err)
{
    ex_cli *c = arg;
    return c->inner->clip ? c->inner->clip(c->inner->arg, k, err) : 0;
}
static int unit_done(void *arg, uint32_t file, mode_id mode, int complete, const ff_error *why,
                     ff_error *err)
{
    ex_cli *c = arg;
    return c->inner->unit_done
               ? c->inner->unit_done(c->inner->arg, file, mode, complete, why, err)
               : 0;
}

static int after(void *arg, const run_meta *m, const run_results *res)
{
    (void)m;
    ex_cli *c = arg;
    gexport_result r;
    gexport_close(c->x, res->interrupted, &r);
    c->x = NULL;
    const uint64_t *by = res->totals.by_source;
    printf("original's poses: %llu clips emulated, %llu shared with identical clips, %llu from "
           "the results cache\n",
           (unsigned long long)by[RES_SRC_EMULATED], (unsigned long long)by[RES_SRC_SHARED],
           (unsigned long long)by[RES_SRC_CACHE]);
    int code = report(&r, c->quiet);
    if (res->interrupted) code = cli_interrupted_exit(res->interrupt_signal);
    gexport_result_free(&r);
    return code;
}

static int export_original(cli_session *s, run_config *cfg, const char *corpus_path,
                           const char *out, double jtol, int no_unscale)
{
    ex_cli c;
    memset(&c, 0, sizeof c);
    c.quiet = s->quiet;
    c.cfg = cfg;
    c.ec = (gexport_config){corpus_path, out, GPOSE_ORIGINAL, cfg->pose_opts, cfg->modes, 1,
                            cfg->jobs, {"original", NULL, NULL, NULL, NULL, jtol, no_unscale}, NULL, NULL, NULL,
                            cfg->corpus_lang};
    ff_error err;
    if (gexport_open(&c.ec, &c.x, &err) < 0) {
        cli_print_error(&err);
        return cli_error_exit(&err);
    }
    cfg->frame_level = 1;
    cfg->pose_level = 1;
    cfg->explain = RUN_EXPLAIN_NONE;
    cfg->coverage = 0;
    c.inner = gexport_sink(c.x);
    c.sink = (run_sink){&c, begin, clip, unit_done};
    cfg->sink = &c.sink;
    s->corpus_path = corpus_path;
    s->out_dir = NULL; /* no run report: the .glb files are the output */
    s->before = before;
    s->after = after;
    s->arg = &c;
    int code = cli_session_run(s, cfg);
    if (c.x) { /* the run did not go through: nothing more is written */
        gexport_result r;
        gexport_close(c.x, 1, &r);
        gexport_result_free(&r);
    }
    return code;
}

static int export_reference(const cli_session *s, const run_config *cfg, const char *corpus_path,
                            const char *out, double jtol, int no_unscale)
{
    cli_exe x;
    memset(&x, 0, sizeof x);
    if (cli_exe_open(s->exe, s->profile, &x) != 0) return CLI_EXIT_ERROR;
    ff_error err;
    ff_error_clear(&err);
    ref_pose_opts pose;
    cli_pose_source src;
    char pose_text[REF_POSE_OPTS_TEXT_MAX];
    int code = cli_pose_resolve(s, cfg, &x, corpus_path, &pose, &src, pose_text, sizeof pose_text);
    if (code) {
        cli_exe_close(&x);
        return code;
    }
    volatile sig_atomic_t stop = 0;
    gexport_config ec = {corpus_path, out, GPOSE_REFERENCE, pose, cfg->modes, 1, cfg->jobs,
                         {"reference", emu_image_sha256(x.image), x.profile.name, pose_text,
                          cli_pose_source_name(src), jtol, no_unscale},
                         &stop, NULL, NULL, cfg->corpus_lang};
    gexport_result r;
    cli_signals_install(&stop);
    int rc = gexport_reference(&ec, &r, &err);
    cli_signals_restore();
    if (rc < 0) {
        cli_print_error(&err);
        code = cli_error_exit(&err);
    } else {
        code = report(&r, s->quiet);
        if (r.interrupted) code = cli_interrupted_exit((int)stop);
    }
    gexport_result_free(&r);
    cli_exe_close(&x);
    return code;
}

int cmd_export(int argc, char **argv)
{
    cli_session s;
    cli_session_init(&s, "export");
    run_config cfg;
    run_config_init(&cfg);
    cfg.modes = 1u << MODE_NORMAL;
    const char *out = NULL;
    gpose_source source = GPOSE_ORIGINAL;
    double jtol = 0;
    int no_unscale = 0;
    int c;
    optind = 1;
    while ((c = cli_next_option(&s, &cfg, argc, argv, opts)) != -1) {
        switch (c) {
        case CLI_OPT_FAILED: return CLI_EXIT_ERROR;
        case CLI_OPT_OWN: out = optarg; break;
        case CLI_OPT_OWN + 1:
            if (!strcmp(optarg, "original")) source = GPOSE_ORIGINAL;
            else if (!strcmp(optarg, "reference")) source = GPOSE_REFERENCE;
            else {
                cli_fail("export: --source takes original or reference, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case CLI_OPT_OWN + 2: {
            char *end;
            jtol = strtod(optarg, &end);
            if (*end || !(jtol > 0 && jtol < 1)) {
                cli_fail("export: --joint-tolerance takes a fraction in (0, 1), not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        }
        case CLI_OPT_OWN + 3: no_unscale = 1; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (cli_no_operands(&s, argc, argv) < 0) return CLI_EXIT_ERROR;
    if (!out) {
        cli_fail("export: --out DIR is required");
        return CLI_EXIT_ERROR;
    }
    ff_error err;
    ff_error_clear(&err);
    if (cli_dir_writable(out, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    char corpus_buf[4096];
    const char *corpus_path = s.corpus_path;
    if (!corpus_path) {
        if (cli_synthetic_corpus(s.preset, s.seed, corpus_buf, sizeof corpus_buf))
            return CLI_EXIT_ERROR;
        corpus_path = corpus_buf;
    }
    return source == GPOSE_ORIGINAL
               ? export_original(&s, &cfg, corpus_path, out, jtol, no_unscale)
               : export_reference(&s, &cfg, corpus_path, out, jtol, no_unscale);
}
