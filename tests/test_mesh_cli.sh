#!/bin/sh
# test_mesh_cli.sh — swgl grid-from-mesh as a user meets it: an L-shaped mesh of a plane
# on a grid (header, values at cell centres to 1e-6, NODATA outside), --origin/--size,
# --dx/--dy, --nodata; a failure leaves an existing grid untouched; bad usage exits 2, bad
# input 1 with a message naming the file and line; and a CPU run on the grid it made.
swgl=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }

# The L: [0,10] x [0,5] and [0,5] x [5,10], z = 1 + 0.1 x + 0.2 y (linear: the grid holds
# it exactly up to the %.9g of the file, so 1e-6 m)
cat > "$tmp/nodes.csv" <<'EOF'
# node,x_m,y_m,z_m
1,0,0,1
2,5,0,1.5
3,10,0,2
4,0,5,2
5,5,5,2.5
6,10,5,3
7,0,10,3
8,5,10,3.5
EOF
printf 'elem,n1,n2,n3\r\n1,1,2,5\r\n2,1,5,4\r\n3,2,3,6\r\n4,2,6,5\r\n5,4,5,8\r\n6,4,8,7\r\n' > "$tmp/tri.csv"

# checks GRID against the plane: prints "max_error nodata_count cells"
check_plane() {
  awk '$1 ~ /^[A-Za-z]/ { h[tolower($1)] = $2; next }
       { r++; for (i = 1; i <= NF; i++) {
           n++
           if ($i == h["nodata_value"]) { nd++; continue }
           dx = ("cellsize" in h) ? h["cellsize"] : h["dx"]; dy = ("cellsize" in h) ? h["cellsize"] : h["dy"]
           x = h["xllcorner"] + (i - 0.5) * dx; y = h["yllcorner"] + (h["nrows"] - r + 0.5) * dy
           e = $i - (1 + 0.1 * x + 0.2 * y); if (e < 0) e = -e; if (e > m) m = e } }
       END { printf "%.3g %d %d\n", m, nd, n }' "$1"
}

"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 1 --out "$tmp/grid.asc" 2> "$tmp/err"
ok $? "grid-from-mesh of the L at 1 m succeeds"
grep -q '8 nodes, 6 triangles' "$tmp/err" && grep -q '10 x 10 cells of 1 m' "$tmp/err" && grep -q '75 inside' "$tmp/err" \
  && grep -q 'z from 1.15 to 3.35 m' "$tmp/err"
ok $? "the summary line: nodes, triangles, grid, inside, z range: $(cat "$tmp/err")"
[ "$(head -6 "$tmp/grid.asc" | tr '\n' ' ')" = "ncols 10 nrows 10 xllcorner 0 yllcorner 0 cellsize 1 NODATA_value -9999 " ]
ok $? "header: 10 x 10 cells of 1 m from the mesh's corner (0, 0), NODATA -9999"
set -- $(check_plane "$tmp/grid.asc")
awk -v e="$1" 'BEGIN { exit !(e <= 1e-6) }'; ok $? "cell centres hold the plane within 1e-6 m (the file's %.9g): worst $1"
[ "$2" = 25 ] && [ "$3" = 100 ]; ok $? "the 25 cells of the missing quarter (centres x, y > 5) are NODATA: $2 of $3"
[ "$(sed -n 7p "$tmp/grid.asc" | awk '{ print $1, $5, $6, $10 }')" = "2.95 3.35 -9999 -9999" ]
ok $? "first data row (the northern one, y = 9.5): 2.95 at x = 0.5, 3.35 at x = 4.5, NODATA from x = 5.5"

