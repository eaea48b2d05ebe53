#!/bin/sh
# test_real_run.sh — issue 28, a run as a modeller runs it, through the program on the
# compute backend (gpu-compute; llvmpipe in CI), skipped where no EGL device offers GL 4.3:
#   1. open (free) and level boundaries stay on the GPU's clock (1c: a level and a depth
#      that change over the run too, their values computed on the GPU) (the solver line says the
#      boundary faces are summed on the GPU) and give what the host clock gives: the same
#      steps and final volume (the same states), the boundary volumes within 1e-6 of each
#      other (1e: a discharge that holds its value too) (the kernels sum w dt rate in float pairs with the step's float dt, the host
#      in double: measured 3e-10 to 4e-9 apart), the balance within its bound, kp (RK2 and
#      Euler), roe, and hllc on roe's engine;
#   2. the flood maps updated in place by the step's last kernel equal the maps pass's
#      (the host clock's): depth, speed and hazard to the bit (the same states), the times
#      within 1e-6 (the host clock's time is its double, the kernels' the clock's float sum);
#      on a drying bowl (Thacker, SWASHES) too, whose arrival times move;
#   3. the gauges, gathered by one pass (gpu_gather.h): the last line of gauges.csv is the
#      depth of h.asc at the gauge cells (the same state, both written with 9 digits);
#   4. the grids as ESRI binary floats ([output] grids = flt): the same numbers as the
#      ASCII grids (%.9g of the same doubles read as floats: within an ulp, 1.2e-7), the
#      .hdr's keys, auto's choice by size, and a bad grids value refused by its key;
#   5. the rest rule of early exit (tune kp.rest) writes the same bytes on and off;
#   6. the flood maps of a restarted run start from the restart's state at its time t0 on the
#      GPU (they are made there, not uploaded from host maps): no time of the largest depth
#      or arrival before t0, and where the depth only fell, the largest depth is the
#      restart's at t0.
swgl=$1
tmp=$(mktemp -d)
trap '[ -n "$KEEP" ] || rm -rf "$tmp"' EXIT
if ! "$swgl" info 2>/dev/null | grep -q '^compute: *yes'; then
  echo "skip: no EGL device with a GL 4.3 core context (gpu-compute)"
  exit 77
fi
pass=0 fail=0
ok() { if [ "$1" = 0 ]; then pass=$((pass + 1)); echo "ok    $2"; else fail=$((fail + 1)); echo "FAIL  $2"; fi; }
num() { grep -m1 "\"$2\":" "$1" | sed 's/.*: *//; s/,$//'; }
str() { grep -m1 "\"$2\":" "$1" | sed 's/.*: *"//; s/",*$//'; }
# near A B TOL: |A - B| <= TOL max(|B|, 1e-12)
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b; if (m < 1e-12) m = 1e-12; exit !(a != "" && b != "" && d <= t * m) }'; }
balanced() {
  be_=$(num "$1/summary.json" error_rel); bb_=$(num "$1/summary.json" error_bound_rel)
  awk -v e="$be_" -v b="$bb_" 'BEGIN { if (e < 0) e = -e; exit !(e != "" && b != "" && e <= b) }'
}
# grids_equal A B TOL: two ESRI ASCII grids, value by value within TOL (relative; NODATA alike)
grids_equal() {
  awk -v t="$3" 'FNR == 1 { f++ } FNR <= 7 && /^[a-zA-Z]/ { next }
    { for (i = 1; i <= NF; i++) { n[f]++; v[f, n[f]] = $i } }
    END { if (n[1] != n[2] || n[1] == 0) exit 1
          for (k = 1; k <= n[1]; k++) { a = v[1, k]; b = v[2, k]; d = a - b; if (d < 0) d = -d
            m = b < 0 ? -b : b; if (m < 1e-30) m = 1e-30; if (d > t * m) exit 1 } }' "$1" "$2"
}

