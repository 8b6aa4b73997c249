/*
 * harness/run/engines.c: which engine does what in a run (res->engines).
 * The run's calls go to the engine run_config asks for; what needs one of
 * an engine's hooks goes where the hook is: coverage is recorded only when
 * the run's engine has coverage hooks (else "not recorded", with why), and
 * the replays after the run (write watches, read logs) open the run's engine
 * when it has the hook, else the first engine built in that has it, and
 * the report says so. Knows no kind of engine in particular. Nothing here
 * prints or exits.
 */
#include <stdio.h>
#include <string.h>

#include "harness/run/context.h"
#include "harness/run/run.h"

/* The first engine built in that has every capability of caps (EMU_CAP_BIT flags), or NULL. */
static const emu_ops *engine_with(unsigned caps)
{
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++) {
        const emu_ops *ops = emu_engine_ops((emu_engine_kind)k);
        if (ops && (emu_engine_caps(ops) & caps) == caps) return ops;
    }
    return NULL;
}

static const char *kind_of(const emu_ops *ops)
{
    return emu_engine_kind_name(emu_engine_kind_of(ops));
}

/* The first capability of caps that ops lacks. */
static emu_cap missing(const emu_ops *ops, unsigned caps)
{
    unsigned lack = caps & ~emu_engine_caps(ops);
    for (unsigned c = 0; c < EMU_CAP__COUNT; c++)
        if (lack & EMU_CAP_BIT(c)) return (emu_cap)c;
    return EMU_CAP__COUNT;
}

int run_engines_begin(run_ctx *ctx)
{
    const run_config *cfg = ctx->cfg;
    res_engines *en = &ctx->res->engines;
    memset(en, 0, sizeof *en);
    if (!cfg->image || cfg->traces_dir) return 0;
    snprintf(en->calls, sizeof en->calls, "%s", kind_of(cfg->game.engine));
    if (cfg->second) snprintf(en->second, sizeof en->second, "%s", kind_of(cfg->second));
    if (!cfg->coverage) return 0;
    unsigned cov = EMU_CAP_BIT(EMU_CAP_COVERAGE);
    int isolated = run_engine_processes(cfg) && !cfg->second;
    if (!isolated && (emu_engine_caps(cfg->game.engine) & cov) == cov) {
        snprintf(en->coverage, sizeof en->coverage, "%s", en->calls);
        return 1;
    }
    /* Asked for, and the run's engine cannot watch its blocks: said, never a table of zeros. */
    res_coverage *c = &ctx->res->coverage;
    c->enabled = 1;
    if (isolated && (emu_engine_caps(cfg->game.engine) & cov) == cov) {
        snprintf(c->not_recorded, sizeof c->not_recorded,
                 "the original ran in engine processes (--engine-processes), which keep no "
                 "coverage; run without it to record it");
        return 0;
    }
    const emu_ops *with = engine_with(cov);
    char how[64] = "";
    if (with) snprintf(how, sizeof how, "; run with --engine %s to record it", kind_of(with));
    snprintf(c->not_recorded, sizeof c->not_recorded, "the %s engine has no coverage hooks%s",
             en->calls, how);
    return 0;
}

int run_replay_opts(run_ctx *ctx, unsigned caps, const char *what, emu_game_opts *opts,
                    ff_error *err)
{
    const emu_ops *run = ctx->cfg->game.engine ? ctx->cfg->game.engine : emu_engine_default();
    const emu_ops *use = (emu_engine_caps(run) & caps) == caps ? run : engine_with(caps);
    if (!use)
        return ff_error_set(err, FF_E_UNSUPPORTED, NULL, -1,
                            "no engine built into this program has the %s (for %s)",
                            emu_cap_what(missing(run, caps)), what);
    *opts = ctx->cfg->game;
    opts->engine = use;
    res_engines *en = &ctx->res->engines;
    snprintf(en->replays, sizeof en->replays, "%s", kind_of(use));
    if (use == run) return 0;
    size_t n = strlen(en->replays_why);
    snprintf(en->replays_why + n, sizeof en->replays_why - n,
             "%s%s replayed on %s: the %s engine has no %s", n ? "; " : "", what, kind_of(use),
             kind_of(run), emu_cap_what(missing(run, caps)));
    return 0;
}
