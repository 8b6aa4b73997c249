/*
 * emu/engine/image.h: the parts of an emu_image (emu/engine/game.h) the rest of emu/ and
 * the tests need: loading from a buffer already in memory, and the parsed
 * PE and laid-out image an engine maps. Read-only after load; shared by
 * every thread. Nothing here prints or exits.
 */
#ifndef FF8_EMU_ENGINE_IMAGE_H
#define FF8_EMU_ENGINE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/game.h"
#include "emu/image/pe.h"

/*
 * As emu_image_load, on data[0..size) (copied); name is used in errors
 * and warnings.
 */
int emu_image_load_buffer(const uint8_t *data, size_t size, const char *name,
                          const emu_profile *profile, emu_image **out, char *warning,
                          size_t warning_size, ff_error *err);

/* The parsed PE and the image laid out as the loader maps it (size_of_image bytes). */
const pe_image *emu_image_pe(const emu_image *img);
const uint8_t *emu_image_layout(const emu_image *img);

#endif
