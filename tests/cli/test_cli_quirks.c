/*
 * tests/cli/test_cli_quirks.c: the quirk pass as `ff8diff run` reports it
 * (docs/quirks.md): report.json "quirks" (valid against the schema), the
 * terminal's counts after the verdict, the Markdown and HTML sections, and
 * --no-quirks. The small synthetic preset must exercise every row a result
 * can show, and each row's first clip must show the two readings apart.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref/quirks.h"
#include "tests/support/ts.h"

static char *scratch;

static void setup(void)
{
    scratch = ts_tempdir();
}

static void cleanup(void)
{
    ts_rmtree(scratch);
}

Test(quirks_cli, small_preset_exercises_every_observable_row, .init = setup, .fini = cleanup)
{
    ts_out o;
    char *out = ts_path(scratch, "reports");
    ts_cli(scratch, &o, "run -q --no-cache --out '%s'", out);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_assert(strstr(o.out, "Quirks exercised"), "%s", o.out);
    /* corpus stats and decode --summary on the same corpus (small, seed 1) count alike. */
    char *corpus = ts_corpus(scratch);
    ts_out st, sum;
    ts_cli(scratch, &st, "corpus stats '%s'", corpus);
    cr_assert_eq(st.status, 0, "%s", st.err);
    ts_sh(scratch, &sum, "'%s' decode --summary '%s'/c0m000.dat", ts_ff8diff(), corpus);
    cr_assert_eq(sum.status, 0, "%s", sum.err);
    cr_expect(strstr(sum.out, "quirks (clip x mode): "), "%s", sum.out);
    char *json = ts_run_file(out, "report.json");
    ts_assert_valid(scratch, json);
    cJSON *r = ts_json(json);
    const cJSON *qz = cJSON_GetObjectItem(r, "quirks");
    cr_assert(cJSON_IsObject(qz));
    cr_assert_eq(ts_num(qz, "clips_studied"), ts_num(r, "totals.comparisons"));
    const cJSON *clips = cJSON_GetObjectItem(qz, "clips"), *row;
    int rows = 0;
    cJSON_ArrayForEach(row, cJSON_GetObjectItem(qz, "rows"))
    {
        rows++;
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "name"));
        int observable = cJSON_IsTrue(cJSON_GetObjectItem(row, "observable"));
        double n = ts_num(row, "clips");
        const cJSON *first = cJSON_GetObjectItem(row, "first");
        if (!observable) {
            cr_expect_eq(n, 0, "%s cannot show, yet bites", name);
            cr_expect(cJSON_IsNull(first), "%s", name);
            continue;
        }
        cr_expect(n > 0, "the small preset does not exercise %s", name);
        cr_assert(cJSON_IsObject(first), "%s", name);
        cr_expect_neq(ts_num(first, "engine"), ts_num(first, "plain"), "%s", name);
        cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(row, "where")), (int)n, "%s", name);
        /* Its first clip lists it, at the same tick. */
        int idx = (int)cJSON_GetNumberValue(cJSON_GetArrayItem(cJSON_GetObjectItem(row, "where"), 0));
        const cJSON *c = cJSON_GetArrayItem(clips, idx), *q;
        cr_assert_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(c, "file")),
                         cJSON_GetStringValue(cJSON_GetObjectItem(first, "file")));
        int listed = 0;
        cJSON_ArrayForEach(q, cJSON_GetObjectItem(c, "quirks"))
            listed |= !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(q, "quirk")), name) &&
                      ts_num(q, "tick") == ts_num(first, "tick");
        cr_expect(listed, "%s: its first clip does not list it", name);
        /* The terminal says the same count for a quirk. */
        if (!strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(row, "kind")), "quirk")) {
            char want[64];
            snprintf(want, sizeof want, " %s %.0f", name, n);
            cr_expect(strstr(o.out, want), "terminal lacks '%s': %s", want, o.out);
            if (n > 0) {
                snprintf(want, sizeof want, "%s %.0f", name, n);
                cr_expect(strstr(st.out, want), "corpus stats lacks '%s': %s", want, st.out);
            }
        }
    }
    cr_assert(rows > 0);
    char *md = ts_run_file(out, "summary.md"), *html = ts_run_file(out, "index.html");
    char *mt = ts_read(md, NULL), *ht = ts_read(html, NULL);
    cr_expect(strstr(mt, "## Quirks"));
    cr_expect(strstr(ht, "id=\"quirks\""));
    free(mt);
    free(ht);
    free(md);
    free(html);
    cJSON_Delete(r);
    free(json);
    ts_out_free(&o);
    ts_out_free(&st);
    ts_out_free(&sum);
    free(corpus);

    char *off = ts_path(scratch, "off");
    ts_cli(scratch, &o, "run -q --no-cache --no-quirks --out '%s' --modes normal", off);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    cr_expect(!strstr(o.out, "Quirks"), "%s", o.out);
    json = ts_run_file(off, "report.json");
    r = ts_json(json);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(r, "quirks")));
    cJSON_Delete(r);
    free(json);
    free(off);
    ts_out_free(&o);
    free(out);
}

