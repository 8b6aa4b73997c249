#!/usr/bin/env python3
"""scripts/native_here.sh, which decides CI's native pass, fed each answer
`ff8diff --version` can give: native runs, native cannot run (with why), no
native line, and a line in an unknown form."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "native_here.sh")

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
    print(f"{len(CASES) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
