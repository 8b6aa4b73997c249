#!/usr/bin/env bash
# native_gate.sh FF8DIFF PROGRAM ARGS...: runs a suite's native tests (PROGRAM
# ARGS, a Criterion filter naming them) where FF8DIFF's --version says the
# native engine runs here (scripts/native_here.sh decides, as for CI's native
# pass). Elsewhere it prints why and exits 77, which CTest reports as a
# skipped entry (SKIP_RETURN_CODE): the tests are not started one by one only
# to skip, each in a process of its own. Each test still skips, saying why,
# where the engine cannot run in its own process.
set -uo pipefail
ff8diff=$1
shift
here="$(dirname "$0")/../../scripts/native_here.sh"
if why=$("$here" "$ff8diff"); then
  exec "$@"
fi
echo "skipped: ${why#no: }"
exit 77