/* Writes a Python script into the scratch folder; its path returned. */
static char *script(const char *name, const char *text)
{
    char *path = ts_path(scratch, name);
    ts_write(path, text, strlen(text));
    return path;
}

/* Splits Trace JSON Lines on stdin into out/<file>.<mode>.jsonl (argv[1]: out). */
static const char SPLIT_PY[] =
    "import json,sys,os\n"
    "out=sys.argv[1]; os.makedirs(out,exist_ok=True); fs={}\n"
    "for l in sys.stdin:\n"
    "  j=json.loads(l); k=(j['file'],j['mode'])\n"
    "  if k not in fs: fs[k]=open(os.path.join(out,'%s.%s.jsonl'%k),'w')\n"
    "  fs[k].write(l)\n";

/* SPLIT_PY written into the scratch folder as split.py; its path returned. */
static char *split_script(void)
{
    return script("split.py", SPLIT_PY);
}

/*
 * Per observable row, a test decoder: the reference with that row switched
 * (`decode --switch`), written as Trace JSON Lines one file per model file
 * and mode, checked against golden traces of the small preset: every
 * mismatch is explained by that row, and by no other.
 */
Test(quirks_cli, each_switched_decoder_is_explained_by_its_row_alone, .init = setup,
     .fini = cleanup, .timeout = 600)
{
    ts_out o;
    char *golden = ts_path(scratch, "golden"), *corpus = ts_corpus(scratch);
    ts_cli(scratch, &o, "record -q --out '%s' --corpus '%s'", golden, corpus);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    char *split = split_script();
    int rows = 0;
    for (unsigned q = 0; q < REF_Q__COUNT; q++) {
        const ref_quirk_def *d = ref_quirk_def_of((ref_quirk)q);
        if (!d->observable) continue;
        rows++;
        char mine[64], rep[64];
        snprintf(mine, sizeof mine, "mine-%s", d->name);
        snprintf(rep, sizeof rep, "rep-%s", d->name);
        char *md = ts_path(scratch, mine), *rd = ts_path(scratch, rep);
        ts_sh(scratch, &o, "'%s' decode '%s'/*.dat --mode all --switch %s 2>/dev/null | %s '%s' '%s'",
              ts_ff8diff(), corpus, d->name, ts_python(), split, md);
        cr_assert_eq(o.status, 0, "%s: %s", d->name, o.err);
        ts_out_free(&o);
        ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden, md, rd);
        cr_assert_eq(o.status, 1, "%s: %s%s", d->name, o.out, o.err);
        cr_expect(strstr(o.out, d->plain), "%s: the terminal does not name the cause: %s", d->name,
                  o.out);
        ts_out_free(&o);
        char *mdf = ts_run_file(rd, "summary.md"), *mdt = ts_read(mdf, NULL), line[512];
        snprintf(line, sizeof line, "**Cause**: your decoder %s", d->plain);
        cr_expect(strstr(mdt, line), "%s: summary.md lacks its cause", d->name);
        free(mdt);
        free(mdf);
        cJSON *r = ts_report(rd);
        double mism = ts_num(r, "totals.mismatch");
        cr_assert(mism > 0, "%s: no mismatch", d->name);
        /* Exactly one cause in the Causes section, naming that row, counting every mismatch. */
        const cJSON *causes = cJSON_GetObjectItem(r, "causes");
        cr_assert_eq(cJSON_GetArraySize(causes), 1, "%s: %d causes", d->name,
                     cJSON_GetArraySize(causes));
        const cJSON *k = cJSON_GetArrayItem(causes, 0);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "kind")), "quirk");
        const cJSON *qr = cJSON_GetObjectItem(k, "quirk_rows");
        cr_assert_eq(cJSON_GetArraySize(qr), 1, "%s", d->name);
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(qr, 0)), d->name);
        cr_expect_eq(ts_num(k, "counts.clips"), mism, "%s", d->name);
        cr_expect(cJSON_IsObject(cJSON_GetObjectItem(k, "first")), "%s", d->name);
        mdf = ts_run_file(rd, "summary.md");
        mdt = ts_read(mdf, NULL);
        const char *cs = strstr(mdt, "## Causes (1)"), *qs = strstr(mdt, "## Quirks");
        cr_expect(cs && qs && cs < qs, "%s: summary.md's Causes section lacks it", d->name);
        cr_expect(cs && strstr(cs, d->plain) && strstr(cs, d->plain) < (qs ? qs : cs + 1),
                  "%s: its Causes section does not name the row", d->name);
        free(mdt);
        free(mdf);
        char *htf = ts_run_file(rd, "index.html"), *htt = ts_read(htf, NULL);
        cr_expect(strstr(htt, "id=\"cause-0\""), "%s: index.html has no cause card", d->name);
        free(htt);
        free(htf);
        const cJSON *row;
        cJSON_ArrayForEach(row, cJSON_GetObjectItem(cJSON_GetObjectItem(r, "quirks"), "rows"))
        {
            const char *name = cJSON_GetStringValue(cJSON_GetObjectItem(row, "name"));
            double n = ts_num(row, "explains");
            if (!strcmp(name, d->name))
                cr_expect_eq(n, mism, "%s explains %.0f of %.0f mismatches", name, n, mism);
            else
                cr_expect_eq(n, 0, "the decoder switching %s is also explained by %s (%.0f)",
                             d->name, name, n);
        }
        cJSON_Delete(r);
        free(md);
        free(rd);
    }
    cr_assert(rows > 0);
    free(split);
    free(corpus);
    free(golden);
}

