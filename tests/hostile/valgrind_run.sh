#!/bin/sh
# Memcheck of `ff8diff run` over the small synthetic corpus: stand-in
# engine, 2 jobs, no cache, temporary folders. Passes when the run exits 0
# and valgrind reports no error and no definite leak.
#   valgrind_run.sh VALGRIND FF8DIFF
# --smc-check=all-non-file: Unicorn translates guest code into host code it
# writes at run time into anonymous mappings (not on the stack, which is all
# valgrind watches by default); valgrind must notice when that code is
# rewritten.
# --engine unicorn, said outright (whatever FF8DIFF_ENGINE says): valgrind cannot run 32-bit code inside a
# 64-bit process (it translates a 64-bit process's code as x86-64 only, and
# cannot follow the native engine's far jump into the 32-bit code segment),
# so the native engine cannot run under it; Unicorn runs the original inside
# ordinary 64-bit code valgrind follows.
set -eu
valgrind=$1
ff8diff=$2
supp="$(dirname "$0")/../suppressions/unicorn.supp"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$ff8diff" corpus synth --out "$tmp/corpus" --preset small --seed 1 >/dev/null
status=0
FF8DIFF_CACHE_DIR="$tmp/cache" "$valgrind" --error-exitcode=99 --leak-check=full \
    --errors-for-leak-kinds=definite --suppressions="$supp" --smc-check=all-non-file --log-file="$tmp/valgrind.log" \
    "$ff8diff" run --corpus "$tmp/corpus" --profile standin --out "$tmp/reports" \
    --engine unicorn --no-cache --jobs 2 -q >"$tmp/stdout" 2>"$tmp/stderr" || status=$?

if [ "$status" -ne 0 ] || ! grep -q "ERROR SUMMARY: 0 errors" "$tmp/valgrind.log"; then
    echo "valgrind_run: exit status $status (0 expected)"
    cat "$tmp/stdout" "$tmp/stderr" "$tmp/valgrind.log"
    exit 1
fi
grep -E "ERROR SUMMARY|definitely lost|All heap blocks" "$tmp/valgrind.log" | sed 's/^==[0-9]*== //'
cat "$tmp/stdout"
