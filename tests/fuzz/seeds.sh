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
set -euo pipefail
out=${1:?usage: tests/fuzz/seeds.sh OUT}
root=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$out/scenario" "$out/expr" "$out/asc" "$out/hydrograph"
mkdir -p "$out/scenario" "$out/expr" "$out/asc" "$out/hydrograph"
h="$out/hydrograph"
printf 'time_s,discharge_m3s\n0,0\n600,60\n2400,10\n' > "$h/good"
printf '# a tide\ntime_s, level_m\r\n0, 0\r\n\r\n900, 0.5\r\n1800, -0.5e0\r\n' > "$h/crlf"
printf 'time_s,q\n0,1\n0,2\n' > "$h/same-time"
printf 'time_s,q\n0,1\n' > "$h/one-row"
printf '0,1\n1,2\n' > "$h/no-header"
printf 'time_s,q\n0,1,2\n1,nan\n2,1e999\n' > "$h/bad-fields"

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

echo "seeds.sh: $(ls "$out/scenario" | wc -l) scenario, $(ls "$out/expr" | wc -l) expression, $(ls "$out/asc" | wc -l) .asc seeds in $out"