# --origin, --size, a finer cell; --dx/--dy; --nodata
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 0.5 --origin 2 1 --size 3 2 --out "$tmp/o.asc" 2> /dev/null
ok $? "--origin 2 1 --size 3 2 --cell 0.5 succeeds"
[ "$(head -5 "$tmp/o.asc" | tr '\n' ' ')" = "ncols 3 nrows 2 xllcorner 2 yllcorner 1 cellsize 0.5 " ]
ok $? "--origin/--size: the header has them"
[ "$(sed -n 7,8p "$tmp/o.asc" | tr '\n' ' ')" = "1.575 1.625 1.675 1.475 1.525 1.575 " ]
ok $? "--origin/--size: values at the centres (2.25, 1.75) ... (3.25, 1.25): $(sed -n 7,8p "$tmp/o.asc" | tr '\n' ' ')"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --dx 2 --dy 1 --out "$tmp/d.asc" 2> /dev/null &&
  [ "$(sed -n '1p;2p;5p;6p' "$tmp/d.asc" | tr '\n' ' ')" = "ncols 5 nrows 10 dx 2 dy 1 " ]
ok $? "--dx 2 --dy 1: 5 x 10 cells, dx and dy in the header"
set -- $(check_plane "$tmp/d.asc")
awk -v e="$1" 'BEGIN { exit !(e <= 1e-6) }' && [ "$2" = 10 ]
ok $? "--dx/--dy: the plane within 1e-6 m ($1); 10 NODATA ($2): centres x = 7, 9 above y = 5 (x = 5 is on the L's edge: inside)"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 1 --nodata -1 --out "$tmp/n.asc" 2> /dev/null &&
  grep -q '^NODATA_value -1$' "$tmp/n.asc" && [ "$(awk 'NR > 6' "$tmp/n.asc" | tr ' ' '\n' | grep -c '^-1$')" = 25 ]
ok $? "--nodata -1: the header says so and the 25 cells outside hold it"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 1 --nodata 2.95 --out "$tmp/n2.asc" 2> "$tmp/err"
[ $? = 1 ] && [ ! -e "$tmp/n2.asc" ] && grep -q 'NODATA value 2.95' "$tmp/err"
ok $? "--nodata 2.95, a value the mesh takes, is refused (exit 1): $(cat "$tmp/err")"

# a grid with no cell in the mesh is refused (exit 1), as a scenario refuses it
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --origin 1e6 1e6 --size 2 2 --cell 1 --out "$tmp/far.asc" 2> "$tmp/err"
[ $? = 1 ] && [ ! -e "$tmp/far.asc" ] && grep -q 'no cell of the 2 x 2 grid' "$tmp/err"
ok $? "no cell in the mesh: exit 1 and no file: $(cat "$tmp/err")"
# the corner in full: map coordinates of 1e8 m keep their centimetres
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --origin 0.125 0.25 --size 2 2 --cell 1 --out "$tmp/c.asc" 2> /dev/null &&
  grep -q '^xllcorner 0.125$' "$tmp/c.asc" && grep -q '^yllcorner 0.25$' "$tmp/c.asc"
ok $? "--origin 0.125 0.25: the header's corner is the sampled one"

# a failure leaves an existing grid as it was, and no temporary file
cp "$tmp/grid.asc" "$tmp/before.asc"
printf '1,1,2,5\n2,1,5,99\n' > "$tmp/bad-tri.csv"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/bad-tri.csv" --cell 1 --out "$tmp/grid.asc" 2> "$tmp/err"
[ $? = 1 ]; ok $? "a triangle naming an unknown node: exit 1"
[ "$(wc -l < "$tmp/err")" = 1 ] && grep -q '^swgl grid-from-mesh: .*bad-tri.csv:2: column 4: node 99 is not in .*nodes.csv' "$tmp/err"
ok $? "one line naming the file and line: $(cat "$tmp/err")"
cmp -s "$tmp/grid.asc" "$tmp/before.asc"; ok $? "the existing grid.asc is untouched"
printf '1,0,0,1\n2,5,0,oops\n' > "$tmp/bad-nodes.csv"
"$swgl" grid-from-mesh "$tmp/bad-nodes.csv" "$tmp/tri.csv" --cell 1 --out "$tmp/grid.asc" 2> "$tmp/err"
[ $? = 1 ] && grep -q "bad-nodes.csv:2: column 4 (z): 'oops'" "$tmp/err" && cmp -s "$tmp/grid.asc" "$tmp/before.asc"
ok $? "a bad z: exit 1 naming file, line and column, grid untouched: $(cat "$tmp/err")"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 1 --out "$tmp/no-such-dir/g.asc" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'no-such-dir/g.asc' "$tmp/err"; ok $? "an unwritable target: exit 1 naming it: $(cat "$tmp/err")"
"$swgl" grid-from-mesh "$tmp/nodes.csv" "$tmp/tri.csv" --cell 1e-4 --out "$tmp/grid.asc" 2> "$tmp/err"
[ $? = 1 ] && grep -q 'expected at most' "$tmp/err" && cmp -s "$tmp/grid.asc" "$tmp/before.asc"
ok $? "a grid over the cell limit is refused (exit 1): $(cat "$tmp/err")"
[ -z "$(ls -a "$tmp" | grep swgl-tmp)" ]; ok $? "no temporary file is left behind"