/* Golden traces of the small preset into DIR golden, the corpus's path returned. */
static char *golden_traces(char **golden)
{
    ts_out o;
    char *corpus = ts_corpus(scratch);
    *golden = ts_path(scratch, "golden");
    ts_cli(scratch, &o, "record -q --out '%s' --corpus '%s'", *golden, corpus);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    return corpus;
}

/*
 * A decoder with a departure no row explains: it adds 1 to every rotation
 * delta (so tick t is off by t + 1) in normal and fast mode, on rot.x of
 * the first bone in even clips and rot.y in odd ones. Its mismatches fall
 * into several groups (two fields, two modes, and the group shapes of
 * golden zeros) yet make ONE cause, by shape, covering them all.
 */
Test(quirks_cli, a_departure_no_row_explains_is_one_cause_by_shape, .init = setup,
     .fini = cleanup, .timeout = 600)
{
    static const char plus1[] =
        "import json,sys,os\n"
        "src,out=sys.argv[1],sys.argv[2]; os.makedirs(out,exist_ok=True)\n"
        "for n in os.listdir(src):\n"
        "  if not n.endswith('.jsonl'): continue\n"
        "  with open(os.path.join(src,n)) as f, open(os.path.join(out,n),'w') as g:\n"
        "    for l in f:\n"
        "      j=json.loads(l)\n"
        "      if j['mode'] in ('normal','fast'): j['rot'][0][j['anim']%2]+=j['tick']+1\n"
        "      g.write(json.dumps(j)+'\\n')\n";
    char *golden, *corpus = golden_traces(&golden);
    char *py = script("plus1.py", plus1), *mine = ts_path(scratch, "plus1"),
         *rep = ts_path(scratch, "rep");
    ts_out o;
    ts_sh(scratch, &o, "%s '%s' '%s' '%s'", ts_python(), py, golden, mine);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden, mine, rep);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_expect(strstr(o.out, "1 cause"), "%s", o.out);
    ts_out_free(&o);
    ts_assert_valid(scratch, ts_run_file(rep, "report.json"));
    cJSON *r = ts_report(rep);
    double mism = ts_num(r, "totals.mismatch");
    cr_assert(mism > 0);
    cr_expect_eq(ts_num(r, "totals.match") + mism, ts_num(r, "totals.comparisons"));
    const cJSON *causes = cJSON_GetObjectItem(r, "causes"), *groups = cJSON_GetObjectItem(r, "groups");
    cr_assert_eq(cJSON_GetArraySize(causes), 1, "%d causes", cJSON_GetArraySize(causes));
    cr_assert_geq(cJSON_GetArraySize(groups), 4, "only %d groups", cJSON_GetArraySize(groups));
    const cJSON *k = cJSON_GetArrayItem(causes, 0), *g;
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "kind")), "shape");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "signature")),
                     "shape|rot|off_by_one");
    cr_expect_eq(ts_num(k, "counts.clips"), mism);
    cr_expect_eq(cJSON_GetArraySize(cJSON_GetObjectItem(k, "groups")), cJSON_GetArraySize(groups));
    const cJSON *modes = cJSON_GetObjectItem(cJSON_GetObjectItem(k, "counts"), "modes");
    cr_assert_eq(cJSON_GetArraySize(modes), 2);
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(modes, 0)), "normal");
    cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetArrayItem(modes, 1)), "fast");
    const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(k, "statement"));
    cr_expect(strstr(st, "rot values are off by one") && strstr(st, "rot.x, rot.y"), "%s", st);
    /* the first example: the first mismatch, its values one apart */
    const cJSON *f = cJSON_GetObjectItem(k, "first");
    cr_assert(cJSON_IsObject(f));
    cr_expect_eq(ts_num(f, "ref") - ts_num(f, "orig"), 1);
    int fields = 0;
    cJSON_ArrayForEach(g, groups)
    {
        cr_expect_eq(ts_num(g, "cause"), 0);
        fields |= !strcmp(cJSON_GetStringValue(cJSON_GetObjectItem(g, "field")), "rot.x") ? 1 : 2;
    }
    cr_expect_eq(fields, 3, "the groups do not span rot.x and rot.y");
    char *mdf = ts_run_file(rep, "summary.md"), *md = ts_read(mdf, NULL);
    cr_expect(strstr(md, "## Causes (1)") && strstr(md, "off by one"), "summary.md");
    free(md);
    free(mdf);
    cJSON_Delete(r);
    free(rep);
    free(mine);
    free(py);
    free(corpus);
    free(golden);
}