dam="--case circular-dambreak --set domain.nx=48 --set domain.ny=48 --set domain.dx=0.8333333333333334 --set domain.dy=0.8333333333333334 --set run.t_end=10"
for scheme in kp kp-euler roe hllc; do
  bcs="free level"
  case $scheme in
    kp) sch="" ;;
    kp-euler) sch="--set kp.integrator=euler" ;;
    roe) sch="--set run.scheme=roe" ;;
    hllc) sch="--set run.scheme=hllc"; bcs=free ;;   # (on roe's engine: its fused kernel and ring)
  esac
  for bc in $bcs; do
    w=free; [ $bc = level ] && w=level=0.4
    sides="--set boundary.west=$w --set boundary.east=free --set boundary.south=free --set boundary.north=free"
    d=$tmp/$scheme-$bc
    "$swgl" run $dam $sch $sides --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1
    r1=$?
    "$swgl" run $dam $sch $sides --backend gpu-compute --tune host_clock=on --quiet --out "$d-host" > "$d-host.log" 2>&1
    r2=$?
    ok $((r1 + r2)) "$scheme $bc: both runs"
    [ $((r1 + r2)) = 0 ] || continue
    str "$d-dev/summary.json" solver | grep -q "boundary faces summed on the GPU"
    ok $? "$scheme $bc: the steps stay on the GPU's clock ($(str "$d-dev/summary.json" solver | cut -c1-60)...)"
    s1=$(num "$d-dev/summary.json" steps); s2=$(num "$d-host/summary.json" steps)
    [ "$s1" = "$s2" ] && [ -n "$s1" ]
    ok $? "$scheme $bc: the same steps ($s1, $s2)"
    v1=$(num "$d-dev/summary.json" volume_final); v2=$(num "$d-host/summary.json" volume_final)
    near "$v1" "$v2" 1e-12
    ok $? "$scheme $bc: the same final volume ($v1, $v2)"
    o1=$(num "$d-dev/summary.json" boundary_out); o2=$(num "$d-host/summary.json" boundary_out)
    awk -v o="$o1" 'BEGIN { exit !(o > 1) }' && near "$o1" "$o2" 1e-6
    ok $? "$scheme $bc: the water out through the boundaries, summed on the GPU ($o1 m^3) against the host's ($o2)"
    i1=$(num "$d-dev/summary.json" boundary_in); i2=$(num "$d-host/summary.json" boundary_in)
    near "$i1" "$i2" 1e-6
    ok $? "$scheme $bc: the water in ($i1, $i2)"
    balanced "$d-dev"
    ok $? "$scheme $bc: balanced within its bound ($(num "$d-dev/summary.json" error_rel))"
    for m in max_depth max_speed max_hazard; do
      cmp -s "$d-dev/$m.asc" "$d-host/$m.asc"
      ok $? "$scheme $bc: $m in the kernel = the maps pass's, to the bit"
    done
    grids_equal "$d-dev/time_of_max_depth.asc" "$d-host/time_of_max_depth.asc" 1e-6
    ok $? "$scheme $bc: time_of_max_depth within 1e-6"
  done
done

# 1b. the flux kernel alone (tune kp.fused=flux: no step on kernels) steps on the host clock,
# which books the faces: the same water out as the kernels' sums
d=$tmp/kp-free
"$swgl" run $dam --set boundary.west=free --set boundary.east=free --set boundary.south=free --set boundary.north=free \
  --backend gpu-compute --tune kp.fused=flux --quiet --out "$d-flux" > "$d-flux.log" 2>&1
o3=$(num "$d-flux/summary.json" boundary_out); o1=$(num "$d-dev/summary.json" boundary_out)
awk -v o="$o3" 'BEGIN { exit !(o > 1) }' && near "$o3" "$o1" 1e-6 && ! str "$d-flux/summary.json" solver | grep -q "summed on the GPU"
ok $? "kp free, --tune kp.fused=flux: the host clock books the water out ($o3 m^3 against the kernels' $o1)"

