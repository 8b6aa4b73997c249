/*
 * harness/cli/session.h: what `run`, `record` and `check` share on the
 * command line: choosing and loading the executable (or the stand-in),
 * finding or generating the synthetic corpus, the cache folder, the
 * progress line on a terminal, SIGINT, and writing the report.
 */
#ifndef FF8_HARNESS_CLI_SESSION_H
#define FF8_HARNESS_CLI_SESSION_H

#include <getopt.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "emu/engine/game.h"
#include "emu/image/profile.h"
#include "harness/report/report.h"
#include "harness/run/run.h"
#include "harness/run/cache.h"
#include "harness/cli/cli.h"

typedef struct cli_exe {
    emu_profile profile;
    emu_image *image;
    char path[4096];
    char verdict[32]; /* "known", "unknown_build" */
    char warning[512];
    char id[160];     /* "<sha256>/<profile>/<profile digest>": the cache's executable identity */
} cli_exe;

/*
 * Loads exe_path (NULL: the stand-in engine) with the profile named or
 * given by profile_arg (NULL: found by identify). Prints what goes wrong and
 * returns CLI_EXIT_ERROR; 0 on success (a warning for an unknown build is
 * printed here, loudly).
 */
int cli_exe_open(const char *exe_path, const char *profile_arg, cli_exe *out);
void cli_exe_close(cli_exe *x);

/*
 * The cache root: $FF8DIFF_CACHE_DIR, $XDG_CACHE_HOME/ff8diff or
 * ~/.cache/ff8diff into buf. Returns 0, or -1 with err (FF_E_RANGE) when it
 * does not fit in n bytes.
 */
int cli_cache_root(char *buf, size_t n, ff_error *err);

/*
 * The folder of the synthetic corpus for (preset, seed), generated into the
 * cache root the first time. Prints errors; returns 0 or CLI_EXIT_ERROR.
 */
int cli_synthetic_corpus(const char *preset, uint64_t seed, char *path, size_t n);

/* A progress line on stderr while a run goes on, when stderr is a terminal. */
typedef struct cli_progress cli_progress;
cli_progress *cli_progress_start(run_progress *p, int enabled);
void cli_progress_stop(cli_progress *cp);

/*
 * SIGINT and SIGTERM set *flag to the signal's number (the run stops, its
 * partial report is written); a second signal ends the process the usual
 * way. Restored by cli_signals_restore (signals.c).
 */
void cli_signals_install(volatile sig_atomic_t *flag);
void cli_signals_restore(void);
/* The exit code after signal sig: 130 for SIGINT, 143 for SIGTERM. */
int cli_interrupted_exit(int sig);
/*
 * While on, an exit() from inside a library (Unicorn ends the process with
 * exit(1) when it cannot allocate) prints a message and exits with
 * CLI_EXIT_INTERNAL instead of a code that means "mismatches".
 */
void cli_exit_guard(int on);
/* CLI_EXIT_INTERNAL for an error of memory, the emulator or ff8diff itself, else CLI_EXIT_ERROR. */
int cli_error_exit(const ff_error *err);

/* Fills the parts of meta that come from the executable. */
void cli_meta_exe(run_meta *m, const cli_exe *x);

/*
 * Builds the report of a run and, when reports_dir is not NULL, writes it
 * there and prints a one-line summary led by its verdict and where it is.
 * Returns the exit code of the verdict the report stores
 * (report_exit_code), or CLI_EXIT_INTERNAL when it cannot be built or
 * written (a full disk, out of memory).
 */
int cli_write_report(const run_meta *m, const run_results *r, const char *reports_dir);
/*
 * After a run's verdict line: the first few bad inputs and faults with file,
 * clip, mode and reason, then how many more the report holds (problems.c).
 */
void cli_first_problems(const run_results *r);


/* What a run-like command asks of cli_session_run. */
typedef struct cli_session {
    const char *command;       /* "run", "check", "record" */
    const char *exe, *profile; /* NULL: the stand-in, found by identify */
    const char *engine;        /* --engine (cli_engine_parse); NULL: $FF8DIFF_ENGINE */
    const char *corpus_path;   /* NULL: the synthetic corpus (preset, seed) */
    const char *preset;
    uint64_t seed;
    int use_cache;
    const char *cache_dir;     /* NULL: cli_cache_root() */
    unsigned long cache_limit_mb;
    const char *out_dir;       /* reports folder; NULL: no report, no summary */
    int quiet;
    int modes_given;           /* --modes was on the command line */
    int pose_given;            /* --pose-options was on the command line */
    int levels_given;          /* --levels was on the command line */
    /* Optional: fills meta before the run (identity of recorded traces). */
    void (*before)(void *arg, run_meta *m);
    /*
     * Optional: called after a run that went through, meta complete, before
     * the report. Returns -1 to go on (report, then the run's exit code), or
     * the command's exit code (no report).
     */
    int (*after)(void *arg, const run_meta *m, const run_results *r);
    void *arg;
} cli_session;

