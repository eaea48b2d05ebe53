#!/bin/sh
# test_timed_run.sh — examples/timed_run.c, the program behind the "through the API" figures
# of docs/mpi.md: a run driven through the C API, timed, nothing written.  Its RESULT line
# must carry the steps the same run takes through `swgl run` (the same scenario and end:
# the same step count, exactly), a positive wall and cells/s = cells x steps / wall (to the
# 6 digits printed), and no files; bad arguments exit 2 with the usage, a bad key 1 naming it.
run=$1 swgl=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }
cd "$tmp" || exit 1
"$run" cpu-scalar dambreak 2 - domain.nx=64 > out 2> err
r=$?
line=$(grep '^RESULT' out)
steps=$(echo "$line" | sed -n 's/.* steps=\([0-9]*\).*/\1/p')
wall=$(echo "$line" | sed -n 's/.* wall_s=\([-0-9.e+]*\).*/\1/p')
cps=$(echo "$line" | sed -n 's/.* cells_per_s=\([-0-9.e+]*\).*/\1/p')
"$swgl" run --case dambreak --backend cpu-scalar --set domain.nx=64 --set run.t_end=2 --quiet --out "$tmp/ref" > /dev/null 2>&1
ref=$(sed -n 's/^ *"steps": *\([0-9]*\).*/\1/p' "$tmp/ref/summary.json" | head -1)
cells=$(sed -n 's/^ *"active_cells": *\([0-9]*\).*/\1/p' "$tmp/ref/summary.json" | head -1)
[ $r = 0 ] && [ -n "$steps" ] && [ "$steps" = "$ref" ]
ok $? "the dam break to 2 s through the API: $steps steps, as swgl run takes ($ref) (exit $r)"
awk -v w="$wall" -v c="$cps" -v n="$steps" -v a="$cells" 'BEGIN { e = a * n / w; d = c - e; if (d < 0) d = -d;
    exit !(w > 0 && a > 0 && d <= 1e-5 * e) }'
ok $? "wall $wall s > 0 and cells/s $cps = $cells cells x $steps steps / wall (to the 6 digits printed)"
[ "$(ls "$tmp" | grep -v -x -e out -e err -e ref)" = "" ]
ok $? "nothing written beside the test's own files"
"$run" cpu-scalar dambreak abc - > /dev/null 2> err2
r=$?
[ $r = 2 ] && grep -q 'usage: timed_run' err2
ok $? "T_END 'abc': exit $r with the usage"
"$run" cpu-scalar dambreak 1 - domain.nope=3 > /dev/null 2> err3
r=$?
[ $r = 1 ] && grep -q 'nope' err3
ok $? "an unknown key: exit $r, the message names it ($(head -c 120 err3))"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
