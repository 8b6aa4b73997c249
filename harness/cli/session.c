/*
 * harness/cli/session.c: shared set-up of run-like commands: output
 * locations checked before any work, the executable and its profile, the
 * corpus, the results cache, the run and the exit code.
 * (The options they share: session_options.c; the report written and the
 * run's closing lines: session_report.c; the signal handlers and their
 * state: signals.c; the progress line: progress.c.)
 */
#include "harness/cli/session.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/path.h"
#include "common/sha256.h"
#include "corpus/fileio.h"
#include "corpus/synth.h"
#include "emu/profiles/identify.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/cli/cli.h"

/* Bump when the synthetic generator's output changes: names the corpus cache folder. */
#define SYNTH_CACHE_VERSION 2

static int choose_profile(const char *path, const char *profile_arg, emu_profile *p)
{
    ff_error err;
    if (profile_arg) {
        if (cli_profile_arg(profile_arg, p, &err) < 0) {
            cli_print_error(&err);
            return CLI_EXIT_ERROR;
        }
        return 0;
    }
    identify_result *res = malloc(sizeof *res);
    if (!res) {
        cli_fail("out of memory");
        return CLI_EXIT_ERROR;
    }
    int rc = 0;
    if (identify_file(path, NULL, res, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_EXIT_ERROR;
    } else if (res->accepted < 0 && res->remaster != IDENTIFY_REMASTER_NONE) {
        cli_fail("%s: unsupported: %s", path, res->remaster_note);
        rc = CLI_EXIT_ERROR;
    } else if (res->accepted < 0) {
        cli_fail("%s: unsupported build: no profile accepts it", path);
        if (!res->is_pe) cli_fail("  %s", res->pe_reason);
        for (unsigned i = 0; i < res->nmatches; i++)
            cli_fail("  profile %s: %s", res->matches[i].profile, res->matches[i].reason);
        cli_fail("  (ff8diff identify %s says more; another build of the engine may have its "
                 "routines elsewhere: ff8diff identify %s --locate --write-profile FILE, then "
                 "--profile FILE)",
                 path, path);
        rc = CLI_EXIT_ERROR;
    } else if (profile_builtin_by_name(res->matches[res->accepted].profile, p, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_EXIT_ERROR;
    }
    free(res);
    return rc;
}

/*
 * A digest of what the profile tells the emulator (image base, routines and
 * globals with their addresses, scratch size), so two profiles of one name
 * never share cache entries.
 */
static int profile_digest(const emu_profile *p, char out[SHA256_HEX])
{
    strbuf b;
    sb_init(&b);
    sb_printf(&b, "base=%x;scratch=%x;", p->image_base, p->scratch_size);
    for (unsigned i = 0; i < p->nroutines; i++)
        sb_printf(&b, "r:%s@%x/%u;", p->routines[i].name, p->routines[i].address,
                  p->routines[i].args);
    for (unsigned i = 0; i < p->nglobals; i++)
        sb_printf(&b, "g:%s@%x+%x;", p->globals[i].name, p->globals[i].address, p->globals[i].size);
    ff_error err;
    int rc = strbuf_failed(&b) ? -1 : sha256_hex(b.s, b.len, out, &err);
    sb_free(&b);
    return rc;
}

int cli_exe_open(const char *exe_path, const char *profile_arg, cli_exe *out)
{
    memset(out, 0, sizeof *out);
    char standin[4096];
    cli_standin_path(standin, sizeof standin);
    const char *path = exe_path ? exe_path : standin;
    snprintf(out->path, sizeof out->path, "%s", path);
    if (!exe_path && !profile_arg) profile_arg = "standin";
    if (!exe_path && access(path, R_OK) != 0) {
        cli_fail("the stand-in engine %s is missing (%s): build ff8diff first (or install "
                 "it), or set FF8DIFF_STANDIN",
                 path, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    int rc = choose_profile(path, profile_arg, &out->profile);
    if (rc) return rc;
    ff_error err;
    if (emu_image_load(path, &out->profile, &out->image, out->warning, sizeof out->warning, &err) <
        0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    int known = emu_image_known(out->image);
    snprintf(out->verdict, sizeof out->verdict, "%s", known ? "known" : "unknown_build");
    if (!known) {
        /* One short warning: the details are identify's and the report's (executable.warning). */
        char diffs[1024], sizes[64] = "";
        int nd = cli_size_differences(path, &out->profile, diffs, sizeof diffs);
        if (nd > 0)
            snprintf(sizes, sizeof sizes, "; %d routine%s differ%s in size", nd, nd == 1 ? "" : "s",
                     nd == 1 ? "s" : "");
        cli_warn("unknown build of %.20s (fingerprints hold%s): results hold as far as its "
                 "routines match (identify)",
                 out->profile.name, sizes);
        /* What the image's loading said besides (a section cut short), after the verdict. */
        const char *more = strstr(out->warning, "; ");
        if (more) cli_warn("%s", more + 2);
        /* The routines named in the report (executable.warning), as identify names them. */
        size_t used = strlen(out->warning);
        int k = nd > 0 && used < sizeof out->warning
                    ? snprintf(out->warning + used, sizeof out->warning - used,
                               "; %d routine%s of this build differ%s in size from profile "
                               "'%s': %s",
                               nd, nd == 1 ? "" : "s", nd == 1 ? "s" : "", out->profile.name, diffs)
                    : 0;
        if (k < 0) out->warning[used] = '\0'; /* as much as fits, else nothing */
    } else if (out->warning[0]) {
        cli_warn("%s", out->warning);
    }
    if (out->profile.located)
        fprintf(stderr,
                "ff8diff: profile %s was located by structure in %s from profile %s "
                "(ff8diff identify --locate); every report says so\n",
                out->profile.name, out->profile.located_from.executable,
                out->profile.located_from.from_profile);
    char digest[SHA256_HEX];
    if (profile_digest(&out->profile, digest) < 0) {
        cli_fail("cannot hash the profile: internal error");
        return CLI_EXIT_INTERNAL;
    }
    snprintf(out->id, sizeof out->id, "%s/%s/%.16s", emu_image_sha256(out->image),
             out->profile.name, digest);
    return 0;
}

void cli_exe_close(cli_exe *x)
{
    emu_image_free(x->image);
    x->image = NULL;
}

int cli_cache_root(char *buf, size_t n, ff_error *err)
{
    const char *env = getenv("FF8DIFF_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && *env) return path_format(buf, n, err, "%s", env);
    if (xdg && *xdg) return path_join(buf, n, xdg, "ff8diff", err);
    if (home && *home) return path_join(buf, n, home, ".cache/ff8diff", err);
    return path_format(buf, n, err, ".ff8diff-cache");
}

int cli_synthetic_corpus(const char *preset, uint64_t seed, char *path, size_t n)
{
    int p = synth_preset_from_name(preset);
    if (p < 0) {
        cli_fail("unknown preset '%s' (small, vanilla, cover)", preset);
        return CLI_EXIT_ERROR;
    }
    char root[4096], tmp[4200], parent[4200];
    ff_error err;
    if (cli_cache_root(root, sizeof root, &err) < 0 ||
        path_format(path, n, &err, "%s/corpus/%s-seed%llu-v%d", root, preset,
                    (unsigned long long)seed, SYNTH_CACHE_VERSION) < 0 ||
        path_join(parent, sizeof parent, root, "corpus", &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    if (fio_is_dir(path)) return 0;
    /* A new folder of our own: nothing planted at the name is written through. */
    int made = fio_mkdirs(parent, &err) == 0 ? -1 : -2;
    for (int k = 0; made == -1 && k < 100; k++) {
        snprintf(tmp, sizeof tmp, "%s.tmp.%ld.%d", path, (long)getpid(), k);
        if (fio_mkdir_new(tmp, &err) == 0) made = 0;
    }
    if (made < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    synth_summary sum;
    memset(&sum, 0, sizeof sum);
    fprintf(stderr, "ff8diff: generating the synthetic '%s' corpus (seed %llu) into %s\n", preset,
            (unsigned long long)seed, path);
    if (synth_write(tmp, (synth_preset)p, seed, &sum, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    if (rename(tmp, path) != 0 && !fio_is_dir(path)) {
        cli_fail("cannot move %s to %s: %s", tmp, path, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    return 0;
}

/* ---- reports ---- */

void cli_meta_exe(run_meta *m, const cli_exe *x)
{
    m->exe_path = x->path;
    m->exe_sha256 = emu_image_sha256(x->image);
    m->profile = x->profile.name;
    m->profile_source = x->profile.source;
    m->exe_verdict = x->verdict;
    m->exe_warning = x->warning;
    if (x->profile.located) {
        m->located_from = x->profile.located_from.from_profile;
        m->located_exe = x->profile.located_from.executable;
        m->located_patterns = x->profile.located_from.patterns;
        m->located_tool = x->profile.located_from.tool;
    }
}

int cli_error_exit(const ff_error *err)
{
    return err->kind == FF_E_NOMEM || err->kind == FF_E_INTERNAL || err->kind == FF_E_EMU
               ? CLI_EXIT_INTERNAL
               : CLI_EXIT_ERROR;
}

/* ---- a whole run ---- */

cache *cli_open_cache(const cli_session *s, char *dir, size_t n, char *warning, size_t wn)
{
    char root[4096], msg[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64];
    cache *c = NULL;
    ff_error err;
    int rc = s->cache_dir ? path_format(root, sizeof root, &err, "%s", s->cache_dir)
                          : cli_cache_root(root, sizeof root, &err);
    if (rc == 0) rc = path_join(dir, n, root, "results", &err);
    if (rc < 0 || cache_open(dir, (uint64_t)s->cache_limit_mb << 20, &c, &err) < 0) {
        snprintf(warning, wn, "running without the results cache: %s",
                 ff_error_format(&err, msg, sizeof msg));
        cli_warn("%s", warning);
        return NULL;
    }
    if (cache_writable(c, &err) < 0) {
        snprintf(warning, wn,
                 "the results cache cannot be written (%s): its entries are read, "
                 "no new one is stored",
                 ff_error_format(&err, msg, sizeof msg));
        cli_warn("%s", warning);
    }
    return c;
}

/* A run-stopping error in writing an output (the recorded traces) is a resource error. */
static int run_error_exit(const ff_error *err, const run_config *cfg)
{
    size_t n = cfg->record_dir ? strlen(cfg->record_dir) : 0;
    if (n && err->kind == FF_E_IO && strncmp(err->file, cfg->record_dir, n) == 0)
        return CLI_EXIT_INTERNAL;
    return cli_error_exit(err);
}

static void meta_options(run_meta *meta, const run_config *cfg, const run_progress *p)
{
    meta->modes = cfg->modes;
    meta->frame_level = cfg->frame_level;
    meta->entity_level = cfg->entity_level;
    meta->leaf_level = cfg->leaf_level;
    meta->pose_level = cfg->pose_level;
    meta->jobs = cfg->jobs;
    meta->leaf_calls = cfg->leaf_calls;
    meta->seed = cfg->seed;
    meta->keep_matrices = cfg->game.keep_matrices;
    meta->dedup = cfg->dedup;
    meta->explain = cfg->explain == RUN_EXPLAIN_NONE  ? "none"
                    : cfg->explain == RUN_EXPLAIN_ALL ? "all"
                                                      : "groups";
    meta->coverage = cfg->coverage && cfg->image && !cfg->traces_dir;
    meta->traces_dir = cfg->traces_dir;
    meta->against_dir = cfg->against_dir;
    meta->emulated_calls = atomic_load(&p->emulated_calls);
}

/* What each side is called and where it came from. */
static void meta_sides(run_meta *meta, const run_config *cfg, const run_results *r)
{
    if (cfg->against_dir) {
        unsigned f = r->cand_formats;
        meta->cand_label = "candidate";
        meta->cand_source = cfg->against_dir;
        meta->cand_format = f == (RES_FMT_TICKS | RES_FMT_FRAMES) ? "trace-jsonl+frames"
                            : f == RES_FMT_FRAMES                 ? "frames"
                                                                  : "trace-jsonl";
    }
    if (cfg->traces_dir) {
        meta->auth_label = "golden";
        meta->auth_source = cfg->traces_dir;
    }
}

/* Every output location, before any work: the reports folder (cleaned of dead runs). */
static int check_outputs(const cli_session *s)
{
    if (!s->out_dir) return 0;
    ff_error err;
    unsigned cleaned = 0;
    if (report_dir_prepare(s->out_dir, &cleaned, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    if (cleaned)
        cli_warn("removed %u unfinished report folder%s left in %s by runs that were killed",
                 cleaned, cleaned == 1 ? "" : "s", s->out_dir);
    return 0;
}

/* What a run reads: the executable (unless traces are the authority) and the corpus. */
static int open_inputs(const cli_session *s, run_config *cfg, cli_exe *x, run_meta *meta,
                       char *corpus_buf, size_t n)
{
    if (!cfg->traces_dir) {
        int rc = cli_exe_open(s->exe, s->profile, x);
        if (rc) return rc;
        cfg->image = x->image;
        cfg->cache_id = x->id;
        cli_meta_exe(meta, x);
        /* The pose convention: cli_pose_pick's one rule. */
        if (cfg->pose_level) {
            cli_pose_inputs pi = {s->pose_given, s->pose_given && cfg->pose_search, cfg->pose_opts,
                                  NULL, x->profile.pose_convention, 1};
            cli_pose_source src;
            ff_error e;
            if (cli_pose_pick(&pi, &cfg->pose_opts, &src, &e) < 0) {
                cli_print_error(&e);
                return CLI_EXIT_ERROR;
            }
            cfg->pose_pinned = src == CLI_POSE_PROFILE;
            cfg->pose_search = src == CLI_POSE_SEARCH;
        }
    }
    if (s->before) s->before(s->arg, meta);
    const char *corpus_path = s->corpus_path;
    if (!corpus_path && (cfg->frame_level || cfg->entity_level)) {
        if (cli_synthetic_corpus(s->preset, s->seed, corpus_buf, n)) return CLI_EXIT_ERROR;
        corpus_path = corpus_buf;
        meta->synthetic_preset = s->preset;
        meta->synthetic_seed = s->seed;
    }
    cfg->corpus_path = corpus_path;
    meta->corpus_path = corpus_path;
    return 0;
}

/* The run's own warnings on stderr, then the session's (already printed) into the report. */
static void merge_warnings(run_results *res, const char *session_warning)
{
    for (size_t i = 0; i < res->nwarnings; i++)
        cli_warn("%s", res->warnings[i]);
    if (session_warning[0]) run_warn(res, "%s", session_warning);
}

/* After a run that went through: the command's own step, the report, the exit code. */
static int finish(const cli_session *s, run_config *cfg, run_meta *meta, run_results *res,
                  const run_progress *progress, char *finished, size_t n)
{
    run_meta_now_iso(finished, n);
    meta->finished = finished;
    meta_options(meta, cfg, progress);
    meta_sides(meta, cfg, res);
    meta->jobs = res->jobs;
    meta->corpus_kind = res->corpus_kind[0] ? res->corpus_kind : NULL;
    meta->corpus_description = res->corpus_description[0] ? res->corpus_description : NULL;
    meta->corpus_release = res->corpus_release[0] ? res->corpus_release : NULL;
    meta->corpus_archive = res->corpus_archive[0] ? res->corpus_archive : NULL;
    meta->corpus_zzz_entry = res->corpus_zzz_entry[0] ? res->corpus_zzz_entry : NULL;
    meta->corpus_zzz_offset = res->corpus_zzz_offset;
    meta->corpus_lang = res->corpus_lang[0] ? res->corpus_lang : NULL;
    int status = s->after ? s->after(s->arg, meta, res) : -1;
    if (status < 0) {
        status = cli_write_report(meta, res, s->out_dir);
    }
    return status;
}

int cli_session_run(const cli_session *s, run_config *cfg)
{
    run_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.command = s->command;
    char run_id[64], started[32], finished[32];
    run_meta_make_id(run_id, sizeof run_id);
    run_meta_now_iso(started, sizeof started);
    meta.run_id = run_id;
    meta.started = started;
    /* From here a signal stops the run and still gets its partial report. */
    volatile sig_atomic_t cancel = 0;
    cli_signals_install(&cancel);
    cli_exe x;
    memset(&x, 0, sizeof x);
    char corpus_buf[4096], results_dir[4200], warning[FF_ERR_REASON_MAX + 512] = "";
    int status = check_outputs(s);
    if (status == 0) status = open_inputs(s, cfg, &x, &meta, corpus_buf, sizeof corpus_buf);
    if (status) {
        cli_signals_restore();
        cli_exe_close(&x);
        return status;
    }
    /* Which engine the original runs on: in the report, and warned once when slow. */
    emu_engine_info engine;
    memset(&engine, 0, sizeof engine);
    char engine_note[320] = "";
    if (!cfg->traces_dir &&
        (status = cli_engine_choose(s->command, s->engine, &cfg->game.engine, &cfg->second,
                                    engine_note, sizeof engine_note)) != 0) {
        cli_signals_restore();
        cli_exe_close(&x);
        return status;
    }
    if (!cfg->traces_dir) {
        cli_engine_probe(cfg->game.engine, &engine);
        meta.engine = &engine;
    }
    /* --engine both: every clip on both engines, none from the cache nor shared. */
    if (cfg->second) cfg->dedup = 0;
    cache *cache = s->use_cache && !cfg->traces_dir && !cfg->second
                       ? cli_open_cache(s, results_dir, sizeof results_dir, warning, sizeof warning)
                       : NULL;
    if (cache) meta.cache_dir = results_dir;
    cfg->cache = cache;

    run_progress progress;
    memset(&progress, 0, sizeof progress);
    cfg->cancel = &cancel;
    cfg->progress = &progress;
    cli_progress *cp = cli_progress_start(&progress, !s->quiet);
    run_results res;
    ff_error err;
    ff_error_clear(&err);
    cli_exit_guard(1);
    int rc = run_execute(cfg, &res, &err);
    cli_exit_guard(0);
    cli_progress_stop(cp);

    if (rc < 0) {
        cli_print_error(&err);
        status = run_error_exit(&err, cfg);
        if (status == CLI_EXIT_INTERNAL) cli_fail("internal or resource error: no report written");
    } else {
        merge_warnings(&res, warning);
        if (engine.warning[0]) run_warn(&res, "%s", engine.warning); /* printed at the start */
        if (engine_note[0]) run_warn(&res, "%s", engine_note);
        status = finish(s, cfg, &meta, &res, &progress, finished, sizeof finished);
    }
    cli_signals_restore();
    run_results_free(&res);
    cache_close(cache);
    cli_exe_close(&x);
    return status;
}
