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

/*
 * A monster of the vanilla preset (seed 1) with 8 to 40 bones whose clips
 * never take the scale path, copied alone into DIR/plain/plain.dat: its
 * bones compose as hierarchical TRS under every reading, so an export of
 * it keeps the skeleton's hierarchy (a renamed viewer's joints can be
 * recovered by it). Returns the folder (caller frees); fails the test
 * when there is none.
 */
char *tg_plain_monster(const char *dir);

#endif
