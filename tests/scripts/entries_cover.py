#!/usr/bin/env python3
"""tests/scripts/entries_cover.py LIST: every Criterion suite a test program holds
is run by one of its CTest entries. LIST (written by tests/CMakeLists.txt) has one
line per program: its path, then the suites its entries' filters name (read from
their sources by a regex). A suite the program lists (`--list`) that no entry names
would never run, and the suite would still pass: exit 1 naming it.
  entries_cover.py LIST         check the programs of LIST
  entries_cover.py --self-test  the check on a listing with a suite left out"""
import re
import subprocess
import sys

SUITE = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*): [0-9]+ tests?$")


def listed(text):
    return {m.group(1) for m in map(SUITE.match, text.splitlines()) if m}


def missing(program_suites, declared):
    return sorted(program_suites - set(declared))


def self_test():
    text = "dat: 8 tests\n├── a\nencode: 1 test\n└── b\n"
    ok = listed(text) == {"dat", "encode"} and missing(listed(text), ["dat"]) == ["encode"] \
        and missing(listed(text), ["dat", "encode"]) == []
    print("self-test", "ok" if ok else "FAILED")
    return 0 if ok else 1


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    failed = 0
    programs = 0
    with open(sys.argv[1], encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            programs += 1
            p = subprocess.run([parts[0], "--list"], capture_output=True, text=True)
            have = listed(p.stdout)
            if p.returncode != 0 or not have:
                print(f"FAIL {parts[0]}: --list gave exit {p.returncode} and no suite")
                failed += 1
                continue
            for s in missing(have, parts[1:]):
                print(f"FAIL {parts[0]}: Criterion suite {s} is run by no CTest entry "
                      "(tests/CMakeLists.txt reads suite names from the sources)")
                failed += 1
    print(f"{programs} programs, {failed} problems")
    return 1 if failed or not programs else 0


if __name__ == "__main__":
    sys.exit(main())
