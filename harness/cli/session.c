/*
 * harness/cli/session.c: shared set-up of run-like commands.
 *
 * Process-wide state of the CLI (the only mutable globals of ff8diff):
 * the SIGINT flag pointer and the previous handler, which a signal handler
 * needs to reach.
 */
#include "harness/cli/session.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "corpus/fileio.h"
#include "corpus/synth.h"
#include "emu/identify.h"
#include "harness/cli/cli.h"

#ifndef FF8DIFF_STANDIN_EXE
#define FF8DIFF_STANDIN_EXE "standin.exe"
#endif
/* Bump when the synthetic generator's output changes: names the corpus cache folder. */
#define SYNTH_CACHE_VERSION 1

const char *cli_standin_path(void)
{
    const char *env = getenv("FF8DIFF_STANDIN");
    return env && *env ? env : FF8DIFF_STANDIN_EXE;
}

static int choose_profile(const char *path, const char *profile_arg, emu_profile *p)
{
    ff_error err;
    if (profile_arg) {
        if (identify_profile_arg(profile_arg, p, &err) < 0) {
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
    } else if (res->accepted < 0) {
        cli_fail("%s: unsupported build: no profile accepts it", path);
        if (!res->is_pe) cli_fail("  %s", res->pe_reason);
        for (unsigned i = 0; i < res->nmatches; i++)
            cli_fail("  profile %s: %s", res->matches[i].profile, res->matches[i].reason);
        cli_fail("  (ff8diff identify %s says more; a new build needs a profile: --profile PATH)",
                 path);
        rc = CLI_EXIT_ERROR;
    } else if (profile_builtin_by_name(res->matches[res->accepted].profile, p, &err) < 0) {
        cli_print_error(&err);
        rc = CLI_EXIT_ERROR;
    }
    free(res);
    return rc;
}

int cli_exe_open(const char *exe_path, const char *profile_arg, cli_exe *out)
{
    memset(out, 0, sizeof *out);
    const char *path = exe_path ? exe_path : cli_standin_path();
    snprintf(out->path, sizeof out->path, "%s", path);
    if (!exe_path && !profile_arg) profile_arg = "standin";
    if (!exe_path && access(path, R_OK) != 0) {
        cli_fail("the stand-in engine %s is missing (%s): build ff8diff first, or set "
                 "FF8DIFF_STANDIN", path, strerror(errno));
        return CLI_EXIT_ERROR;
    }
    int rc = choose_profile(path, profile_arg, &out->profile);
    if (rc) return rc;
    ff_error err;
    if (emu_image_load(path, &out->profile, &out->image, out->warning, sizeof out->warning,
                       &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    snprintf(out->verdict, sizeof out->verdict, "%s", out->warning[0] ? "unknown_build" : "known");
    if (out->warning[0]) {
        cli_warn("%s", out->warning);
        cli_warn("results hold only as far as this build's routines match profile '%s'",
                 out->profile.name);
    }
    snprintf(out->id, sizeof out->id, "%s/%s", emu_image_sha256(out->image), out->profile.name);
    return 0;
}

void cli_exe_close(cli_exe *x)
{
    emu_image_free(x->image);
    x->image = NULL;
}

void cli_cache_root(char *buf, size_t n)
{
    const char *env = getenv("FF8DIFF_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (env && *env) snprintf(buf, n, "%s", env);
    else if (xdg && *xdg) snprintf(buf, n, "%s/ff8diff", xdg);
    else if (home && *home) snprintf(buf, n, "%s/.cache/ff8diff", home);
    else snprintf(buf, n, ".ff8diff-cache");
}

int cli_synthetic_corpus(const char *preset, uint64_t seed, char *path, size_t n)
{
    int p = synth_preset_from_name(preset);
    if (p < 0) {
        cli_fail("unknown preset '%s' (small, vanilla, cover)", preset);
        return CLI_EXIT_ERROR;
    }
    char root[4096];
    cli_cache_root(root, sizeof root);
    snprintf(path, n, "%s/corpus/%s-seed%llu-v%d", root, preset, (unsigned long long)seed,
             SYNTH_CACHE_VERSION);
    if (fio_is_dir(path)) return 0;
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    ff_error err;
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

/* ---- progress ---- */

struct cli_progress {
    run_progress *p;
    pthread_t th;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    int stop;
    struct timespec t0;
};

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static void draw(cli_progress *cp)
{
    run_progress *p = cp->p;
    uint64_t total = atomic_load(&p->clips_total) + atomic_load(&p->leaf_total) / 1000;
    uint64_t done = atomic_load(&p->clips_done) + atomic_load(&p->leaf_done) / 1000;
    double el = since(&cp->t0);
    double frac = total ? (double)done / (double)total : 0;
    char bar[31];
    int fill = (int)(frac * 30);
    for (int i = 0; i < 30; i++) bar[i] = i < fill ? '#' : '.';
    bar[30] = '\0';
    char eta[32] = "--:--";
    if (done && frac < 1) {
        double left = el / frac - el;
        snprintf(eta, sizeof eta, "%d:%02d", (int)left / 60, (int)left % 60);
    }
    fprintf(stderr, "\r[%s] clips %llu/%llu  mismatches %llu  faults %llu  bad %llu  ETA %s ",
            bar, (unsigned long long)atomic_load(&p->clips_done),
            (unsigned long long)atomic_load(&p->clips_total),
            (unsigned long long)atomic_load(&p->mismatches),
            (unsigned long long)atomic_load(&p->faults),
            (unsigned long long)atomic_load(&p->bad_input), eta);
    fflush(stderr);
}

static void *progress_thread(void *arg)
{
    cli_progress *cp = arg;
    pthread_mutex_lock(&cp->lock);
    while (!cp->stop) {
        draw(cp);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&cp->cond, &cp->lock, &until);
    }
    pthread_mutex_unlock(&cp->lock);
    draw(cp);
    fputc('\n', stderr);
    return NULL;
}

cli_progress *cli_progress_start(run_progress *p, int enabled)
{
    if (!enabled || !isatty(STDERR_FILENO)) return NULL;
    cli_progress *cp = calloc(1, sizeof *cp);
    if (!cp) return NULL;
    cp->p = p;
    clock_gettime(CLOCK_MONOTONIC, &cp->t0);
    pthread_mutex_init(&cp->lock, NULL);
    pthread_cond_init(&cp->cond, NULL);
    if (pthread_create(&cp->th, NULL, progress_thread, cp) != 0) {
        free(cp);
        return NULL;
    }
    return cp;
}

void cli_progress_stop(cli_progress *cp)
{
    if (!cp) return;
    pthread_mutex_lock(&cp->lock);
    cp->stop = 1;
    pthread_cond_signal(&cp->cond);
    pthread_mutex_unlock(&cp->lock);
    pthread_join(cp->th, NULL);
    pthread_mutex_destroy(&cp->lock);
    pthread_cond_destroy(&cp->cond);
    free(cp);
}

/* ---- SIGINT ---- */

static volatile sig_atomic_t *sigint_flag;
static struct sigaction sigint_old;

static void on_sigint(int sig)
{
    (void)sig;
    if (sigint_flag) *sigint_flag = 1;
    /* A second Ctrl-C ends the process the usual way. */
    sigaction(SIGINT, &sigint_old, NULL);
}

void cli_sigint_install(volatile sig_atomic_t *flag)
{
    sigint_flag = flag;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &sigint_old);
}

void cli_sigint_restore(void)
{
    sigaction(SIGINT, &sigint_old, NULL);
    sigint_flag = NULL;
}

/* ---- reports ---- */

void cli_meta_exe(report_meta *m, const cli_exe *x)
{
    m->exe_path = x->path;
    m->exe_sha256 = emu_image_sha256(x->image);
    m->profile = x->profile.name;
    m->profile_source = x->profile.source;
    m->exe_verdict = x->verdict;
    m->exe_warning = x->warning;
}

int cli_write_report(const report_meta *m, const run_results *r, const char *reports_dir)
{
    cJSON *report = report_build(m, r);
    if (!report) {
        cli_fail("out of memory building the report");
        return CLI_EXIT_ERROR;
    }
    char *dir = NULL;
    ff_error err;
    int rc = report_write(report, reports_dir, m->run_id, &dir, &err);
    cJSON_Delete(report);
    if (rc < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    const run_totals *t = &r->totals;
    printf("%s%llu comparisons: %llu match, %llu mismatch, %llu fault, %llu bad input", 
           r->interrupted ? "INTERRUPTED: " : "", (unsigned long long)t->comparisons,
           (unsigned long long)t->by_status[RES_MATCH],
           (unsigned long long)t->by_status[RES_MISMATCH],
           (unsigned long long)t->by_status[RES_FAULT],
           (unsigned long long)t->by_status[RES_BAD_INPUT]);
    if (t->leaf_calls)
        printf("; leaf: %llu calls, %llu mismatch, %llu fault", (unsigned long long)t->leaf_calls,
               (unsigned long long)t->leaf_mismatches, (unsigned long long)t->leaf_faults);
    printf(" (%.1f s)\n", r->seconds);
    if (r->ngroups)
        printf("%zu mismatch group%s, %zu cause%s\n", r->ngroups, r->ngroups == 1 ? "" : "s",
               r->ncauses, r->ncauses == 1 ? "" : "s");
    for (size_t c = 0; c < r->ncauses && c < 5; c++)
        printf("  cause %zu (%llu clips): %s\n", c, (unsigned long long)r->causes[c].clips,
               r->causes[c].statement);
    if (r->coverage.enabled) {
        unsigned blocks = 0, covered = 0;
        for (unsigned i = 0; i < r->coverage.nroutines; i++) {
            blocks += r->coverage.routines[i].blocks;
            covered += r->coverage.routines[i].covered;
        }
        printf("coverage: %u of %u blocks of the original's routines ran%s\n", covered, blocks,
               r->coverage.complete ? "" : " (partial: some clips came from the cache)");
    }
    printf("report: %s/index.html\n", dir);
    free(dir);
    return 0;
}

int cli_run_exit_code(const run_results *r)
{
    const run_totals *t = &r->totals;
    if (t->by_status[RES_MISMATCH] || t->by_status[RES_FAULT] || t->leaf_mismatches ||
        t->leaf_faults)
        return CLI_EXIT_DIFF;
    if (t->by_status[RES_BAD_INPUT]) return CLI_EXIT_ERROR;
    if (r->interrupted) return CLI_EXIT_INTERRUPTED;
    return CLI_EXIT_OK;
}

/* ---- a whole run ---- */

/* The results cache under the root, or NULL (a warning) when it cannot be opened. */
static cache *open_cache(const cli_session *s, char *dir, size_t n)
{
    char root[4096];
    if (s->cache_dir) snprintf(root, sizeof root, "%s", s->cache_dir);
    else cli_cache_root(root, sizeof root);
    snprintf(dir, n, "%s/results", root);
    cache *c = NULL;
    ff_error err;
    if (cache_open(dir, (uint64_t)s->cache_limit_mb << 20, &c, &err) < 0) {
        cli_print_error(&err);
        cli_warn("running without the results cache");
        return NULL;
    }
    return c;
}

static void meta_options(report_meta *meta, const run_config *cfg, const run_progress *p)
{
    meta->modes = cfg->modes;
    meta->frame_level = cfg->frame_level;
    meta->leaf_level = cfg->leaf_level;
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

int cli_session_run(const cli_session *s, run_config *cfg)
{
    report_meta meta;
    memset(&meta, 0, sizeof meta);
    meta.command = s->command;
    char run_id[64], started[32], finished[32];
    report_make_run_id(run_id, sizeof run_id);
    report_now_iso(started, sizeof started);
    meta.run_id = run_id;
    meta.started = started;

    cli_exe x;
    memset(&x, 0, sizeof x);
    int need_exe = !cfg->traces_dir;
    if (need_exe) {
        int rc = cli_exe_open(s->exe, s->profile, &x);
        if (rc) return rc;
        cfg->image = x.image;
        cfg->cache_id = x.id;
        cli_meta_exe(&meta, &x);
    }
    if (s->before) s->before(s->arg, &meta);
    const char *corpus_path = s->corpus_path;
    char corpus_buf[4096];
    if (!corpus_path && cfg->frame_level) {
        if (cli_synthetic_corpus(s->preset, s->seed, corpus_buf, sizeof corpus_buf)) {
            cli_exe_close(&x);
            return CLI_EXIT_ERROR;
        }
        corpus_path = corpus_buf;
        meta.synthetic_preset = s->preset;
        meta.synthetic_seed = s->seed;
    }
    cfg->corpus_path = corpus_path;
    meta.corpus_path = corpus_path;
    char results_dir[4200];
    cache *cache = s->use_cache && need_exe ? open_cache(s, results_dir, sizeof results_dir)
                                            : NULL;
    if (cache) meta.cache_dir = results_dir;
    cfg->cache = cache;

    volatile sig_atomic_t cancel = 0;
    run_progress progress;
    memset(&progress, 0, sizeof progress);
    cfg->cancel = &cancel;
    cfg->progress = &progress;
    cli_sigint_install(&cancel);
    cli_progress *cp = cli_progress_start(&progress, !s->quiet);
    run_results res;
    ff_error err;
    ff_error_clear(&err);
    int rc = run_execute(cfg, &res, &err);
    cli_progress_stop(cp);
    cli_sigint_restore();

    int status;
    if (rc < 0) {
        cli_print_error(&err);
        status = CLI_EXIT_ERROR;
    } else {
        report_now_iso(finished, sizeof finished);
        meta.finished = finished;
        meta_options(&meta, cfg, &progress);
        meta.jobs = res.jobs;
        meta.corpus_kind = res.corpus_kind[0] ? res.corpus_kind : NULL;
        meta.corpus_description = res.corpus_description[0] ? res.corpus_description : NULL;
        status = s->after ? s->after(s->arg, &meta, &res) : -1;
        if (status < 0) {
            status = s->out_dir ? cli_write_report(&meta, &res, s->out_dir) : 0;
            if (status == 0) status = cli_run_exit_code(&res);
        }
    }
    run_results_free(&res);
    cache_close(cache);
    cli_exe_close(&x);
    return status;
}

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

void cli_session_init(cli_session *s, const char *command)
{
    memset(s, 0, sizeof *s);
    s->command = command;
    s->preset = "small";
    s->seed = 1;
    s->use_cache = 1;
    s->cache_limit_mb = 2048;
}

static int bad_value(const cli_session *s, const char *opt, const char *arg, const char *what)
{
    cli_fail("%s: %s takes %s, not '%s'", s->command, opt, what, arg);
    return CLI_EXIT_ERROR;
}

int cli_session_option(cli_session *s, run_config *cfg, int opt, const char *arg)
{
    unsigned long v;
    char bad[32];
    switch (opt) {
    case CLI_OPT_EXE: s->exe = arg; return 0;
    case CLI_OPT_PROFILE: s->profile = arg; return 0;
    case CLI_OPT_CORPUS: s->corpus_path = arg; return 0;
    case CLI_OPT_PRESET: s->preset = arg; return 0;
    case CLI_OPT_SEED:
        if (cli_parse_uint(arg, 0, ~0ul, &v) < 0) return bad_value(s, "--seed", arg, "a number");
        s->seed = v;
        return 0;
    case CLI_OPT_MODES:
        if (mode_parse_list(arg, &cfg->modes, bad, sizeof bad) < 0) {
            cli_fail("%s: unknown mode '%s' (normal, slow, fast, slow+fast, all)", s->command,
                     bad);
            return CLI_EXIT_ERROR;
        }
        s->modes_given = 1;
        return 0;
    case CLI_OPT_LEVELS:
        if (cli_parse_levels(arg, &cfg->frame_level, &cfg->leaf_level) < 0)
            return bad_value(s, "--levels", arg, "frame, leaf or frame,leaf");
        return 0;
    case CLI_OPT_JOBS:
        if (cli_parse_uint(arg, 1, 256, &v) < 0) return bad_value(s, "--jobs", arg, "1..256");
        cfg->jobs = (unsigned)v;
        return 0;
    case CLI_OPT_KEEP: cfg->game.keep_matrices = 1; return 0;
    case CLI_OPT_NO_CACHE: s->use_cache = 0; return 0;
    case CLI_OPT_CACHE_DIR: s->cache_dir = arg; return 0;
    case CLI_OPT_CACHE_LIMIT:
        if (cli_parse_uint(arg, 1, 1ul << 30, &s->cache_limit_mb) < 0)
            return bad_value(s, "--cache-limit", arg, "a size in MiB");
        return 0;
    case CLI_OPT_NO_DEDUP: cfg->dedup = 0; return 0;
    case CLI_OPT_LEAF_CALLS:
        if (cli_parse_uint(arg, 1, 1ul << 32, &v) < 0)
            return bad_value(s, "--leaf-calls", arg, "a number");
        cfg->leaf_calls = v;
        return 0;
    case CLI_OPT_LEAF_SEED:
        if (cli_parse_uint(arg, 0, ~0ul, &v) < 0) return bad_value(s, "--leaf-seed", arg, "a number");
        cfg->seed = v;
        return 0;
    case CLI_OPT_BUDGET:
        if (cli_parse_uint(arg, 1000, ~0ul, &v) < 0)
            return bad_value(s, "--budget", arg, "a number of instructions (>= 1000)");
        cfg->game.budget = v;
        return 0;
    case CLI_OPT_QUIET: s->quiet = 1; return 0;
    default: return 1;
    }
}

int cli_next_option(cli_session *s, run_config *cfg, int argc, char **argv,
                    const struct option *opts)
{
    int c;
    while ((c = getopt_long(argc, argv, "qh", opts, NULL)) != -1) {
        if (c == 'q') c = CLI_OPT_QUIET;
        int rc = cli_session_option(s, cfg, c, optarg);
        if (rc == 0) continue;
        return rc == 1 ? c : CLI_OPT_FAILED;
    }
    return -1;
}

int cli_no_operands(const cli_session *s, int argc, char **argv)
{
    if (optind >= argc) return 0;
    cli_fail("%s: unexpected argument '%s'", s->command, argv[optind]);
    return -1;
}
