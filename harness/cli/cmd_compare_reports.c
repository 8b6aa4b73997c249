/*
 * harness/cli/cmd_compare_reports.c: `ff8diff compare-reports OLD NEW`:
 * what changed between two runs (harness/report/report_diff.h), as text or JSON;
 * exit 1 when anything regressed.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "harness/cli/cli.h"
#include "harness/report/report_diff.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff compare-reports OLD NEW [--json] [--limit N]\n\n"
          "Lists what changed between two runs, from their report.json (a report folder\n"
          "may be given instead): clips fixed, newly broken, whose first divergence moved\n"
          "(earlier: a regression; later or to another field or value), still broken, and\n"
          "clips only one run has. Frame results are matched by (file, clip, mode), leaf\n"
          "results by routine.\n\n"
          "  --json        print the comparison as JSON (\"" RDIFF_SCHEMA "\")\n"
          "  --limit N     lines per category in the text (default 20, 0: all)\n"
          "  -h, --help    this text\n\n"
          "Exit: 0 no regression, 1 something regressed (newly broken, or a first divergence\n"
          "earlier), 2 usage or an unreadable report.\n",
          out);
}

static const struct option opts[] = {{"json", no_argument, 0, 'j'},
                                     {"limit", required_argument, 0, 'l'},
                                     {"help", no_argument, 0, 'h'},
                                     {0, 0, 0, 0}};

/* A report folder stands for its report.json. */
static void report_path(const char *arg, char *buf, size_t n)
{
    size_t len = strlen(arg);
    while (len > 1 && arg[len - 1] == '/')
        len--;
    if (fio_is_dir(arg))
        snprintf(buf, n, "%.*s/report.json", (int)len, arg);
    else
        snprintf(buf, n, "%s", arg);
}

static int print_json(const rdiff *d)
{
    cJSON *j = rdiff_json(d);
    char *text = j ? cJSON_Print(j) : NULL;
    cJSON_Delete(j);
    if (!text) {
        cli_fail("compare-reports: out of memory");
        return -1;
    }
    fputs(text, stdout);
    fputc('\n', stdout);
    cJSON_free(text);
    return 0;
}

static int print_text(const rdiff *d, size_t limit)
{
    strbuf b;
    sb_init(&b);
    rdiff_text(d, limit, &b);
    int rc = strbuf_failed(&b) ? -1 : 0;
    if (rc == 0)
        fwrite(b.s, 1, b.len, stdout);
    else
        cli_fail("compare-reports: out of memory");
    sb_free(&b);
    return rc;
}

int cmd_compare_reports(int argc, char **argv)
{
    int json = 0, c;
    unsigned long limit = 20;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'j':
            json = 1;
            break;
        case 'l':
            if (cli_parse_uint(optarg, 0, 1ul << 30, &limit) < 0) {
                cli_fail("compare-reports: --limit takes a number, not '%s'", optarg);
                return CLI_EXIT_ERROR;
            }
            break;
        case 'h':
            help(stdout);
            return CLI_EXIT_OK;
        default:
            help(stderr);
            return CLI_EXIT_ERROR;
        }
    }
    if (argc - optind != 2) {
        cli_fail("compare-reports: give two reports, OLD and NEW");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    char old_path[4096], new_path[4096];
    report_path(argv[optind], old_path, sizeof old_path);
    report_path(argv[optind + 1], new_path, sizeof new_path);
    rdiff d;
    ff_error err;
    int rc = rdiff_files(old_path, new_path, &d, &err);
    if (rc < 0)
        cli_print_error(&err);
    else
        rc = json ? print_json(&d) : print_text(&d, (size_t)limit);
    int regressed = rc == 0 && rdiff_regressed(&d);
    rdiff_free(&d);
    if (rc < 0) return CLI_EXIT_ERROR;
    return regressed ? CLI_EXIT_DIFF : CLI_EXIT_OK;
}
