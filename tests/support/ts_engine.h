/*
 * tests/support/ts_engine.h: the engine under test (libff8testengine). The
 * suites that open engines through the library (emu_config.engine,
 * emu_game_opts.engine, run_config.game.engine) take it from here, so one
 * environment variable puts the whole suite on an engine: FF8DIFF_ENGINE,
 * read the way the ff8diff commands the tests run read it (unicorn, native,
 * auto or both; unset or empty: unicorn). The library itself never reads
 * the environment.
 *
 * A test that checks a hook only Unicorn has (an instruction budget count,
 * the stub, write watches, read logs, coverage, the exact place of a fault,
 * Unicorn's own version facts, several engines in one process) pins
 * Unicorn with ts_unicorn() and says why.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_SUPPORT_TS_ENGINE_H
#define FF8_TESTS_SUPPORT_TS_ENGINE_H

#include "emu/engine/emu.h"

/*
 * The engine $FF8DIFF_ENGINE names: Unicorn when unset, empty or
 * "unicorn"; native for "native" and for "both" (the engine under test
 * beside the default one); for "auto", native when its probe call works
 * here, else Unicorn. Any other value fails the running test.
 */
const emu_ops *ts_engine(void);
/* Its kind, and 1 when it is the native engine. */
emu_engine_kind ts_engine_kind(void);
int ts_engine_native(void);
/* Unicorn, for the tests pinned to it. */
const emu_ops *ts_unicorn(void);

#endif
