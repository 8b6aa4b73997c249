/*
 * emu/engine/entity.c: the battle entity on a game's engine (see emu/engine/entity.h).
 *
 * Guest areas (inside emu.h's caller window, apart from emu/engine/game.c's):
 *   0x67000000  entity page: the entity (0x80 bytes) at +0x000, the weapon
 *               slot (68 bytes) at +0x100, the body's Files at +0x180 and
 *               the weapon's at +0x190, the sequence pair at +0x1A0, a
 *               world base MATRIX at +0x200
 *   0x68000000  the body file, whole, the rest of its last page zero, then
 *               one zeroed read-only guard page (64 MiB at most)
 *   0x6D000000  the weapon file, laid out the same way
 *
 * A call's inputs (both AnimCmds and both skeletons) are kept before it,
 * so that the engine can replay a data fault once with exact EIPs
 * (emu_call_rewind), as for the frame level; after any fault both files
 * are restored. The guest areas are the engine's (emu_map_area).
 */
#include "emu/engine/entity.h"

#include <stdlib.h>
#include <string.h>

#include "common/le.h"
#include "emu/engine/emu.h"
#include "emu/engine/image.h"
#include "ref/dat.h"

#define ENT_PAGE_SIZE 0x1000u
#define ENT_PAGE 0x67000000u
#define ENT_ENTITY (ENT_PAGE + 0x000u)
#define ENT_SLOT (ENT_PAGE + 0x100u)
#define ENT_FILES_BODY (ENT_PAGE + 0x180u)
#define ENT_FILES_WEAPON (ENT_PAGE + 0x190u)
#define ENT_PAIR (ENT_PAGE + 0x1A0u)
#define ENT_BASE (ENT_PAGE + 0x200u)
#define ENT_FILE_BODY 0x68000000u
#define ENT_FILE_WEAPON 0x6D000000u
#define ENT_FILE_MAX 0x04000000u /* 64 MiB */

/* One model file in guest memory. */
typedef struct ent_file {
    uint32_t addr;     /* guest address of its first byte */
    uint32_t files;    /* guest address of its Files */
    uint8_t *mem;      /* map bytes + guard page (the engine's); NULL when not loaded */
    uint8_t *pristine; /* the file as loaded */
    uint8_t *pre_skel; /* the skeleton before the last call */
    size_t size;
    uint32_t map; /* bytes of file pages (page multiple) */
    uint32_t skel_off, skel_len;
} ent_file;

struct emu_entity {
    emu_game *g;
    emu *e;
    uint32_t queue, advance; /* routine addresses from the profile */
    uint8_t *page;
    ent_file f[2]; /* EMU_ENTITY_BODY, EMU_ENTITY_WEAPON */
    int loaded, armed;
    uint8_t pre_cmd[2][8];
};

static uint8_t *cmd_of(const emu_entity *e, emu_entity_model m)
{
    return m == EMU_ENTITY_BODY ? e->page + (ENT_ENTITY - ENT_PAGE) + EMU_ENTITY_BODY_CMD
                                : e->page + (ENT_SLOT - ENT_PAGE) + EMU_SLOT_CMD;
}

static int routine(const emu_profile *p, profile_routine_id id, uint32_t *addr, ff_error *err)
{
    if (p->engine[id] < 0)
        return ff_error_set(err, FF_E_EXE, p->source, -1, "profile %s has no routine %s", p->name,
                            profile_routine_name(id));
    *addr = p->routines[p->engine[id]].address;
    return 0;
}

int emu_entity_open(emu_game *g, emu_entity **out, ff_error *err)
{
    *out = NULL;
    const emu_profile *p = emu_image_profile(emu_game_image(g));
    uint32_t queue = 0, advance = 0;
    if (routine(p, PROFILE_R_QUEUE_ANIMATION, &queue, err) < 0 ||
        routine(p, PROFILE_R_ADVANCE_BY1, &advance, err) < 0)
        return -1;
    emu_entity *e = calloc(1, sizeof *e);
    if (!e) return ff_error_set(err, FF_E_NOMEM, NULL, -1, "out of memory");
    e->g = g;
    e->e = emu_game_engine(g);
    e->queue = queue;
    e->advance = advance;
    e->f[EMU_ENTITY_BODY].addr = ENT_FILE_BODY;
    e->f[EMU_ENTITY_BODY].files = ENT_FILES_BODY;
    e->f[EMU_ENTITY_WEAPON].addr = ENT_FILE_WEAPON;
    e->f[EMU_ENTITY_WEAPON].files = ENT_FILES_WEAPON;
    if (emu_map_area(e->e, ENT_PAGE, ENT_PAGE_SIZE, EMU_PROT_READ | EMU_PROT_WRITE, 0, &e->page,
                     err) < 0) {
        free(e);
        return -1;
    }
    *out = e;
    return 0;
}

