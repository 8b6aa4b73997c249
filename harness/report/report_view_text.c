/*
 * harness/report/report_view_text.c: the sections whose two renderings are
 * still written as text by their own HTML and Markdown writers (causes,
 * pose convention, entities), handed to the section table as
 * raw sections: each view renders both and the emitters place them. A section moved to nodes leaves this file.
 *
 * Must not print or exit.
 */
#include "harness/report/report.h"
#include "harness/report/report_causes.h"
#include "harness/report/report_html.h"
#include "harness/report/report_html_entity.h"
#include "harness/report/report_md_base.h"
#include "harness/report/report_md_entity.h"
#include "harness/report/report_sections.h"

/* Both renderings of a section into the document, in the row's place. */
static void raw(const rs_ctx *c, const strbuf *h, const strbuf *m)
{
    if ((!h->s || !*h->s) && (!m->s || !*m->s)) return;
    rd_raw_section(c->doc, c->row->id, h->s ? h->s : "", m->s ? m->s : "");
}

#define RAW_VIEW(name, html_call, md_call)                                                         \
    void name(const rs_ctx *c)                                                                     \
    {                                                                                              \
        strbuf h, m;                                                                               \
        sb_init(&h);                                                                               \
        sb_init(&m);                                                                               \
        html_call;                                                                                 \
        md_call;                                                                                   \
        raw(c, &h, &m);                                                                            \
        sb_free(&h);                                                                               \
        sb_free(&m);                                                                               \
    }

RAW_VIEW(rs_view_causes, rh_causes(&h, c->report), md_causes(&m, c->report))
RAW_VIEW(rs_view_pose, report_pose_html(&h, c->report), report_pose_md(&m, c->report, rm_text))
RAW_VIEW(rs_view_entities, rh_entities(&h, c->report, c->ents),
         rm_entities(&m, c->report, c->ents))
