/*
 * harness/cli/identify_locate.c: `ff8diff identify EXE --locate`: finds the
 * routines, tables and globals of a profile in a build whose addresses
 * differ (emu/image/locate.h), says per item where, how and how sure, and with
 * --write-profile writes the located profile that `run --profile FILE`
 * and `identify --profile FILE` take. With --from KNOWN.exe, the patterns
 * (and missing callees) come from a known build the profile describes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "corpus/fileio.h"
#include "emu/profiles/identify.h"
#include "emu/image/locate.h"
#include "emu/profiles/profile_builtin.h"
#include "harness/cli/cli.h"
#include "harness/version.h"

static double now_ms(clockid_t clock)
{
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void print_item(const locate_item *it, int with_pattern)
{
    if (it->status == LOCATE_SKIPPED) {
        printf("  %-9s %-10s  %s: %s\n", locate_status_word(it->status), "", it->name, it->why);
        return;
    }
    if (it->status == LOCATE_FOUND)
        printf("  %-9s 0x%08X  %s (profile: 0x%08X), unique", "found", it->address, it->name,
               it->known_address);
    else
        printf("  %-9s %-10s  %s (profile: 0x%08X)", locate_status_word(it->status), "", it->name,
               it->known_address);
    if (it->first_candidates)
        printf(", candidates %u -> %u", it->first_candidates, it->ncandidates);
    if (with_pattern && it->pattern >= 0) printf(", pattern %d%%", it->pattern);
    printf("\n");
    if (it->how[0]) printf("            how: %s\n", it->how);
    if (it->disagreed[0]) printf("            disagreed: %s\n", it->disagreed);
    if (it->status != LOCATE_FOUND && it->why[0]) printf("            why: %s\n", it->why);
}

static void print_result(const char *path, const locate_result *r, const char *patterns,
                         const double *ms)
{
    printf("locating the routines of profile %s in %s\n", r->profile, path);
    printf("  patterns: %s\n", patterns);
    printf("  code: %llu bytes swept, %llu instructions, %zu call edges, %zu routine entries, "
           "%zu routines walked; %.1f ms (%.1f ms CPU)\n",
           (unsigned long long)r->code_bytes, (unsigned long long)r->insns, r->edges, r->entries,
           r->walks, ms[0], ms[1]);
    printf("routines:\n");
    for (unsigned i = 0; i < r->nroutines; i++)
        print_item(&r->routines[i], 1);
    printf("tables:\n");
    for (unsigned i = 0; i < r->ntables; i++)
        print_item(&r->tables[i], 0);
    printf("globals:\n");
    for (unsigned i = 0; i < r->nglobals; i++)
        print_item(&r->globals[i], 0);
}

/*
 * Patterns learned from the known build at known_path: 0, or -1 when p
 * does not describe that build (said only when quiet is 0), or an exit
 * code.
 */
static int learn(const char *known_path, emu_profile *p, char *label, size_t n, int quiet)
{
    uint8_t *data;
    size_t size;
    ff_error err;
    identify_result *id = malloc(sizeof *id);
    if (!id) {
        cli_fail("out of memory");
        return CLI_EXIT_ERROR;
    }
    int rc = CLI_EXIT_ERROR;
    if (identify_read_file(known_path, &data, &size, &err) < 0) {
        cli_print_error(&err);
        free(id);
        return rc;
    }
    if (identify_buffer(data, size, p, 1, id, &err) < 0) {
        cli_print_error(&err);
    } else if (id->matches[0].verdict == IDENTIFY_REFUSED) {
        if (!quiet)
            cli_fail("--from %s: not the build profile %s describes: %s", known_path, p->name,
                     id->matches[0].reason);
        rc = -1;
    } else if (locate_learn(data, size, p, &err) < 0) {
        cli_print_error(&err);
    } else {
        snprintf(label, n, "learned from %s (SHA-256 %.16s...)", known_path, id->sha256);
        rc = 0;
    }
    free(data);
    free(id);
    return rc;
}

/* The profiles to look for: the one named, or every built-in one. */
static int sources(const char *profile_arg, emu_profile **out, unsigned *n)
{
    ff_error err;
    *n = profile_arg ? 1 : profile_builtin_count();
    *out = calloc(*n, sizeof **out);
    if (!*out) {
        cli_fail("out of memory");
        return CLI_EXIT_ERROR;
    }
    for (unsigned i = 0; i < *n; i++) {
        int rc = profile_arg ? cli_profile_arg(profile_arg, &(*out)[i], &err)
                             : profile_builtin(i, &(*out)[i], &err);
        if (rc < 0) {
            cli_print_error(&err);
            return CLI_EXIT_ERROR;
        }
    }
    return 0;
}

static int write_profile(const emu_profile *p, const char *path, const char *exe)
{
    char *text = profile_to_json(p);
    ff_error err;
    if (!text) {
        cli_fail("out of memory writing the profile");
        return CLI_EXIT_ERROR;
    }
    int rc = fio_write_atomic(path, (const uint8_t *)text, strlen(text), &err);
    free(text);
    if (rc < 0) {
        cli_print_error(&err);
        return CLI_EXIT_ERROR;
    }
    printf("wrote profile %s to %s\n  run it: ff8diff run --exe %s --profile %s\n", p->name, path,
           exe, path);
    return 0;
}

