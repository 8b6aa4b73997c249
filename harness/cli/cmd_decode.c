/*
 * harness/cli/cmd_decode.c: `ff8diff decode FILE...`: the reference engine
 * over .dat files, printing Trace JSON Lines v1 (file, mode, anim, tick
 * order) or, with --summary, one line of figures per file.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file.h"
#include "corpus/manifest.h"
#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/core/modes.h"
#include "harness/run/quirkside.h"
#include "harness/run/refside.h"
#include "harness/run/refside_entity.h"
#include "harness/traces/trace_json.h"
#include "ref/dat.h"
#include "ref/engine.h"
#include "common/path.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff decode FILE... [--mode normal|slow|fast|slow+fast|all]\n"
          "                              [--anim N] [--pose [--pose-options SPEC]]\n"
          "                              [--summary] [--exe PATH] [--profile P]\n"
          "       ff8diff decode BODY [--weapon WEAPON | --entity] [--mode ...] [--anim N]\n\n"
          "Decodes battle .dat files with the reference engine and prints one Trace JSON\n"
          "Lines v1 object per engine call (StartClip, then Battle_ReadAnimation up to and\n"
          "including the first call that returns 1), file by file, mode by mode, anim by\n"
          "anim.\n\n"
          "  --mode LIST      modes, comma separated, or all (default: normal)\n"
          "  --anim N         only animation N\n"
          "  --pose           also the pose level: after every decoding call the bone\n"
          "                   matrices (\"mat\") and the world matrices under the identity\n"
          "                   (\"world\") and the fixed base (\"placed\")\n"
          "  --pose-options SPEC  the convention (ref/pose.h text form; keys left out take\n"
          "                   the defaults order=xyz,trig=x87-nearest,step=nearest-even,\n"
          "                   root=model,offset=+z,length=parent,scale=stack,width=32)\n"
          "  --exe PATH       with --pose: the executable whose convention to pose under,\n"
          "                   taken as `run` takes it: --pose-options, else the profile's\n"
          "                   pinned one, else the search's result remembered for this\n"
          "                   executable in the results cache, else searched on the\n"
          "                   original (the first FILE) and remembered; stderr names it\n"
          "  --profile P      a built-in profile name or a profile file (implies the\n"
          "                   stand-in when --exe is not given)\n"
          "  --no-cache       with --exe: neither read nor fill the results cache\n"
          "  --cache-dir DIR  the results cache's folder\n"
          "  --summary        per file: kind, bones, clips, frames, clips using the scale path,\n"
          "                   the engine's quirks its clips exercise (docs/quirks.md)\n"
          "  --switch ROWS    the reference with these rows of the quirk table switched\n"
          "                   (comma-separated names, docs/quirks.md): what a decoder that\n"
          "                   reads plainly there, or departs there, writes (frame level)\n"
          "  --weapon WEAPON  BODY and WEAPON as one entity: QueueAnimation, then AdvanceBy1\n"
          "                   to the body's end call, on the clips both have; per clip the\n"
          "                   weapon's lines (\"model\":\"weapon\", no \"ret\") then the body's,\n"
          "                   each naming the pair in \"entity\"\n"
          "  --entity         the same for BODY alone (a NULL weapon slot)\n"
          "  --attach RX,RY,RZ,TX,TY,TZ  the weapon slot's attach rotation and translation\n"
          "                   (default 0s): with --pose the weapon's world matrices are\n"
          "                   under base o attach (rotation in the order zyx)\n"
          "  -h, --help       this text\n\n"
          "Errors go to stderr; the exit code is then 2 (other files are still decoded).\n",
          out);
}

/* A comma-separated list of quirk-table rows into *mask; -1 (said) on an unknown name. */
static int parse_rows(const char *list, uint32_t *mask)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *save = NULL, *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
        int q = ref_quirk_from_name(w);
        if (q < 0) {
            cli_fail("decode: --switch: no row '%s' in the quirk table (docs/quirks.md)", w);
            return -1;
        }
        *mask |= REF_QUIRK_BIT(q);
    }
    return 0;
}