# 1c. a level and a depth that change over the run (a tide, a stage hydrograph: inline
# series) stay on the GPU's clock too: each stage's values are computed on the GPU from the
# series at the clock's time (gpu_bvals.h, in float), where the host clock computes them
# in double: the same steps, and the final volume, the boundary volumes and the depths
# within 1e-6 (relative; measured on llvmpipe: 1e-8 to 4e-8 apart, the float time and the
# float interpolation, 3e-8 of the depths in L1)
tide="--set boundary.west=level=0:0.3;4:0.9;7:0.1;10:0.5 --set boundary.east=free --set boundary.south=depth=0:0.2;10:0.6 --set boundary.north=free"
for scheme in kp kp-euler roe; do
  case $scheme in
    kp) sch="" ;;
    kp-euler) sch="--set kp.integrator=euler" ;;
    roe) sch="--set run.scheme=roe" ;;
  esac
  d=$tmp/$scheme-tide
  "$swgl" run $dam $sch $tide --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1
  r1=$?
  "$swgl" run $dam $sch $tide --backend gpu-compute --tune host_clock=on --quiet --out "$d-host" > "$d-host.log" 2>&1
  r2=$?
  ok $((r1 + r2)) "$scheme tide: both runs"
  [ $((r1 + r2)) = 0 ] || continue
  str "$d-dev/summary.json" solver | grep -q "boundary faces summed on the GPU"
  ok $? "$scheme tide: the steps stay on the GPU's clock"
  s1=$(num "$d-dev/summary.json" steps); s2=$(num "$d-host/summary.json" steps)
  [ "$s1" = "$s2" ] && [ -n "$s1" ]
  ok $? "$scheme tide: the same steps ($s1, $s2)"
  v1=$(num "$d-dev/summary.json" volume_final); v2=$(num "$d-host/summary.json" volume_final)
  near "$v1" "$v2" 1e-6
  ok $? "$scheme tide: the final volume within 1e-6 ($v1, $v2)"
  for k in boundary_in boundary_out; do
    o1=$(num "$d-dev/summary.json" $k); o2=$(num "$d-host/summary.json" $k)
    awk -v o="$o1" 'BEGIN { exit !(o > 1) }' && near "$o1" "$o2" 1e-6
    ok $? "$scheme tide: $k within 1e-6 ($o1, $o2 m^3)"
  done
  balanced "$d-dev"
  ok $? "$scheme tide: balanced within its bound ($(num "$d-dev/summary.json" error_rel))"
  awk 'FNR == 1 { f++ } FNR <= 6 { next } { for (i = 1; i <= NF; i++) { n[f]++; v[f, n[f]] = $i } }
       END { if (n[1] != n[2] || n[1] == 0) exit 1; for (k = 1; k <= n[1]; k++) { d = v[1, k] - v[2, k]
             s += d < 0 ? -d : d; a += v[2, k] < 0 ? -v[2, k] : v[2, k] } exit !(s <= 1e-6 * a) }' \
    "$d-dev/h.asc" "$d-host/h.asc"
  ok $? "$scheme tide: the depths within 1e-6 (relative L1)"
done

# 1d. a long tide from a CSV file (5,000 rows: its table folds into rows on the GPU) over
# 1,500 s (the table's time origin moves every 512 s): kp and roe against the host clock,
# the boundary volumes within 1e-6 (measured 4e-8 to 2.5e-7: the float time since the
# origin, up to 512 s, is good to 3e-5 s, on a tide that moves 3e-3 m/s)
awk 'BEGIN { print "time_s,level_m"; for (k = 0; k < 5000; k++) { t = k * 0.4
             printf "%.1f,%.9g\n", t, 0.5 + 0.3 * sin(2 * 3.14159265358979 * t / 600) } }' > "$tmp/tide.csv"
long="--case circular-dambreak --set domain.nx=24 --set domain.ny=24 --set domain.dx=50 --set domain.dy=50 --set run.t_end=1500 --set boundary.west=level=$tmp/tide.csv --set boundary.east=free"
for scheme in kp roe; do
  d=$tmp/$scheme-longtide
  "$swgl" run $long --set run.scheme=$scheme --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1 &&
    "$swgl" run $long --set run.scheme=$scheme --backend gpu-compute --tune host_clock=on --quiet --out "$d-host" > "$d-host.log" 2>&1
  ok $? "$scheme long tide: both runs"
  s1=$(num "$d-dev/summary.json" steps); s2=$(num "$d-host/summary.json" steps)
  i1=$(num "$d-dev/summary.json" boundary_in); i2=$(num "$d-host/summary.json" boundary_in)
  o1=$(num "$d-dev/summary.json" boundary_out); o2=$(num "$d-host/summary.json" boundary_out)
  [ "$s1" = "$s2" ] && awk -v o="$i1" 'BEGIN { exit !(o > 1e5) }' && near "$i1" "$i2" 1e-6 && near "$o1" "$o2" 1e-6 &&
    balanced "$d-dev"
  ok $? "$scheme long tide: $s1 steps ($s2), in $i1 m^3 ($i2), out $o1 ($o2), balanced ($(num "$d-dev/summary.json" error_rel))"
