/*
 * tests/mutants/mt_corpus.h: the corpora built for the stand-in's mutants
 * (one or two small monster files each, described frame by frame) and the
 * first divergences each mutant must show on them, worked out by hand in
 * mt_corpus.c. Every (file, clip, mode) not in a table must match.
 *
 * Test code only.
 */
#ifndef FF8_TESTS_MUTANTS_MT_CORPUS_H
#define FF8_TESTS_MUTANTS_MT_CORPUS_H

#include <stddef.h>

#include "tests/mutants/mt.h"

typedef struct mt_mutant {
    const char *name;          /* its letter: "a" is standin_mut_a.exe (-DFF_MUTANT_A) */
    const char *exe;           /* file name in <build>/emu/standin/ */
    const mt_model *models[3]; /* NULL after the last */
    const mt_expect *expect;   /* every frame-level mismatch it must show */
    size_t nexpect;
    int entity;                /* 1: a lockstep mutant, run at the entity level too */
    const mt_ent_expect *ent;  /* every entity-level mismatch it must show */
    size_t nent;
} mt_mutant;

/* Every mutant, a..l; tests pick one by name (mt_mutant_named), never by index. */
#define MT_MUTANTS 13
extern const mt_mutant mt_mutants[MT_MUTANTS];

/* The mutant called name; fails the running test unless exactly one row has it. */
const mt_mutant *mt_mutant_named(const char *name);

/* Models reused by the run-level suite, and mutant a's table. */
extern const mt_model mt_model_a, mt_model_b, mt_model_g;
#define MT_EXPECT_A 8
extern const mt_expect mt_expect_a[MT_EXPECT_A];

/* The lockstep mutants' entity corpus (body, weapon, monster) and mutant i's table. */
extern const mt_model mt_model_body, mt_model_weapon, mt_model_monster;
/* Writes those three into dir: the entity level's corpus. */
void mt_write_entity_corpus(const char *dir);
#define MT_ENT_EXPECT_I 6
extern const mt_ent_expect mt_ent_expect_i[MT_ENT_EXPECT_I];

/* Writes the mutant's files into dir; returns how many. */
unsigned mt_write_mutant(const char *dir, const mt_mutant *m);

#endif