/*
 * A decoder that gives up where the engine stores a scale payload of
 * 0x7C00 + 1024 as -32768 (its golden clips cut at the tick where
 * `decode --switch scale-wrap` first departs from them), and that has no
 * line at all for one normal clip. The cut clips are not decoded, each
 * explained by the first quirk row (rot-wrap, root-wrap, scale-wrap order)
 * whose switched decode departs at that tick, worked out here from those
 * decodes; the clip with no line is unexplained. Checked in the trace
 * format and, normal mode, in the frames format.
 */
Test(quirks_cli, a_decoder_stopping_early_gets_the_row_or_unexplained, .init = setup,
     .fini = cleanup, .timeout = 600)
{
    static const char stop[] =
        "import json,sys,os\n"
        "golden,out,frames,names=sys.argv[1],sys.argv[2],sys.argv[3],sys.argv[4].split(',')\n"
        "sw=sys.argv[5:]\n"
        "def load(d):\n"
        "  t={}\n"
        "  for n in os.listdir(d):\n"
        "    if n.endswith('.jsonl'):\n"
        "      for l in open(os.path.join(d,n)):\n"
        "        j=json.loads(l); t.setdefault((j['file'],j['mode'],j['anim']),[]).append(j)\n"
        "  return t\n"
        "def same(a,b): return {k:v for k,v in a.items() if k!='tick'}=={k:v for k,v in b.items() if k!='tick'}\n"
        "def first(a,b):\n"
        "  for i in range(min(len(a),len(b))):\n"
        "    if not same(a[i],b[i]): return i\n"
        "  return None if len(a)==len(b) else min(len(a),len(b))\n"
        "g=load(golden); rows=[load(d) for d in sw]; want={}; dropped=None\n"
        "for k in sorted(g):\n"
        "  s=first(g[k],rows[-1].get(k,[]))\n"
        "  if s:\n"
        "    want['%s|%s|%d'%k]=[names[i] for i,r in enumerate(rows) if first(g[k],r.get(k,[]))==s][0]\n"
        "    g[k]=g[k][:s]\n"
        "  elif dropped is None and k[1]=='normal':\n"
        "    dropped='%s|%s|%d'%k; g[k]=[]\n"
        "os.makedirs(out,exist_ok=True); os.makedirs(frames,exist_ok=True)\n"
        "for k in sorted(g):\n"
        "  with open(os.path.join(out,'%s.%s.jsonl'%k[:2]),'a') as f:\n"
        "    for j in g[k]: f.write(json.dumps(j)+'\\n')\n"
        "  if k[1]!='normal': continue\n"
        "  with open(os.path.join(frames,'%s.frames.jsonl'%k[0]),'a') as f:\n"
        "    for j in g[k]:\n"
        "      if j['ret']==0: f.write(json.dumps({'file':j['file'],'anim':j['anim'],'frame':j['tick'],\n"
        "        'root':j['root'],'rot':j['rot'],'scale':j['scale'],'skel_flag':j['skel_flag']})+'\\n')\n"
        "print(json.dumps({'want':want,'dropped':dropped}))\n";
    static const char *const rows[] = {"rot-wrap", "root-wrap", "scale-wrap"};
    char *golden, *corpus = golden_traces(&golden);
    char *sp = split_script(), *stp = script("stop.py", stop);
    char dirs[3][512];
    ts_out o;
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "sw-%s", rows[i]);
        char *d = ts_path(scratch, name);
        snprintf(dirs[i], sizeof dirs[i], "%s", d);
        free(d);
        ts_sh(scratch, &o, "'%s' decode '%s'/*.dat --mode all --switch %s 2>/dev/null | %s '%s' '%s'",
              ts_ff8diff(), corpus, rows[i], ts_python(), sp, dirs[i]);
        cr_assert_eq(o.status, 0, "%s", o.err);
        ts_out_free(&o);
    }
    char *mine = ts_path(scratch, "stopper"), *frames = ts_path(scratch, "stopper-frames");
    ts_sh(scratch, &o, "%s '%s' '%s' '%s' '%s' rot-wrap,root-wrap,scale-wrap '%s' '%s' '%s'",
          ts_python(), stp, golden, mine, frames, dirs[0], dirs[1], dirs[2]);
    cr_assert_eq(o.status, 0, "%s", o.err);
    cJSON *plan = cJSON_Parse(o.out);
    ts_out_free(&o);
    cr_assert(plan);
    const cJSON *want = cJSON_GetObjectItem(plan, "want"), *w;
    const char *dropped = cJSON_GetStringValue(cJSON_GetObjectItem(plan, "dropped"));
    cr_assert(cJSON_GetArraySize(want) > 0 && dropped, "the preset plants no scale wrap to stop at");
    for (int fmt = 0; fmt < 2; fmt++) {
        char *rep = ts_path(scratch, fmt ? "rep-frames" : "rep-ticks");
        ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden,
               fmt ? frames : mine, rep);
        cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
        cr_expect(strstr(o.out, "unexplained"), "%s", o.out);
        ts_out_free(&o);
        ts_assert_valid(scratch, ts_run_file(rep, "report.json"));
        cJSON *r = ts_report(rep);
        cr_expect_eq(ts_num(r, "totals.mismatch"), 0);
        double per_row[3] = {0, 0, 0}, cut = 0;
        cJSON_ArrayForEach(w, want)
        {
            char file[64], mode[16];
            int clip;
            cr_assert_eq(sscanf(w->string, "%63[^|]|%15[^|]|%d", file, mode, &clip), 3);
            if (fmt && strcmp(mode, "normal")) continue;
            cut++;
            const cJSON *x = ts_result(r, file, clip, mode);
            cr_assert(x, "%s", w->string);
            cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(x, "status")), "not_decoded",
                             "%s", w->string);
            const cJSON *nd = cJSON_GetObjectItem(x, "not_decoded");
            const char *got = cJSON_GetStringValue(cJSON_GetObjectItem(nd, "stop_row"));
            cr_expect(got && !strcmp(got, w->valuestring), "%s: stop_row %s, want %s", w->string,
                      got ? got : "null", w->valuestring);
            /* its cause is that row's */
            const cJSON *k = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "causes"),
                                                (int)ts_num(x, "cause"));
            cr_assert(k, "%s has no cause", w->string);
            const char *row = cJSON_GetStringValue(
                cJSON_GetArrayItem(cJSON_GetObjectItem(k, "quirk_rows"), 0));
            cr_expect(row && !strcmp(row, w->valuestring), "%s: cause of row %s", w->string,
                      row ? row : "none");
            for (int i = 0; i < 3; i++) per_row[i] += !strcmp(w->valuestring, rows[i]);
        }
        char file[64], mode[16];
        int clip;
        cr_assert_eq(sscanf(dropped, "%63[^|]|%15[^|]|%d", file, mode, &clip), 3);
        const cJSON *nd = cJSON_GetObjectItem(ts_result(r, file, clip, mode), "not_decoded");
        cr_expect(cJSON_IsNull(cJSON_GetObjectItem(nd, "stop_row")), "%s", dropped);
        cr_expect(cJSON_IsTrue(cJSON_GetObjectItem(nd, "stop_tried")), "%s", dropped);
        cr_expect_eq(ts_num(r, "totals.not_decoded"), cut + 1);
        /* The causes: per row its stopped clips, and one unexplained. */
        const cJSON *k;
        double quirk_clips = 0, stopped = 0;
        cJSON_ArrayForEach(k, cJSON_GetObjectItem(r, "causes"))
        {
            const char *kind = cJSON_GetStringValue(cJSON_GetObjectItem(k, "kind"));
            if (!strcmp(kind, "stopped")) {
                stopped += ts_num(k, "counts.clips");
                continue;
            }
            cr_assert_str_eq(kind, "quirk");
            const char *row = cJSON_GetStringValue(
                cJSON_GetArrayItem(cJSON_GetObjectItem(k, "quirk_rows"), 0));
            for (int i = 0; i < 3; i++)
                if (!strcmp(row, rows[i]))
                    cr_expect_eq(ts_num(k, "counts.clips"), per_row[i], "%s", row);
            quirk_clips += ts_num(k, "counts.clips");
        }
        cr_expect_eq(quirk_clips, cut);
        cr_expect_eq(stopped, 1);
        cJSON_Delete(r);
        free(rep);
    }
    cJSON_Delete(plan);
    free(frames);
    free(mine);
    free(stp);
    free(sp);
    free(corpus);
    free(golden);
}

