/*
 * emu/image/owner.h: the routine an instruction of the original belongs to, by
 * the routines' extents as their walks give them (emu/image/walk.h), never by
 * the nearest entry below: a profile routine whose own paths hold the
 * instruction, else a routine outside the profile that one of them calls
 * (directly, or through such routines), named by its entry and the
 * profile routine its calls lead from ("a routine at 0x56C2F0 called from
 * ComputeBonesWorldMatrices"). An address no walk reaches has no owner.
 *
 * What it is for: naming the writing instruction of a field, the call
 * instruction of a read, in reports. Reads the image only; never prints,
 * never exits, keeps no state between calls.
 */
#ifndef FF8_EMU_IMAGE_OWNER_H
#define FF8_EMU_IMAGE_OWNER_H

#include <stdint.h>

#include "common/error.h"
#include "emu/image/pe.h"
#include "emu/image/profile.h"

#define EMU_OWNER_NAME 96
#define EMU_OWNER_DEPTH 4    /* calls followed from a profile routine at most */
#define EMU_OWNER_WALKS 512  /* routines outside the profile walked at most */

typedef struct emu_owner {
    int known;                   /* 0: no routine walked holds the address (routine "") */
    int in_profile;              /* 1: routine is the name of a profile routine */
    char routine[EMU_OWNER_NAME]; /* its name, or "a routine at 0x.. called from ..." */
    uint32_t entry;              /* its entry */
    uint32_t offset;             /* the address minus entry */
} emu_owner;

/*
 * The routine of profile p holding addr in the image laid out by
 * pe_build_image (layout) of pe, else the routine outside the profile
 * holding it that their direct calls lead to (breadth first, at most
 * EMU_OWNER_DEPTH calls deep and EMU_OWNER_WALKS routines), into *out
 * (cleared first; known 0 when none). Returns 0, or -1 when Capstone
 * cannot start or memory runs out (*out then says unknown).
 */
int emu_owner_of(const pe_image *pe, const uint8_t *layout, const emu_profile *p, uint32_t addr,
                 emu_owner *out, ff_error *err);

#endif
