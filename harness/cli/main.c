/*
 * harness/cli/main.c: ff8diff's entry point: dispatch to a subcommand.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/version.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *summary;
} commands[] = {
#define CLI_ROW(name, fn, summary) {name, fn, summary},
    CLI_COMMAND_MAP(CLI_ROW)
#undef CLI_ROW
};

static void usage(FILE *out)
{
    fprintf(out,
            "ff8diff %s: proves a re-implementation of FF8's battle-animation decoder\n"
            "matches the game's own routines, frame by frame.\n\n"
            "usage: ff8diff <command> [options]   (ff8diff <command> --help for details)\n\n",
            FF8DIFF_VERSION);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-16s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nexit codes: 0 success, 1 mismatches or faults, 2 usage, input or executable\n"
                 "errors, 3 internal or resource errors (memory, emulator, full disk),\n"
                 "130 / 143 interrupted by SIGINT / SIGTERM (a partial report is written)\n");
    char data[4096], standin[4096];
    cli_standin_path(standin, sizeof standin);
    if (cli_data_dir(data, sizeof data) == 0)
        fprintf(out, "files: %s (stand-in engine, profiles, report schema)\n", data);
    fprintf(out, "stand-in engine: %s\n", standin);
}

int main(int argc, char **argv)
{
    /* A file-size limit makes writes fail with EFBIG (an error to report), not kill us. */
    signal(SIGXFSZ, SIG_IGN);
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_ERROR;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0) {
        printf("ff8diff %s\n", FF8DIFF_VERSION);
        cli_engine_print_version();
        return CLI_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0) return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ff8diff: unknown command '%s'\n\n", name);
    usage(stderr);
    return CLI_EXIT_ERROR;
}
