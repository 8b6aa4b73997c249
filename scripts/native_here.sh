#!/usr/bin/env bash
# Whether the native engine runs on this machine, from `ff8diff --version`'s
# engine line for native: "engine: native VERSION ...; runs here" or
# "engine: native VERSION: cannot run here: WHY". Reads that output on
# stdin, or runs the ff8diff given as $1. Exit 0 (prints nothing) when it
# runs here; exit 1 with "no: WHY" when it cannot, or when the output has no
# native line or one in neither form (an answer this script does not know is
# never taken for "runs").
set -uo pipefail
if [ $# -ge 1 ]; then
  out=$("$1" --version 2>&1)
else
  out=$(cat)
fi
line=$(printf '%s\n' "$out" | grep '^engine: native ' | head -n 1)
if [ -z "$line" ]; then
  echo "no: ff8diff --version names no native engine (not built in)"
  exit 1
fi
case "$line" in
  *": cannot run here: "*)
    echo "no: ${line#*: cannot run here: }"
    exit 1 ;;
  *"; runs here")
    exit 0 ;;
esac
echo "no: ff8diff --version's native line is in no known form: $line"
exit 1