/*
 * A decoder with two departures (root-wrap and half-shift switched
 * together): every mismatch is a quirk cause naming one of the two rows, or
 * both on the clips where both bite (the pairs are tried only among rows
 * that bite alone); no shape cause, nothing unexplained.
 */
Test(quirks_cli, two_rows_switched_are_quirk_causes_only, .init = setup, .fini = cleanup,
     .timeout = 600)
{
    char *golden, *corpus = golden_traces(&golden);
    char *sp = split_script(), *mine = ts_path(scratch, "two"),
         *rep = ts_path(scratch, "rep");
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' decode '%s'/*.dat --mode all --switch root-wrap,half-shift 2>/dev/null | %s '%s' "
          "'%s'",
          ts_ff8diff(), corpus, ts_python(), sp, mine);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden, mine, rep);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    double mism = ts_num(r, "totals.mismatch"), clips = 0;
    int pair = 0;
    const cJSON *k, *q;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(r, "causes"))
    {
        cr_expect_str_eq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "kind")), "quirk");
        const cJSON *rows = cJSON_GetObjectItem(k, "quirk_rows");
        cJSON_ArrayForEach(q, rows)
        {
            const char *name = cJSON_GetStringValue(q);
            cr_expect(!strcmp(name, "root-wrap") || !strcmp(name, "half-shift"), "%s", name);
        }
        pair |= cJSON_GetArraySize(rows) == 2;
        clips += ts_num(k, "counts.clips");
    }
    cr_expect(mism > 0);
    cr_expect_eq(clips, mism, "%.0f of %.0f mismatches in quirk causes", clips, mism);
    cr_expect(pair, "no clip needs both rows");
    cJSON_Delete(r);
    free(rep);
    free(mine);
    free(sp);
    free(corpus);
    free(golden);
}

