/*
 * harness/cli/cmd_check_gltf.c: `ff8diff check-gltf EXPORT --dat FILE.dat`:
 * a viewer's export of one model (read by Assimp) against the game's poses
 * of that file, emulated from the executable by a run of the frame and pose
 * levels (harness/gltf/export.h), compared by harness/gltf/gcheck.h, with a
 * report in --out (harness/gltf/greport.h).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "corpus/fileio.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/gltf/export.h"
#include "harness/gltf/gcheck.h"
#include "harness/gltf/greport.h"
#include "ref/dat.h"
#include "common/path.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff check-gltf EXPORT --dat FILE.dat [--exe PATH] [--profile P]\n"
          "                          [--tolerance F] [--pose-options SPEC] [--no-cache]\n"
          "                          [--out DIR]\n\n"
          "Checks a viewer's export of one model (.glb, .gltf, or another format Assimp\n"
          "reads) against the game's own poses of FILE.dat, emulated from the executable\n"
          "(default: the stand-in engine), normal mode. Finds which animation is which\n"
          "clip (by the clip number in its name, else by key count and motion), which\n"
          "joint is which bone (by the number in its name, else by the hierarchy), the\n"
          "axis convention, the scale (fitted on the clips that agree: a clip that departs\n"
          "wildly is reported, not fitted) and the frame rate, says so and what it could\n"
          "not match, then compares every joint's world position on every frame.\n\n"
          "  --dat FILE        the model file the export was made from\n"
          "  --exe PATH        the game's FF8_EN.exe (default: the built-in stand-in engine)\n"
          "  --profile P       a built-in profile name or a profile file\n"
          "  --tolerance F     allowed distance, as a fraction of the skeleton's size\n"
          "                    (its bounding box diagonal; default 0.001)\n"
          "  --pose-options S  the pose convention of the run's reference side (its\n"
          "                    comparison is not looked at; auto: searched). Default, as\n"
          "                    `run` takes it: the profile's pinned one, else the search's\n"
          "                    result remembered for this executable in the results cache,\n"
          "                    else searched on the original here (and remembered); the\n"
          "                    terminal names the convention and where it came from\n"
          "  --no-cache        neither read nor fill the results cache\n"
          "  --cache-dir DIR   the results cache's folder\n"
          "  --out DIR         report folder (default: reports/gltf-<name>): report.json,\n"
          "                    index.html, summary.md, junit.xml\n"
          "  -h, --help        this text\n\n"
          "Exit: 0 every clip matched and within tolerance, 1 a clip departs or has no\n"
          "animation, 2 usage, input or executable errors (a file that cannot be read, or no\n"
          "mapping fits: the reason is printed), 3 internal or resource errors.\n",
          out);
}

static const struct option opts[] = {
    CLI_OPT_ROW("exe", required_argument, CLI_OPT_EXE),
    CLI_OPT_ROW("profile", required_argument, CLI_OPT_PROFILE),
    CLI_OPT_ROW("quiet", no_argument, CLI_OPT_QUIET),
    CLI_OPT_ROW("pose-options", required_argument, CLI_OPT_POSE_OPTIONS),
    CLI_OPT_ROW("no-cache", no_argument, CLI_OPT_NO_CACHE),
    CLI_OPT_ROW("cache-dir", required_argument, CLI_OPT_CACHE_DIR),
    CLI_OPT_ROW("out", required_argument, CLI_OPT_OWN),
    CLI_OPT_ROW("dat", required_argument, CLI_OPT_OWN + 1),
    CLI_OPT_ROW("tolerance", required_argument, CLI_OPT_OWN + 2),
    {"help", no_argument, 0, 'h'},
    {0, 0, 0, 0}};

static void summary(const gck_result *r, const char *dir)
{
    if (r->refused) return;
    const unsigned *j = r->joints_count;
    const size_t *c = r->clips_count;
    printf("correspondence: joints by %s, axes %s, scale %.6g, %.4g fps; %zu of %zu clips matched; "
           "the axes and scale fitted on %zu of them\n",
           r->joints_by, r->axes, r->scale, r->fps, r->matched, r->nclips, r->fit_clips);
    printf("matched: joints %u by name, %u by hierarchy, %u not at all; clips %zu by name, %zu by "
           "motion, %zu not at all\n",
           j[GCK_BY_NAME], j[GCK_BY_HIERARCHY], j[GCK_BY_NONE], c[GCK_BY_NAME], c[GCK_BY_MOTION],
           c[GCK_BY_NONE]);
    if (j[GCK_BY_NONE]) {
        printf("bones without a joint (not compared):");
        for (unsigned b = 0; b < r->bones; b++)
            if (r->joint_by[b] == GCK_BY_NONE) printf(" %u", b);
        printf("\n");
    }
    for (size_t i = 0; i < r->nclips; i++) {
        const gck_clip *g = &r->clips[i];
        if (g->anim < 0) printf("clip %u: no animation of the export matches it\n", g->clip);
        if (g->first >= 0)
            printf("clip %u: departs at frame %ld, bone %u: game (%.6g, %.6g, %.6g), export (%.6g, "
                   "%.6g, %.6g), %.4g units off%s\n",
                   g->clip, g->first, g->first_bone, g->first_game[0], g->first_game[1],
                   g->first_game[2], g->first_viewer[0], g->first_viewer[1], g->first_viewer[2],
                   g->first_err, g->in_fit ? "" : " (departs from the axes and scale the other "
                                                  "clips agree on)");
    }
    printf("check-gltf: %zu clips depart, %zu clips without animation, tolerance %.4g units; "
           "report in %s\n",
           r->departing, r->nclips - r->matched, r->tolerance, dir);
}

static int run(const char *path, const char *dat_path, const cli_session *s,
               const run_config *cfg, double tol, const char *out)
{
    ff_error err;
    ff_error_clear(&err);
    uint8_t *data = NULL;
    size_t size;
    dat_file d;
    gview v;
    gpose_scene game;
    gck_result r;
    memset(&v, 0, sizeof v);
    gpose_scene_init(&game);
    memset(&r, 0, sizeof r);
    if (file_read_all(dat_path, &data, &size, &err) < 0 || dat_parse(data, size, dat_path, &d, &err) < 0 ||
        gview_load(path, &v, &err) < 0) {
        cli_print_error(&err);
        free(data);
        return CLI_EXIT_ERROR;
    }
    cli_exe x;
    memset(&x, 0, sizeof x);
    int code = CLI_EXIT_ERROR;
    if (cli_exe_open(s->exe, s->profile, &x) != 0) goto done;
    /* The run's reference side needs a convention: the one a run takes, said. */
    ref_pose_opts pose;
    cli_pose_source src;
    char pose_text[REF_POSE_OPTS_TEXT_MAX];
    if ((code = cli_pose_resolve(s, cfg, &x, dat_path, &pose, &src, pose_text,
                                 sizeof pose_text)) != 0)
        goto done;
    code = CLI_EXIT_ERROR;
    if (gexport_model_poses(x.image, NULL, dat_path, 1u << MODE_NORMAL, &pose, 0, &game, &err) <
            0 ||
        gck_run(&v, &game, tol, &r, &err) < 0) {
        cli_print_error(&err);
        code = cli_error_exit(&err);
        goto done;
    }
    greport_meta m = {path,         dat_path, emu_image_sha256(x.image), x.profile.name,
                      pose_text,    cli_pose_source_key(src), cli_pose_source_name(src)};
    if (greport_write(out, &m, &r, &err) < 0) {
        cli_print_error(&err);
        code = CLI_EXIT_INTERNAL;
        goto done;
    }
    if (r.refused) {
        char msg[640];
        cli_fail("check-gltf: no mapping fits: %s (report in %s)", cli_safe(r.reason, msg, sizeof msg), out);
        code = CLI_EXIT_ERROR;
        goto done;
    }
    summary(&r, out);
    code = r.departing || r.matched < r.nclips ? CLI_EXIT_DIFF : CLI_EXIT_OK;
