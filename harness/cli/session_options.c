/*
 * harness/cli/session_options.c: the options every run-like command shares
 * (--levels, --jobs, --out, --cache, --exe, --corpus, ...), parsed into a
 * cli_session and the run's configuration with a usage error naming the
 * option and the value. Nothing runs here (session.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/core/levels.h"
#include "harness/core/modes.h"

int cli_parse_levels(const char *text, run_config *cfg)
{
    unsigned m;
    if (run_level_parse_list(text, &m) < 0) return -1;
    /* The pose is compared after each decoding call: it needs the frame level's calls. */
    cfg->frame_level = (m & (1u << RUN_LEVEL_FRAME | 1u << RUN_LEVEL_POSE)) != 0;
    cfg->pose_level = (m >> RUN_LEVEL_POSE) & 1u;
    cfg->leaf_level = (m >> RUN_LEVEL_LEAF) & 1u;
    cfg->entity_level = (m >> RUN_LEVEL_ENTITY) & 1u;
    return 0;
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
    case CLI_OPT_EXE:
        s->exe = arg;
        return 0;
    case CLI_OPT_PROFILE:
        s->profile = arg;
        return 0;
    case CLI_OPT_CORPUS:
        s->corpus_path = arg;
        return 0;
    case CLI_OPT_LANG:
        cfg->corpus_lang = arg;
        return 0;
    case CLI_OPT_PRESET:
        s->preset = arg;
        return 0;
    case CLI_OPT_SEED:
        if (cli_parse_uint(arg, 0, ~0ul, &v) < 0) return bad_value(s, "--seed", arg, "a number");
        s->seed = v;
        return 0;
    case CLI_OPT_MODES:
        if (mode_parse_list(arg, &cfg->modes, bad, sizeof bad) < 0) {
            char words[96];
            cli_fail("%s: unknown mode '%s' (%s)", s->command, bad,
                     mode_list_words(words, sizeof words));
            return CLI_EXIT_ERROR;
        }
        s->modes_given = 1;
        return 0;
    case CLI_OPT_LEVELS:
        if (cli_parse_levels(arg, cfg) < 0) {
            char words[80], what[96];
            snprintf(what, sizeof what, "a list of %s", run_level_list_words(RUN_LEVELS_ALL, words, sizeof words));
            return bad_value(s, "--levels", arg, what);
        }
        s->levels_given = 1;
        return 0;
    case CLI_OPT_POSE_OPTIONS: {
        ff_error e;
        s->pose_given = 1;
        cfg->pose_search = strcmp(arg, "auto") == 0;
        ref_pose_opts_default(&cfg->pose_opts);
        if (!cfg->pose_search && ref_pose_opts_parse(arg, &cfg->pose_opts, &e) < 0) {
            cli_fail("%s: --pose-options: %s", s->command, e.reason);
            return CLI_EXIT_ERROR;
        }
        return 0;
    }
    case CLI_OPT_JOBS:
        if (cli_parse_uint(arg, 1, 256, &v) < 0) return bad_value(s, "--jobs", arg, "1..256");
        cfg->jobs = (unsigned)v;
        return 0;
    case CLI_OPT_KEEP:
        cfg->game.keep_matrices = 1;
        return 0;
    case CLI_OPT_NO_CACHE:
        s->use_cache = 0;
        return 0;
    case CLI_OPT_CACHE_DIR:
        s->cache_dir = arg;
        return 0;
    case CLI_OPT_CACHE_LIMIT:
        if (cli_parse_uint(arg, 1, 1ul << 30, &s->cache_limit_mb) < 0)
            return bad_value(s, "--cache-limit", arg, "a size in MiB");
        return 0;
    case CLI_OPT_NO_DEDUP:
        cfg->dedup = 0;
        return 0;
    case CLI_OPT_LEAF_CALLS:
        if (cli_parse_uint(arg, 1, 1ul << 32, &v) < 0)
            return bad_value(s, "--leaf-calls", arg, "a number");
        cfg->leaf_calls = v;
        return 0;
    case CLI_OPT_LEAF_SEED:
        if (cli_parse_uint(arg, 0, ~0ul, &v) < 0)
            return bad_value(s, "--leaf-seed", arg, "a number");
        cfg->seed = v;
        return 0;
    case CLI_OPT_BUDGET:
        if (cli_parse_uint(arg, 1000, ~0ul, &v) < 0)
            return bad_value(s, "--budget", arg, "a number of instructions (>= 1000)");
        cfg->game.budget = v;
        return 0;
    case CLI_OPT_QUIET:
        s->quiet = 1;
        return 0;
    case CLI_OPT_ENGINE_PROCESSES:
        cfg->engine_processes = 1;
        return 0;
    case CLI_OPT_ENGINE:
        if (cli_engine_parse(arg) < 0) {
            char values[128];
            return bad_value(s, "--engine", arg, cli_engine_values(values, sizeof values));
        }
        s->engine = arg;
        return 0;
    default:
        return 1;
    }
}

/*
 * FF8DIFF_JOBS: the default of --jobs (the option wins), for whoever runs
 * ff8diff beside other work (the test suite gives each suite's runs the
 * cores CTest counts for it). Returns 0, or -1 after saying what is wrong.
 */
static int jobs_from_env(const cli_session *s, run_config *cfg)
{
    const char *env = getenv(CLI_JOBS_ENV);
    unsigned long v;
    if (cfg->jobs || !env || !*env) return 0;
    if (cli_parse_uint(env, 1, 256, &v) < 0) {
        cli_fail("%s: %s='%s' is not a number of jobs (1..256)", s->command, CLI_JOBS_ENV, env);
        return -1;
    }
    cfg->jobs = (unsigned)v;
    return 0;
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
    return jobs_from_env(s, cfg) < 0 ? CLI_OPT_FAILED : -1;
}

int cli_no_operands(const cli_session *s, int argc, char **argv)
{
    if (optind >= argc) return 0;
    cli_fail("%s: unexpected argument '%s'", s->command, argv[optind]);
    return -1;
}