/*
 * A reading that fails part-way (the reference with mode-bit-or switched
 * reads past the end of some vanilla files: `decode --switch` says where on
 * stderr and writes the ticks before) reproduces a decoder that stops
 * there: the clip it failed on, mismatch or not decoded, is that row's
 * cause, like every other mismatch of the file.
 */
Test(quirks_cli, a_switched_reading_failing_part_way_explains_its_clip, .init = setup,
     .fini = cleanup, .timeout = 600)
{
    char *vanilla = ts_path(scratch, "vanilla"), *one = ts_path(scratch, "one");
    ts_out o;
    ts_cli(scratch, &o, "corpus synth --preset vanilla --out '%s'", vanilla);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    /* The first file and clip the switched reading fails on, from decode's first error
     * line (decode ends at its next one, writing to a closed pipe). */
    ts_sh(scratch, &o,
          "'%s' decode '%s'/*.dat --mode all --switch mode-bit-or 2>&1 >/dev/null | head -n 1",
          ts_ff8diff(), vanilla);
    const char *at = strstr(o.out, ".dat: offset");
    cr_assert(at, "no vanilla file makes mode-bit-or's reading fail: %s", o.out);
    const char *start = at;
    while (start > o.out && start[-1] != '/') start--;
    char file[64];
    int clip = -1;
    snprintf(file, sizeof file, "%.*s", (int)(at - start) + 4, start);
    const char *c = strstr(at, "clip ");
    cr_assert(c && sscanf(c, "clip %d", &clip) == 1, "%s", at);
    ts_out_free(&o);
    ts_sh(scratch, &o, "mkdir -p '%s' && cp '%s/%s' '%s/'", one, vanilla, file, one);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    char *golden = ts_path(scratch, "golden"), *sp = split_script(),
         *mine = ts_path(scratch, "mine"), *rep = ts_path(scratch, "rep");
    ts_cli(scratch, &o, "record -q --out '%s' --corpus '%s'", golden, one);
    cr_assert_eq(o.status, 0, "%s%s", o.out, o.err);
    ts_out_free(&o);
    ts_sh(scratch, &o, "'%s' decode '%s'/*.dat --mode all --switch mode-bit-or 2>/dev/null | %s '%s' '%s'",
          ts_ff8diff(), one, ts_python(), sp, mine);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "check -q --traces '%s' --against '%s' --out '%s'", golden, mine, rep);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    const cJSON *x, *causes = cJSON_GetObjectItem(r, "causes");
    int failed = 0;
    cJSON_ArrayForEach(x, cJSON_GetObjectItem(r, "results"))
    {
        const char *st = cJSON_GetStringValue(cJSON_GetObjectItem(x, "status"));
        int here = ts_num(x, "clip") == clip && strcmp(st, "match") != 0;
        if (strcmp(st, "mismatch") && !here) continue;
        failed += here;
        const cJSON *k = cJSON_GetArrayItem(causes, (int)ts_num(x, "cause"));
        const char *row =
            cJSON_GetStringValue(cJSON_GetArrayItem(cJSON_GetObjectItem(k, "quirk_rows"), 0));
        cr_expect(row && !strcmp(row, "mode-bit-or"), "%s clip %.0f %s (%s): cause %s", file,
                  ts_num(x, "clip"), cJSON_GetStringValue(cJSON_GetObjectItem(x, "mode")), st,
                  row ? row : "none");
    }
    cr_expect(failed > 0, "%s clip %d does not differ", file, clip);
    cJSON_Delete(r);
    free(rep);
    free(mine);
    free(sp);
    free(golden);
    free(one);
    free(vanilla);
}