done:
    gck_free(&r);
    gpose_scene_free(&game);
    gview_free(&v);
    cli_exe_close(&x);
    free(data);
    return code;
}

int cmd_check_gltf(int argc, char **argv)
{
    cli_session s;
    cli_session_init(&s, "check-gltf");
    run_config cfg;
    run_config_init(&cfg);
    const char *out = NULL, *dat = NULL;
    double tol = 0;
    int c;
    optind = 1;
    while ((c = cli_next_option(&s, &cfg, argc, argv, opts)) != -1) {
        switch (c) {
        case CLI_OPT_FAILED: return CLI_EXIT_ERROR;
        case CLI_OPT_OWN: out = optarg; break;
        case CLI_OPT_OWN + 1: dat = optarg; break;
        case CLI_OPT_OWN + 2: {
            char *end;
            tol = strtod(optarg, &end);
            if (*end || !(tol > 0 && tol < 1)) {
                cli_fail("check-gltf: --tolerance takes a fraction in (0, 1), not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        }
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (optind != argc - 1 || !dat) {
        cli_fail("check-gltf: give one EXPORT file and --dat FILE.dat");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    const char *path = argv[optind];
    char outbuf[4096];
    if (!out) {
        snprintf(outbuf, sizeof outbuf, "reports/gltf-%s", path_base(dat));
        out = outbuf;
    }
    ff_error err;
    if (cli_dir_writable(out, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    return run(path, dat, &s, &cfg, tol, out);
}