done

# 1e. a discharge that holds its value (a number, or a series of one value) stays on the GPU's
# clock too (its faces' mean over a step is their value: no cell is drawn again), against the
# host clock: the same steps and final volume (the same states), the segment's inflow within
# 1e-6 of Q t_end (the kernels' float-pair sums with the step's float dt; measured 2.4e-8 on
# llvmpipe), balanced; a discharge hydrograph still steps on the host clock (its cells beside
# the faces are drawn again with the step's mean: gpu_redraw.h)
seg_in() { grep -A4 "\"$2\"" "$1/summary.json" | grep -m1 '"in"' | sed 's/.*: *//; s/,$//'; }
printf 'time_s,q_m3s\n0,2.5\n5,2.5\n10,2.5\n' > "$tmp/q.csv"
for scheme in kp kp-euler roe hllc; do
  case $scheme in
    kp) sch="" ;;
    kp-euler) sch="--set kp.integrator=euler" ;;
    roe) sch="--set run.scheme=roe" ;;
    hllc) sch="--set run.scheme=hllc" ;;   # (on roe's engine: its fused kernel and ring)
  esac
  for q in 2.5 "$tmp/q.csv"; do
    d=$tmp/$scheme-q$([ "$q" = 2.5 ] && echo n || echo s)
    inflow="--set boundary.west=discharge=$q --set boundary.east=free"
    "$swgl" run $dam $sch $inflow --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1 &&
      "$swgl" run $dam $sch $inflow --backend gpu-compute --tune host_clock=on --quiet --out "$d-host" > "$d-host.log" 2>&1
    ok $? "$scheme discharge=$q: both runs"
    str "$d-dev/summary.json" solver | grep -q "boundary faces summed on the GPU"
    ok $? "$scheme discharge=$q: the steps stay on the kernels, their faces summed on the GPU (a hydrograph's say neither: below)"
    s1=$(num "$d-dev/summary.json" steps); s2=$(num "$d-host/summary.json" steps)
    v1=$(num "$d-dev/summary.json" volume_final); v2=$(num "$d-host/summary.json" volume_final)
    [ "$s1" = "$s2" ] && [ -n "$s1" ] && near "$v1" "$v2" 1e-12
    ok $? "$scheme discharge=$q: the same steps ($s1, $s2) and final volume ($v1, $v2)"
    i1=$(seg_in "$d-dev" "west: discharge=$q"); i2=$(seg_in "$d-host" "west: discharge=$q")
    near "$i1" 25 1e-6 && near "$i2" 25 1e-6
    ok $? "$scheme discharge=$q: the segment brought in Q t_end = 25 m^3 ($i1 on the GPU's clock, $i2 on the host's)"
    balanced "$d-dev"
    ok $? "$scheme discharge=$q: balanced within its bound ($(num "$d-dev/summary.json" error_rel))"
  done
