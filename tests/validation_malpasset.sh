#!/bin/sh
# validation_malpasset.sh — issue 12: the built-in case malpasset builds its grid from the
# shared TELEMAC mesh and runs a few seconds on a coarse grid (60 m), on the CPU (MODE cpu)
# or on the GPU against the CPU in double (MODE gl); `swgl validate malpasset` reads the
# run.  The full 4000 s runs belong to docs/validation.md, with their commands.
# Exit 77 (skip) when the shared data is absent or (MODE gl) no EGL device exists.
swgl=$1
mode=${2:-cpu}
data=${SWGL_DATA:-$(dirname "$0")/../../shared/data}
if [ ! -r "$data/malpasset/telemac_small_nodes.csv" ]; then
  echo "skip: the Malpasset data is not in $data/malpasset (set SWGL_DATA)"
  exit 77
fi
export SWGL_DATA="$data"
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }
num() { grep -m1 "\"$2\":" "$1" | sed 's/.*: *//; s/,$//'; }
le() { awk -v a="$1" -v b="$2" 'BEGIN { if (a < 0) a = -a; exit !(a != "" && a <= b) }'; }
# gauge DIR NAME QUANTITY: the last value of NAME_QUANTITY in gauges.csv
gauge() { awk -F, -v c="$2_$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next } { v = $k } END { print v }' "$1/gauges.csv"; }
coarse="--set domain.dx=60 --set domain.dy=60 --set run.t_end=20 --quiet"

if [ "$mode" = gl ]; then
  if ! "$swgl" info > "$tmp/info" 2>&1 || ! grep -qi renderer "$tmp/info"; then
    echo "skip: no EGL device ($(head -1 "$tmp/info"))"
    exit 77
  fi
  # the GPU (float) against cpu-scalar (double) after 20 s of a real dam break: float
  # rounding of a 50 m head over ~200 steps of wetting and drying; the CPU's own float
  # backend is within 1e-5 of the double one here (MODE cpu)
  "$swgl" run --case malpasset $coarse --backend gpu --compare cpu-scalar --out "$tmp/g" > "$tmp/g.log" 2>&1
  ok $? "malpasset at 60 m runs on the GPU with --compare cpu-scalar"
  l1=$(num "$tmp/g/summary.json" l1_rel_h)
  le "$l1" 1e-4; ok $? "GPU vs cpu-scalar: relative L1 difference of h $l1 <= 1e-4"
  rel=$(num "$tmp/g/summary.json" error_rel); bound=$(num "$tmp/g/summary.json" error_bound_rel)
  le "$rel" "$bound"; ok $? "GPU: the closed valley keeps its water: $rel <= $bound (float rounding bound)"
  "$swgl" validate malpasset "$tmp/g" > "$tmp/v.txt" 2>&1
  ok $? "swgl validate malpasset reads the GPU run"
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit
fi

# 1. the grid from the mesh, and the initial state against the mesh's own
"$swgl" run --case malpasset $coarse --backend cpu-scalar --compare cpu --out "$tmp/c" > "$tmp/c.log" 2>&1
ok $? "malpasset at 60 m runs on cpu-scalar with --compare cpu"
nx=$(num "$tmp/c/summary.json" nx); ny=$(num "$tmp/c/summary.json" ny)
[ "$nx" = 288 ] && [ "$ny" = 154 ]
ok $? "the grid covers the mesh's bounding box (17,227 x 9,181 m): $nx x $ny cells of 60 m"
# the TELEMAC file's own initial water (h0 at the nodes, linear on the triangles)
tin=$(awk -F, 'FNR == NR { if ($0 !~ /^#/) { x[$1] = $2; y[$1] = $3; h[$1] = $5 } next }
  !/^#/ { a = $2; b = $3; c = $4
          ar = 0.5 * ((x[b] - x[a]) * (y[c] - y[a]) - (x[c] - x[a]) * (y[b] - y[a])); if (ar < 0) ar = -ar
          v += ar * (h[a] + h[b] + h[c]) / 3 }
  END { printf "%.0f", v }' "$data/malpasset/telemac_small_nodes.csv" "$data/malpasset/telemac_small_triangles.csv")
m0=$(num "$tmp/c/summary.json" mass_initial)
# the reservoir rule reproduces TELEMAC's wet nodes exactly; what differs is the sampling
# of the wet edge on steep banks by 60 m cells (0.46% at 60 m, 0.30% at 30 m)
le "$(awk -v a="$m0" -v b="$tin" 'BEGIN { print (a - b) / b }')" 0.01
ok $? "initial water $m0 m^3 within 1% of the TELEMAC mesh's $tin m^3"
rel=$(num "$tmp/c/summary.json" error_rel)
le "$rel" 1e-12; ok $? "cpu-scalar (double): the closed valley keeps its water to $rel <= 1e-12"
l1=$(num "$tmp/c/summary.json" l1_rel_h)
le "$l1" 1e-4; ok $? "cpu (float) vs cpu-scalar: relative L1 difference of h $l1 <= 1e-4"

# 2. causality: the wave reaches model gauge 6 (250 m below the dam) by t = 20 s, not
#    transformer A (900 m down; the observation files give when each was reached)
g6=$(gauge "$tmp/c" G6 h_m); ga=$(gauge "$tmp/c" TA h_m)
awk -v a="$g6" 'BEGIN { exit !(a > 1) }'; ok $? "G6 is under $g6 m of water at 20 s (> 1 m)"
le "$ga" 0; ok $? "transformer A is still dry at 20 s (h = $ga)"

# 3. the comparison with the observations reads the run
"$swgl" validate malpasset "$tmp/c" --out "$tmp/c" > "$tmp/v.txt" 2> "$tmp/v.err"
ok $? "swgl validate malpasset exits 0"
rows=$(grep -c '^[123],' "$tmp/c/malpasset_points.csv")
want=$(cat "$data"/malpasset/observations_*.csv | grep -v '^#' | grep -v '^id,' | grep -c ',')
[ "$rows" = "$want" ]; ok $? "malpasset_points.csv: a row for each of the $want observation points ($rows rows)"
gauges=$(head -1 "$tmp/c/gauges.csv" | tr ',' '\n' | grep -c '_h_m$')
[ "$gauges" = "$want" ]; ok $? "the case's gauges are the observation files' points ($gauges gauges)"
arr=$(awk -F, '$3 == "G6" { print $13 }' "$tmp/c/malpasset_points.csv")
obs=$(awk -F, '!/^#/ && $1 == "6" { print $4 }' "$data/malpasset/observations_model_gauges.csv")
awk -v a="$arr" -v o="$obs" 'BEGIN { exit !(o > 0 && a >= 0.3 * o && a <= 2 * o) }'
ok $? "simulated arrival at G6 $arr s, observed $obs s (the data file's; 60 m cells: within 0.3 to 2 times it)"
grep -q "| G6 |" "$tmp/v.txt"; ok $? "the markdown table names gauge 6"

# the speed over simulated time: performance.csv from t = 0 to t_end, steps as summary.json's
steps=$(num "$tmp/c/summary.json" steps)
awk -F, -v n="$steps" 'NR == 1 { ok = ($0 == "t_s,wall_s,steps,mcells_per_s"); next }
  { rows++; if ($1 < t || $3 < s || $2 < w || !($4 >= 0) || $4 == "inf") ok = 0; t = $1; s = $3; w = $2 }
  END { exit !(ok && rows >= 50 && t == 20 && s == n) }' "$tmp/c/performance.csv"
ok $? "performance.csv: $(($(wc -l < "$tmp/c/performance.csv") - 1)) rows, t, wall and steps increasing to 20 s and $steps steps, rates >= 0"

# hostile observations: a row with a non-finite number is refused (file and line), and
# --out is created
mkdir -p "$tmp/data/malpasset"
cp "$data/malpasset/"observations_*.csv "$tmp/data/malpasset/"
sed -i 's/^P3,[^,]*,[^,]*,/P3,1e400,nan,/' "$tmp/data/malpasset/observations_police_points.csv"
"$swgl" validate malpasset "$tmp/c" --data "$tmp/data" --out "$tmp/v2" > /dev/null 2> "$tmp/v2.err"
[ $? = 1 ] && grep -q "observations_police_points.csv:9: expected id,x_m,y_m,value" "$tmp/v2.err"
ok $? "a non-finite coordinate: exit 1 naming file and line ($(cat "$tmp/v2.err"))"
"$swgl" validate malpasset "$tmp/c" --out "$tmp/new/folder" > /dev/null 2>&1 && [ -s "$tmp/new/folder/malpasset_points.csv" ]
ok $? "--out creates its folder"

# 4. without the data: a clear message
SWGL_DATA="$tmp/nowhere" "$swgl" run --case malpasset $coarse --backend cpu --out "$tmp/n" > "$tmp/n.log" 2>&1
[ $? = 1 ] && grep -q "the shared data is not there" "$tmp/n.log" && grep -q SWGL_DATA "$tmp/n.log"
ok $? "no data: exit 1 and a message naming SWGL_DATA ($(head -c 160 "$tmp/n.log"))"
[ ! -e "$tmp/n" ]; ok $? "and no output folder"
SWGL_DATA="$tmp/nowhere" "$swgl" validate malpasset "$tmp/c" --out "$tmp/c" > /dev/null 2> "$tmp/vn.err"
[ $? = 1 ] && grep -q "observations_police_points.csv: cannot open" "$tmp/vn.err"
ok $? "validate without the data: exit 1 naming the file"
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
