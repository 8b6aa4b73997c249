#!/usr/bin/env python3
"""Fails on any #include that points against ff8diff's include order.

The order (docs/design.md, "Layout"): between top folders
    common <- ref <- {corpus, emu} <- harness
inside emu/
    image <- profiles <- engine;  image <- tools;  standin alone
and inside harness/
    core <- {report, traces} <- run <- cli
(corpus and emu do not include each other, nor do report and traces;
harness includes emu's image, profiles and engine, not its tools or the
stand-in's sources).
Every project include is written from the repository root ("emu/image/pe.h").
Inside emu/engine, emu.h is the seam between the levels and an engine: an
engine's own folder (emu/engine/unicorn/ with <unicorn/...>, emu/engine/native/) is included from
that folder only, and the engines' table (emu/engine/emu_impl.h) from the
engines and the dispatcher (emu/engine/emu.c) only.
tests/ and bench/ may include anything; they are not checked.

Usage: scripts/check_includes.py [ROOT]   (default: the repository holding this script)
Prints one line per offending include, "file:line: ...", and exits 1 when
there is any; exits 0 and prints a one-line count otherwise.
"""
import os
import re
import sys

# Rooms, most specific prefix first: (prefix, room name).
ROOMS = [
    ("common/", "common"),
    ("ref/", "ref"),
    ("corpus/", "corpus"),
    ("emu/image/", "emu/image"),
    ("emu/profiles/", "emu/profiles"),
    ("emu/engine/", "emu/engine"),
    ("emu/standin/", "emu/standin"),
    ("emu/tools/", "emu/tools"),
    ("harness/core/", "harness/core"),
    ("harness/version.h", "harness/core"),  # generated into the build tree; core's
    ("harness/report/", "harness/report"),
    ("harness/traces/", "harness/traces"),
    ("harness/run/", "harness/run"),
    ("harness/gltf/", "harness/gltf"),
    ("harness/cli/", "harness/cli"),
]

# What each room may include besides itself (the order, written out).
EMU = ["emu/image", "emu/profiles", "emu/engine"]
BELOW = {
    "common": [],
    "ref": ["common"],
    "corpus": ["common", "ref"],
    "emu/image": ["common", "ref"],
    "emu/profiles": ["common", "ref", "emu/image"],
    "emu/engine": ["common", "ref", "emu/image", "emu/profiles"],
    "emu/tools": ["common", "ref", "emu/image"],
    "emu/standin": [],  # the stand-in engine: cross-built alone, its own header only
    "harness/core": ["common", "ref", "corpus"] + EMU,
    "harness/report": ["common", "ref", "corpus"] + EMU + ["harness/core"],
    "harness/traces": ["common", "ref", "corpus"] + EMU + ["harness/core"],
    "harness/run": ["common", "ref", "corpus"] + EMU + ["harness/core", "harness/report",
                                                        "harness/traces"],
    "harness/gltf": ["common", "ref", "corpus"] + EMU + ["harness/core", "harness/report",
                                                         "harness/traces", "harness/run"],
    "harness/cli": ["common", "ref", "corpus"] + EMU + ["harness/core", "harness/report",
                                                        "harness/traces", "harness/run",
                                                        "harness/gltf"],
}

# Engine internals: (include prefix, whether it is a system include, files that may include it).
PRIVATE = [
    ("emu/engine/unicorn/", False, ("emu/engine/unicorn/",)),
    ("unicorn/", True, ("emu/engine/unicorn/",)),
    ("emu/engine/native/", False, ("emu/engine/native/",)),
    ("emu/engine/emu_impl.h", False, ("emu/engine/unicorn/", "emu/engine/native/",
                                      "emu/engine/emu.c")),
    ("emu/engine/guest.h", False, ("emu/engine/unicorn/", "emu/engine/native/",
                                   "emu/engine/guest.c")),
]

CHECKED = ("common", "ref", "corpus", "emu", "harness")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s*<([^>]+)>')


def room_of(path):
    for prefix, room in ROOMS:
        if path == prefix or path.startswith(prefix):
            return room
    return None


def order_text(room):
    below = BELOW.get(room, [])
    return "%s may include %s" % (room, ", ".join(below) if below else "nothing of the project")


def private_problem(rel, target, system):
    """Why rel may not include target (an engine's internals), or None."""
    if target is None:
        return None
    for prefix, is_system, allowed in PRIVATE:
        if is_system == system and target.startswith(prefix) and not rel.startswith(allowed):
            return ("#include %s is an engine's own (included from %s only): use the seam, "
                    "emu/engine/emu.h" % ("<%s>" % target if system else '"%s"' % target,
                                          " and ".join(allowed)))
    return None


def check_file(root, rel):
    problems = []
    src_room = room_of(rel)
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            sm = SYSTEM_INCLUDE.match(line)
            private = private_problem(rel, m.group(1) if m else sm.group(1) if sm else None,
                                      sm is not None)
            if private:
                problems.append("%s:%d: %s" % (rel, no, private))
                continue
            if not m:
                continue
            target = m.group(1)
            if "/" not in target:
                problems.append("%s:%d: #include \"%s\" is not written from the repository "
                                "root" % (rel, no, target))
                continue
            dst_room = room_of(target)
            if dst_room is None:
                top = target.split("/", 1)[0]
                if top in ("tests", "bench"):
                    problems.append("%s:%d: #include \"%s\": library code includes test or "
                                    "bench code" % (rel, no, target))
                continue
            if dst_room == src_room or dst_room in BELOW.get(src_room, []):
                continue
            problems.append("%s:%d: #include \"%s\" points against the include order (%s is "
                            "not below %s: %s)" % (rel, no, target, dst_room, src_room,
                                                   order_text(src_room)))
    return problems


def sources(root):
    for top in CHECKED:
        base = os.path.join(root, top)
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h", ".inc")):
                    yield os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems, files = [], 0
    for rel in sources(root):
        if room_of(rel) is None:
            problems.append("%s:1: not in any room of the include order (scripts/check_includes.py"
                            " ROOMS)" % rel)
            continue
        files += 1
        problems.extend(check_file(root, rel))
    for p in problems:
        print(p)
    if problems:
        print("check_includes: %d include%s against the order" % (len(problems),
                                                                   "" if len(problems) == 1 else "s"),
              file=sys.stderr)
        return 1
    print("check_includes: %d files, every include follows the order" % files)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
