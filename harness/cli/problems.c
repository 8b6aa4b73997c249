/*
 * harness/cli/problems.c: the first problems of a run on the terminal,
 * after its verdict line: up to CLI_PROBLEMS_SHOWN of each kind (bad
 * input, faults), each with its file, clip, mode and reason, then how many
 * more the report holds. Causes are listed by cli_write_report itself.
 * Prints to stderr (problems, as every error is); reads the results only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cli/cli.h"
#include "harness/cli/session.h"
#include "harness/core/modes.h"

#define CLI_PROBLEMS_SHOWN 5

/* Which clip a result is, "c0m001.dat anim 3 slow" (entity: "entity d4c009.dat ..."). */
static void clip_name(const run_results *r, const clip_result *c, int entity, char *buf, size_t n)
{
    if (c->clip < 0)
        snprintf(buf, n, "%s", r->files[c->file].name);
    else
        snprintf(buf, n, "%s%s anim %d %s", entity ? "entity " : "", r->files[c->file].name,
                 (int)c->clip, mode_name(c->mode));
}

/* The problems of kind want (bad input or fault): the first few, then the count left. */
static void list_kind(const run_results *r, res_status want)
{
    size_t shown = 0, total = 0;
    /* A whole file's problem, met once per mode, is counted once. */
    uint8_t *seen = calloc(r->nfiles ? r->nfiles : 1, 1);
    for (size_t i = 0; i < r->nresults + r->nentity_results; i++) {
        int ent = i >= r->nresults;
        const clip_result *c = ent ? &r->entity_results[i - r->nresults].r : &r->results[i];
        if (c->status != want) continue;
        if (c->clip < 0 && !ent && seen) {
            if (seen[c->file]) continue;
            seen[c->file] = 1;
        }
        if (total++ >= CLI_PROBLEMS_SHOWN) continue;
        char name[FF_ERR_FILE_MAX + 64], why[FF_ERR_FILE_MAX + FF_ERR_REASON_MAX + 64] = "";
        clip_name(r, c, ent, name, sizeof name);
        if (want == RES_BAD_INPUT && c->error)
            ff_error_format(c->error, why, sizeof why);
        else if (want == RES_FAULT && c->fault)
            snprintf(why, sizeof why, "%s at 0x%08x (%s)", emu_fault_name(c->fault->kind),
                     c->fault->eip, c->fault->detail);
        /* A whole file's error names the file itself. */
        if (c->clip < 0 && c->error && !strcmp(c->error->file, r->files[c->file].name))
            cli_fail("%s: %s", want == RES_BAD_INPUT ? "bad input" : "fault", why);
        else
            cli_fail("%s: %s: %s", want == RES_BAD_INPUT ? "bad input" : "fault", name, why);
        shown++;
    }
    free(seen);
    if (total > shown)
        cli_fail("and %zu more %s: see the report", total - shown,
                 want == RES_BAD_INPUT ? "bad inputs" : "faults");
}

void cli_first_problems(const run_results *r)
{
    fflush(stdout); /* after the verdict line, on a terminal too */
    list_kind(r, RES_BAD_INPUT);
    list_kind(r, RES_FAULT);
}