static void free_file(ent_file *f)
{
    free(f->pristine);
    free(f->pre_skel);
    f->mem = f->pristine = f->pre_skel = NULL;
    f->size = 0;
}

/*
 * Unmaps a file's pages and guard page and frees its copies. Pages the
 * engine refuses to unmap stay its own until close; loading over them then
 * fails on the area still in place.
 */
static int unmap_file(emu_entity *e, ent_file *f, ff_error *err)
{
    if (!f->mem) return 0;
    int rc = emu_unmap_area(e->e, f->addr, err);
    free_file(f);
    return rc < 0 ? -1 : 0;
}

void emu_entity_close(emu_entity *e)
{
    if (!e) return;
    ff_error err;
    for (int m = 0; m < 2; m++)
        (void)unmap_file(e, &e->f[m], &err);
    (void)emu_unmap_area(e->e, ENT_PAGE, &err); /* refused: the engine's until close */
    free(e);
}

static int check_file(const emu_entity_file *in, const char *what, uint32_t *skel_len,
                      ff_error *err)
{
    if (in->size == 0 || in->size > ENT_FILE_MAX)
        return ff_error_set(err, FF_E_RANGE, what, -1,
                            "file of %zu bytes does not fit the guest area (1..%u bytes)", in->size,
                            ENT_FILE_MAX);
    if (in->skel_off >= in->size || in->geom_off > in->size || in->anim_off >= in->size)
        return ff_error_set(err, FF_E_RANGE, what, -1,
                            "section offsets 0x%x/0x%x/0x%x lie past the end of the file (%zu)",
                            in->skel_off, in->geom_off, in->anim_off, in->size);
    unsigned bones = in->data[in->skel_off + DAT_SKEL_BONE_COUNT];
    uint64_t len = DAT_SKEL_HEADER + (uint64_t)DAT_BONE_SIZE * bones;
    if (len > in->size - in->skel_off)
        return ff_error_set(err, FF_E_RANGE, what, in->skel_off,
                            "skeleton of %u bones runs past the end of the file", bones);
    *skel_len = (uint32_t)len;
    return 0;
}

static int map_file(emu_entity *e, ent_file *f, const emu_entity_file *in, const char *what,
                    ff_error *err)
{
    uint32_t skel_len = 0;
    if (check_file(in, what, &skel_len, err) < 0) return -1;
    f->map = (uint32_t)((in->size + ENT_PAGE_SIZE - 1) & ~(size_t)(ENT_PAGE_SIZE - 1));
    f->pristine = malloc(in->size);
    f->pre_skel = malloc(skel_len);
    if (!f->pristine || !f->pre_skel) {
        free_file(f);
        return ff_error_set(err, FF_E_NOMEM, what, -1, "out of memory for the file");
    }
    if (emu_map_area(e->e, f->addr, f->map, EMU_PROT_READ | EMU_PROT_WRITE, ENT_PAGE_SIZE, &f->mem,
                     err) < 0) {
        free_file(f);
        return -1;
    }
    memcpy(f->mem, in->data, in->size);
    memcpy(f->pristine, in->data, in->size);
    f->size = in->size;
    f->skel_off = in->skel_off;
    f->skel_len = skel_len;
    /* Files {skeleton, geometry, animation} */
    uint8_t *files = e->page + (f->files - ENT_PAGE);
    le_put32(files + 0, f->addr + in->skel_off);
    le_put32(files + 4, f->addr + in->geom_off);
    le_put32(files + 8, f->addr + in->anim_off);
    return 0;
}

/* The 12-byte model header {u32 0, Files *, Files *} at p. */
static void put_header(uint8_t *p, uint32_t files)
{
    le_put32(p + 0, 0);
    le_put32(p + 4, files);
    le_put32(p + 8, files);
}