done
# with a level series on another side the values come from the table on the GPU (gpu_bvals.h),
# where the discharge is per metre of its segment as the faces take it (whole side, 40 m, and
# a 10 m part of one: 2.5 m^3/s on either brings in 25 m^3)
for scheme in kp roe; do
  for part in "" " 10:20"; do
    d=$tmp/$scheme-qmix$([ -n "$part" ] && echo p)
    mix="--set run.scheme=$scheme --set boundary.west=level=0:0.3;4:0.9;7:0.1;10:0.5 --set boundary.east=free"
    "$swgl" run $dam $mix --set "boundary.south=discharge=2.5$part" --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1 &&
      "$swgl" run $dam $mix --set "boundary.south=discharge=2.5$part" --backend gpu-compute --tune host_clock=on --quiet \
        --out "$d-host" > "$d-host.log" 2>&1
    r=$?
    s1=$(num "$d-dev/summary.json" steps); s2=$(num "$d-host/summary.json" steps)
    i1=$(seg_in "$d-dev" "south: discharge=2.5$part")
    [ $r = 0 ] && str "$d-dev/summary.json" solver | grep -q "boundary faces summed on the GPU" && [ "$s1" = "$s2" ] &&
      near "$i1" 25 1e-6 && balanced "$d-dev"
    ok $? "$scheme tide and discharge=2.5$part: on the kernels, $s1 steps ($s2), the discharge brought in $i1 m^3 (25), balanced"
  done
done
d=$tmp/kp-qh
"$swgl" run $dam --set "boundary.west=discharge=0:0;5:5;10:0" --set boundary.east=free --backend gpu-compute --quiet \
  --out "$d" > "$d.log" 2>&1 && ! str "$d/summary.json" solver | grep -q "summed on the GPU" &&
  near "$(seg_in "$d" "west: discharge=0:0;5:5;10:0")" 25 1e-6
ok $? "kp discharge hydrograph: on the host clock, its integral brought in (25 m^3: $(seg_in "$d" "west: discharge=0:0;5:5;10:0"))"

# 2b. maps on a drying and wetting bowl: arrival times move
th="--case thacker-swashes --set domain.nx=40 --set domain.ny=40 --set domain.dx=0.1 --set domain.dy=0.1"
for scheme in kp roe; do
  d=$tmp/thacker-$scheme
  cfl=""; [ $scheme = kp ] && cfl="--set run.cfl=0.25"
  "$swgl" run $th --set run.scheme=$scheme $cfl --backend gpu-compute --quiet --out "$d-dev" > "$d-dev.log" 2>&1 &&
  "$swgl" run $th --set run.scheme=$scheme $cfl --backend gpu-compute --tune host_clock=on --quiet --out "$d-host" \
    > "$d-host.log" 2>&1
  ok $? "thacker $scheme: both runs"
  cmp -s "$d-dev/max_depth.asc" "$d-host/max_depth.asc" && cmp -s "$d-dev/max_speed.asc" "$d-host/max_speed.asc"
  ok $? "thacker $scheme: max depth and speed in the kernel = the pass's"
  grids_equal "$d-dev/arrival_time.asc" "$d-host/arrival_time.asc" 1e-6 &&
    awk 'NR > 6 { for (i = 1; i <= NF; i++) if ($i > 0) n++ } END { exit !(n > 10) }' "$d-dev/arrival_time.asc"
  ok $? "thacker $scheme: arrival times (> 10 cells arrived after t = 0) within 1e-6"
done

# 3. gauges gathered: the last line is the state of h.asc at the gauge cells
d=$tmp/gauges
"$swgl" run $dam --backend gpu-compute --quiet --set "gauges.A=10.1 10.1" --set "gauges.B=20.3 30.2" \
  --set "gauges.C=39.5 0.5" --set output.gauge_interval=0.5 --out "$d" > "$d.log" 2>&1
ok $? "gauges: the run"
# cells: A (12, 12), B (24, 36), C (47, 0) of 48 x 48 cells of 0.8333 m; h.asc: 6 header lines, then the north row (j = 47) first
hA=$(awk 'NR == 6 + 48 - 12 { print $13 }' "$d/h.asc"); hB=$(awk 'NR == 6 + 48 - 36 { print $25 }' "$d/h.asc")
hC=$(awk 'NR == 6 + 48 - 0 { print $48 }' "$d/h.asc")
last=$(tail -1 "$d/gauges.csv")
gA=$(echo "$last" | cut -d, -f2); gB=$(echo "$last" | cut -d, -f6); gC=$(echo "$last" | cut -d, -f10)
[ "$(echo "$last" | cut -d, -f1)" = 10 ] && near "$gA" "$hA" 1e-8 && near "$gB" "$hB" 1e-8 && near "$gC" "$hC" 1e-8
ok $? "gauges: the last line is h.asc at the three cells ($gA $gB $gC against $hA $hB $hC)"
[ "$(wc -l < "$d/gauges.csv")" = 22 ]
ok $? "gauges: a line at the start and every 0.5 s ($(wc -l < "$d/gauges.csv") lines)"

