#!/usr/bin/env python3
"""tests/harness/report_check.py: independent checks of a report folder's
files for the Criterion suites (test code only). Prints one JSON object on
stdout; exit status 0 = checked, 3 = the document is invalid, 2 = the
checker itself could not run (missing module, unreadable file, bad schema;
an unexpected exception gives Python's own 1).

  validate SCHEMA JSON   JSON Schema (draft 2020-12) validation of report.json
  validate-each SCHEMA JSON...
                         each document validated on its own, in one start:
                         {"docs": [{"path", "valid", "errors"}...]}, exit 3 when
                         any is invalid
  junit XML              well-formedness and counts of junit.xml
  html FILE              XML well-formedness and element counts of index.html
  dom FILE               element counts of a DOM dumped by a browser (HTML parser);
                         per svg.figure its data-bone, title, views (data-view and
                         the count of marked "hit" elements) and bone axes drawn
  keys SCHEMA FILE       each line of FILE a key path a view asked for
                         ("run.executable.path", "groups[].field"): the paths the
                         schema does not hold (exit 3 when any)
  outline HTML MD        the sections of index.html (<section id><h2>) and of
                         summary.md (## headings), in order
"""
import json
import sys


def out(obj, status=0):
    print(json.dumps(obj))
    sys.exit(status)


def validator(schema_path):
    try:
        import jsonschema
    except ImportError as e:
        out({"error": "python3-jsonschema is not installed: %s" % e}, 2)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.Draft202012Validator
    try:
        cls.check_schema(schema)
    except jsonschema.SchemaError as e:
        out({"error": "the schema itself is invalid: %s" % e.message}, 2)
    return cls(schema)


def judge(v, doc_path):
    with open(doc_path, encoding="utf-8") as f:
        doc = json.load(f)
    try:
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    except Exception as e:  # a $ref that does not resolve, ...
        out({"error": "the schema cannot be applied: %s: %s" % (type(e).__name__, e)}, 2)
    msgs = ["%s: %s" % ("/".join(str(p) for p in e.absolute_path), e.message[:300])
            for e in errors]
    return {"valid": not errors, "errors": msgs[:20]}


def validate(schema_path, doc_path):
    r = judge(validator(schema_path), doc_path)
    out(r, 0 if r["valid"] else 3)


def validate_each(schema_path, doc_paths):
    if not doc_paths:
        raise IndexError("no document given")
    v = validator(schema_path)
    docs = [dict(path=p, **judge(v, p)) for p in doc_paths]
    out({"docs": docs}, 0 if all(d["valid"] for d in docs) else 3)


def junit(path):
    import xml.dom.minidom
    try:
        dom = xml.dom.minidom.parse(path)
    except Exception as e:  # not well-formed
        out({"error": "not well-formed: %s" % e}, 3)
    root = dom.documentElement
    suites = []
    for s in root.getElementsByTagName("testsuite"):
        cases = s.getElementsByTagName("testcase")
        suites.append({
            "name": s.getAttribute("name"),
            "tests": int(s.getAttribute("tests")),
            "failures": int(s.getAttribute("failures")),
            "errors": int(s.getAttribute("errors")),
            "skipped": int(s.getAttribute("skipped")),
            "cases": len(cases),
            "case_failures": sum(1 for c in cases if c.getElementsByTagName("failure")),
            "case_errors": sum(1 for c in cases if c.getElementsByTagName("error")),
            "case_skipped": sum(1 for c in cases if c.getElementsByTagName("skipped")),
            "names": [c.getAttribute("name") for c in cases],
            "classnames": [c.getAttribute("classname") for c in cases],
            "messages": [f.getAttribute("message") for c in cases
                         for f in c.getElementsByTagName("failure") + c.getElementsByTagName("error")],
            "properties": {p.getAttribute("name"): p.getAttribute("value")
                           for p in s.getElementsByTagName("property")},
        })
    out({"root": root.tagName,
         "tests": int(root.getAttribute("tests")),
         "failures": int(root.getAttribute("failures")),
         "errors": int(root.getAttribute("errors")),
         "skipped": int(root.getAttribute("skipped")),
         "suites": suites})


def html_xml(path):
    """index.html is written as well-formed markup: parse it as XML."""
    import xml.dom.minidom
    try:
        dom = xml.dom.minidom.parse(path)
    except Exception as e:
        out({"error": "not well-formed: %s" % e}, 3)
    els = dom.getElementsByTagName("*")

    def cls(e):
        return e.getAttribute("class").split()

    plots = [e for e in els if e.tagName == "svg" and "plot" in cls(e)]
    names = []
    for e in els:
        if e.tagName in ("td", "span") and "name" in cls(e):
            names.append("".join(n.data for n in e.childNodes if n.nodeType == n.TEXT_NODE))
    out({"root": dom.documentElement.tagName,
         "ids": sorted(e.getAttribute("id") for e in els if e.getAttribute("id")),
         "groups": sum(1 for e in els if "group" in cls(e)),
         "plots": [len(p.getElementsByTagName("polyline")) for p in plots],
         "scripts": len(dom.getElementsByTagName("script")),
         "links": len(dom.getElementsByTagName("link")) + len(dom.getElementsByTagName("img")),
         "names": names})