static int decode_file(const char *path, const dat_file *dat, unsigned modes, long anim,
                       const ref_pose_opts *pose, uint32_t mask, strbuf *out, ff_error *err)
{
    if (!dat_kind_has_model(dat->kind)) return 0;
    size_t skel_size = ref_skel_size(dat);
    uint8_t *skel = malloc(skel_size);
    if (!skel) return ff_error_set(err, FF_E_NOMEM, path, -1, "out of memory");
    ref_anim a;
    field_set fields =
        field_set_of_levels(1u << FIELD_LEVEL_FRAME | (pose ? 1u << FIELD_LEVEL_POSE : 0));
    trace t;
    trace_init(&t);
    int rc = ref_anim_init(&a, dat, skel, skel_size, err);
    tj_clip c = {0};
    snprintf(c.file, sizeof c.file, "%s", path_base(path));
    snprintf(c.model, sizeof c.model, "%s", dat_kind_name(dat->kind));
    for (int m = 0; rc == 0 && m < MODE__COUNT; m++) {
        if (!(modes & (1u << m))) continue;
        c.mode = (mode_id)m;
        for (uint32_t k = 0; k < dat->clips; k++) {
            if (anim >= 0 && k != (uint32_t)anim) continue;
            c.anim = k;
            rc = mask ? quirkside_trace(&a, mode_flags(c.mode), k, &fields, mask, &t, err)
                      : refside_clip(&a, mode_flags(c.mode), k, &fields, pose, &t, err);
            tj_write_trace(out, &c, &t); /* the calls made before an error too */
            fwrite(out->s, 1, out->len, stdout);
            sb_reset(out);
            if (rc < 0) break;
        }
    }
    trace_free(&t);
    free(skel);
    return rc;
}

/* One model file, read and parsed; its bytes stay in *data (caller frees). */
static int load(const char *path, uint8_t **data, dat_file *dat, ff_error *err)
{
    size_t size = 0;
    *data = NULL;
    if (file_read_all(path, data, &size, err) < 0) return -1;
    if (dat_parse(*data, size, path, dat, err) < 0) return -1;
    if (!dat_kind_has_model(dat->kind))
        return ff_error_set(err, FF_E_FORMAT, path, -1, "a %s file holds no model to animate",
                            dat_kind_name(dat->kind));
    return 0;
}


/* The clips of an entity (weapon_path NULL: no weapon slot) as entity lines. */
static int decode_entity(const char *body_path, const char *weapon_path, unsigned modes, long anim,
                         const refside_entity_pose *pose, strbuf *out, ff_error *err)
{
    uint8_t *bdata = NULL, *wdata = NULL, *bskel = NULL, *wskel = NULL;
    dat_file bd, wd;
    ref_anim ba, wa;
    ref_entity e = {&ba, NULL, NULL};
    ent_trace t;
    ent_trace_init(&t);
    int rc = load(body_path, &bdata, &bd, err);
    if (rc == 0 && weapon_path) rc = load(weapon_path, &wdata, &wd, err);
    if (rc == 0 && !(bskel = malloc(ref_skel_size(&bd))))
        rc = ff_error_set(err, FF_E_NOMEM, body_path, -1, "out of memory");
    if (rc == 0) rc = ref_anim_init(&ba, &bd, bskel, ref_skel_size(&bd), err);
    if (rc == 0 && weapon_path) {
        if (!(wskel = malloc(ref_skel_size(&wd))))
            rc = ff_error_set(err, FF_E_NOMEM, weapon_path, -1, "out of memory");
        if (rc == 0) rc = ref_anim_init(&wa, &wd, wskel, ref_skel_size(&wd), err);
        e.weapon = &wa;
    }
    uint32_t clips = rc == 0 ? bd.clips : 0;
    if (rc == 0 && weapon_path && wd.clips < clips) clips = wd.clips;
    if (rc == 0 && anim >= 0 && (uint32_t)anim >= clips)
        rc = ff_error_set(err, FF_E_RANGE, body_path, -1, "no animation %ld (%u clips both have)",
                          anim, clips);
    field_set fields = field_set_of_levels(1u << FIELD_LEVEL_FRAME |
                                           (pose ? 1u << FIELD_LEVEL_POSE : 0));
    for (int m = 0; rc == 0 && m < MODE__COUNT; m++) {
        if (!(modes & (1u << m))) continue;
        for (uint32_t k = 0; rc == 0 && k < clips; k++) {
            if (anim >= 0 && k != (uint32_t)anim) continue;
            /* the status that reaches the mode; none reaches slow+fast: its flags preset alone */
            int st = entity_status_of_mode((mode_id)m);
            ref_entity_speed sp = st >= 0 ? refside_entity_speed((entity_status_id)st)
                                          : (ref_entity_speed){0, 0, NULL};
            rc = refside_entity_clip(&e, st >= 0 ? &sp : NULL, mode_flags((mode_id)m), k, &fields,
                                     pose, &t, err);
            /* the calls made before an error too */
            tj_write_entity(out, path_base(body_path), weapon_path ? path_base(weapon_path) : NULL,
                            k, (mode_id)m, t.armed ? &t.weapon : NULL, &t.body);
            fwrite(out->s, 1, out->len, stdout);
            sb_reset(out);
        }
    }
    ent_trace_free(&t);
    free(bskel);
    free(wskel);
    free(bdata);
    free(wdata);
    return rc;
}