/*
 * A whole run-like command: loads the executable (unless cfg->traces_dir
 * is the authority), resolves the corpus, opens the results cache, runs
 * with a progress line and SIGINT handling, calls s->after, writes the
 * report into s->out_dir. Returns the exit code.
 */
int cli_session_run(const cli_session *s, run_config *cfg);

/*
 * The results cache under s's root (dir receives its folder), or NULL when
 * it cannot be opened; a cache that cannot be opened or written is one
 * warning (printed now, and in *warning for a report), and the command
 * goes on.
 */
cache *cli_open_cache(const cli_session *s, char *dir, size_t n, char *warning, size_t wn);

/*
 * The pose convention of a command that poses with an executable without
 * running a whole run of its own (export --source reference, check-gltf,
 * decode --pose --exe): cli_pose_pick's rule as a run takes it (the given
 * --pose-options, the profile's pinned one), then the search's result
 * remembered for this executable in the results cache (unless s->use_cache
 * is 0), else the search itself, run as a run runs it (harness/run's
 * search alone, on the corpus at corpus_path) and remembered. *out, *src
 * and text (n bytes: the convention's text) receive the choice; one line
 * names it on stderr unless s->quiet. Returns 0, or an exit code after
 * printing why.
 */
int cli_pose_resolve(const cli_session *s, const run_config *cfg, const cli_exe *x,
                     const char *corpus_path, ref_pose_opts *out, cli_pose_source *src,
                     char *text, size_t n);

/*
 * Options shared by run, record and check. Each command lists in its own
 * option table the rows it accepts (CLI_OPT_ROW) and numbers its own
 * options from CLI_OPT_OWN.
 */
enum {
    CLI_OPT_EXE = 256, CLI_OPT_PROFILE, CLI_OPT_CORPUS, CLI_OPT_PRESET, CLI_OPT_SEED,
    CLI_OPT_MODES, CLI_OPT_LEVELS, CLI_OPT_JOBS, CLI_OPT_KEEP, CLI_OPT_NO_CACHE,
    CLI_OPT_CACHE_DIR, CLI_OPT_CACHE_LIMIT, CLI_OPT_NO_DEDUP, CLI_OPT_LEAF_CALLS,
    CLI_OPT_LEAF_SEED, CLI_OPT_BUDGET, CLI_OPT_QUIET, CLI_OPT_POSE_OPTIONS, CLI_OPT_LANG,
    CLI_OPT_ENGINE, CLI_OPT_ENGINE_PROCESSES,
    CLI_OPT_OWN
};
#define CLI_OPT_ROW(name, has_arg, id) {name, has_arg, 0, id}

/* A session with the defaults of every command: small preset, seed 1, cache on. */
void cli_session_init(cli_session *s, const char *command);

/*
 * Applies one shared option (getopt's answer opt, its argument arg) to s
 * and cfg. Returns 0 when applied, 1 when opt is not a shared option, or
 * CLI_EXIT_ERROR after saying what is wrong with the value.
 */
int cli_session_option(cli_session *s, run_config *cfg, int opt, const char *arg);

/* What cli_next_option returns for a shared option with a bad value. */
#define CLI_OPT_FAILED (-2)
/*
 * getopt_long over argv with opts (short options -q and -h), applying the
 * shared options; returns the next option that is the command's own ('h',
 * '?' and its CLI_OPT_OWN ids), CLI_OPT_FAILED after saying what is wrong,
 * or -1 at the end. Set optind = 1 first.
 */
int cli_next_option(cli_session *s, run_config *cfg, int argc, char **argv,
                    const struct option *opts);
/* After the options: 0, or -1 after saying so when an operand is left (none are taken). */
int cli_no_operands(const cli_session *s, int argc, char **argv);

/*
 * Parses --levels ("frame,pose,entity,leaf", any non-empty subset; pose
 * implies frame) into cfg's level flags. Returns 0, or -1 for an unknown or
 * empty list (cfg unchanged).
 */
int cli_parse_levels(const char *text, run_config *cfg);

#endif
