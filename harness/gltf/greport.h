/*
 * harness/gltf/greport.h: check-gltf's report: report.json (schema
 * reports/schema/gltf-check.schema.json, "ff8diff-gltf-check/1"), and
 * rendered from the same result: index.html and summary.md as one
 * document of the report layer (harness/report/report_doc.h; index.html in
 * the run report's style): the correspondence, each bone's joint and
 * largest error, a table per clip, an inline SVG plot of the error per
 * frame per clip, and the viewer's skeleton drawn over the game's at the
 * first departing frame (else the worst) in three orthographic views; a
 * refusal with a mapping tried shows that mapping the same way, at its
 * worst frame; the pose convention of the game's side and where it came
 * from; junit.xml (one test case per clip of the game).
 *
 * What this module must not do: print or exit. Files are written through
 * new temporary files renamed into place.
 */
#ifndef FF8_HARNESS_GLTF_GREPORT_H
#define FF8_HARNESS_GLTF_GREPORT_H

#include "common/error.h"
#include "harness/gltf/gcheck.h"

typedef struct greport_meta {
    const char *export_path; /* the viewer's file */
    const char *dat;         /* the model file */
    const char *exe_sha256;
    const char *profile;
    const char *pose;        /* the convention the game's poses were taken under, or NULL */
    const char *pose_source; /* where it came from: given, traces, profile, cache, search,
                              * default (NULL: not said) */
    const char *pose_source_text; /* the same in words, as the terminal says it */
} greport_meta;

#define GREPORT_SCHEMA "ff8diff-gltf-check/1"

/* Writes the four files into dir (which must exist). Returns 0, or -1 with err. */
int greport_write(const char *dir, const greport_meta *m, const gck_result *r, ff_error *err);

#endif
