#!/bin/sh
# test_bench.sh — the benches (swgl bench gpgpu|roe|kp|sediment|scaling|real) on tiny sizes with a
# tiny --min-time: each runs, states its rule in its header ("median of 3 x >= S s"), prints a
# spread of the three measurements on every row of its tables, quotes the copy ceiling of
# bench gpgpu (4096^2), and prints one run's steps, not the sum over the repetitions.  Exit
# 77 without an EGL device.
swgl=$1
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
if ! "$swgl" info > "$tmp/info" 2>&1 || ! grep -qi renderer "$tmp/info"; then
  echo "skip: no EGL device ($(head -1 "$tmp/info"))"
  exit 77
fi
compute=0
grep -q '^compute: *yes' "$tmp/info" && compute=1
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }
T=0.01
rule="median of 3 x >= $T s"
# rows LOG: the data rows of a bench's tables (the last field a spread, "12.3%")
rows() { awk '$NF ~ /^[0-9]+(\.[0-9])?%$/ && $(NF-1) == "|"' "$1" | wc -l; }
# every table's header line (the one before a line of column names) states the rule
headers() {   # LOG: 0 when every column-name line follows a line stating the rule
  awk -v r="$rule" '/spread$/ && $0 !~ /[0-9]%$/ { n++; if (index(prev, r) == 0) bad++ } { prev = $0 }
                    END { exit !(n > 0 && bad == 0) }' "$1"
}
check() {   # name, expected data rows, log
  name=$1 want=$2 log=$3
  grep -q "$rule of stepping" "$log"
  ok $? "$name: its header states the rule ('$rule of stepping')"
  headers "$log"
  ok $? "$name: every table's header line states what ran and '$rule'"
  got=$(rows "$log")
  [ "$got" = "$want" ]
  ok $? "$name: $got rows with the spread of their 3 measurements (expected $want)"
}
ceiling() {   # name, log, kind (fragment copy | compute copy-cs): the ceiling quoted, > 0
  grep "$3 4096x4096 float4, [0-9.]* GB/s" "$2" | grep -qv " 0\.0 GB/s"
  ok $? "$1: quotes the $3 ceiling of bench gpgpu at 4096^2 ($(grep -m1 'ceiling' "$2" | head -c 160))"
}

# bench gpgpu: the ceiling line, from the same call as swgl_copy_bandwidth
"$swgl" bench gpgpu --min 128 --max 128 --batch 0.01 > "$tmp/gpgpu.log" 2>&1
r=$?
want="fragment copy [0-9.]* GB/s"
[ $compute = 1 ] && want="$want, compute copy-cs [0-9.]* GB/s"
[ $r = 0 ] && grep -q "^ceiling (swgl_copy_bandwidth, what every bench quotes): the copy at 4096^2.*$want" "$tmp/gpgpu.log"
ok $? "bench gpgpu: exit $r, and the ceiling line every bench quotes ($(grep -m1 '^ceiling' "$tmp/gpgpu.log" | head -c 200))"

# bench roe: one level of each test; its steps are those of one run (swgl run's)
"$swgl" bench roe --test1 0 --test2 0 --scalar-max 0 --cpu-max 0 --min-time $T > "$tmp/roe.log" 2>&1
r=$?
ok $r "bench roe runs (exit $r: $(grep -m1 swgl: "$tmp/roe.log" | head -c 200))"
check "bench roe" 2 "$tmp/roe.log"
ceiling "bench roe" "$tmp/roe.log" "fragment copy"
"$swgl" run --case lastra-test1 --set domain.level=0 --backend cpu-scalar --quiet --out "$tmp/roe-run" > /dev/null 2>&1
steps=$(sed -n 's/.*"steps": *\([0-9]*\).*/\1/p' "$tmp/roe-run/summary.json" | head -1)
bench_steps=$(awk '$1 == "0" && $NF ~ /%$/ { print $4; exit }' "$tmp/roe.log")
[ -n "$steps" ] && [ "$steps" = "$bench_steps" ]
ok $? "bench roe: Test 1 level 0 prints one run's steps ($bench_steps), as swgl run takes ($steps)"

