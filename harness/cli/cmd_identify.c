/*
 * harness/cli/cmd_identify.c: `ff8diff identify EXE [--routines]`: which
 * profile an executable matches and why; with --routines, each profile
 * routine's direct calls and absolute references against the profile;
 * with --locate, where the profile's routines are in a build whose
 * addresses differ (harness/cli/identify_locate.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/profiles/identify.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/cli/cli.h"

static void help(FILE *out)
{
    fputs("usage: ff8diff identify EXE [--profile NAME|PATH] [--routines]\n"
          "       ff8diff identify EXE --locate [--profile NAME|PATH] [--from KNOWN.exe]\n"
          "                        [--write-profile FILE]\n\n"
          "Says which profile EXE matches: a known SHA-256, or an unknown build whose\n"
          "fingerprints all hold (it runs, with a warning), or refused with the reason.\n"
          "Beside the verdict, evidence that never decides it: the profile's evidence\n"
          "bytes and version dwords (the build and language they name), and each\n"
          "routine's size and instruction count, each held or not. A file of the 2019\n"
          "Remaster (FFVIII.exe, FFVIII_EFIGS.dll, FFVIII_JP.dll) is said to be one.\n\n"
          "  --profile P          check against this profile only (built-in name or file)\n"
          "  --routines           disassemble each profile routine from its entry and compare\n"
          "                       its direct calls with the profile's expected callees\n"
          "  --locate             find the profile's routines, tables and globals in EXE when\n"
          "                       they sit elsewhere (another language build or release): by\n"
          "                       the tables they read, their call edges and their patterns;\n"
          "                       says per item where, how and how sure. Without --profile,\n"
          "                       each built-in profile is tried\n"
          "  --from KNOWN.exe     with --locate: learn the patterns from a build the profile\n"
          "                       describes (FF8_EN.exe for ff8_en_steam2013)\n"
          "  --write-profile F    with --locate: write the located profile to F, for\n"
          "                       `ff8diff run --exe EXE --profile F`\n"
          "  -h, --help           this text\n\n"
          "Exit: 0 accepted (known or unknown build) or located, 1 structural problems\n"
          "with --routines, 2 refused (with --locate: a routine not found or found twice)\n"
          "or unreadable.\n",
          out);
}

static void print_bytes(const uint8_t *b, unsigned n)
{
    for (unsigned i = 0; i < n; i++) printf("%s%02X", i ? " " : "", b[i]);
}

static void print_match(const identify_match *m, int chosen)
{
    printf("profile %s%s: %s\n", m->profile, chosen ? " (selected)" : "",
           identify_verdict_message(m->verdict));
    if (m->reason[0]) printf("  %s\n", m->reason);
    printf("  sha256 %s\n", m->hash_match ? "matches a known build" : "is not a known build");
    for (unsigned i = 0; i < m->nfp; i++) {
        const identify_fp *f = &m->fp[i];
        printf("  fingerprint 0x%08X %s: expected ", f->address, f->held ? "holds" : "FAILS");
        print_bytes(f->expected, f->len);
        if (!f->held) {
            printf(", found ");
            if (f->found_len) print_bytes(f->found, f->found_len);
            else printf("(outside the image)");
        }
        printf("\n");
    }
    cli_identify_print_evidence(m);
}

static void print_targets(const char *what, const identify_target *t, unsigned n)
{
    printf("    %s:", what);
    if (!n) printf(" none");
    for (unsigned i = 0; i < n; i++)
        printf(" %s0x%X%s%s%s", i ? ", " : "", t[i].address, t[i].name[0] ? " " : "", t[i].name,
               t[i].tail ? " (tail call)" : "");
    printf("\n");
}

static int print_routines(const char *path, const emu_profile *p)
{
    uint8_t *data;
    size_t size;
    ff_error err;
    if (identify_read_file(path, &data, &size, &err) < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    identify_structure *s = malloc(sizeof *s);
    int rc = s ? identify_routines(data, size, p, s, &err) : -1;
    free(data);
    if (rc < 0) {
        if (s) cli_print_error(&err);
        else cli_fail("out of memory");
        free(s);
        return CLI_EXIT_ERROR;
    }
    printf("\nroutines of profile %s:\n", s->profile);
    for (unsigned i = 0; i < s->nroutines; i++) {
        const identify_routine *r = &s->routines[i];
        printf("  0x%08X %s", r->address, r->name);
        if (!r->decoded) {
            printf(": NOT DECODED: %s\n", r->error);
            continue;
        }
        printf(" (%u instructions%s%s)\n", r->insns, r->truncated ? ", truncated" : "",
               r->nindirect ? ", indirect calls/jumps present" : "");
        cli_identify_print_size(r, "    size: ");
        print_targets("calls", r->calls, r->ncalls);
        print_targets("absolute refs", r->refs, r->nrefs);
        if (!r->callees_checked) continue;
        if (!r->nmissing && !r->nunexpected) printf("    callees: as the profile expects\n");
        for (unsigned k = 0; k < r->nmissing; k++) printf("    MISSING call to %s\n", r->missing[k]);
        for (unsigned k = 0; k < r->nunexpected; k++)
            printf("    UNEXPECTED call to 0x%X %s\n", r->unexpected[k].address,
                   r->unexpected[k].name);
    }
    printf("%u routine%s with problems\n", s->nproblems, s->nproblems == 1 ? "" : "s");
    rc = s->nproblems ? CLI_EXIT_DIFF : CLI_EXIT_OK;
    free(s);
    return rc;
}

int cmd_identify(int argc, char **argv)
{
    static const struct option opts[] = {{"profile", required_argument, 0, 'p'},
                                         {"routines", no_argument, 0, 'r'},
                                         {"locate", no_argument, 0, 'l'},
                                         {"from", required_argument, 0, 'f'},
                                         {"write-profile", required_argument, 0, 'w'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *profile_arg = NULL, *from = NULL, *write_path = NULL;
    int routines = 0, locate = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': profile_arg = optarg; break;
        case 'r': routines = 1; break;
        case 'l': locate = 1; break;
        case 'f': from = optarg; break;
        case 'w': write_path = optarg; break;
        case 'h': help(stdout); return CLI_EXIT_OK;
        default: help(stderr); return CLI_EXIT_ERROR;
        }
    }
    if (optind != argc - 1) {
        cli_fail("identify: give exactly one executable");
        help(stderr);
        return CLI_EXIT_ERROR;
    }
    const char *path = argv[optind];
    if ((from || write_path) && !locate) {
        cli_fail("identify: --from and --write-profile go with --locate");
        return CLI_EXIT_ERROR;
    }
    if (locate && routines) {
        cli_fail("identify: --locate and --routines do not go together");
        return CLI_EXIT_ERROR;
    }
    if (locate) return cli_identify_locate(path, profile_arg, from, write_path);
    ff_error err;
    emu_profile *one = NULL;
    identify_result *res = malloc(sizeof *res);
    emu_profile *chosen = malloc(sizeof *chosen);
    int status = CLI_EXIT_ERROR;
    if (!res || !chosen) {
        cli_fail("out of memory");
        goto done;
    }
    if (profile_arg) {
        if (cli_profile_arg(profile_arg, chosen, &err) < 0) {
            cli_print_error(&err);
            goto done;
        }
        one = chosen;
    }
    if (identify_file(path, one, res, &err) < 0) {
        cli_print_error(&err);
        goto done;
    }
    printf("%s\n  size %zu bytes, sha256 %s\n", path, res->size, res->sha256);
    if (!res->is_pe) printf("  not a usable PE32 (i386) executable: %s\n", res->pe_reason);
    if (res->pe_warning[0]) {
        printf("  mapped as Windows maps it, with a warning: %s\n", res->pe_warning);
        cli_warn("%s: %s", path, res->pe_warning);
    }
    for (unsigned i = 0; i < res->nmatches; i++)
        print_match(&res->matches[i], (int)i == res->accepted);
    if (one && one->located)
        printf("profile %s was located by structure in %s from profile %s (patterns: %s; %s)\n",
               one->name, one->located_from.executable, one->located_from.from_profile,
               one->located_from.patterns, one->located_from.tool);
    if (res->accepted < 0 && res->remaster != IDENTIFY_REMASTER_NONE) {
        printf("verdict: refused: %s\n  %s\n", identify_remaster_name(res->remaster),
               res->remaster_note);
        goto done;
    }
    if (res->accepted < 0) {
        printf("verdict: refused: no profile accepts this executable\n");
        if (res->is_pe)
            printf("  (another build of the engine? its routines may sit elsewhere: "
                   "ff8diff identify %s --locate)\n",
                   path);
        goto done;
    }
    const identify_match *m = &res->matches[res->accepted];
    printf("verdict: %s (profile %s)\n", identify_verdict_name(m->verdict), m->profile);
    if (m->verdict == IDENTIFY_UNKNOWN)
        cli_warn("unknown build: ff8diff runs it because every fingerprint holds");
    if (!one && profile_builtin_by_name(m->profile, chosen, &err) < 0) {
        cli_print_error(&err);
        goto done;
    }
    if (!routines && cli_identify_print_sizes(path, chosen, m->verdict) < 0) goto done;
    status = CLI_EXIT_OK;
    if (routines) status = print_routines(path, chosen);
done:
    free(res);
    free(chosen);
    return status;
}
