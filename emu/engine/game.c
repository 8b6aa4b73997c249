/*
 * emu/engine/game.c: the original engine's animation routines on guest memory laid
 * out as the game lays it out (see emu/engine/game.h). One emu engine per game.
 *
 * Guest areas: see emu/engine/game_internal.h. Bone and world matrices and the
 * pose helpers are in emu/engine/game_pose.c.
 *
 * BuildBoneMatrices: when keep_matrices is 0, every call of it from
 * Battle_ReadAnimation returns at once and the bone matrices are never
 * rebuilt there (emu_game_build_matrices lifts this for its own direct
 * call): through the engine's stub (EMU_CAP_STUB, the code unchanged), or
 * where the engine has none, by patching the routine's first byte to 0xC3
 * (ret) in the engine's private copy of the image. The file on disk and the
 * shared image are never changed.
 *
 * The game knows no engine: it opens the one its options name (emu/engine/emu.h)
 * and asks for hooks only through the engine's capabilities.
 *
 * Nothing here prints or exits; a fault is returned and the engine, the
 * file and the skeleton are restored for the next call.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/emu.h"
#include "emu/engine/game.h"
#include "emu/engine/game_internal.h"
#include "emu/engine/image.h"
#include "ref/dat.h"
#include "ref/engine.h"

static uint32_t page_ceil64(uint64_t v)
{
    return (uint32_t)((v + GAME_PAGE - 1) & ~(uint64_t)(GAME_PAGE - 1));
}

uint32_t emu_game_routine_addr(const emu_game *g, profile_routine_id id, emu_fault *fault)
{
    const emu_profile *p = emu_image_profile(g->img);
    if (p->engine[id] >= 0) return p->routines[p->engine[id]].address;
    emu_fault_refuse(fault, 0, "profile %s has no routine %s", p->name, profile_routine_name(id));
    return 0;
}

static int map_fixed(emu_game *g, ff_error *err)
{
    g->leaf_lo = GAME_LEAF_END;
    if (emu_map_area(g->e, GAME_DATA, GAME_PAGE, EMU_PROT_READ | EMU_PROT_WRITE, 0, &g->data,
                     err) ||
        emu_map_area(g->e, GAME_LEAF, GAME_LEAF_MAX + GAME_PAGE, EMU_PROT_READ, 0, &g->leaf, err))
        return -1;
    return 0;
}

int emu_game_room(const emu_ops *engine, unsigned engines, ff_error *err)
{
    return emu_engine_room(engine, engines, err);
}

/* BuildBoneMatrices returns at once: the engine's stub, else a `ret` patched in. */
static int stub_matrices(emu_game *g, uint32_t addr, ff_error *err)
{
    g->stub = addr;
    if (emu_caps(g->e) & EMU_CAP_BIT(EMU_CAP_STUB)) return emu_stub_return(g->e, addr, err);
    g->stub_by_patch = 1;
    return emu_game_matrices_patch(g, 1, err);
}

int emu_game_open(const emu_image *img, const emu_game_opts *opts, emu_game **out, ff_error *err)
{
    *out = NULL;
    const emu_profile *p = emu_image_profile(img);
    if (p->field_alloc_cursor < 0)
        return ff_error_set(err, FF_E_EXE, p->source, -1,
                            "profile %s has no field_alloc_cursor global", p->name);
    emu_game *g = calloc(1, sizeof *g);
    if (!g) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    g->img = img;
    emu_config cfg = {emu_image_pe(img), emu_image_layout(img), p, opts ? opts->budget : 0,
                      opts ? opts->engine : NULL};
    if (emu_open(&cfg, &g->e, err) != 0 || map_fixed(g, err) != 0) goto fail;
    if (!opts || !opts->keep_matrices) {
        int bm = p->engine[PROFILE_R_BUILD_MATRICES];
        if (bm < 0) {
            ff_error_set(err, FF_E_EXE, p->source, -1,
                         "profile %s has no BuildBoneMatrices to replace by a return", p->name);
            goto fail;
        }
        if (stub_matrices(g, p->routines[bm].address, err) != 0) goto fail;
    }
    *out = g;
    return 0;
fail:
    emu_game_close(g);
    return -1;
}

