/*
 * harness/traces/traceset.h: the manifest of a folder of recorded traces
 * (`ff8diff record`), "manifest.json", format "ff8diff-traces/1":
 *
 *   {"format":"ff8diff-traces/1","tool":{"name":"ff8diff","version":"0.1.0"},
 *    "created":"2026-11-30T00:45:12Z","trace_format":1,
 *    "executable":{"path":..,"sha256":..,"profile":..,"verdict":"known","warning":""},
 *    "corpus":{"path":..,"synthetic":{"preset":"small","seed":1}|null},
 *    "modes":["normal",..],"bone_matrices":"replaced_by_return",
 *    "pose":null|{"convention":"order=yxz,...","source":"search"},
 *    "compressed":false,"compression":null|"lz4-frame",
 *    "files":[{"name":"c0m000.dat","sha256":..,"size":18172,"kind":"monster",
 *              "bones":14,"clips":28,"status":"ok","error":null,
 *              "traces":{"normal":"c0m000.dat.normal.jsonl",..},
 *              "faults":[{"mode":"slow","anim":3,"ticks":2,"fault":{..}}]}],
 *    "entities":[{"body":"d4c009.dat","weapon":"d4w023.dat"|null,
 *                 "body_sha256":..,"weapon_sha256":..|null,
 *                 "traces":{"normal":"d4c009.dat+d4w023.dat.entity.normal.jsonl",..},
 *                 "faults":[..]}],
 *    "totals":{"files":..,"trace_files":..,"clips":..,"faults":..,"entities":..}}
 *
 * Trace JSON Lines v1 cannot say that the original faulted, so the clips it
 * faulted on are listed here with their fault record; their trace file holds
 * the calls made before the fault ("ticks" lines). "entities" lists the
 * entities recorded at the entity level (absent before it: no entity).
 * `check` uses the manifest
 * to refuse traces of a different file (SHA-256) and to count those faults.
 *
 * Nothing here prints or exits.
 */
#ifndef FF8_HARNESS_TRACES_TRACESET_H
#define FF8_HARNESS_TRACES_TRACESET_H

#include <stddef.h>
#include <stdint.h>

#include "emu/engine/fault.h"
#include "harness/core/modes.h"
#include "harness/core/results.h"
#include "harness/core/run_meta.h"
#include "ref/pose.h"
#include "common/error.h"

#define TSET_FORMAT "ff8diff-traces/1"
#define TSET_MANIFEST "manifest.json"
#define TSET_MANIFEST_MAX (64u << 20) /* largest manifest read */

/* A clip the original faulted on. */
typedef struct tset_fault {
    mode_id mode;
    uint32_t anim;
    uint32_t ticks; /* calls recorded before the fault */
    emu_fault fault;
} tset_fault;

typedef struct tset_file {
    char *name;
    char sha256[65];
    int ok;                   /* 0: the recording found it bad (no traces) */
    char *trace[MODE__COUNT]; /* trace file name per mode; NULL: none */
    size_t nfaults;
    tset_fault *faults;
} tset_file;

/*
 * An entity whose traces were recorded (the entity level): its pair, both
 * files' SHA-256, and in f its trace files per mode and its faults (f.name
 * is the pair's name, "d4c009.dat+d4w023.dat"; f.sha256 unused).
 */
typedef struct tset_entity {
    tset_file f;
    char *body, *weapon; /* weapon NULL: no weapon slot */
    char body_sha256[65], weapon_sha256[65];
} tset_entity;

/* A manifest as read back: plain data, files sorted by name. */
typedef struct tset {
    char version[32]; /* tool version that recorded */
    char exe_path[1024];
    char exe_sha256[65];
    char profile[64];
    char verdict[32];
    char corpus_path[1024];
    int synthetic; /* corpus was a synthetic preset */
    char preset[32];
    uint64_t seed;
    unsigned modes; /* bit i = mode_id i */
    int compressed;
    int pose;                   /* recorded at the pose level ... */
    char pose_convention[REF_POSE_OPTS_TEXT_MAX]; /* ... under this convention (ref/pose.h text form) */
    size_t nfiles;
    tset_file *files;
    size_t nentities;
    tset_entity *entities; /* sorted by pair name; none before the entity level */
} tset;

/*
 * Writes <dir>/manifest.json for the traces a run just recorded into dir
 * (run_config.record_dir): identity and options from m, files, trace file
 * names (listed when present in dir) and faults from r. Returns -1 with err
 * on failure (nothing half-written: temporary name and rename).
 */
int tset_write(const char *dir, const run_meta *m, const run_results *r, int compressed,
               ff_error *err);

/*
 * Reads <dir>/manifest.json into a new *out (tset_free). Returns 1, 0 when
 * the folder has no manifest (*out NULL), -1 with err when it is unreadable
 * (not a regular file, above TSET_MANIFEST_MAX) or malformed (err names the
 * key at fault; a key written twice in one object is malformed).
 */
int tset_load(const char *dir, tset **out, ff_error *err);
void tset_free(tset *s);

/* The entry of a corpus file, NULL when the manifest does not list it. */
const tset_file *tset_find(const tset *s, const char *name);
/* The entry of an entity (weapon NULL: none), NULL when the manifest does not list it. */
const tset_entity *tset_find_entity(const tset *s, const char *body, const char *weapon);
/* The recorded fault of (mode, anim) of f, NULL when it did not fault. */
const tset_fault *tset_fault_of(const tset_file *f, mode_id mode, uint32_t anim);

#endif