/*
 * check --no-quirks: a decoder switching rot-wrap still fails on its
 * mismatches, but no row is tried on them (no quirk cause, no quirks
 * section), as run --no-quirks studies no clip.
 */
Test(quirks_cli, check_no_quirks_tries_no_row, .init = setup, .fini = cleanup, .timeout = 600)
{
    char *golden, *corpus = golden_traces(&golden);
    char *split = split_script(), *mine = ts_path(scratch, "mine"), *rep = ts_path(scratch, "rep");
    ts_out o;
    ts_sh(scratch, &o,
          "'%s' decode '%s'/*.dat --mode all --switch rot-wrap 2>/dev/null | %s '%s' '%s'",
          ts_ff8diff(), corpus, ts_python(), split, mine);
    cr_assert_eq(o.status, 0, "%s", o.err);
    ts_out_free(&o);
    ts_cli(scratch, &o, "check -q --no-quirks --traces '%s' --against '%s' --out '%s'", golden,
           mine, rep);
    cr_assert_eq(o.status, 1, "%s%s", o.out, o.err);
    cr_expect(!strstr(o.out, "Quirks"), "%s", o.out);
    ts_out_free(&o);
    cJSON *r = ts_report(rep);
    cr_assert_gt(ts_num(r, "totals.mismatch"), 0);
    cr_expect(cJSON_IsNull(cJSON_GetObjectItem(r, "quirks")), "a quirks section");
    const cJSON *k;
    cJSON_ArrayForEach(k, cJSON_GetObjectItem(r, "causes"))
        cr_expect_str_neq(cJSON_GetStringValue(cJSON_GetObjectItem(k, "kind")), "quirk");
    cJSON_Delete(r);
    free(rep);
    free(mine);
    free(split);
    free(golden);
    free(corpus);
}