/* Frees the file's copies (the engine owns its pages). */
static void free_file(emu_game *g)
{
    free(g->pristine);
    free(g->pre_skel);
    g->file = g->pristine = g->pre_skel = NULL;
    g->size = 0;
}

/*
 * Unmaps the file's pages and guard page and frees the file's copies. Pages
 * the engine refuses to unmap stay its own until close: the game then holds
 * no file, and loading another fails on the area still in place. Returns 0,
 * or -1 with err.
 */
static int unmap_file(emu_game *g, ff_error *err)
{
    int rc = emu_unmap_area(g->e, GAME_FILE, err);
    free_file(g);
    return rc < 0 ? -1 : 0;
}

void emu_game_close(emu_game *g)
{
    if (!g) return;
    emu_close(g->e); /* the guest areas with it */
    free_file(g);
    free(g);
}

static int check_offsets(size_t size, uint32_t skel, uint32_t geom, uint32_t anim,
                         uint32_t *skel_len, const uint8_t *data, ff_error *err)
{
    if (skel >= size || geom > size || anim >= size)
        return ff_error_set(err, FF_E_RANGE, NULL, -1,
                            "section offsets 0x%x/0x%x/0x%x lie past the end of the file (%zu)",
                            skel, geom, anim, size);
    uint64_t len = DAT_SKEL_HEADER + (uint64_t)DAT_BONE_SIZE * data[skel + DAT_SKEL_BONE_COUNT];
    if (len > size - skel)
        return ff_error_set(err, FF_E_RANGE, NULL, skel,
                            "skeleton of %u bones runs past the end of the file",
                            data[skel + DAT_SKEL_BONE_COUNT]);
    *skel_len = (uint32_t)len;
    return 0;
}

int emu_game_load_file(emu_game *g, const uint8_t *data, size_t size, uint32_t skel_off,
                       uint32_t geom_off, uint32_t anim_off, ff_error *err)
{
    if (g->file && unmap_file(g, err) < 0) return -1;
    if (size == 0 || size > GAME_FILE_MAX)
        return ff_error_set(err, FF_E_RANGE, NULL, -1,
                            "file of %zu bytes does not fit the guest area (1..%u bytes)", size,
                            GAME_FILE_MAX);
    uint32_t skel_len = 0;
    if (check_offsets(size, skel_off, geom_off, anim_off, &skel_len, data, err) != 0) return -1;
    g->file_map = page_ceil64(size);
    g->pristine = malloc(size);
    g->pre_skel = malloc(skel_len ? skel_len : 1);
    if (!g->pristine || !g->pre_skel) {
        free_file(g);
        return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory for the file");
    }
    /* The file's pages, then a zeroed guard page the guest may only read. */
    if (emu_map_area(g->e, GAME_FILE, g->file_map, EMU_PROT_READ | EMU_PROT_WRITE, GAME_PAGE,
                     &g->file, err) < 0) {
        free_file(g);
        return -1;
    }
    memcpy(g->file, data, size);
    memcpy(g->pristine, data, size);
    g->size = size;
    g->skel_off = skel_off;
    g->skel_len = skel_len;
    /* Model {?, &files, &files}; Files {skeleton, geometry, animation}. */
    memset(g->data, 0, 0x40);
    le_put32(g->data + (GAME_MODEL - GAME_DATA) + 4, GAME_FILES);
    le_put32(g->data + (GAME_MODEL - GAME_DATA) + 8, GAME_FILES);
    le_put32(g->data + (GAME_FILES - GAME_DATA) + 0, GAME_FILE + skel_off);
    le_put32(g->data + (GAME_FILES - GAME_DATA) + 4, GAME_FILE + geom_off);
    le_put32(g->data + (GAME_FILES - GAME_DATA) + 8, GAME_FILE + anim_off);
    g->extent = 0;
    return 0;
}

void emu_game_reset_skeleton(emu_game *g)
{
    if (g->file) memcpy(g->file + g->skel_off, g->pristine + g->skel_off, g->skel_len);
}

/*
 * The Cursor Battle_ReadAnimation took with Field_Alloc(8) is the first
 * allocation of the call, so it sits in the first 8 bytes of the scratch
 * ({u32 ptr, s32 bit}) and is still there after the call (Field_Free only
 * moves the cursor global). The scratch is zeroed before the next call,
 * hence this read after every call. A zero pointer means no Cursor was
 * taken (the call returned 1 at once).
 */
