/*
 * harness/cli/cmd_corpus_diff.c: `ff8diff corpus diff A B`: two corpora of
 * any kind compared file by file and clip by clip (harness/core/cdiff.h),
 * printed as text or JSON, optionally written as an HTML page.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus/fileio.h"
#include "corpus/source.h"
#include "harness/cli/cli.h"
#include "harness/core/cdiff.h"
#include "harness/report/report_cdiff.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff corpus diff A B [--lang XX] [--lang-a XX] [--lang-b XX] [--json]\n"
          "                          [--html FILE] [--limit N]\n\n"
          "Compares two corpora of any kind (a folder, a 2013 install or battle.fs, a\n"
          "Remaster install, main.zzz or battle.fs inside one): files only in A or only in\n"
          "B, identical files, files that differ and which sections; for model files that\n"
          "differ, each changed clip: skeleton or stream changed, and the first frame whose\n"
          "decoded pose differs in each mode (the reference engine). Files are matched by\n"
          "name ignoring case (a Remaster name's _<lang> suffix taken off).\n\n"
          "  --lang XX     the language of both sides (install roots, main.zzz); --lang-a,\n"
          "                --lang-b for one side\n"
          "  --json        print the comparison as JSON (\"" CDIFF_SCHEMA "\")\n"
          "  --html FILE   also write it as an HTML page (the run report's style)\n"
          "  --limit N     clips listed per file in the text (default 20, 0: all)\n\n"
          "Exit: 0 identical, 1 differences, 2 usage or input errors (a corpus that cannot\n"
          "be opened, a file that cannot be read), 3 internal errors.\n",
          out);
}

typedef struct diff_args {
    const char *path[2], *lang[2], *html;
    int json;
    unsigned long limit;
} diff_args;

static int parse(int argc, char **argv, diff_args *a)
{
    static const struct option opts[] = {
        {"lang", required_argument, 0, 'l'},   {"lang-a", required_argument, 0, 'a'},
        {"lang-b", required_argument, 0, 'b'}, {"json", no_argument, 0, 'j'},
        {"html", required_argument, 0, 'H'},   {"limit", required_argument, 0, 'n'},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'l':
            a->lang[0] = a->lang[1] = optarg;
            break;
        case 'a':
            a->lang[0] = optarg;
            break;
        case 'b':
            a->lang[1] = optarg;
            break;
        case 'j':
            a->json = 1;
            break;
        case 'H':
            a->html = optarg;
            break;
        case 'n':
            if (cli_parse_uint(optarg, 0, 1000000, &a->limit) < 0) {
                cli_fail("corpus diff: --limit takes a number, not '%s'", optarg);
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
        cli_fail("corpus diff: two corpora are needed (A and B)");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    a->path[0] = argv[optind];
    a->path[1] = argv[optind + 1];
    return -1;
}

static int write_html(const cJSON *doc, const char *path)
{
    strbuf b;
    sb_init(&b);
    report_cdiff_html(doc, &b);
    ff_error err;
    int rc = b.s ? fio_write_atomic(path, (const uint8_t *)b.s, b.len, &err) : -1;
    if (!b.s) ff_error_set(&err, FF_E_NOMEM, path, -1, "out of memory");
    sb_free(&b);
    if (rc < 0) cli_print_error(&err);
    return rc;
}

static int output(const cdiff *d, const diff_args *a)
{
    cJSON *doc = cdiff_json(d);
    if (!doc) {
        cli_fail("corpus diff: out of memory");
        return CLI_EXIT_INTERNAL;
    }
    int code = cdiff_exit_code(d);
    if (a->json) {
        char *s = cJSON_Print(doc);
        if (s) puts(s);
        free(s);
    } else {
        strbuf b;
        sb_init(&b);
        report_cdiff_text(doc, (unsigned)a->limit, &b);
        if (b.s) fwrite(b.s, 1, b.len, stdout);
        sb_free(&b);
    }
    if (a->html && write_html(doc, a->html) < 0) code = CLI_EXIT_ERROR;
    cJSON_Delete(doc);
    return code;
}

int cmd_corpus_diff(int argc, char **argv)
{
    diff_args a = {{NULL, NULL}, {NULL, NULL}, NULL, 0, 20};
    int code = parse(argc, argv, &a);
    if (code >= 0) return code;
    corpus *c[2] = {NULL, NULL};
    ff_error err;
    for (int k = 0; k < 2; k++)
        if (corpus_open_lang(a.path[k], a.lang[k], &c[k], &err) < 0) {
            cli_print_error(&err);
            corpus_close(c[0]);
            return CLI_EXIT_ERROR;
        }
    cdiff d;
    if (cdiff_run(c[0], c[1], &d, &err) < 0) {
        cli_print_error(&err);
        code = CLI_EXIT_INTERNAL;
    } else {
        code = output(&d, &a);
    }
    cdiff_free(&d);
    corpus_close(c[0]);
    corpus_close(c[1]);
    return code;
}
