/*
 * emu/engine/game.h: the original engine's animation routines, run by an engine
 * (emu/engine/emu.h: Unicorn, or another kind) on guest memory laid out as the
 * game lays it out. This is the only face of emu/ the harness uses.
 *
 * An emu_image is a validated PE32 plus its profile: read-only after load,
 * shared by every worker thread. An emu_game is one engine with the
 * image mapped, a stack, the Field_Alloc scratch and the game structures
 * (Model, Files, AnimCmd, Cursor) placed in guest memory: one per thread,
 * never shared. Nothing here prints or exits; a fault in emulated code is a
 * returned emu_fault and the engine stays usable for the next call.
 */
#ifndef FF8_EMU_ENGINE_GAME_H
#define FF8_EMU_ENGINE_GAME_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/emu.h"
#include "emu/engine/fault.h"
#include "emu/image/profile.h"
#include "ref/readlog.h"
#include "common/error.h"

typedef struct emu_image emu_image;
typedef struct emu_game emu_game;

/*
 * Loads the executable at path and checks it against profile (hash, then
 * fingerprints). On success *out is a new image; *warning (when not NULL)
 * receives "" or sentences: an unknown build whose fingerprints hold, a
 * section whose raw data the file cuts short (mapped as far as it goes,
 * zeros after). A build the profile refuses fails with FF_E_EXE and the
 * reason.
 */
int emu_image_load(const char *path, const emu_profile *profile, emu_image **out,
                   char *warning, size_t warning_size, ff_error *err);
void emu_image_free(emu_image *img);
/* 1 when the executable's SHA-256 is one the profile knows, 0 for an unknown build. */
int emu_image_known(const emu_image *img);
/* SHA-256 of the executable, lowercase hex (65 bytes with NUL). */
const char *emu_image_sha256(const emu_image *img);
const emu_profile *emu_image_profile(const emu_image *img);

typedef struct emu_game_opts {
    /* 0: BuildBoneMatrices is replaced by a plain return when
     * Battle_ReadAnimation calls it (emu_game_build_matrices still runs the
     * original); 1: every decoding call rebuilds the bone matrices. */
    int keep_matrices;
    uint64_t budget;   /* instructions per call before a BUDGET fault; 0: default */
    const emu_ops *engine; /* the engine to run on (emu_engine_ops); NULL: the default */
} emu_game_opts;

/*
 * Some engines reserve address space for each engine and end the whole
 * process when they cannot (Unicorn 2.0.1: a 1 GiB code buffer, exit(1)).
 * Checks beforehand that the address space has room for `engines` engines
 * of `engine` (NULL: the default): 0, or -1 with FF_E_NOMEM naming the
 * limit, so that an address-space limit (ulimit -v) is an error, never a
 * silent exit.
 */
int emu_game_room(const emu_ops *engine, unsigned engines, ff_error *err);

/* A new engine for this thread. img must outlive it. */
int emu_game_open(const emu_image *img, const emu_game_opts *opts, emu_game **out,
                  ff_error *err);
void emu_game_close(emu_game *g);

/*
 * Places a whole .dat file contiguously in guest memory followed by a
 * zeroed guard page, with Files {skeleton, geometry, animation} pointing at
 * sections 0, 1 and 2 and a Model header pointing at Files. Replaces the
 * previous file. Fails (FF_E_RANGE) when the file is larger than the guest
 * area, (FF_E_EMU) when Unicorn refuses to map it or to unmap the previous
 * one; after any failure no file is loaded.
 */
int emu_game_load_file(emu_game *g, const uint8_t *data, size_t size, uint32_t skel_off,
                       uint32_t geom_off, uint32_t anim_off, ff_error *err);
/* Restores the skeleton section's bytes as loaded from the file. */
void emu_game_reset_skeleton(emu_game *g);

/*
 * Sets AnimCmd flags to `flags` (other bytes zero), calls StartClip(m, cmd,
 * clip). Returns 0 with *ret = EAX, or -1 with *fault filled.
 */
int emu_game_start_clip(emu_game *g, uint8_t flags, int16_t clip, uint32_t *ret,
                        emu_fault *fault);
