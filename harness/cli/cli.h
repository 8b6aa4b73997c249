/*
 * harness/cli/cli.h: the ff8diff command line. Each subcommand is a row
 * of CLI_COMMAND_MAP with its own file cmd_<name>.c; only this layer prints
 * to the user or returns exit codes, each with one meaning:
 *   0 success / everything matches, 1 mismatches or faults, 2 usage, input or
 *   executable errors, 3 internal or resource errors (out of memory, the
 *   emulator cannot allocate, a full disk for the report, comparisons left
 *   not run without a signal), 130 / 143 interrupted by SIGINT / SIGTERM (a
 *   partial report is written). A run's code is the one its stored verdict
 *   gives (harness/core/verdict.h's table, read by report_exit_code).
 */
#ifndef FF8_HARNESS_CLI_H
#define FF8_HARNESS_CLI_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#include "emu/engine/emu.h"
#include "common/error.h"
#include "emu/image/profile.h"
#include "emu/profiles/identify.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_DIFF 1
#define CLI_EXIT_ERROR 2
#define CLI_EXIT_INTERNAL 3      /* internal or resource error: memory, emulator, disk */
#define CLI_EXIT_INTERRUPTED 130 /* 128 + SIGINT, as shells report it */
#define CLI_EXIT_TERMINATED 143  /* 128 + SIGTERM */

/* name, function, one-line summary */
#define CLI_COMMAND_MAP(XX)                                                    \
    XX("run", cmd_run, "compare the reference with the original over a corpus")   \
    XX("decode", cmd_decode, "decode .dat files with the reference engine (trace JSON Lines)") \
    XX("identify", cmd_identify, "say which profile an executable matches, and why") \
    XX("corpus", cmd_corpus, "synth | list | extract | stats | pack | diff: work with corpora") \
    XX("record", cmd_record, "write the original's golden traces (Trace JSON Lines) + manifest") \
    XX("check", cmd_check, "compare the reference or other traces with golden traces, no executable") \
    XX("compare-reports", cmd_compare_reports, "what changed between two runs' reports") \
    XX("cache", cmd_cache, "stats | clear: the cache of the original's results") \
    XX("export", cmd_export, "the game's poses as glTF 2.0 (.glb), one per model file") \
    XX("check-gltf", cmd_check_gltf, "a viewer's glTF export of a model against the game's poses")

#define CLI_DECLARE(name, fn, summary) int fn(int argc, char **argv);
CLI_COMMAND_MAP(CLI_DECLARE)
#undef CLI_DECLARE

/*
 * identify EXE --locate (harness/cli/identify_locate.c): locates the
 * routines of profile_arg (NULL: each built-in profile) in path, patterns
 * learned from the known build `from` when given, writes the located
 * profile to write_path (may be NULL). Returns the exit code.
 */
int cli_identify_locate(const char *path, const char *profile_arg, const char *from,
                        const char *write_path);

/*
 * identify's evidence (harness/cli/identify_evidence.c): the evidence bytes
 * and version dwords of one match; one routine's size against the
 * profile's (nothing when the profile gives none); every routine's, walked
 * in the file at path, with a warning when an unknown build's sizes differ
 * (0, or -1 said). cli_size_differences: "Name 227 instructions -> 230
 * instructions; ..." into buf, returns how many differ (-1 said).
 */
void cli_identify_print_evidence(const identify_match *m);
void cli_identify_print_size(const identify_routine *r, const char *indent);
int cli_identify_print_sizes(const char *path, const emu_profile *p, identify_verdict verdict);
int cli_size_differences(const char *path, const emu_profile *p, char *buf, size_t n);

/*
 * Files that come with ff8diff, found relative to the running binary
 * (harness/cli/datadir.c). cli_data_dir: the installed data folder
 * (<prefix>/share/ff8diff), -1 when ff8diff runs from its build tree.
 * cli_standin_path: $FF8DIFF_STANDIN, else the installed stand-in, else the
 * build tree's. cli_profile_arg: a --profile argument: a built-in name, a
 * file, or the name of a profile in the data folder's profiles/.
 */
int cli_data_dir(char *buf, size_t n);
void cli_standin_path(char *buf, size_t n);
int cli_profile_arg(const char *arg, emu_profile *out, ff_error *err);

/*
 * Messages on stderr. Names in them come from files and archives: every
 * control byte is written as \xNN, so nothing reaches the terminal raw.
 */
/* Prints "ff8diff: <formatted error>" on stderr. */
void cli_print_error(const ff_error *err);
/* Prints "ff8diff: <message>" on stderr. */
void cli_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "ff8diff: warning: <message>" on stderr. */
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Which engine runs (harness/cli/engine.c): fills *info for engine (NULL:
 * the default) with its probe, and prints its warning once when it says it
 * will be slow (info->warning, "" otherwise).
 */
void cli_engine_probe(const emu_ops *engine, emu_engine_info *info);
/* "engine: unicorn 2.1.1, fast stores" into buf (n bytes), for summary lines. */
void cli_engine_line(const emu_engine_info *info, char *buf, size_t n);
/* The lines of `ff8diff --version` about the engines built in, on stdout: each says
 * whether this process can run it ("; runs here"), or why not. */
void cli_engine_print_version(void);
/*
 * The --engine values: every kind of engine by its name (emu/engine/emu.h's
 * EMU_ENGINE_MAP), then these, which choose among the kinds.
 */