static int summarize(const char *path, const uint8_t *data, size_t size, ff_error *err)
{
    manifest_entry e;
    if (manifest_analyze(path, data, size, &e, err) < 0) return -1;
    int rc = 0;
    if (!e.parsed) {
        *err = e.error;
        rc = -1;
    } else {
        uint32_t counts[REF_Q__COUNT] = {0};
        char quirks[512] = "not studied (no model)";
        dat_file dat;
        if (dat_kind_has_model(e.kind) && !e.bad && dat_parse(data, size, path, &dat, err) == 0) {
            if (quirkside_file(&dat, counts, err) < 0) rc = -1;
            else quirkside_counts_text(counts, quirks, sizeof quirks);
        }
        printf("%s: kind %s, bones %u, clips %u, frames %lu, scale-path clips %u, quirks "
               "(clip x mode): %s\n",
               path, dat_kind_name(e.kind), e.bones, e.clips, (unsigned long)e.frames,
               e.scale_clips, quirks);
        if (e.bad) {
            *err = e.error;
            rc = -1;
        }
    }
    manifest_entry_clear(&e);
    return rc;
}

/* "RX,RY,RZ,TX,TY,TZ": six s16 values. Returns 0, or -1 when malformed. */
static int parse_attach(const char *text, int16_t out[6])
{
    const char *p = text;
    for (int k = 0; k < 6; k++) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < INT16_MIN || v > INT16_MAX || *end != (k < 5 ? ',' : '\0')) return -1;
        out[k] = (int16_t)v;
        p = end + 1;
    }
    return 0;
}

/* --pose with an executable: its convention as a run takes it (cli_pose_resolve), said. */
static int executable_convention(cli_session *ses, int given, const char *first,
                                 ref_pose_opts *o)
{
    cli_exe x;
    memset(&x, 0, sizeof x);
    if (cli_exe_open(ses->exe, ses->profile, &x) != 0) return CLI_EXIT_ERROR;
    run_config cfg;
    run_config_init(&cfg);
    ses->pose_given = given;
    cfg.pose_opts = *o;
    cli_pose_source src;
    char text[REF_POSE_OPTS_TEXT_MAX];
    int code = cli_pose_resolve(ses, &cfg, &x, first, o, &src, text, sizeof text);
    cli_exe_close(&x);
    return code;
}

