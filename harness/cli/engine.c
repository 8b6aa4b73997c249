/*
 * harness/cli/engine.c: what the command says about the engine it runs the
 * original on: the lines of `ff8diff --version` (one per engine built in,
 * each saying whether it runs here, and why not), the one warning a run
 * gives when the engine says it will be slow (emu/engine/emu.h's engine
 * info), and which engine a command runs on (--engine, else the
 * FF8DIFF_ENGINE environment variable, else the default engine): the
 * --engine values are the kinds of emu/engine/emu.h's table by name, auto
 * and both. Knows no kind of engine in particular.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu/engine/emu.h"
#include "harness/cli/cli.h"

void cli_engine_probe(const emu_ops *engine, emu_engine_info *info)
{
    ff_error err;
    ff_error_clear(&err);
    if (emu_engine_info_get(engine, info, 1, &err) < 0) cli_print_error(&err);
    if (info->warning[0]) cli_warn("%s", info->warning);
}

void cli_engine_line(const emu_engine_info *info, char *buf, size_t n)
{
    snprintf(buf, n, "engine: %s %s%s%s", emu_engine_kind_name(info->kind), info->version,
             info->summary[0] ? ", " : "", info->summary);
}

void cli_engine_print_version(void)
{
    for (unsigned k = 0; k < EMU_ENGINE__COUNT; k++) {
        const emu_ops *ops = emu_engine_ops((emu_engine_kind)k);
        if (!ops) continue;
        emu_engine_info info;
        ff_error err;
        ff_error_clear(&err);
        if (emu_engine_info_get(ops, &info, 1, &err) < 0) {
            /* Built in, and this process cannot run it: the line says why. */
            printf("engine: %s %s: cannot run here: %s\n", emu_engine_kind_name(info.kind),
                   info.version, err.reason);
            continue;
        }
        if (info.warning[0]) cli_warn("%s", info.warning);
        char line[160];
        cli_engine_line(&info, line, sizeof line);
        printf("%s", line);
        for (unsigned i = 0; i < info.nfacts; i++) {
            const emu_engine_fact *f = &info.facts[i];
            printf("%s%s ", i ? ", " : " (", f->name);
            if (f->is_number)
                printf(f->number == (double)(long long)f->number ? "%.0f" : "%.1f", f->number);
            else
                printf("%s", f->text);
        }
        printf("%s; runs here\n", info.nfacts ? ")" : "");
    }
}

static const char *const choices[] = {
#define CLI_ENGINE_CHOICE(name) name,
    CLI_ENGINE_CHOICES(CLI_ENGINE_CHOICE)
#undef CLI_ENGINE_CHOICE
};
#define NCHOICES (sizeof choices / sizeof choices[0])

/* The --engine value number i: the kinds of engine, then the choices; NULL past them. */
static const char *value(unsigned i)
{
    if (i < EMU_ENGINE__COUNT) return emu_engine_kind_name((emu_engine_kind)i);
    return i - EMU_ENGINE__COUNT < NCHOICES ? choices[i - EMU_ENGINE__COUNT] : NULL;
}

int cli_engine_parse(const char *name)
{
    for (unsigned i = 0; value(i); i++)
        if (strcmp(name, value(i)) == 0) return 0;
    return -1;
}

char *cli_engine_values(char *buf, size_t n)
{
    if (n) buf[0] = 0;
    for (unsigned i = 0; value(i); i++)
        cli_list_add(buf, n, value(i + 1) ? ", " : " or ", value(i));
    return buf;
}

int cli_engine_choose(const char *command, const char *name, const emu_ops **out,
                      const emu_ops **second, char *note, size_t n)
{
    note[0] = 0;
    const emu_ops *dflt = emu_engine_default();
    *out = dflt;
    *second = NULL;
    const char *given = "--engine ";
    if (!name) {
        /* The option wins; the environment only sets the default (empty: unset). */
        name = getenv(CLI_ENGINE_ENV);
        given = CLI_ENGINE_ENV "=";
        if (name && !*name) name = NULL;
        if (name && cli_engine_parse(name) < 0) {
            char safe[64], values[128];
            cli_fail("%s: %s%s: expected %s", command, given, cli_safe(name, safe, sizeof safe),
                     cli_engine_values(values, sizeof values));
            return CLI_EXIT_ERROR;
        }
    }
    if (!name) return 0;
    /* A kind by its name, else a choice (auto, both) of the engine on the CPU. */
    emu_engine_kind kind = emu_engine_kind_named(name);
    int is_kind = kind != EMU_ENGINE__COUNT;
    const emu_ops *want = is_kind ? emu_engine_ops(kind) : emu_engine_on_cpu();
    if (want == dflt) return 0;
    emu_engine_info info;
    ff_error err;
    ff_error_clear(&err);
    if (!want)
        ff_error_set(&err, FF_E_UNSUPPORTED, NULL, -1, "no such engine is built into this program");
    else if (emu_engine_info_get(want, &info, 1, &err) == 0) {
        if (strcmp(name, "both") == 0)
            *second = want;
        else
            *out = want;
        return 0;
    }
    if (strcmp(name, "auto") == 0) {
        snprintf(note, n, "engine: auto chose %s: %s",
                 emu_engine_kind_name(emu_engine_kind_of(dflt)), err.reason);
        cli_warn("%s", note);
        return 0;
    }
    cli_fail("%s: %s%s cannot run here: %s", command, given, name, err.reason);
    return CLI_EXIT_ERROR;
}
