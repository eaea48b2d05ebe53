#!/usr/bin/env bash
# tests/fuzz/seeds.sh OUT — the seed corpora of the fuzzers, made from the repository's
# own inputs (nothing is committed):
#   OUT/scenario  data/cases/*.ini and tests/data/*.ini; the built-in cases shrunk to at
#                 most 24 x 24 cells over the same extent (nx, ny divided and dx, dy
#                 multiplied by one factor) so that each run takes microseconds; a few
#                 with --set overrides after NUL bytes (fuzz_scenario.c)
#   OUT/expr      the right-hand sides of the field keys (bed, eta, mask, qx, ...) of the
#                 same files, inline comments removed; and a few long expressions in the
#                 repetition form of fuzz_expr.c (flat sums, deep nesting)
#   OUT/asc       tests/data/*.asc
#   OUT/hydrograph  a few time series files: good ones, and each kind the reader refuses
#   OUT/mesh      triangle meshes, NODES then a 0xFF byte then TRIANGLES (fuzz_mesh.c): small
#                 good ones (an L, CRLF and mixed separators, a degenerate triangle, map
#                 coordinates), the first lines of the Malpasset mesh when the shared data
#                 folder has it, and each kind the reader refuses
#   OUT/tune      --tune texts: every key at a good value, with separators and spaces, and
#                 each kind the parser refuses
set -euo pipefail
out=${1:?usage: tests/fuzz/seeds.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out/scenario" "$out/expr" "$out/asc" "$out/hydrograph" "$out/mesh" "$out/points" "$out/tune"
mkdir -p "$out/scenario" "$out/expr" "$out/asc" "$out/hydrograph" "$out/mesh" "$out/points" "$out/tune"
h="$out/hydrograph"
printf 'time_s,discharge_m3s\n0,0\n600,60\n2400,10\n' > "$h/good"
printf '# a tide\ntime_s, level_m\r\n0, 0\r\n\r\n900, 0.5\r\n1800, -0.5e0\r\n' > "$h/crlf"
printf 'time_s,q\n0,1\n0,2\n' > "$h/same-time"
printf 'time_s,q\n0,1\n' > "$h/one-row"
printf '0,1\n1,2\n' > "$h/no-header"
printf 'time_s,q\n0,1,2\n1,nan\n2,1e999\n' > "$h/bad-fields"

m="$out/mesh"
L_nodes='1,0,0,1\n2,5,0,1.5\n3,10,0,2\n4,0,5,2\n5,5,5,2.5\n6,10,5,3\n7,0,10,3\n8,5,10,3.5\n'
L_tris='1,1,2,5\n2,1,5,4\n3,2,3,6\n4,2,6,5\n5,4,5,8\n6,4,8,7\n'
printf "node,x,y,z\n$L_nodes\377elem,n1,n2,n3\n$L_tris" > "$m/L"
printf '# c\r\nnode;x;y;z;h0\r\n30; 0; 0; 1; 7\r\n\r\n10\t1\t0\t2\t7\r\n20 0 1 3 7\r\n\377# e\r\n5, 30, 10, 20\r\n' > "$m/crlf-mixed"
printf '1,0,0,1\n2,1,1,2\n3,2,2,3\n4,0,2,4\n\3771,1,2,3\n2,1,1,4\n3,1,2,4\n' > "$m/degenerate"
printf '1,612345.25,4812345.5,101.5\n2,612355.25,4812345.5,102\n3,612345.25,4812355.5,99.25\n4,612355.25,4812355.5,100\n\3771,1,2,4\n2,1,4,3\n' > "$m/map-coordinates"
printf '1,-1e8,-1e8,0\n2,1e8,-1e8,0\n3,0,1e8,0\n\3771,1,2,3\n' > "$m/huge-triangle"
printf "$L_nodes\3771,1,2,99\n" > "$m/unknown-node"
printf '1,0,0,1\n1,1,0,2\n3,0,1,3\n\3771,1,1,3\n' > "$m/duplicate-id"
printf '1,0,0,1\n2,1,nan,2\n3,0,1e999,3\n4,-0,0x1p3,1\n\3771,1,2,3\n' > "$m/bad-numbers"
printf '1,0,0\n2,1,0,1\n\3771,1,2\n' > "$m/few-fields"
printf '1000000000000000,0,0,1\n2,1,0,2\n3,0,1,3\n\3771,1000000000000000,2,3\n2,1,2,3.5\n' > "$m/big-ids"
printf '\377' > "$m/empty"
mal=${SWGL_DATA:-$root/../shared/data}/malpasset
if [ -f "$mal/telemac_small_nodes.csv" ] && [ -f "$mal/telemac_small_triangles.csv" ]; then
  # its first 12 triangles and the nodes they name (within -max_len's 4096 bytes)
  awk -F, 'NR == FNR { if (FNR > 1 && FNR <= 13) { t[FNR] = $0; u[$2] = u[$3] = u[$4] = 1 }; next }
           FNR == 1 || ($1 in u) { print }
           END { printf "\377"; for (k = 2; k <= 13; k++) print t[k] }' \
    "$mal/telemac_small_triangles.csv" "$mal/telemac_small_nodes.csv" > "$m/malpasset-head"
fi

# Shrinks a scenario: f = ceil(max(nx, ny) / 24); nx, ny /= f (rounded up), dx, dy *= f.
shrink() {
  awk '
    function val(line) { sub(/^[^=]*=[ \t]*/, "", line); sub(/[ \t]+;.*$/, "", line); return line }
    NR == FNR { if ($1 == "nx" || $1 == "ny") { v = val($0) + 0; if (v > m) m = v }; next }
    FNR == 1 { f = int((m + 23) / 24); if (f < 1) f = 1 }
    ($1 == "nx" || $1 == "ny") && f > 1 { print $1 " = " int((val($0) + f - 1) / f); next }
    ($1 == "dx" || $1 == "dy") && f > 1 { print $1 " = " val($0) * f; next }
    { print }' "$1" "$1"
}

i=0
for f in "$root"/data/cases/*.ini; do
  name=$(basename "$f" .ini)
  shrink "$f" > "$out/scenario/case-$name"
  i=$((i + 1))
done
for f in "$root"/tests/data/*.ini; do
  cp "$f" "$out/scenario/test-$(basename "$f" .ini)"
done
# with overrides, as `swgl run FILE --set ...` passes them
dam="$out/scenario/case-dambreak"
if [ -f "$dam" ]; then
  { cat "$dam"; printf '\0domain.level=1\0run.cfl=0.5\0boundary.east=free 0:50, wall'; } > "$out/scenario/set-dambreak"
  { cat "$dam"; printf '\0domain.bed=small.asc\0domain.nx=3\0domain.ny=2\0domain.dx=1\0domain.dy=1\0domain.mask=\0run.output_times=0.5, 1'; } \
    > "$out/scenario/set-grid"
  { cat "$dam"; printf '\0output.grids=flt\0output.maps=true\0output.arrival_depth=0.05'; } > "$out/scenario/set-output"
fi

# Field expressions: KEY = VALUE lines of the field keys, VALUE without its inline comment.
grep -h -E '^[[:space:]]*(bed|mask|eta|depth|qx|qy|height|sand|alpha|beta)[[:space:]]*=' \
    "$root"/data/cases/*.ini "$root"/tests/data/*.ini |
  sed -e 's/^[^=]*=[[:space:]]*//' -e 's/[[:space:]][[:space:]]*;.*$//' -e 's/[[:space:]]*$//' |
  grep -v -i '\.asc$' | sort -u |
  while IFS= read -r e; do
    [ -n "$e" ] || continue
    printf '%s' "$e" > "$out/expr/rhs-$(printf '%s' "$e" | cksum | cut -d' ' -f1)"
  done
# The repetition form: 0xFE COUNT LEN UNIT SUFFIX = UNIT x (COUNT+1)*256, then SUFFIX.
printf '\xfe\x0f\x02x+1' > "$out/expr/rep-sum-4096"        # x+x+...+1: flat, 4097 terms
printf '\xfe\xff\x02x*1' > "$out/expr/rep-product-65536"   # x*x*...*1: flat, 65537 factors
printf '\xfe\x00\x01(x' > "$out/expr/rep-paren-256"        # (((x: nested past the limit
printf '\xfe\x00\x02-(x' > "$out/expr/rep-neg-256"         # -(-(-(x: unary nesting
printf '\xfe\x00\x022^1' > "$out/expr/rep-pow-256"         # 2^2^...^1: right-associative

cp "$root"/tests/data/*.asc "$out/asc/"

# Point tables ([gauges] KEY = FILE.csv): the test's, the Malpasset observations when the
# shared data is there, and each kind the reader refuses.
cp "$root/tests/data/points.csv" "$out/points/test.csv"
obs="${SWGL_DATA:-$root/../shared/data}/malpasset"
for f in "$obs"/observations_*.csv; do [ -f "$f" ] && cp "$f" "$out/points/$(basename "$f")"; done
printf 'id,x,y\nA,1,2\nB,3\n' > "$out/points/short-row"
printf 'A,1,nan\n' > "$out/points/nan"
printf 'A B,1,2\n' > "$out/points/space-id"
printf '# only a comment\r\n' > "$out/points/empty"

# --tune texts (fuzz_tune.c)
printf 'clock_every=8,host_clock=on,roe.fused=off,roe.group=16x8' > "$out/tune/run"
printf 'kp.fused=flux\nkp.group=16x8\nkp.cells=2x4\nkp.stage=on\nkp.xshare=off\nkp.max_groups=3' > "$out/tune/kp"
printf ' mpi.blocks = 2x1 , mpi.halo=4,,mpi.overlap=off,mpi.verbose=yes ' > "$out/tune/mpi"
printf 'kp.group=auto,mpi.blocks=auto' > "$out/tune/auto"
printf 'kp.group=99999999999x1' > "$out/tune/overflow"
printf 'clock_every=64' > "$out/tune/range"
printf 'host_clock' > "$out/tune/no-equals"
printf 'kp.flux=cell' > "$out/tune/removed"
printf 'cpu.isa=avx512,cpu.threads=2,clock_gauges=off' > "$out/tune/cpu"
printf 'cpu.isa=avx,clock_gauges=2' > "$out/tune/cpu-bad"
printf 'kp.rest=off,kp.early_exit=on' > "$out/tune/rest"
printf 'kp.rest=dry' > "$out/tune/rest-bad"

echo "seeds.sh: $(ls "$out/scenario" | wc -l) scenario, $(ls "$out/expr" | wc -l) expression, $(ls "$out/asc" | wc -l) .asc," \
  "$(ls "$out/hydrograph" | wc -l) hydrograph, $(ls "$out/mesh" | wc -l) mesh, $(ls "$out/points" | wc -l) points, $(ls "$out/tune" | wc -l) tune seeds in $out"