int cmd_decode(int argc, char **argv)
{
    static const struct option opts[] = {{"mode", required_argument, 0, 'm'},
                                         {"anim", required_argument, 0, 'a'},
                                         {"summary", no_argument, 0, 's'},
                                         {"pose", no_argument, 0, 'p'},
                                         {"pose-options", required_argument, 0, 'o'},
                                         {"weapon", required_argument, 0, 'w'},
                                         {"entity", no_argument, 0, 'e'},
                                         {"attach", required_argument, 0, 't'},
                                         {"switch", required_argument, 0, 'q'},
                                         {"exe", required_argument, 0, 'x'},
                                         {"profile", required_argument, 0, 'P'},
                                         {"no-cache", no_argument, 0, 'n'},
                                         {"cache-dir", required_argument, 0, 'C'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    unsigned modes = 1u << MODE_NORMAL;
    long anim = -1;
    int summary = 0, pose = 0, entity = 0, given = 0, c;
    uint32_t mask = 0;
    cli_session ses;
    cli_session_init(&ses, "decode");
    const char *weapon = NULL;
    int16_t attach[6] = {0};
    ref_pose_opts pose_opts;
    ref_pose_opts_default(&pose_opts);
    ff_error perr;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        unsigned long v;
        char bad[32];
        switch (c) {
        case 'm':
            if (mode_parse_list(optarg, &modes, bad, sizeof bad) < 0) {
                char words[96];
                cli_fail("decode: unknown mode '%s' (%s)", bad,
                         mode_list_words(words, sizeof words));
                return CLI_EXIT_ERROR;
            }
            break;
        case 'a':
            if (cli_parse_uint(optarg, 0, 255, &v) < 0) {
                cli_fail("decode: --anim takes an animation index 0..255, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            anim = (long)v;
            break;
        case 's': summary = 1; break;
        case 'p': pose = 1; break;
        case 'x': ses.exe = optarg; break;
        case 'P': ses.profile = optarg; break;
        case 'n': ses.use_cache = 0; break;
        case 'C': ses.cache_dir = optarg; break;
        case 'o':
            pose = given = 1;
            if (ref_pose_opts_parse(optarg, &pose_opts, &perr) < 0) {
                cli_fail("decode: --pose-options: %s", perr.reason);
                return CLI_EXIT_ERROR;
            }
            break;
        case 'w': weapon = optarg; /* fall through */
        case 'e': entity = 1; break;
        case 't':
            if (parse_attach(optarg, attach) < 0) {
                cli_fail("decode: --attach takes six integers -32768..32767, RX,RY,RZ,TX,TY,TZ, "
                         "not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case 'q':
            if (parse_rows(optarg, &mask) < 0) return CLI_EXIT_ERROR;
            break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (mask && (pose || entity || summary)) {
        cli_fail("decode: --switch decodes at the frame level: not with --pose, --weapon, "
                 "--entity or --summary");
        return CLI_EXIT_ERROR;
    }
    if (optind >= argc) {
        cli_fail("decode: no FILE given");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    if (pose && (ses.exe || ses.profile)) {
        int code = executable_convention(&ses, given, argv[optind], &pose_opts);
        if (code) return code;
    }
    int status = CLI_EXIT_OK;
    strbuf out;
    sb_init(&out);
    if (entity) {
        if (summary || argc - optind != 1) {
            cli_fail("decode: --weapon and --entity take one BODY file%s",
                     summary ? " and no --summary" : "");
            sb_free(&out);
            return CLI_EXIT_ERROR;
        }
        ff_error err;
        ff_error_clear(&err);
        refside_entity_pose ep;
        if (pose) refside_entity_pose_make(&pose_opts, attach, attach + 3, &ep);
        if (decode_entity(argv[optind], weapon, modes, anim, pose ? &ep : NULL, &out, &err) < 0) {
            cli_print_error(&err);
            status = CLI_EXIT_ERROR;
        }
        fflush(stdout);
        sb_free(&out);
        return status;
    }
    for (int i = optind; i < argc; i++) {
        ff_error err;
        ff_error_clear(&err);
        uint8_t *data = NULL;
        size_t size = 0;
        dat_file dat;
        int rc = file_read_all(argv[i], &data, &size, &err);
        if (rc == 0 && summary) rc = summarize(argv[i], data, size, &err);
        else if (rc == 0) {
            rc = dat_parse(data, size, argv[i], &dat, &err);
            if (rc == 0 && anim >= 0 && dat_kind_has_model(dat.kind) &&
                (uint32_t)anim >= dat.clips)
                rc = ff_error_set(&err, FF_E_RANGE, argv[i], -1, "no animation %ld (%u clips)",
                                  anim, dat.clips);
            if (rc == 0)
                rc = decode_file(argv[i], &dat, modes, anim, pose ? &pose_opts : NULL, mask, &out,
                                 &err);
        }
        fflush(stdout);
        if (rc < 0) {
            cli_print_error(&err);
            status = CLI_EXIT_ERROR;
        }
        free(data);
    }
    sb_free(&out);
    return status;
}
