/*
 * harness/gltf/export_priv.h: what the two halves of the export share
 * (export.c: the plan, writing a scene, the reference's export;
 * export_sink.c: the original's, from a run). Not for use outside
 * harness/gltf/.
 */
#ifndef FF8_HARNESS_GLTF_EXPORT_PRIV_H
#define FF8_HARNESS_GLTF_EXPORT_PRIV_H

#include "corpus/pairs.h"
#include "harness/gltf/export.h"

/* The items of an export, with what each needs. */
typedef struct ex_plan {
    gexport_result res;   /* the items */
    pairs_attach *attach; /* per item: an entity's attach fields */
    gpose_model *models;  /* per item, when asked: a model item's skeleton shape and one
                           * empty clip per (mode of cfg, clip), mode-major */
} ex_plan;

/*
 * The items of cfg's corpus: each model file, then (cfg->entities) each
 * armed entity. shapes: also fill p->models. Returns 0, or -1 with err
 * (p then empty).
 */
int ex_plan_make(const gexport_config *cfg, int shapes, ex_plan *p, ff_error *err);
/* Frees what p holds except p->res (moved out by the caller, or freed with it). */
void ex_plan_free(ex_plan *p);

/*
 * What becomes of item it's finished scene s: cfg->scene, else its .glb
 * written; it's status and figures set. Returns 0 (the item may have
 * failed), or -1 with err when nothing more can be written (the output
 * folder, memory): the export stops.
 */
int ex_emit(const gexport_config *cfg, gexport_item *it, const gpose_scene *s, ff_error *err);

#endif
