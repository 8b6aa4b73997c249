/*
 * harness/cli/cli.h: the ff8diff command line. Each subcommand is a row
 * of CLI_COMMAND_MAP with its own file cmd_<name>.c; only this layer prints
 * to the user or decides exit codes, each with one meaning:
 *   0 success / everything matches, 1 mismatches or faults, 2 usage, input or
 *   executable errors, 3 internal or resource errors (out of memory, the
 *   emulator cannot allocate, a full disk for the report), 130 / 143
 *   interrupted by SIGINT / SIGTERM (a partial report is written).
 */
#ifndef FF8_HARNESS_CLI_H
#define FF8_HARNESS_CLI_H

#include <stddef.h>
#include <stdint.h>

#include "common/error.h"

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
    XX("corpus", cmd_corpus, "synth | list | extract | stats: work with corpora") \
    XX("record", cmd_record, "write the original's golden traces (Trace JSON Lines) + manifest") \
    XX("check", cmd_check, "compare the reference or other traces with golden traces, no executable") \
    XX("compare-reports", cmd_compare_reports, "what changed between two runs' reports") \
    XX("cache", cmd_cache, "stats | clear: the cache of the original's results")

#define CLI_DECLARE(name, fn, summary) int fn(int argc, char **argv);
CLI_COMMAND_MAP(CLI_DECLARE)
#undef CLI_DECLARE

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
/* c itself, or "\xNN" for a control byte, in buf. */
const char *cli_safe_char(unsigned char c, char buf[8]);
/* s with control bytes escaped (cli_safe_char) into buf (n bytes, cut to fit). */
char *cli_safe(const char *s, char *buf, size_t n);

/*
 * Creates dir when missing and checks that a file can be written in it (a
 * probe file, removed): 0, or -1 with err. For every output location,
 * before any work.
 */
int cli_dir_writable(const char *dir, ff_error *err);
/* Parses an unsigned decimal integer in [lo, hi]; -1 when it is not one. */
int cli_parse_uint(const char *text, unsigned long lo, unsigned long hi, unsigned long *out);

#endif