static void note_extent(emu_game *g)
{
    const uint8_t *c = emu_host(g->e, emu_scratch_base(g->e), 8);
    uint32_t ptr = le_u32(c);
    int32_t bit = (int32_t)le_u32(c + 4);
    if (!ptr) return;
    int64_t bits = ((int64_t)ptr - GAME_FILE) * 8 + bit;
    int64_t end = bits <= 0 ? 0 : (bits + 7) / 8;
    uint64_t ext = (uint64_t)end + 2;
    if (ext > g->extent) g->extent = ext;
}

/* After a fault: the file (skeleton included) back as loaded. */
static void restore_file(emu_game *g)
{
    if (!g->file) return;
    memcpy(g->file, g->pristine, g->size);
    memset(g->file + g->size, 0, g->file_map + GAME_PAGE - g->size);
}

int emu_game_no_file(const emu_game *g, emu_fault *fault)
{
    if (g->file) return 0;
    emu_fault_refuse(fault, 0, "no file loaded");
    return 1;
}

/* A data fault's replay (emu_call_rewind): the inputs of the call as they were before it. */
static void rewind_inputs(void *arg)
{
    emu_game *g = arg;
    restore_file(g);
    memcpy(g->data + (GAME_CMD - GAME_DATA), g->pre_cmd, 8);
    memcpy(g->file + g->skel_off, g->pre_skel, g->skel_len);
}

int emu_game_call_at(emu_game *g, uint32_t addr, const uint32_t *args, unsigned n, uint32_t *ret,
                     emu_fault *fault)
{
    uint32_t eax;
    /* The call's inputs, for a replay if it faults (12 KiB at most, per call). */
    memcpy(g->pre_cmd, g->data + (GAME_CMD - GAME_DATA), 8);
    memcpy(g->pre_skel, g->file + g->skel_off, g->skel_len);
    emu_rewind rw = {rewind_inputs, g};
    int rc = emu_call_rewind(g->e, addr, args, n, &eax, fault, &rw);
    if (ret) *ret = eax;
    if (rc != 0) {
        restore_file(g);
        return -1;
    }
    return 0;
}

/* A decoding call: emu_game_call_at, then the Cursor's extent noted. */
static int frame_call(emu_game *g, uint32_t addr, const uint32_t *args, unsigned n, uint32_t *ret,
                      emu_fault *fault)
{
    if (emu_game_call_at(g, addr, args, n, ret, fault) != 0) return -1;
    note_extent(g);
    return 0;
}

int emu_game_start_clip(emu_game *g, uint8_t flags, int16_t clip, uint32_t *ret, emu_fault *fault)
{
    uint32_t addr = emu_game_routine_addr(g, PROFILE_R_START_CLIP, fault);
    if (!addr || emu_game_no_file(g, fault)) return -1;
    uint8_t *cmd = g->data + (GAME_CMD - GAME_DATA);
    memset(cmd, 0, sizeof(ref_animcmd));
    cmd[offsetof(ref_animcmd, flags)] = flags;
    g->extent = 0;
    uint32_t args[3] = {GAME_MODEL, GAME_CMD, (uint32_t)(int32_t)clip};
    return frame_call(g, addr, args, 3, ret, fault);
}

int emu_game_read_animation(emu_game *g, uint32_t *ret, emu_fault *fault)
{
    uint32_t addr = emu_game_routine_addr(g, PROFILE_R_READ_ANIMATION, fault);
    if (!addr || emu_game_no_file(g, fault)) return -1;
    uint32_t args[2] = {GAME_MODEL, GAME_CMD};
    return frame_call(g, addr, args, 2, ret, fault);
}

