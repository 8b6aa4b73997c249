#!/usr/bin/env python3
"""The include checker (scripts/check_includes.py) on a planted tree: each
include against the order is reported with its file and line, the includes
that follow the order are not, and the exit status says which."""
import os
import subprocess
import sys
import tempfile

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                       "check_includes.py")

# file -> its lines; (file, line) of each expected complaint
TREE = {
    "common/ok.c": ['#include "common/error.h"'],
    "ref/up.c": ['#include "ref/ok.h"', '#include "corpus/source.h"'],
    "ref/ok.h": ['#include "common/le.h"'],
    "corpus/side.c": ['/* a sibling */', '#include "emu/image/pe.h"'],
    "emu/image/rel.c": ['#include "pe.h"'],
    "emu/image/up.c": ['#include "emu/image/walk.h"', '#include "emu/engine/emu.h"'],
    "emu/engine/ok.c": ['#include "emu/profiles/identify.h"', '#include "emu/image/pe.h"'],
    "emu/loose.c": ['#include "common/error.h"'],
    "harness/traces/back.c": ['#include <stdio.h>', '', '#include "harness/report/report.h"'],
    "harness/report/fine.c": ['#include "harness/core/verdict.h"', '#include "emu/image/pe.h"'],
    "harness/cli/all.c": ['#include "harness/run/run.h"', '#include "harness/version.h"'],
    "harness/core/lib.c": ['#include "tests/support/ts.h"'],
    "emu/engine/level.c": ['#include "emu/engine/emu.h"', '#include "emu/engine/unicorn/x.h"',
                           '#include <unicorn/unicorn.h>', '#include "emu/engine/emu_impl.h"'],
    "harness/cli/eng.c": ['#include "emu/engine/unicorn/uc_info.h"'],
    "emu/engine/unicorn/uc.c": ['#include <unicorn/unicorn.h>', '#include "emu/engine/emu_impl.h"',
                                '#include "emu/engine/unicorn/x.h"'],
    "emu/engine/emu.c": ['#include "emu/engine/emu_impl.h"'],
}
EXPECTED = {("ref/up.c", 2), ("corpus/side.c", 2), ("emu/image/rel.c", 1),
            ("emu/image/up.c", 2), ("emu/loose.c", 1),
            ("harness/traces/back.c", 3), ("harness/core/lib.c", 1),
            ("emu/engine/level.c", 2), ("emu/engine/level.c", 3), ("emu/engine/level.c", 4),
            ("harness/cli/eng.c", 1)}


def main():
    with tempfile.TemporaryDirectory() as root:
        for rel, lines in TREE.items():
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write("\n".join(lines) + "\n")
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        got = set()
        for line in p.stdout.splitlines():
            file, no = line.split(":")[:2]
            got.add((file, int(no)))
        ok = p.returncode == 1 and got == EXPECTED
        if not ok:
            print("exit %d, reported %s, expected %s\n%s%s" % (p.returncode, sorted(got),
                                                               sorted(EXPECTED), p.stdout,
                                                               p.stderr))
            return 1
        # The same tree without its offending files passes.
        for rel in {rel for rel, _ in EXPECTED}:
            os.remove(os.path.join(root, rel))
        p = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
        if p.returncode != 0:
            print("a tree that follows the order fails:\n" + p.stdout)
            return 1
    print("check_includes: planted violations found with their file and line")
    return 0


if __name__ == "__main__":
    sys.exit(main())
