/*
 * tests/support/ts_engine.c: the engine under test, from FF8DIFF_ENGINE
 * (see ts_engine.h).
 */
#include "tests/support/ts_engine.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

const emu_ops *ts_unicorn(void)
{
    const emu_ops *ops = emu_engine_ops(EMU_ENGINE_UNICORN);
    cr_assert(ops, "no Unicorn engine built in");
    return ops;
}

const emu_ops *ts_engine(void)
{
    const char *name = getenv("FF8DIFF_ENGINE");
    if (!name || !*name || strcmp(name, "unicorn") == 0) return ts_unicorn();
    const emu_ops *native = emu_engine_ops(EMU_ENGINE_NATIVE);
    cr_assert(strcmp(name, "native") == 0 || strcmp(name, "both") == 0 || strcmp(name, "auto") == 0,
              "FF8DIFF_ENGINE=%s: expected unicorn, native, auto or both", name);
    cr_assert(native, "FF8DIFF_ENGINE=%s: no native engine built in", name);
    if (strcmp(name, "auto") == 0) {
        emu_engine_info info;
        ff_error err;
        ff_error_clear(&err);
        return emu_engine_info_get(native, &info, 1, &err) == 0 ? native : ts_unicorn();
    }
    return native;
}

emu_engine_kind ts_engine_kind(void)
{
    return emu_engine_kind_of(ts_engine());
}

int ts_engine_native(void)
{
    return ts_engine_kind() == EMU_ENGINE_NATIVE;
}