int emu_game_find_writer(emu_game *g, uint8_t flags, int16_t clip, size_t tick,
                         emu_game_area area, uint32_t offset, uint32_t size, emu_writer *w,
                         emu_fault *fault, ff_error *err)
{
    memset(w, 0, sizeof *w);
    if (emu_require(g->e, EMU_CAP_WATCH, err) < 0) return -1;
    if (!g->file) return ff_error_set(err, FF_E_USAGE, NULL, -1, "no file loaded");
    uint32_t limit = area == EMU_GAME_CMD ? 8 : g->skel_len;
    if (size == 0 || offset > limit || size > limit - offset)
        return ff_error_set(err, FF_E_RANGE, NULL, -1, "watch range %u+%u outside its area (%u)",
                            offset, size, limit);
    uint32_t addr = area == EMU_GAME_CMD ? GAME_CMD + offset : GAME_FILE + g->skel_off + offset;
    emu_game_reset_skeleton(g);
    uint32_t ret = 0;
    int rc = 0;
    for (size_t t = 0; t <= tick && rc == 0; t++) {
        if (t == tick && emu_watch_writes(g->e, addr, size, err) < 0) return -1;
        rc = t == 0 ? emu_game_start_clip(g, flags, clip, &ret, fault)
                    : emu_game_read_animation(g, &ret, fault);
        if (rc == 0 && t < tick && ret == 1) {
            if (emu_unwatch(g->e, err) < 0) return -1;
            return ff_error_set(err, FF_E_RANGE, NULL, -1,
                                "clip %d returned 1 at call %zu, before call %zu", clip, t, tick);
        }
    }
    emu_watch_result(g->e, w);
    if (emu_unwatch(g->e, err) < 0) return -1;
    if (rc < 0) ff_error_set(err, FF_E_FAULT, NULL, -1, "the original faulted while replaying");
    return rc;
}

const uint8_t *emu_game_cmd(const emu_game *g)
{
    return g->data + (GAME_CMD - GAME_DATA);
}

const uint8_t *emu_game_skeleton(const emu_game *g)
{
    return g->file ? g->file + g->skel_off : NULL;
}

void emu_game_set_skeleton(emu_game *g, const uint8_t *bytes)
{
    if (g->file) memcpy(g->file + g->skel_off, bytes, g->skel_len);
}

size_t emu_game_skeleton_size(const emu_game *g)
{
    return g->file ? g->skel_len : 0;
}

uint32_t emu_game_file_addr(const emu_game *g)
{
    (void)g;
    return GAME_FILE;
}

uint64_t emu_game_last_insns(const emu_game *g)
{
    return emu_last_insns(g->e);
}

emu *emu_game_engine(emu_game *g)
{
    return g->e;
}

const emu_image *emu_game_image(const emu_game *g)
{
    return g->img;
}

uint64_t emu_game_cursor_extent(const emu_game *g)
{
    return g->extent;
}

int emu_game_leaf(emu_game *g, emu_leaf leaf, const uint8_t *buf, size_t len, int64_t pos,
                  int32_t bit, int16_t n, int16_t *ax, int64_t *pos_after, int32_t *bit_after,
                  emu_fault *fault)
{
    if ((unsigned)leaf >= EMU_LEAF__COUNT || len > GAME_LEAF_MAX || pos < 0 || (uint64_t)pos > len)
        return emu_fault_refuse(fault, 0,
                                "bad leaf call: leaf %d, %zu bytes (at most %u), position %lld",
                                (int)leaf, len, GAME_LEAF_MAX, (long long)pos);
    uint32_t addr = emu_game_routine_addr(g, profile_reader_id((ref_routine)leaf), fault);
    if (!addr) return -1;
    /* The buffer ends where the guard page starts; bytes below it that an
     * earlier, longer buffer left are zeroed. */
    uint32_t start = GAME_LEAF_END - (uint32_t)len;
    if (g->leaf_lo < start) memset(g->leaf + (g->leaf_lo - GAME_LEAF), 0, start - g->leaf_lo);
    if (len) memcpy(g->leaf + (start - GAME_LEAF), buf, len);
    g->leaf_lo = start;
    uint8_t *cur = g->data + (GAME_CURSOR - GAME_DATA);
    le_put32(cur, start + (uint32_t)pos);
    le_put32(cur + 4, (uint32_t)bit);
    uint32_t args[2] = {GAME_CURSOR, (uint32_t)(int32_t)n};
    uint32_t eax;
    if (emu_call(g->e, addr, args, leaf == EMU_LEAF_BITREADER ? 2 : 1, &eax, fault) != 0) return -1;
    *ax = (int16_t)(uint16_t)(eax & 0xFFFF);
    *pos_after = (int64_t)le_u32(cur) - start;
    *bit_after = (int32_t)le_u32(cur + 4);
    return 0;
}
