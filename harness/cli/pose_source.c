/*
 * harness/cli/pose_source.c: where the reference's pose convention comes
 * from, decided in one place for every command that poses (run, record,
 * check, export, check-gltf, decode): --pose-options as given, else the
 * convention the golden traces were recorded under, else the one the
 * executable's profile pins, else the search on the original where the
 * command can search, else the defaults (the notes' layout, ref/pose.h).
 * The choice is returned with a sentence naming it, which the command
 * prints or puts in its report. Nothing here exits.
 */
#include <stdio.h>

#include "harness/cli/cli.h"

static const char *const source_names[CLI_POSE__COUNT] = {
    [CLI_POSE_GIVEN] = "given with --pose-options",
    [CLI_POSE_TRACES] = "the golden traces' convention",
    [CLI_POSE_PROFILE] = "pinned by the executable's profile",
    [CLI_POSE_CACHED] = "the search's result for this executable, remembered in the results cache",
    [CLI_POSE_SEARCH] = "searched on the original",
    [CLI_POSE_DEFAULT] = "the defaults (no convention given, pinned or searched here)",
};

static const char *const source_keys[CLI_POSE__COUNT] = {
    [CLI_POSE_GIVEN] = "given",     [CLI_POSE_TRACES] = "traces", [CLI_POSE_PROFILE] = "profile",
    [CLI_POSE_CACHED] = "cache",    [CLI_POSE_SEARCH] = "search", [CLI_POSE_DEFAULT] = "default",
};

const char *cli_pose_source_name(cli_pose_source s)
{
    return (unsigned)s < CLI_POSE__COUNT ? source_names[s] : "?";
}

const char *cli_pose_source_key(cli_pose_source s)
{
    return (unsigned)s < CLI_POSE__COUNT ? source_keys[s] : "?";
}

int cli_pose_pick(const cli_pose_inputs *in, ref_pose_opts *out, cli_pose_source *src,
                  ff_error *err)
{
    ref_pose_opts o;
    if (in->given) {
        if (in->given_search && !in->can_search)
            return ff_error_set(err, FF_E_USAGE, NULL, -1,
                                "--pose-options auto is a run's search; give the convention (a "
                                "run's report names it under \"Pose convention\")");
        *src = in->given_search ? CLI_POSE_SEARCH : CLI_POSE_GIVEN;
        *out = in->given_opts;
        return 0;
    }
    if (in->traces && in->traces[0]) {
        if (ref_pose_opts_parse(in->traces, &o, err) < 0) return -1;
        *src = CLI_POSE_TRACES;
        *out = o;
        return 0;
    }
    if (in->profile && in->profile[0]) {
        if (ref_pose_opts_parse(in->profile, &o, err) < 0) return -1;
        *src = CLI_POSE_PROFILE;
        *out = o;
        return 0;
    }
    ref_pose_opts_default(out);
    *src = in->can_search ? CLI_POSE_SEARCH : CLI_POSE_DEFAULT;
    return 0;
}

void cli_pose_say(const char *command, cli_pose_source src, const ref_pose_opts *o, int quiet)
{
    char text[REF_POSE_OPTS_TEXT_MAX];
    if (quiet || src == CLI_POSE_SEARCH) return; /* a search's result is in the run's summary */
    ref_pose_opts_format(o, text, sizeof text);
    fprintf(stderr, "%s: pose convention %s (%s)\n", command, text, cli_pose_source_name(src));
}