/* Calls Battle_ReadAnimation(m, cmd) once. */
int emu_game_read_animation(emu_game *g, uint32_t *ret, emu_fault *fault);

/* Host views of the guest state, valid until the next load_file or close. */
const uint8_t *emu_game_cmd(const emu_game *g);      /* 8 bytes */
const uint8_t *emu_game_skeleton(const emu_game *g); /* the skeleton section, NULL: no file */
/* Bytes of the skeleton section (16 + 48 per bone), 0 when no file is loaded. */
size_t emu_game_skeleton_size(const emu_game *g);
/*
 * Writes the whole skeleton section (emu_game_skeleton_size bytes from
 * bytes) into guest memory, as a state the original once left there (no
 * emulated store is involved). Nothing happens when no file is loaded.
 */
void emu_game_set_skeleton(emu_game *g, const uint8_t *bytes);

/*
 * One past the furthest file byte the last call's Cursor (in the Field_Alloc
 * scratch) reached, plus the 2 bytes a 3-byte load may touch; relative to
 * the start of the file.
 */
uint64_t emu_game_cursor_extent(const emu_game *g);

/* Instructions the last call executed (0 when the engine has no EMU_CAP_BUDGET). */
uint64_t emu_game_last_insns(const emu_game *g);

/* Where a field lives in guest memory, for emu_game_find_writer. */
typedef enum emu_game_area { EMU_GAME_CMD, EMU_GAME_SKELETON } emu_game_area;

/*
 * Replays clip (StartClip with flags, then Battle_ReadAnimation) on the
 * loaded file from its skeleton as loaded, up to call number tick (0 is
 * StartClip), with a write watch on size bytes at offset of the AnimCmd or
 * of the skeleton section armed for that call only, and fills *w with the
 * last instruction that wrote there (w->writes == 0: that call did not
 * write there). Returns 0; -1 with *fault when a call faults, or with err
 * when the range is outside its area or the clip ends before tick, or the
 * engine has no write watch (FF_E_UNSUPPORTED, before any call).
 */
int emu_game_find_writer(emu_game *g, uint8_t flags, int16_t clip, size_t tick,
                         emu_game_area area, uint32_t offset, uint32_t size, emu_writer *w,
                         emu_fault *fault, ff_error *err);

/*
 * For other modules of emu/ that lay their own structures on a game's
 * engine (emu/engine/entity.c), not for the harness: the engine and the image.
 */
emu *emu_game_engine(emu_game *g);
const emu_image *emu_game_image(const emu_game *g);

/*
 * Leaf routines, on a buffer of len bytes placed in guest memory: the
 * reading routines of ref/readlog.h's REF_ROUTINE_MAP, in its order
 * (EMU_LEAF_BITREADER is REF_R_BITREADER, ...).
 */
typedef enum emu_leaf {
#define EMU_LEAF_ENUM(id, name) EMU_LEAF_##id,
    REF_ROUTINE_MAP(EMU_LEAF_ENUM)
#undef EMU_LEAF_ENUM
        EMU_LEAF__COUNT
} emu_leaf;

/*
 * Calls one leaf routine with a Cursor at (buf + pos, bit); for the
 * bitReader n is its second argument. Returns 0 with *ax = low 16 bits of
 * EAX and the Cursor after the call (pos relative to buf), or -1 on fault.
 */
int emu_game_leaf(emu_game *g, emu_leaf leaf, const uint8_t *buf, size_t len, int64_t pos,
                  int32_t bit, int16_t n, int16_t *ax, int64_t *pos_after, int32_t *bit_after,
                  emu_fault *fault);

/* ---- the posed skeleton (docs/pose.md; emu/engine/game_pose.c) ---------------------- */

/* A PsyQ MATRIX as the engine stores it (bone+0x10, 32 bytes little-endian). */
typedef struct emu_matrix {
    int16_t m[3][3]; /* Q12 cells, row-major */
    uint16_t pad;    /* stack garbage copied along: carried, never to be compared */
    int32_t t[3];    /* translation */
} emu_matrix;

#define EMU_MATRIX_BYTES 32
/* The 32 little-endian bytes of a MATRIX, and back. */
void emu_matrix_decode(const uint8_t *bytes, emu_matrix *m);
void emu_matrix_encode(const emu_matrix *m, uint8_t *bytes);