# bench roe --scheme hllc: the same case with scheme = hllc (its steps those of swgl run's),
# on compute passes where GL 4.3 is there (--backend gpu-compute, the compute ceiling)
hb=gpu; hc="fragment copy"
[ $compute = 1 ] && hb=gpu-compute && hc="compute copy-cs"
"$swgl" bench roe --scheme hllc --backend $hb --test1 0 --test2 -1 --scalar-max 0 --cpu-max 0 --min-time $T > "$tmp/hllc.log" 2>&1
r=$?
ok $r "bench roe --scheme hllc --backend $hb runs (exit $r: $(grep -m1 swgl: "$tmp/hllc.log" | head -c 200))"
ceiling "bench roe --scheme hllc" "$tmp/hllc.log" "$hc"
"$swgl" run --case lastra-test1 --set domain.level=0 --set run.scheme=hllc --backend cpu-scalar --quiet --out "$tmp/hllc-run" > /dev/null 2>&1
steps=$(sed -n 's/.*"steps": *\([0-9]*\).*/\1/p' "$tmp/hllc-run/summary.json" | head -1)
bench_steps=$(awk '$1 == "0" && $NF ~ /%$/ { print $4; exit }' "$tmp/hllc.log")
[ -n "$steps" ] && [ "$steps" = "$bench_steps" ] && grep -q "scheme = hllc" "$tmp/hllc.log"
ok $? "bench roe --scheme hllc: says so, and Test 1 level 0 takes hllc's steps ($bench_steps), as swgl run does ($steps; roe's: $(awk '$1 == "0" && $NF ~ /%$/ { print $4; exit }' "$tmp/roe.log"))"

# bench kp, with compute passes where GL 4.3 is there (the compute ceiling)
if [ $compute = 1 ]; then
  "$swgl" bench kp --backend gpu-compute --sizes 32 --t-end 0.2 --cpu-max 32 --scalar-max 32 --min-time $T > "$tmp/kp.log" 2>&1
  r=$?
  ceiling "bench kp (--backend gpu-compute)" "$tmp/kp.log" "compute copy-cs"
else
  "$swgl" bench kp --sizes 32 --t-end 0.2 --cpu-max 32 --scalar-max 32 --min-time $T > "$tmp/kp.log" 2>&1
  r=$?
  ceiling "bench kp" "$tmp/kp.log" "fragment copy"
fi
ok $r "bench kp runs (exit $r: $(grep -m1 swgl: "$tmp/kp.log" | head -c 200))"
check "bench kp" 2 "$tmp/kp.log"

# bench sediment: gpu single (and double with fp64), the fast CPU solver, the scalar one
"$swgl" bench sediment --sizes 32 --scalar-max 32 --min-time $T > "$tmp/sed.log" 2>&1
r=$?
ok $r "bench sediment runs (exit $r: $(grep -m1 swgl: "$tmp/sed.log" | head -c 200))"
want=3
grep -q '^fp64: *yes' "$tmp/info" && want=4
check "bench sediment" $want "$tmp/sed.log"
ceiling "bench sediment" "$tmp/sed.log" "fragment copy"

# bench scaling on one rank (no mpirun): strong and weak for one scheme on two backends
"$swgl" bench scaling --strong 32 --weak 16 --steps 4 --schemes roe --backends cpu,gpu --min-time $T \
  > "$tmp/scaling.log" 2>&1
r=$?
ok $r "bench scaling runs (exit $r: $(grep -m1 "swgl bench scaling:" "$tmp/scaling.log" | head -c 200))"
check "bench scaling" 4 "$tmp/scaling.log"
grep -q "fragment copy [0-9.]* GB/s" "$tmp/scaling.log"
ok $? "bench scaling: quotes the fragment copy ceiling for the gpu backend"

# --weak WxH: blocks W wide and H high (the grid printed is the block's on one rank); a value
# that is not an integer or WxH is refused by name, before any run
"$swgl" bench scaling --strong 0 --weak 32x16 --steps 2 --schemes roe --backends cpu --min-time $T \
  > "$tmp/wxh.log" 2>&1
r=$?
[ $r = 0 ] && grep -q "weak 32x16 a rank" "$tmp/wxh.log" && grep -q "weak  *32x16 " "$tmp/wxh.log"
ok $? "bench scaling --weak 32x16: a 32 x 16 block (exit $r)"
for v in abc 32x 32xq "32 x16" 32x16x; do
  "$swgl" bench scaling --strong 0 --weak "$v" --backends cpu > "$tmp/bad.log" 2>&1
  r=$?
  [ $r = 2 ] && grep -q -- "--weak $v: expected an integer or WxH" "$tmp/bad.log" && ! grep -q "^roe," "$tmp/bad.log"
  ok $? "bench scaling --weak '$v': refused by name (exit $r)"
