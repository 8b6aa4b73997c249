/*
 * emu/profiles/identify_internal.h: what emu/profiles/identify.c and
 * emu/profiles/evidence.c share: reading a byte string of the file as the
 * loader maps it, and the evidence checks of one profile. Not for use
 * outside emu/profiles/.
 */
#ifndef FF8_EMU_PROFILES_IDENTIFY_INTERNAL_H
#define FF8_EMU_PROFILES_IDENTIFY_INTERNAL_H

#include "emu/profiles/identify.h"

/* Reads f's bytes into o; found_len stops at the first unreadable byte. */
void identify_check_bytes(const pe_image *pe, const uint8_t *data, size_t size,
                          const profile_fingerprint *f, identify_fp *o);
/* The profile's "evidence" and "versions" checked in the file, into m. */
void identify_check_evidence(const pe_image *pe, const uint8_t *data, size_t size,
                             const emu_profile *p, identify_match *m);

#endif
