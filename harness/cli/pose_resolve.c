/*
 * harness/cli/pose_resolve.c: the pose convention of the commands that pose
 * with an executable but run no whole run (session.h's cli_pose_resolve):
 * the rule of pose_source.c as a run takes it, then what a run's search
 * found for this executable (remembered in the results cache by the run,
 * harness/run/pose_search.h), else that search itself, through the run's
 * own code (run_execute with search_only), which remembers it in turn.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/run/pose_search.h"

/* The search alone on corpus_path, remembered in c (may be NULL). 0, or an exit code. */
static int search(const cli_session *s, const run_config *cfg, const cli_exe *x,
                  const char *corpus_path, cache *c, ref_pose_opts *out)
{
    run_config rc;
    run_config_init(&rc);
    rc.image = x->image;
    rc.cache_id = x->id;
    rc.cache = c;
    rc.corpus_path = corpus_path;
    rc.corpus_lang = cfg->corpus_lang;
    rc.modes = 1u << MODE_NORMAL;
    rc.frame_level = rc.pose_level = rc.pose_search = rc.search_only = 1;
    rc.jobs = cfg->jobs;
    rc.game = cfg->game;
    rc.coverage = 0;
    if (!s->quiet)
        fprintf(stderr, "%s: searching the pose convention on the original (%s)\n", s->command,
                corpus_path);
    run_results res;
    ff_error err;
    ff_error_clear(&err);
    int code = 0;
    if (run_execute(&rc, &res, &err) < 0) {
        cli_print_error(&err);
        code = cli_error_exit(&err);
    } else if (res.interrupted || !res.pose.chosen[0]) {
        cli_fail("%s: the pose convention search found nothing to choose from", s->command);
        code = CLI_EXIT_ERROR;
    } else if (ref_pose_opts_parse(res.pose.chosen, out, &err) < 0) {
        cli_print_error(&err);
        code = CLI_EXIT_INTERNAL;
    } else {
        for (size_t i = 0; i < res.nwarnings; i++) cli_warn("%s", res.warnings[i]);
    }
    run_results_free(&res);
    return code;
}

int cli_pose_resolve(const cli_session *s, const run_config *cfg, const cli_exe *x,
                     const char *corpus_path, ref_pose_opts *out, cli_pose_source *src,
                     char *text, size_t n)
{
    ff_error err;
    ff_error_clear(&err);
    cli_pose_inputs pi = {s->pose_given, s->pose_given && cfg->pose_search, cfg->pose_opts, NULL,
                          x->profile.pose_convention, 1};
    if (cli_pose_pick(&pi, out, src, &err) < 0) {
        cli_fail("%s: %s", s->command, err.reason);
        return CLI_EXIT_ERROR;
    }
    int code = 0;
    if (*src == CLI_POSE_SEARCH) {
        char dir[4200], warning[FF_ERR_REASON_MAX + 512] = "";
        cache *c = s->use_cache ? cli_open_cache(s, dir, sizeof dir, warning, sizeof warning)
                                : NULL;
        int got = 0;
        /* --pose-options auto asks for the search itself; otherwise a run's is taken. */
        if (c && !pi.given_search) {
            got = pose_search_recall(c, x->id, out, NULL, 0, &err);
            if (got < 0) cli_warn("%s: the remembered pose convention is refused (%s): searching "
                                  "again", s->command, err.reason);
        }
        if (got == 1)
            *src = CLI_POSE_CACHED;
        else
            code = search(s, cfg, x, corpus_path, c, out);
        cache_close(c);
    }
    if (code) return code;
    ref_pose_opts_format(out, text, n);
    if (!s->quiet)
        fprintf(stderr, "%s: pose convention %s (%s)\n", s->command, text,
                cli_pose_source_name(*src));
    return 0;
}
