/*
 * harness/cli/unicorn.c: what the command says about the Unicorn it runs:
 * the line of `ff8diff --version`, and the one warning a run gives when
 * the library's emulated stores take the slow path (emu/engine/unicorn_info.h).
 */
#include <stdio.h>

#include "emu/engine/game.h"
#include "harness/cli/cli.h"

void cli_unicorn_probe(emu_unicorn_info *u, char *slow, size_t n)
{
    ff_error err;
    ff_error_clear(&err);
    slow[0] = '\0';
    /* Unicorn ends the process when it cannot reserve an engine's code buffer:
     * without room for one, no probe (the run then says why it cannot start). */
    int room = emu_game_room(1, &err) == 0;
    ff_error_clear(&err);
    if (emu_unicorn_info_get(u, room, &err) < 0) cli_print_error(&err);
    int is_slow = u->store == EMU_STORE_SLOW ||
                  (u->store == EMU_STORE_UNKNOWN && emu_unicorn_version_slow(u));
    if (!is_slow) return;
    snprintf(slow, n,
             "Unicorn %s takes the slow path on every emulated store (%.0f ns a store against "
             "%.1f ns a load): runs take several times longer than on Unicorn 2.1.1 (about 10 "
             "times on 2.0.1), which "
             "scripts/setup.sh puts into .deps/unicorn for a build without "
             "-DFF_SYSTEM_UNICORN=ON",
             u->version, u->store_ns, u->load_ns);
    cli_warn("%s", slow);
}

void cli_unicorn_print_version(void)
{
    emu_unicorn_info u;
    char slow[512];
    cli_unicorn_probe(&u, slow, sizeof slow);
    printf("Unicorn %s: %s stores (%.1f ns a store, %.1f ns a load)\n", u.version,
           emu_store_path_name(u.store), u.store_ns, u.load_ns);
}