# 3b. the gauge times landed on by the GPU's clock itself, the gauges' texels kept there
# (tune clock_gauges, on by default), against the host landing on each (off): the same
# lines at the same times, each value within 2e-5 of its column's largest (the landing
# steps' float dt differ in their last bits, and a wave front amplifies that: measured
# 9e-7 (kp) and 2e-6 (roe) on llvmpipe), the same steps; with output times among them
# (run.output_times: the spans end there, the grids are the live state's); and the same
# bits run after run (the times left count from a step a fixed count back, gpu_steps.c)
for scheme in kp roe; do
  for cg in on off; do
    "$swgl" run $dam --set run.scheme=$scheme --backend gpu-compute --quiet --set "gauges.A=10.1 10.1" \
      --set "gauges.B=20.3 30.2" --set "gauges.C=39.5 0.5" --set output.gauge_interval=0.25 --set "run.output_times=4 8" \
      --tune clock_gauges=$cg --out "$tmp/cg-$scheme-$cg" > "$tmp/cg-$scheme-$cg.log" 2>&1 || echo "run failed: $scheme $cg"
  done
  a=$tmp/cg-$scheme-on; b=$tmp/cg-$scheme-off
  n1=$(wc -l < "$a/gauges.csv"); n2=$(wc -l < "$b/gauges.csv")
  [ "$n1" = 42 ] && [ "$n2" = 42 ] && [ "$(cut -d, -f1 "$a/gauges.csv")" = "$(cut -d, -f1 "$b/gauges.csv")" ] &&
    [ "$(num "$a/summary.json" steps)" = "$(num "$b/summary.json" steps)" ]
  ok $? "$scheme gauges on the GPU's clock: $n1 lines at the times of the host's ($n2), $(num "$a/summary.json" steps) steps"
  w=$(awk -F, 'FNR == 1 { f++ } FNR > 1 { for (i = 2; i <= NF; i++) { v[f, FNR, i] = $i; a = $i < 0 ? -$i : $i
                  if (a > m[i]) m[i] = a } n = FNR; nf = NF }
       END { w = 0; for (r = 2; r <= n; r++) for (i = 2; i <= nf; i++) { d = v[1, r, i] - v[2, r, i]; if (d < 0) d = -d
               if (m[i] > 0 && d / m[i] > w) w = d / m[i] } print w }' "$a/gauges.csv" "$b/gauges.csv")
  awk -v w="$w" 'BEGIN { exit !(w != "" && w <= 2e-5) }'
  ok $? "$scheme gauges on the GPU's clock: within $w of each column's largest value (bound 2e-5)"
  "$swgl" run $dam --set run.scheme=$scheme --backend gpu-compute --quiet --set "gauges.A=10.1 10.1" \
    --set "gauges.B=20.3 30.2" --set "gauges.C=39.5 0.5" --set output.gauge_interval=0.25 --set "run.output_times=4 8" \
    --out "$a-again" > /dev/null 2>&1 && cmp -s "$a/gauges.csv" "$a-again/gauges.csv" && cmp -s "$a/h.asc" "$a-again/h.asc"
  ok $? "$scheme gauges on the GPU's clock: the same bits run after run (gauges.csv, h.asc)"
  [ -f "$a/h_t4.asc" ] && [ -f "$a/h_t8.asc" ] && grids_equal "$a/h_t8.asc" "$b/h_t8.asc" 1e-4
  ok $? "$scheme gauges on the GPU's clock: the output times' grids (h_t4, h_t8) are written, h_t8 as the host's within 1e-4"
done