done

# kp's rest rule off in bench scaling unless tuned (issue 32: with it on, the case's still water
# made a 4096^2 block step at 6e10 cells/s, five times an every-cell-working run, so the
# one-rank figure did not measure the decomposition); said in the header
"$swgl" bench scaling --strong 0 --weak 16 --steps 2 --schemes kp --backends cpu --min-time $T \
  > "$tmp/rest.log" 2>&1
r=$?
"$swgl" bench scaling --strong 0 --weak 16 --steps 2 --schemes kp --backends cpu --min-time $T --tune "kp.rest=off, kp.rest = on" \
  > "$tmp/rest_on.log" 2>&1
r2=$?
[ $r = 0 ] && [ $r2 = 0 ] && grep -q "kp's rest rule off)" "$tmp/rest.log" && grep -q "kp's rest rule on)" "$tmp/rest_on.log" \
  && grep -q "^kp, cpu" "$tmp/rest.log" && grep -q "^kp, cpu" "$tmp/rest_on.log"
ok $? "bench scaling: kp's rest rule off unless tuned (the last item, spaced, as the library reads it), said in the header (exit $r, $r2)"

# bench real (issue 28): the real run's shape beside the bench's, per scheme; skipped where
# the device has no compute passes (its default backend is gpu-compute)
if grep -q '^compute: *yes' "$tmp/info"; then
  "$swgl" bench real --sizes 32 --t-end 0.3 --min-time $T > "$tmp/real.log" 2>&1
  r=$?
  [ $r = 0 ] && awk '$1 == "roe" || ($1 == "kp" && $2 == "RK2") { n++; v = $1 == "roe" ? 6 : 7; if (!($v > 0) || !($(v + 1) > 0)) bad = 1 }
                     END { exit !(n == 2 && !bad) }' "$tmp/real.log"
  ok $? "bench real: a row per scheme with both figures (exit $r: $(grep -m1 '^roe' "$tmp/real.log"))"
  awk '/^copy ceiling: compute copy-cs / { for (i = 1; i < NF; i++) if ($(i + 1) == "GB/s") g = $i } END { exit !(g > 0) }' \
    "$tmp/real.log"
  ok $? "bench real: the copy ceiling measured in the same run ($(grep -m1 '^copy ceiling' "$tmp/real.log" | cut -c1-70))"
fi
"$swgl" bench real --sizes 4 > "$tmp/bad.log" 2>&1
r=$?
[ $r = 2 ] && grep -q -- "--sizes: expected sizes from 8" "$tmp/bad.log"
ok $? "bench real --sizes 4: refused by name (exit $r)"

# bench rest (issue 28): the rule for tiles at rest on and off, on the fast CPU solver (no
# GL needed): a row per lake with both figures; the still lake computes no tile with the
# rule, the pools some (their share at most 1); a bad --pools refused
"$swgl" bench rest --size 64 --pools 0,4 --backend cpu --t-end 1 --min-time 0.01 --max-runs 1 > "$tmp/rest.log" 2>&1
r=$?
[ $r = 0 ] && awk '$2 == "pools" || $2 == "pool" || $1 == "still," { n++; c = $2 == "pools" || $2 == "pool" ? 5 : 6
                     if (!($(c + 1) > 0) || !($(c + 2) > 0)) bad = 1
                     if ($1 == "0" && $(c + 4) != "0.0000") bad = 1
                     if ($1 == "4" && !($(c + 4) > 0 && $(c + 4) <= 1)) bad = 1 }
                   END { exit !(n == 3 && !bad) }' "$tmp/rest.log"
ok $? "bench rest: rows for the still lake, 4 pools and the slope, both rules' figures, the still lake's tiles 0 (exit $r)"
"$swgl" bench rest --pools x > "$tmp/bad.log" 2>&1
r=$?
[ $r = 2 ] && grep -q -- "--pools" "$tmp/bad.log"
ok $? "bench rest --pools x: refused with the usage (exit $r)"

# --min-time: a number > 0, else the usage and exit 2
for b in roe kp sediment scaling real rest; do
  "$swgl" bench $b --min-time 0 > "$tmp/bad.log" 2>&1
  r=$?
  [ $r = 2 ] && grep -q -- "--min-time" "$tmp/bad.log"
  ok $? "bench $b --min-time 0: refused with the usage (exit $r)"
done

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