/* Locates with each source; *best gets the complete one, else the most found. */
static int locate_all(const char *path, const uint8_t *data, size_t size, emu_profile *src,
                      unsigned n, const char *const *labels, locate_result *res, double *ms,
                      unsigned *best)
{
    ff_error err;
    *best = 0;
    for (unsigned i = 0; i < n; i++) {
        locate_opts o = {path, labels[i], "ff8diff " FF8DIFF_VERSION, NULL};
        double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (locate_buffer(data, size, &src[i], &o, &res[i], &err) < 0) {
            cli_print_error(&err);
            return CLI_EXIT_ERROR;
        }
        ms[2 * i] = now_ms(CLOCK_MONOTONIC) - t0;
        ms[2 * i + 1] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        const locate_result *b = &res[*best], *r = &res[i];
        if ((r->complete && !b->complete) || (r->complete == b->complete && r->nfound > b->nfound))
            *best = i;
    }
    return 0;
}

int cli_identify_locate(const char *path, const char *profile_arg, const char *from,
                        const char *write_path)
{
    emu_profile *src = NULL;
    unsigned n = 0;
    uint8_t *data = NULL;
    size_t size = 0;
    ff_error err;
    locate_result *res = NULL;
    double *ms = NULL;
    char(*labels)[320] = NULL;
    int status = sources(profile_arg, &src, &n);
    if (status) goto done;
    res = calloc(n, sizeof *res);
    ms = calloc(2 * (size_t)n, sizeof *ms); /* wall, CPU per profile */
    labels = calloc(n, sizeof *labels);
    const char **lp = calloc(n, sizeof *lp);
    if (!res || !ms || !labels || !lp) {
        free(lp);
        cli_fail("out of memory");
        status = CLI_EXIT_ERROR;
        goto done;
    }
    /* With --from, the profiles that describe that build (all of them must, when named). */
    unsigned kept = 0;
    for (unsigned i = 0; i < n && !status; i++) {
        snprintf(labels[kept], sizeof labels[kept], "%s", "none (structure only)");
        for (unsigned k = 0; k < src[i].nroutines; k++)
            if (src[i].routines[k].npattern)
                snprintf(labels[kept], sizeof labels[kept], "from the profile");
        int rc = from ? learn(from, &src[i], labels[kept], sizeof labels[kept], !profile_arg) : 0;
        if (rc > 0 || (rc < 0 && profile_arg)) status = rc > 0 ? rc : CLI_EXIT_ERROR;
        if (rc == 0) {
            if (kept != i) src[kept] = src[i];
            lp[kept] = labels[kept];
            kept++;
        }
    }
    if (!status && !kept) {
        cli_fail("--from %s: no built-in profile describes that build (ff8diff identify %s)", from,
                 from);
        status = CLI_EXIT_ERROR;
    }
    n = kept;
    if (!status && identify_read_file(path, &data, &size, &err) < 0) {
        cli_print_error(&err);
        status = CLI_EXIT_ERROR;
    }
    unsigned best = 0;
    if (!status) status = locate_all(path, data, size, src, n, lp, res, ms, &best);
    free(lp);
    if (status) goto done;
    for (unsigned i = 0; i < n; i++)
        if (i != best)
            printf("profile %s: %u found, %u not found, %u found more than once\n", res[i].profile,
                   res[i].nfound, res[i].nnot_found, res[i].nambiguous);
    const locate_result *r = &res[best];
    print_result(path, r, labels[best], ms + 2 * best);
    if (!r->complete) {
        printf("verdict: refused: %s\n", r->refusal);
        if (r->nambiguous && !from)
            printf("  (routines of the same shape are told apart by their patterns: give --from "
                   "a build the profile describes, e.g. --from FF8_EN.exe for "
                   "ff8_en_steam2013)\n");
        cli_fail("%s: the routines of profile %s cannot all be located; nothing runs on a guess",
                 path, r->profile);
        status = CLI_EXIT_ERROR;
        goto done;
    }
    unsigned nr = r->nroutines - r->nskipped;
    printf("verdict: located (profile %s): %u routine%s, %u table%s and %u global%s, each found "
           "once, in %.1f ms\n",
           r->located.name, nr, nr == 1 ? "" : "s", r->ntables, r->ntables == 1 ? "" : "s",
           r->nglobals, r->nglobals == 1 ? "" : "s", ms[2 * best]);
    for (unsigned i = 0; i < r->located.nversions; i++)
        if (r->located.versions[i].own)
            printf("  its version dwords name it: %s, %s\n", r->located.versions[i].build,
                   r->located.versions[i].language);
    if (r->nhelpers_left)
        printf("  %u pose helper row%s not found once (listed above): left out of the located "
               "profile, %s leaf level does not run\n",
               r->nhelpers_left, r->nhelpers_left == 1 ? "" : "s",
               r->nhelpers_left == 1 ? "its" : "their");
    if (write_path) status = write_profile(&r->located, write_path, path);
done:
    free(data);
    free(src);
    free(res);
    free(ms);
    free(labels);
    return status;
}