#define CLI_ENGINE_CHOICES(XX) XX("auto") XX("both")
/* 0 when name is an --engine value, else -1. */
int cli_engine_parse(const char *name);
/* The --engine values as a message lists them ("unicorn, native, auto or both") into buf. */
char *cli_engine_values(char *buf, size_t n);
/* --engine's lines in the usage of every command that takes it. */
#define CLI_ENGINE_HELP                                                                            \
    "  --engine E        what runs the original: unicorn (every hook), native (its\n"              \
    "                    32-bit code on this CPU, several times faster; x86-64\n"                  \
    "                    Linux), auto (native when a probe call works, else unicorn,\n"            \
    "                    saying why) or both (every call on both, differences\n"                   \
    "                    reported as engine disagreements); default: the value of\n"               \
    "                    $FF8DIFF_ENGINE, else unicorn\n"
/* The environment variable that sets the default of --engine. */
#define CLI_ENGINE_ENV "FF8DIFF_ENGINE"
/* The default of --jobs where the option is not given (session_options.c). */
#define CLI_JOBS_ENV "FF8DIFF_JOBS"
/*
 * The engine --engine name asks for, into *out; name NULL: the value of
 * $FF8DIFF_ENGINE, and the default engine (emu_engine_default) when that
 * is unset or empty (a value that is no engine is a usage error naming the
 * variable). A kind that cannot run here is a usage error naming the reason
 * (CLI_EXIT_ERROR after saying so); auto takes the engine on the CPU
 * (emu_engine_on_cpu) when a probe call works, else the default with one
 * line saying why (note gets that line for the report). both: *out the
 * default and *second the engine on the CPU (else NULL). Returns 0.
 */
int cli_engine_choose(const char *command, const char *name, const emu_ops **out,
                      const emu_ops **second, char *note, size_t n);
/*
 * Appends word to the list in buf (n bytes, NUL-terminated, cut to fit),
 * after sep unless buf is empty: ", " between words, " or " before the
 * last of a choice ("normal, slow or fast"). Returns buf.
 */
char *cli_list_add(char *buf, size_t n, const char *sep, const char *word);
/*
 * The usage line of --modes ("  --modes LIST      a list of normal, slow, ..., all
 * (default D)") and the first of --levels' ("  --levels LIST     a list of frame, pose"
 * for the levels in mask, then tail), from the tables (harness/core/modes.h, levels.h),
 * onto out.
 */
void cli_usage_modes(FILE *out, const char *dflt);
void cli_usage_levels(FILE *out, unsigned mask, const char *tail);
/* The usage line of --preset ("  --preset NAME     synthetic corpus preset: small
 * (default), vanilla or cover") from corpus/synth.h's presets, onto out. */
void cli_usage_presets(FILE *out);
/* s as the terminal shows text from input (sb_safe: controls, C1, bad UTF-8 as \xNN) into buf
 * (n bytes, cut to fit). */
char *cli_safe(const char *s, char *buf, size_t n);

/*
 * Creates dir when missing and checks that a file can be written in it (a
 * probe file, removed): 0, or -1 with err. For every output location,
 * before any work.
 */
int cli_dir_writable(const char *dir, ff_error *err);
/* `ff8diff corpus diff A B ...` (argv[0] is "diff"). */
int cmd_corpus_diff(int argc, char **argv);

/* Parses an unsigned decimal integer in [lo, hi]; -1 when it is not one. */
int cli_parse_uint(const char *text, unsigned long lo, unsigned long hi, unsigned long *out);

/* ---- where the pose convention comes from (cli/pose_source.c) ---- */

typedef enum cli_pose_source {
    CLI_POSE_GIVEN,   /* --pose-options SPEC */
    CLI_POSE_TRACES,  /* the golden traces' manifest */
    CLI_POSE_PROFILE, /* the executable's profile pins it */
    CLI_POSE_CACHED,  /* a search's result for this executable, remembered in the results cache */
    CLI_POSE_SEARCH,  /* the run searches it on the original */
    CLI_POSE_DEFAULT, /* none of those: ref/pose.h's defaults */
    CLI_POSE__COUNT
} cli_pose_source;

/* What a command knows when it picks the convention. */
typedef struct cli_pose_inputs {
    int given, given_search;  /* --pose-options given; it was "auto" */
    ref_pose_opts given_opts; /* its convention (not auto) */
    const char *traces;       /* the traces' convention text, or NULL / "" */
    const char *profile;      /* the profile's pinned text, or NULL / "" */
    int can_search;           /* the command runs the search (run, record) */
} cli_pose_inputs;

/*
 * The one rule for every command: given, else the traces', else the
 * profile's, else a search where the command can search, else the
 * defaults. *out and *src receive the choice (a search's *out is the
 * defaults, for the search to replace). Fails (FF_E_USAGE) on "auto" where
 * no search runs, or on a traces' or profile's text that does not parse.
 */
int cli_pose_pick(const cli_pose_inputs *in, ref_pose_opts *out, cli_pose_source *src,
                  ff_error *err);
/* "given with --pose-options", ...; "?" out of range. */
const char *cli_pose_source_name(cli_pose_source s);
/* The source as a report key: given, traces, profile, cache, search, default; "?" out of range. */
const char *cli_pose_source_key(cli_pose_source s);
/* One line on stderr naming the convention and its source (nothing for a search, or quiet). */
void cli_pose_say(const char *command, cli_pose_source src, const ref_pose_opts *o, int quiet);

#endif
