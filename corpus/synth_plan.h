/*
 * corpus/synth_plan.h: the inside of a synth_plan, shared by the preset
 * files of corpus/ only (synth_plan.c, synth_presets.c, synth_vanilla.c).
 * Not part of the library's interface.
 */
#ifndef FF8_CORPUS_SYNTH_PLAN_H
#define FF8_CORPUS_SYNTH_PLAN_H

#include "corpus/pairs.h"
#include "corpus/synth.h"

typedef struct plan_entry {
    char name[16];
    synth_file_spec spec;   /* spec.clip points at clips */
    synth_clip_spec *clips; /* owned */
    long dup_of;            /* entry whose skeleton + animation this copies, or -1 */
} plan_entry;

struct synth_plan {
    synth_preset preset;
    uint64_t seed;
    size_t n, cap;
    plan_entry *e;
    pairs_attach_list attach; /* the entities manifest (attach.e owned) */
};

/*
 * Appends a recipe named name; its seeds derive from the plan's seed and
 * the name. clips (nclips entries) is copied; NULL gives 1-frame random
 * clips to be filled in. Returns the new index, or -1.
 */
long synth_plan_add(synth_plan *p, const char *name, dat_kind kind, unsigned bones, unsigned nclips,
                    const synth_clip_spec *clips, ff_error *err);

/* Makes entry dst a copy of src's skeleton + animation (own geometry). */
int synth_plan_copy_model(synth_plan *p, size_t dst, size_t src, ff_error *err);

/* Gives the pair body + weapon non-zero attach values in the entities manifest. */
int synth_plan_attach_add(synth_plan *p, const char *body, const char *weapon,
                          const int16_t rot[3], const int16_t trans[3], ff_error *err);

/*
 * Appends a character: bodies named in body[0..nbodies) (kind body_kind,
 * bones each) with the clips clips[0..nclips), then weapons named in
 * weapon[0..nweapons) (kind weapon_kind; weapon_bones each, ignored for
 * reduced weapons) with the same clips, except that the clips listed in
 * longer[0..nlonger) get one frame more on the weapons.
 */
typedef struct synth_character {
    const char *const *body;
    unsigned nbodies;
    dat_kind body_kind;
    unsigned bones;
    const char *const *weapon;
    unsigned nweapons;
    dat_kind weapon_kind;
    unsigned weapon_bones;
    const synth_clip_spec *clips;
    unsigned nclips;
    const unsigned *longer;
    unsigned nlonger;
} synth_character;
int synth_plan_character(synth_plan *p, const synth_character *c, ff_error *err);

/* Fills an empty plan with the vanilla-sized preset (corpus/synth_vanilla.c). */
int synth_plan_vanilla(synth_plan *p, ff_error *err);

#endif