# 4. ESRI binary float grids
d=$tmp/flt
args="--case circular-dambreak --set domain.nx=30 --set domain.ny=20 --set domain.dx=1.5 --set domain.dy=2 --set run.t_end=1 --backend cpu --quiet"
"$swgl" run $args --set output.grids=flt --out "$d-flt" > /dev/null 2>&1 && "$swgl" run $args --out "$d-asc" > /dev/null 2>&1
ok $? "flt: the runs"
[ -f "$d-flt/h.flt" ] && [ -f "$d-flt/h.hdr" ] && [ ! -f "$d-flt/h.asc" ] && [ -f "$d-asc/h.asc" ] && [ ! -f "$d-asc/h.flt" ] &&
  [ -f "$d-flt/max_depth.flt" ] && [ "$(wc -c < "$d-flt/h.flt")" = 2400 ]
ok $? "flt: h.flt (30 x 20 x 4 bytes) and its .hdr instead of h.asc, the maps too; auto below 2^20 cells: ASCII"
grep -q '^ncols 30$' "$d-flt/h.hdr" && grep -q '^nrows 20$' "$d-flt/h.hdr" && grep -q '^xdim 1.5$' "$d-flt/h.hdr" &&
  grep -q '^ydim 2$' "$d-flt/h.hdr" && grep -q '^ulxmap 0.75$' "$d-flt/h.hdr" && grep -q '^ulymap 39$' "$d-flt/h.hdr" &&
  grep -q '^NODATA_value -9999$' "$d-flt/h.hdr" && grep -q '^byteorder LSBFIRST$' "$d-flt/h.hdr"
ok $? "flt: the header (cells of 1.5 x 2 m: BIL form, the north-west cell's centre (0.75, 39))"
for g in h qx max_speed arrival_time; do
  od -An -v -tf4 -w120 "$d-flt/$g.flt" | awk '{ $1 = $1; print }' > "$d-flt/$g.txt"
  awk 'FNR == NR { if (!/^[a-zA-Z]/) for (i = 1; i <= NF; i++) a[++n] = $i; next }
       { for (i = 1; i <= NF; i++) b[++m] = $i }
       END { if (n != m || n != 600) exit 1
             for (k = 1; k <= n; k++) { d = a[k] - b[k]; if (d < 0) d = -d; s = a[k] < 0 ? -a[k] : a[k]
               if (d > 1.2e-7 * s + 1e-38) exit 1 } }' "$d-asc/$g.asc" "$d-flt/$g.txt"
  ok $? "flt: $g.flt holds $g.asc's 600 numbers, row for row (within an ulp)"
done
"$swgl" run --case circular-dambreak --set domain.nx=1024 --set domain.ny=1024 --set run.t_end=0.001 --backend cpu \
  --set output.maps=false --set output.netcdf=false --quiet --out "$d-big" > /dev/null 2>&1 &&
  [ -f "$d-big/h.flt" ] && [ "$(wc -c < "$d-big/h.flt")" = 4194304 ] && grep -q '^cellsize ' "$d-big/h.hdr"
ok $? "flt: auto at 2^20 cells writes .flt (square cells: cellsize)"
"$swgl" run $args --set output.grids=tiff --out "$d-bad" > "$d-bad.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "grids" "$d-bad.log" && grep -q "auto, asc or flt" "$d-bad.log" && [ ! -e "$d-bad" ]
ok $? "flt: grids = tiff refused by its key, nothing written ($(head -1 "$d-bad.log"))"

mkdir -p "$d-val" && : > "$d-val/max_depth.flt"
"$swgl" validate malpasset "$d-val" > "$d-val.log" 2>&1
rc=$?
[ $rc != 0 ] && grep -q "ESRI binary float grids (.flt).*output.grids=asc" "$d-val.log"
ok $? "flt: swgl validate of a run that wrote .flt says how to get .asc (exit $rc)"

# 5. the paper's second early-exit rule (tune kp.rest, on by default): a lake at rest
# (flat bed, 1 m, hu = -0.0: a -0.0 momentum must stay -0.0) with a mound of water in a
# corner, free boundaries on two sides, flood
# maps and gauges, RK2 and Euler, on the kernels (gpu-compute), the passes (gpu) and the fast
# CPU solver (cpu): rest on
# writes the same bytes as rest off (grids, maps, gauges, the same steps)
lake="--case circular-dambreak --set domain.nx=64 --set domain.ny=48 --set domain.dx=1 --set domain.dy=1
  --set run.t_end=6 --set run.output_times=3 --set boundary.east=free --set boundary.north=free
  --set output.gauge_interval=0.5"