int emu_entity_load(emu_entity *e, const emu_entity_file *body, const emu_entity_file *weapon,
                    const emu_attach *att, ff_error *err)
{
    e->loaded = e->armed = 0;
    for (int m = 0; m < 2; m++)
        if (unmap_file(e, &e->f[m], err) < 0) return -1;
    memset(e->page, 0, ENT_PAGE_SIZE);
    if (map_file(e, &e->f[EMU_ENTITY_BODY], body, "body", err) < 0) return -1;
    if (weapon && map_file(e, &e->f[EMU_ENTITY_WEAPON], weapon, "weapon", err) < 0) {
        ff_error e2;
        (void)unmap_file(e, &e->f[EMU_ENTITY_BODY], &e2);
        return -1;
    }
    uint8_t *ent = e->page + (ENT_ENTITY - ENT_PAGE);
    put_header(ent + EMU_ENTITY_BODY_HEADER, ENT_FILES_BODY);
    if (weapon) {
        uint8_t *slot = e->page + (ENT_SLOT - ENT_PAGE);
        put_header(slot + EMU_SLOT_HEADER, ENT_FILES_WEAPON);
        for (int k = 0; k < 3 && att; k++) {
            le_put16(slot + EMU_SLOT_ATTACH_ROT + 2 * k, (uint16_t)att->rot[k]);
            le_put16(slot + EMU_SLOT_ATTACH_TRANS + 2 * k, (uint16_t)att->trans[k]);
        }
        le_put32(ent + EMU_ENTITY_WEAPON_PTR, ENT_SLOT);
    }
    e->loaded = 1;
    e->armed = weapon != NULL;
    return 0;
}

int emu_entity_armed(const emu_entity *e)
{
    return e->armed;
}

static void reset_file(ent_file *f)
{
    if (f->mem) memcpy(f->mem + f->skel_off, f->pristine + f->skel_off, f->skel_len);
}

void emu_entity_reset(emu_entity *e)
{
    for (int m = 0; m < 2; m++)
        reset_file(&e->f[m]);
}

/* After a fault: every byte of both files as loaded. */
static void restore_files(emu_entity *e)
{
    for (int m = 0; m < 2; m++) {
        ent_file *f = &e->f[m];
        if (!f->mem) continue;
        memcpy(f->mem, f->pristine, f->size);
        memset(f->mem + f->size, 0, f->map + ENT_PAGE_SIZE - f->size);
    }
}

static void keep_inputs(emu_entity *e)
{
    for (int m = 0; m < 2; m++) {
        ent_file *f = &e->f[m];
        memcpy(e->pre_cmd[m], cmd_of(e, (emu_entity_model)m), 8);
        if (f->mem) memcpy(f->pre_skel, f->mem + f->skel_off, f->skel_len);
    }
}

static void put_inputs_back(emu_entity *e)
{
    for (int m = 0; m < 2; m++) {
        ent_file *f = &e->f[m];
        memcpy(cmd_of(e, (emu_entity_model)m), e->pre_cmd[m], 8);
        if (f->mem) memcpy(f->mem + f->skel_off, f->pre_skel, f->skel_len);
    }
}

/* A data fault's replay (emu_call_rewind): both files as loaded, the call's inputs back. */
static void rewind_inputs(void *arg)
{
    emu_entity *e = arg;
    restore_files(e);
    put_inputs_back(e);
}

static int entity_call(emu_entity *e, uint32_t addr, const uint32_t *args, unsigned n,
                       uint32_t *ret, emu_fault *fault)
{
    if (!e->loaded) return emu_fault_refuse(fault, addr, "no entity loaded");
    keep_inputs(e);
    uint32_t eax;
    emu_rewind rw = {rewind_inputs, e};
    int rc = emu_call_rewind(e->e, addr, args, n, &eax, fault, &rw);
    if (ret) *ret = eax;
    if (rc != 0) {
        restore_files(e);
        return -1;
    }
    return 0;
}

/* The entity's +2, +9 and +0x74 (with the pair's bytes) from sp. */
static void put_speed(emu_entity *e, const emu_entity_speed *sp)
{
    uint8_t *ent = e->page + (ENT_ENTITY - ENT_PAGE), *pair = e->page + (ENT_PAIR - ENT_PAGE);
    ent[EMU_ENTITY_BYTE2] = sp ? sp->byte2 : 0;
    ent[EMU_ENTITY_STATUS] = sp ? sp->status : 0;
    memset(pair, 0, 4);
    if (sp && sp->pair) memcpy(pair, sp->pair, 3);
    le_put32(ent + EMU_ENTITY_PAIR_PTR, sp && sp->pair ? ENT_PAIR : 0);
}

int emu_entity_queue(emu_entity *e, const emu_entity_speed *sp, uint8_t flags, int16_t clip,
                     uint32_t *ret, emu_fault *fault)
{
    for (int m = 0; m < 2; m++) {
        uint8_t *cmd = cmd_of(e, (emu_entity_model)m);
        memset(cmd, 0, 8);
        cmd[1] = flags; /* AnimCmd +1: the mode's flag bits */
    }
    put_speed(e, sp);
    uint32_t args[2] = {ENT_ENTITY, (uint32_t)(int32_t)clip};
    return entity_call(e, e->queue, args, 2, ret, fault);
}

