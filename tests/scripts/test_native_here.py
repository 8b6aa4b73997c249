#!/usr/bin/env python3
"""scripts/native_here.sh, which decides CI's native pass, fed each answer
`ff8diff --version` can give: native runs, native cannot run (with why), no
native line, and a line in an unknown form. Then tests/scripts/native_gate.sh,
which starts a suite's native tests on the same decision, given a stand-in
ff8diff printing each answer: it starts the program only when native runs, and
otherwise exits 77 (CTest's skip) saying why."""
import os
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "native_here.sh")
GATE = os.path.join(HERE, "native_gate.sh")

UNICORN = ("engine: unicorn 2.1.1, fast stores (store_path fast, store_ns 5.7, load_ns 5.7, "
           "code_buffer_bytes 1073741824); runs here\n")
CASES = [
    ("runs", "ff8diff 0.1.0\n" + UNICORN +
     "engine: native 6.1.0 (no hooks; round_trip_ns 86); runs here\n", 0, ""),
    ("cannot", "ff8diff 0.1.0\n" + UNICORN +
     "engine: native 6.18.44: cannot run here: a probe call of 32-bit code ended its process "
     "(signal 9): this kernel does not run 32-bit code in a 64-bit process\n", 1,
     "no: a probe call of 32-bit code ended its process"),
    ("absent", "ff8diff 0.1.0\n" + UNICORN, 1, "no: ff8diff --version names no native engine"),
    ("unknown", "ff8diff 0.1.0\n" + UNICORN + "engine: native 6.1.0, something else\n", 1,
     "no: ff8diff --version's native line is in no known form"),
]


def gate(tmp, name, text, code, start):
    """native_gate.sh with a stand-in ff8diff printing text: 'ran' from the program
    when native runs (exit 0), else exit 77 and 'skipped: WHY'."""
    fake = os.path.join(tmp, "ff8diff-" + name)
    with open(os.path.join(tmp, name + ".txt"), "w") as f:
        f.write(text)
    with open(fake, "w") as f:
        f.write("#!/bin/sh\ncat '%s'\n" % os.path.join(tmp, name + ".txt"))
    os.chmod(fake, stat.S_IRWXU)
    p = subprocess.run(["bash", GATE, fake, "sh", "-c", "echo ran"], capture_output=True,
                       text=True)
    if code == 0:
        return p.returncode == 0 and p.stdout == "ran\n", p
    why = start[len("no: "):]
    return p.returncode == 77 and p.stdout.startswith("skipped: " + why), p


def main():
    failed = 0
    for name, text, code, start in CASES:
        p = subprocess.run(["bash", SCRIPT], input=text, capture_output=True, text=True)
        ok = p.returncode == code and p.stdout.startswith(start) and (start or not p.stdout)
        if not ok:
            failed += 1
            print(f"FAIL {name}: exit {p.returncode} (want {code}), stdout {p.stdout!r}")
        else:
            print(f"ok {name}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text, code, start in CASES:
            ok, p = gate(tmp, name, text, code, start)
            if not ok:
                failed += 1
                print(f"FAIL gate {name}: exit {p.returncode}, stdout {p.stdout!r}")
            else:
                print(f"ok gate {name}")
    total = 2 * len(CASES)
    print(f"{total - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