for be in gpu-compute gpu cpu; do
for integ in rk2 euler; do
  for rest in on off; do
    # shellcheck disable=SC2086
    "$swgl" run $lake --set "gauges.A=5.5 5.5" --set "gauges.B=40.5 30.5" \
      --set "initial.depth=(x - 8)^2 + (y - 8)^2 < 9 ? 1.3 : 1.0" --set initial.qx=-0 --set kp.integrator=$integ --set kp.early_exit=on \
      --backend $be --quiet --tune kp.rest=$rest --out "$tmp/rest-$be-$integ-$rest" > "$tmp/rest-$be-$integ-$rest.log" 2>&1 ||
      echo "run failed: $be $integ $rest"
  done
  a=$tmp/rest-$be-$integ-on; b=$tmp/rest-$be-$integ-off; same=0
  for f in h.asc qx.asc qy.asc eta.asc max_depth.asc max_speed.asc arrival_time.asc time_of_max_depth.asc h_t3.asc \
    qx_t3.asc gauges.csv cut_y.csv; do
    [ -f "$a/$f" ] && cmp -s "$a/$f" "$b/$f" || { same=1; echo "  differs: $f"; }
  done
  [ "$(num "$a/summary.json" steps)" = "$(num "$b/summary.json" steps)" ] || same=1
  ok $same "kp $integ on $be, rest rule on and off: the same grids, maps, gauges and steps ($(num "$a/summary.json" steps))"
done
done

# 6. the maps of a restart start at t0 = 3 s from the restart's state: every active cell's
# time of its largest depth and arrival is 3 or later (a start at 0 would leave 0 where the
# depth fell), many are 3 exactly (where the water fell behind the bore), and there the
# largest depth is the restart's depth at 3 s (h.asc of the run restarted from: to the
# float rounding on the GPU, 1.2e-7; to the digit on the CPU, whose maps are in double)
"$swgl" run $dam --backend cpu --quiet --set run.t_end=3 --set output.netcdf=true --out "$tmp/rs0" > "$tmp/rs0.log" 2>&1
if [ -s "$tmp/rs0/run.nc" ]; then
  for be in gpu-compute gpu cpu; do
    "$swgl" run $dam --backend $be --quiet --set run.t_end=3.5 --restart "$tmp/rs0/run.nc" --out "$tmp/rs-$be" \
      > "$tmp/rs-$be.log" 2>&1 || echo "run failed: $be $(tail -1 "$tmp/rs-$be.log")"
    tol=1.2e-7; [ $be = cpu ] && tol=0
    awk -v tol=$tol 'FNR == 1 { f++ } FNR <= 6 { next }
         { for (i = 1; i <= NF; i++) v[f, FNR, i] = $i }
         END { for (k in v) { split(k, q, SUBSEP); if (q[1] != 1) continue
                 t = v[1, q[2], q[3]]; if (t == -9999) continue
                 if (t < 3 - 1e-6) bad++
                 if (t == 3) { at++; m = v[2, q[2], q[3]]; h = v[3, q[2], q[3]]; d = m - h; if (d < 0) d = -d
                               if (d > tol * h) bad++ } }
               for (k in v) { split(k, q, SUBSEP); if (q[1] == 4 && v[k] != -9999 && v[k] < 3 - 1e-6) bad++ }
               print at + 0 > "/dev/stderr"; exit !(bad == 0 && at > 100) }' \
      "$tmp/rs-$be/time_of_max_depth.asc" "$tmp/rs-$be/max_depth.asc" "$tmp/rs0/h.asc" "$tmp/rs-$be/arrival_time.asc" \
      2> "$tmp/rs-$be.at"
    ok $? "restart at t0 = 3 s on $be: the maps start at t0 from its state (times >= 3; $(cat "$tmp/rs-$be.at") cells at 3, their largest depth the restart's)"
  done
else
  echo "skip  the maps of a restart: no run.nc to restart from (a build without netCDF)"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