def dom(path):
    from html.parser import HTMLParser

    class P(HTMLParser):
        def __init__(self):
            super().__init__()
            self.ids, self.groups, self.plots, self.scripts = [], 0, [], 0
            self.in_plot, self.in_name, self.names, self.stack = False, False, [], []
            self.figures, self.in_figure, self.in_title = [], False, False

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            c = (a.get("class") or "").split()
            if a.get("id"):
                self.ids.append(a["id"])
            if "group" in c:
                self.groups += 1
            if tag == "script":
                self.scripts += 1
            if tag == "svg" and "plot" in c:
                self.plots.append(0)
                self.in_plot = True
            if tag == "svg" and "figure" in c:
                self.figures.append({"bone": a.get("data-bone"), "title": "", "views": [],
                                     "axes": 0})
                self.in_figure = True
            if self.in_figure and tag == "title":
                self.in_title = True
            if self.in_figure and tag == "g" and "view" in c:
                self.figures[-1]["views"].append({"view": a.get("data-view"), "hits": 0})
            if self.in_figure and "hit" in c and self.figures[-1]["views"]:
                self.figures[-1]["views"][-1]["hits"] += 1
            if self.in_figure and "axis" in c:
                self.figures[-1]["axes"] += 1
            if tag == "polyline" and self.in_plot:
                self.plots[-1] += 1
            if tag in ("td", "span") and "name" in c:
                self.in_name = True
                self.names.append("")

        def handle_endtag(self, tag):
            if tag == "svg":
                self.in_plot = self.in_figure = False
            if tag == "title":
                self.in_title = False
            if tag in ("td", "span"):
                self.in_name = False

        def handle_data(self, data):
            if self.in_title:
                self.figures[-1]["title"] += data
            if self.in_name:
                self.names[-1] += data

    p = P()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    out({"ids": sorted(p.ids), "groups": p.groups, "plots": p.plots, "scripts": p.scripts,
         "names": p.names, "figures": p.figures})


def schema_children(root, nodes, key):
    """Every schema a member key of a value matching nodes may follow ("[]": an array's
    items), through $ref, allOf / anyOf / oneOf and if-then-else branches; [] when none."""
    def deref(n):
        while isinstance(n, dict) and "$ref" in n:
            n = root["$defs"][n["$ref"].split("/")[-1]]
        return n

    todo, seen, found = [deref(n) for n in nodes], [], []
    while todo:
        n = todo.pop(0)
        if not isinstance(n, dict) or any(n is x for x in seen):
            continue
        seen.append(n)
        for k in ("oneOf", "anyOf", "allOf"):
            todo.extend(deref(x) for x in n.get(k, []))
        todo.extend(deref(n[k]) for k in ("then", "else") if k in n)
        if key == "[]":
            if "items" in n:
                found.append(deref(n["items"]))
        elif key in n.get("properties", {}):
            found.append(deref(n["properties"][key]))
        elif isinstance(n.get("additionalProperties"), dict):
            found.append(deref(n["additionalProperties"]))
    return found


def keys(schema_path, list_path):
    import re
    with open(schema_path, encoding="utf-8") as f:
        root = json.load(f)
    with open(list_path, encoding="utf-8") as f:
        paths = [line.strip() for line in f if line.strip()]
    missing = []
    for p in paths:
        nodes = [root]
        for tok in re.findall(r"\[\]|[^.\[\]]+", p):
            nodes = schema_children(root, nodes, tok)
            if not nodes:
                missing.append(p)
                break
    out({"checked": len(paths), "missing": missing}, 3 if missing else 0)


def outline(html_path, md_path):
    import re
    with open(html_path, encoding="utf-8") as f:
        html = f.read()
    with open(md_path, encoding="utf-8") as f:
        md = f.read()
    from html import unescape
    secs = re.findall(r'<section id="([^"]*)"><h2>(.*?)</h2>', html, re.S)
    heads = re.findall(r"^## (.*)$", md, re.M)
    out({"html_ids": [i for i, _ in secs],
         "html": [unescape(re.sub(r"<[^>]*>", "", t)) for _, t in secs],
         "md": [unescape(re.sub(r"\\(.)", r"\1", t)) for t in heads]})


def main():
    try:
        cmd = sys.argv[1]
        if cmd == "validate":
            validate(sys.argv[2], sys.argv[3])
        elif cmd == "validate-each":
            validate_each(sys.argv[2], sys.argv[3:])
        elif cmd == "junit":
            junit(sys.argv[2])
        elif cmd == "html":
            html_xml(sys.argv[2])
        elif cmd == "dom":
            dom(sys.argv[2])
        elif cmd == "keys":
            keys(sys.argv[2], sys.argv[3])
        elif cmd == "outline":
            outline(sys.argv[2], sys.argv[3])
        else:
            out({"error": "unknown command %s" % cmd}, 2)
    except (IndexError, OSError, ValueError) as e:
        out({"error": "%s: %s" % (type(e).__name__, e)}, 2)


if __name__ == "__main__":
    main()
