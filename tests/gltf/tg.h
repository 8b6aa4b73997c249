/*
 * tests/gltf/tg.h: what the glTF suites share.
 */
#ifndef FF8_TESTS_GLTF_TG_H
#define FF8_TESTS_GLTF_TG_H

#include <stdint.h>

#include "ref/dat.h"

/*
 * The first monster of corpus (a folder of .dat) with more than 3 bones:
 * its bytes (caller frees), parsed into *d (valid while they and *path
 * are; d->name is the path), and its path into *path (caller frees).
 * Fails the test when there is none.
 */
uint8_t *tg_first_monster(const char *corpus, dat_file *d, char **path);

#endif