# bad usage: exit 2 with one line; --help: exit 0
"$swgl" grid-from-mesh --help | grep -q -- '--origin X0 Y0'; ok $? "--help prints the usage (exit 0)"
for args in "" "$tmp/nodes.csv" "$tmp/nodes.csv $tmp/tri.csv --cell 1" "$tmp/nodes.csv $tmp/tri.csv --out $tmp/x.asc" \
            "$tmp/nodes.csv $tmp/tri.csv --cell 0 --out $tmp/x.asc" "$tmp/nodes.csv $tmp/tri.csv --cell nan --out $tmp/x.asc" \
            "$tmp/nodes.csv $tmp/tri.csv --cell -1 --out $tmp/x.asc" "$tmp/nodes.csv $tmp/tri.csv --cell 1 --dx 1 --dy 1 --out $tmp/x.asc" \
            "$tmp/nodes.csv $tmp/tri.csv --dx 1 --out $tmp/x.asc" "$tmp/nodes.csv $tmp/tri.csv --cell 1 --out $tmp/x.asc --size 0 3" \
            "$tmp/nodes.csv $tmp/tri.csv --cell 1 --out $tmp/x.asc --origin 1" "$tmp/nodes.csv $tmp/tri.csv --cell 1 --out $tmp/x.asc --frob" \
            "$tmp/nodes.csv $tmp/tri.csv extra.csv --cell 1 --out $tmp/x.asc"; do
  # shellcheck disable=SC2086
  "$swgl" grid-from-mesh $args 2> "$tmp/err"
  rc=$?
  [ $rc = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] && grep -q '^swgl grid-from-mesh: ' "$tmp/err" && [ ! -e "$tmp/x.asc" ]
  ok $? "bad usage '$(echo "$args" | sed "s|$tmp/||g")': exit 2 ($rc), one line: $(cat "$tmp/err")"
done

# a run on the grid it made: the NODATA quarter is inactive, the rest wet
cat > "$tmp/run.ini" <<'EOF'
[domain]
bed = grid.asc
[initial]
eta = 3.5
[run]
t_end = 0.01
EOF
"$swgl" run "$tmp/run.ini" --backend cpu-scalar --out "$tmp/out" --quiet 2> "$tmp/err"
ok $? "swgl run on a scenario with bed = grid.asc (made by grid-from-mesh) succeeds: $(head -c 300 "$tmp/err")"
[ -s "$tmp/out/h.asc" ] && [ "$(head -2 "$tmp/out/h.asc" | tr '\n' ' ')" = "ncols 10 nrows 10 " ]
ok $? "the run wrote h.asc on the 10 x 10 grid"
# still water over the bed: h = 3.5 - z at an active cell (1e-6: a lake at rest stays so)
awk 'NR > 6 { r++; if (r == 10) { print $1 } }' "$tmp/out/h.asc" > "$tmp/h00"
awk '{ e = $1 - (3.5 - 1.15); exit !(e < 1e-6 && e > -1e-6) }' "$tmp/h00"
ok $? "h at the south-west cell = 3.5 - 1.15 m within 1e-6 (still water): $(cat "$tmp/h00")"
[ "$(awk 'NR == 7 { print $10 }' "$tmp/out/h.asc")" = -9999 ]; ok $? "the NODATA quarter is inactive in the run (h NODATA)"

echo "$pass passed, $fail failed"
[ $fail = 0 ]