/*
 * The MATRIX of bone i (bone+0x10..+0x2F) of the skeleton as it is now.
 * Returns 0, or -1 when no file is loaded or i is not below the bone count.
 */
int emu_game_bone_matrix(const emu_game *g, unsigned i, emu_matrix *out);

/*
 * Calls the original BuildBoneMatrices(m) once on the skeleton as it is
 * now (typically right after a decoding call), whether or not this engine
 * replaces it by a return inside Battle_ReadAnimation (the patch is lifted
 * for this call and put back). Returns 0 with *ret = EAX and the bone
 * matrices rewritten in guest memory; -1 with *fault (the skeleton back as
 * it was before the call, the rest of the file as loaded).
 */
int emu_game_build_matrices(emu_game *g, uint32_t *ret, emu_fault *fault);

/*
 * Sets (on 1) or lifts (on 0) this engine's BuildBoneMatrices return stub
 * (emu_stub_return: switching it changes no code; a patched `ret` on an
 * engine without EMU_CAP_STUB), for callers that run
 * the pose routines on models of their own (emu/engine/entity.c): lift it, call,
 * set it back. Nothing happens when the engine keeps the original
 * BuildBoneMatrices. Returns 0, or -1 with err.
 */
int emu_game_matrices_patch(emu_game *g, int on, ff_error *err);

/*
 * Calls the original ComputeBonesWorldMatrices(m, base) with *base placed in
 * guest memory, copies every bone's MATRIX after the call into world[0 ..
 * bone count) and puts the skeleton back as it was before the call (the
 * routine composes in place). cap is the room in world; fewer than the
 * bone count is refused before any call (fault kind EMU). Returns 0 with
 * *ret = EAX; -1 with *fault (skeleton restored the same way).
 */
int emu_game_world_matrices(emu_game *g, const emu_matrix *base, emu_matrix *world, size_t cap,
                            uint32_t *ret, emu_fault *fault);

/*
 * The pose counterpart of emu_game_find_writer: replays clip up to call
 * number tick (BuildBoneMatrices as this engine treats it inside the
 * decoding calls), then calls BuildBoneMatrices with the write watch armed
 * (base NULL), or calls it unwatched and then ComputeBonesWorldMatrices
 * under *base with the watch armed, on size bytes at offset of the skeleton
 * section; fills *w with the last instruction that wrote there. Returns 0;
 * -1 with *fault or err as emu_game_find_writer.
 */
int emu_game_find_pose_writer(emu_game *g, uint8_t flags, int16_t clip, size_t tick,
                              const emu_matrix *base, uint32_t offset, uint32_t size,
                              emu_writer *w, emu_fault *fault, ff_error *err);

/*
 * Operands and results of a pose helper called alone (emu_game_pose_helper).
 * Every operand is placed in guest memory before the call (at addresses of
 * its own) and read back after it; the routine gets, in the order of its
 * profile row's "params", the ones its role takes (emu/image/profile.h).
 */
typedef struct emu_pose_io {
    int32_t angle;           /* "angle": passed by value */
    emu_matrix a, b, m, out; /* "a", "b", "m", "out" */
    int16_t sv[4];           /* "sv": SVECTOR x, y, z, pad */
    int32_t v[4], vout[4];   /* "v", "vout": VECTOR x, y, z, pad */
    /* After the call. */
    uint32_t eax;
    int32_t value;       /* the result as the profile says: eax, or ax sign-extended; else 0 */
    int has_st0;         /* the x87 stack held a value */
    double st0;          /* ST(0) as the nearest double (has_st0) */
    uint8_t st0_raw[10]; /* ST(0), 80-bit extended, little-endian (has_st0) */
} emu_pose_io;

/*
 * Calls the pose helper holding role (profile row with "helper") alone, on
 * io's operands, and fills io's results and operands back. Needs no file.
 * Returns 0, or -1 with *fault: the profile has no such helper (kind EMU),
 * the routine faulted, or the profile says "st0" and the x87 stack came
 * back empty (kind EMU: the profile's signature is wrong).
 */
int emu_game_pose_helper(emu_game *g, profile_helper_id role, emu_pose_io *io, emu_fault *fault);

#endif