int emu_entity_advance(emu_entity *e, uint32_t *ret, emu_fault *fault)
{
    uint32_t args[1] = {ENT_ENTITY};
    return entity_call(e, e->advance, args, 1, ret, fault);
}

const uint8_t *emu_entity_cmd(const emu_entity *e, emu_entity_model m)
{
    return cmd_of(e, m);
}

const uint8_t *emu_entity_skeleton(const emu_entity *e, emu_entity_model m)
{
    const ent_file *f = &e->f[m];
    return f->mem ? f->mem + f->skel_off : NULL;
}

const uint8_t *emu_entity_slot(const emu_entity *e)
{
    return e->armed ? e->page + (ENT_SLOT - ENT_PAGE) : NULL;
}

size_t emu_entity_skeleton_size(const emu_entity *e, emu_entity_model m)
{
    return e->f[m].mem ? e->f[m].skel_len : 0;
}

void emu_entity_set_skeleton(emu_entity *e, emu_entity_model m, const uint8_t *skel)
{
    ent_file *f = &e->f[m];
    if (f->mem) memcpy(f->mem + f->skel_off, skel, f->skel_len);
}

void emu_entity_set_attach(emu_entity *e, const emu_matrix *attach)
{
    if (e->armed)
        emu_matrix_encode(attach, e->page + (ENT_SLOT - ENT_PAGE) + EMU_SLOT_ATTACH_MATRIX);
}

/* The Model a pose routine takes: the model's 12-byte header. */
static uint32_t model_addr(emu_entity_model m)
{
    return m == EMU_ENTITY_BODY ? ENT_ENTITY + EMU_ENTITY_BODY_HEADER : ENT_SLOT + EMU_SLOT_HEADER;
}

/* A pose routine of the profile on model m, the return patch lifted for the call. */
static int pose_call(emu_entity *e, profile_routine_id id, emu_entity_model m, unsigned n,
                     uint32_t *ret, emu_fault *fault)
{
    const emu_profile *p = emu_image_profile(emu_game_image(e->g));
    ff_error err;
    if (!e->f[m].mem) return emu_fault_refuse(fault, 0, "the entity has no %s model",
                                              m == EMU_ENTITY_BODY ? "body" : "weapon");
    if (p->engine[id] < 0)
        return emu_fault_refuse(fault, 0, "profile %s has no routine %s", p->name,
                                profile_routine_name(id));
    uint32_t addr = p->routines[p->engine[id]].address;
    uint32_t args[2] = {model_addr(m), ENT_BASE};
    if (emu_game_matrices_patch(e->g, 0, &err) != 0)
        return emu_fault_refuse(fault, addr, "lifting the BuildBoneMatrices return: %s",
                                err.reason);
    int rc = entity_call(e, addr, args, n, ret, fault);
    if (emu_game_matrices_patch(e->g, 1, &err) != 0)
        return emu_fault_refuse(fault, addr, "putting the BuildBoneMatrices return back: %s",
                                err.reason);
    return rc;
}

int emu_entity_build_matrices(emu_entity *e, emu_entity_model m, uint32_t *ret, emu_fault *fault)
{
    return pose_call(e, PROFILE_R_BUILD_MATRICES, m, 1, ret, fault);
}

int emu_entity_world_matrices(emu_entity *e, emu_entity_model m, const emu_matrix *base,
                              emu_matrix *world, size_t cap, uint32_t *ret, emu_fault *fault)
{
    ent_file *f = &e->f[m];
    unsigned bones = f->mem ? f->mem[f->skel_off + DAT_SKEL_BONE_COUNT] : 0;
    if (f->mem && cap < bones)
        return emu_fault_refuse(fault, 0, "no room for every bone's world matrix");
    emu_matrix_encode(base, e->page + (ENT_BASE - ENT_PAGE));
    if (pose_call(e, PROFILE_R_WORLD_MATRICES, m, 2, ret, fault) != 0) return -1;
    const uint8_t *skel = f->mem + f->skel_off;
    for (unsigned i = 0; i < bones; i++)
        emu_matrix_decode(skel + DAT_SKEL_HEADER + (size_t)i * DAT_BONE_SIZE + 0x10, &world[i]);
    /* The routine composes in place: the skeleton as it was before the call. */
    memcpy(f->mem + f->skel_off, f->pre_skel, f->skel_len);
    return 0;
}
