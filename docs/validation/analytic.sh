#!/bin/sh
# analytic.sh — the figures of docs/validation.md, "Analytic and laboratory cases in the
# test suite": runs the cases on the CPU (cpu-scalar, double) and draws them against the
# exact solution where one exists, or against a fine 1-D run where none does.
#
#   sh docs/validation/analytic.sh [SWGL] [OUTDIR]     (defaults: build/swgl, docs/validation)
#
# Writes OUTDIR/analytic_*.png and prints the numbers the text quotes.  Needs POSIX sh,
# awk and gnuplot (pngcairo); about 30 s on 2 cores, every case at its full size.  The
# runs live in a temporary folder that is removed at the end.
#   analytic_thacker_kp.png       Thacker, Brodtkorb 4.1 (case thacker, kp): surface along
#                                 the centre line at T/4, T/2, 3T/4, T
#   analytic_thacker_roe.png      the same for roe on case thacker-swashes (SWASHES 4.2.2)
#   analytic_thacker_error.png    mean |w - w_exact| over the wet cells against t/T, both
#   analytic_lastra1.png          Lastra Test 1 (roe): Q0, Q2 and a 1-D run 32x finer than Q0
#   analytic_lastra2.png          Lastra Test 2 (roe): Q0, Q2 and a 1-D run 8x finer than Q2,
#                                 at the times of Lastra's Figure 12
#   analytic_dambreak_profiles.png  Stoker and Ritter, roe and kp, 200/400/800 cells, exact
#   analytic_dambreak_order.png   L1(h) against cells (log-log), the tests' set-ups
set -eu

SWGL=${1:-build/swgl}
OUT=${2:-docs/validation}
[ -x "$SWGL" ] || { echo "analytic.sh: '$SWGL' is not an executable swgl (build first, or pass its path)" >&2; exit 1; }
command -v gnuplot >/dev/null 2>&1 || { echo "analytic.sh: gnuplot is missing (build.sh installs it)" >&2; exit 1; }
mkdir -p "$OUT"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/swgl-analytic.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
trap 'exit 130' INT TERM
START=$(date +%s)

# a run on cpu-scalar (double), without run.nc and the flood maps (not used here)
run() {
    "$SWGL" run --backend cpu-scalar --quiet --set output.netcdf=false --set output.maps=false "$@"
}
say() { printf '%s\n' "$*"; }
TERM_PNG='set terminal pngcairo size 640,400 font "sans,9" linewidth 1.2'
TERM_PNG4='set terminal pngcairo size 800,600 font "sans,9" linewidth 1.2'

# ---- ESRI ASCII grids ------------------------------------------------------------------
# middle H ETA: the cut along x through the middle of the domain from the grids h and eta
# (the mean of the two middle rows for an even ny, like cut_y.csv); prints
# "x h_min_of_the_rows h_mean eta_mean" per column.
middle() {
    awk 'FNR == 1 { f++; k = 0 }
         $1 ~ /^[A-Za-z]/ { hd[tolower($1)] = $2; next }
         { for (i = 1; i <= NF; i++) v[f, k++] = $i }
         END {
             nx = hd["ncols"]; ny = hd["nrows"]; dx = ("cellsize" in hd) ? hd["cellsize"] : hd["dx"]
             j0 = int((ny - 1) / 2); j1 = int(ny / 2)      # rows from the south
             r0 = ny - 1 - j0; r1 = ny - 1 - j1            # rows from the top, as stored
             for (i = 0; i < nx; i++) {
                 h0 = v[1, r0 * nx + i]; h1 = v[1, r1 * nx + i]
                 e0 = v[2, r0 * nx + i]; e1 = v[2, r1 * nx + i]
                 printf "%.9g %.9g %.9g %.9g\n", hd["xllcorner"] + (i + 0.5) * dx, (h0 < h1 ? h0 : h1),
                        0.5 * (h0 + h1), 0.5 * (e0 + e1)
             }
         }' "$1" "$2"
}

# ---- Thacker ---------------------------------------------------------------------------
# Exact (Thacker 1981), wet disc of radius L circling the centre (XC, YC) at radius A:
#   w = 2 A D0 ((x - XC) cos(om t) + (y - YC) sin(om t) - A/2) / L^2,  om = sqrt(2 g D0) / L
# thacker_err A D0 L G XC YC T H ETA: "t  mean|w - w_exact|  max|w - w_exact|  mean|h - h_exact|
# sum|h - h_exact| dx dy" -- the surface over the cells wet (h > 1e-3 D0) in both the
# computed and the exact solution, as tests/test_kp_cpu.c measures it; the bed of a cell is
# eta - h (eta = bed on a dry cell), i.e. the scheme's own cell bed.
thacker_err() {
    awk -v A="$1" -v D0="$2" -v L="$3" -v G="$4" -v XC="$5" -v YC="$6" -v t="$7" '
        FNR == 1 { f++; k = 0 }
        $1 ~ /^[A-Za-z]/ { hd[tolower($1)] = $2; next }
        { for (i = 1; i <= NF; i++) v[f, k++] = $i }
        END {
            nx = hd["ncols"]; ny = hd["nrows"]; d = hd["cellsize"]; om = sqrt(2 * G * D0) / L
            c = cos(om * t); s = sin(om * t); eps = 1e-3 * D0
            for (r = 0; r < ny; r++) for (i = 0; i < nx; i++) {
                k = r * nx + i; h = v[1, k]; eta = v[2, k]; B = eta - h
                x = hd["xllcorner"] + (i + 0.5) * d; y = hd["yllcorner"] + (ny - 1 - r + 0.5) * d
                we = 2 * A * D0 * ((x - XC) * c + (y - YC) * s - A / 2) / (L * L)
                he = we - B; if (he < 0) he = 0
                dh = h - he; sh += (dh < 0 ? -dh : dh)
                if (!(he > eps && h > eps)) continue
                e = eta - we; if (e < 0) e = -e
                se += e; n++; if (e > mx) mx = e
            }
            printf "%.9g %.6g %.6g %.6g %.6g\n", t, se / n, mx, sh / (nx * ny), sh * d * d
        }' "$8" "$9"
}

# thacker_exact A D0 L G XC YC T X0 X1: the exact surface and bed along y = YC, "x w bed"
# (w NaN where dry), 400 points
thacker_exact() {
    awk -v A="$1" -v D0="$2" -v L="$3" -v G="$4" -v XC="$5" -v YC="$6" -v t="$7" -v x0="$8" -v x1="$9" '
        BEGIN {
            om = sqrt(2 * G * D0) / L
            for (k = 0; k <= 400; k++) {
                x = x0 + (x1 - x0) * k / 400
                w = 2 * A * D0 * ((x - XC) * cos(om * t) - A / 2) / (L * L)
                B = D0 * ((x - XC) * (x - XC) / (L * L) - 1)
                if (w > B) printf "%.9g %.9g %.9g\n", x, w, B; else printf "%.9g NaN %.9g\n", x, B
            }
        }'
}

# thacker_case NAME SCHEME-LABEL A D0 L G XC YC NOUT XUNIT XSCALE FIGURE YMIN YMAX: runs the case with
# NOUT output times per period; profiles at T/4 .. T and the error against time
thacker_case() {
    name=$1; lab=$2; A=$3; D0=$4; L=$5; G=$6; XC=$7; YC=$8; nout=$9; shift 9
    xunit=$1; xs=$2; fig=$3; ylo=$4; yhi=$5
    T=$(awk -v D0="$D0" -v L="$L" -v G="$G" 'BEGIN { printf "%.17g", 2 * atan2(0, -1) / (sqrt(2 * G * D0) / L) }')
    times=$(awk -v T="$T" -v n="$nout" 'BEGIN { for (k = 1; k <= n; k++) printf "%s%.17g", (k > 1 ? "," : ""), k * T / n }')
    d=$TMP/$name
    run --case "$name" --set run.t_end="$T" --set "run.output_times=$times" --out "$d"
    # the grids at the output times: h_tT.asc with T the shortest decimal of the time
    ls "$d" | sed -n 's/^h_t\(.*\)\.asc$/\1/p' | sort -n > "$d/times"
    : > "$d/err.dat"
    while read -r t; do
        thacker_err "$A" "$D0" "$L" "$G" "$XC" "$YC" "$t" "$d/h_t$t.asc" "$d/eta_t$t.asc" >> "$d/err.dat"
    done < "$d/times"
    # the four quarter periods
    x1=$(awk -v XC="$XC" 'BEGIN { printf "%.9g", 2 * XC }')
    eps=$(awk -v D0="$D0" 'BEGIN { print 1e-3 * D0 }')
    for q in 1 2 3 4; do
        t=$(awk -v n="$nout" -v q="$q" 'NR == q * n / 4' "$d/times")
        middle "$d/h_t$t.asc" "$d/eta_t$t.asc" | awk -v eps="$eps" '{ print $1, ($2 > eps ? $4 : "NaN") }' > "$d/cut$q.dat"
        thacker_exact "$A" "$D0" "$L" "$G" "$XC" "$YC" "$t" 0 "$x1" > "$d/exact$q.dat"
    done
    awk -v T="$T" -v lab="$lab" '{ printf "  %-6s t = %.3f T: mean |w - w_exact| %.3g m, max %.3g m, mean |h - h_exact| %.3g m, sum |h - h_exact| dA %.4g m^3\n", lab, $1 / T, $2, $3, $4, $5 }' "$d/err.dat" |
        awk -v n="$nout" 'NR % (n / 4) == 0'
    gnuplot <<EOF
$TERM_PNG4
set output "$OUT/$fig"
set multiplot layout 2,2 title "Thacker's planar oscillation ($lab, case $name, 100 x 100 cells): water surface along y = y_c (centre line)"
set xlabel "x ($xunit)"; set ylabel "w (m)"; set grid
set key top center font ",8"
set yrange [$ylo:$yhi]
do for [q = 1:4] {
    set title sprintf("t = %d T/4", q)
    if (q == 2) { unset key }
    plot sprintf("$d/exact%d.dat", q) u (\$1/$xs):3 w l lc rgb "#8c6d46" lw 2 t "bed", \
         sprintf("$d/exact%d.dat", q) u (\$1/$xs):2 w l lc rgb "black" lw 1.5 t "exact", \
         sprintf("$d/cut%d.dat", q) u (\$1/$xs):2 w p pt 7 ps 0.45 lc rgb "#d62728" t sprintf("$lab, cells with h > %g m", $eps)
}
unset multiplot
EOF
}

say "Thacker (Brodtkorb et al. 2011, 4.1): case thacker, kp, RK2, 100 x 100 cells"
thacker_case thacker kp 1250 1 2500 1 4000 4000 16 km 1000 analytic_thacker_kp.png -1 2.2
say "Thacker (SWASHES 4.2.2): case thacker-swashes, roe, 100 x 100 cells"
thacker_case thacker-swashes roe 0.5 0.1 1 9.81 2 2 16 m 1 analytic_thacker_roe.png -0.1 0.35
TK=$(awk 'BEGIN { printf "%.17g", 2 * atan2(0, -1) / (sqrt(2) / 2500) }')
TR=$(awk 'BEGIN { printf "%.17g", 2 * atan2(0, -1) / sqrt(2 * 9.81 * 0.1) }')
gnuplot <<EOF
$TERM_PNG
set output "$OUT/analytic_thacker_error.png"
set title "Thacker: error over one period (100 x 100 cells each)"
set xlabel "t / T"; set ylabel "error / D_0 (basin depth)"; set grid
set key top left font ",8"
set xrange [0:1.02]; set yrange [0:0.05]
plot "$TMP/thacker/err.dat" u (\$1/$TK):(\$2/1) w lp pt 7 ps 0.6 lc rgb "#d62728" t "kp (Brodtkorb 4.1, D_0 = 1 m): mean |w - w_{exact}|, wet cells", \
     "$TMP/thacker/err.dat" u (\$1/$TK):(\$4/1) w lp pt 6 ps 0.6 dt 2 lc rgb "#d62728" t "kp: mean |h - h_{exact}|, all cells", \
     "$TMP/thacker-swashes/err.dat" u (\$1/$TR):(\$2/0.1) w lp pt 5 ps 0.6 lc rgb "#1f77b4" t "roe (SWASHES 4.2.2, D_0 = 0.1 m): mean |w - w_{exact}|, wet cells", \
     "$TMP/thacker-swashes/err.dat" u (\$1/$TR):(\$4/0.1) w lp pt 4 ps 0.6 dt 2 lc rgb "#1f77b4" t "roe: mean |h - h_{exact}|, all cells", \
     0.025 w l dt 3 lc rgb "black" t "bound of test\\\_kp\\\_cpu (kp, 2.5e-2 m)"
EOF

# The L1 distance of a coarse run's surface cut (file 4) from the 1-D reference's (file 3),
# the reference averaged over each coarse cell, per metre of channel: TEST T REF COARSE LABEL
l1_against_ref() {
    awk -v name="$1" -v t="$2" -v lab="$5" 'BEGIN { n = 0; m = 0 } FNR == 1 { f++ }
        f == 1 { xr[n] = $1; er[n++] = $4; next }
        { xc[m] = $1; ec[m++] = $4 }
        END {
            dx = xc[1] - xc[0]
            for (i = 0; i < n; i++) { c = int(xr[i] / dx); s[c] += er[i]; cnt[c]++ }
            for (c = 0; c < m; c++) { e = ec[c] - s[c] / cnt[c]; l1 += (e < 0 ? -e : e) * dx }
            printf "  %s, t = %s s: %s against the 1-D reference, L1(eta) / length %.3g m\n", name, t, lab, l1 / (m * dx)
        }' "$3" "$4"
}

# ---- Lastra Test 1 ---------------------------------------------------------------------
# Q0 (100 x 10) and Q2 (400 x 40) as the case runs them; no exact solution, so the
# reference is a 1-D run (ny = 1: the case is uniform in y) of 3200 cells, 32x finer than Q0.
say "Lastra Test 1 (roe): Q0, Q2, 1-D reference of 3200 cells"
T1="0.5,1,2,5"
run --case lastra-test1 --set run.output_times="$T1" --out "$TMP/l1q0"
run --case lastra-test1 --set domain.level=2 --set run.output_times="$T1" --out "$TMP/l1q2"
run --case lastra-test1 --set domain.nx=3200 --set domain.ny=1 --set domain.dx=0.003125 --set domain.dy=0.003125 \
    --set run.output_times="$T1" --out "$TMP/l1ref"
for t in 0.5 1 2 5; do
    for r in l1q0 l1q2 l1ref; do middle "$TMP/$r/h_t$t.asc" "$TMP/$r/eta_t$t.asc" > "$TMP/$r/cut$t.dat"; done
    # L1 distance of Q0 and Q2 from the reference averaged over each coarse cell, per metre of channel
    for r in l1q0 l1q2; do
        l1_against_ref "Test 1" "$t" "$TMP/l1ref/cut$t.dat" "$TMP/$r/cut$t.dat" "$([ $r = l1q0 ] && echo Q0 || echo Q2)"
    done
done
gnuplot <<EOF
$TERM_PNG4
set output "$OUT/analytic_lastra1.png"
set multiplot layout 2,2 title "Lastra et al. 2009 Test 1 (roe, cpu-scalar): water surface along the channel"
set xlabel "x (m)"; set ylabel "eta (m)"; set grid
set key top right font ",8"
set yrange [-1.6:2.4]; set xrange [0:10]
do for [t in "0.5 1 2 5"] {
    set title "t = ".t." s"
    if (t ne "0.5") { unset key }
    plot "$TMP/l1ref/cut".t.".dat" u 1:(\$4-\$3) w l lc rgb "#8c6d46" lw 2 t "bed", \
         "$TMP/l1ref/cut".t.".dat" u 1:4 w l lc rgb "black" lw 1.5 t "1-D, 3200 cells (reference)", \
         "$TMP/l1q2/cut".t.".dat" u 1:4 w l lc rgb "#1f77b4" lw 1.2 t "Q_2 (400 x 40)", \
         "$TMP/l1q0/cut".t.".dat" u 1:4 w p pt 7 ps 0.35 lc rgb "#d62728" t "Q_0 (100 x 10)"
}
unset multiplot
EOF

# ---- Lastra Test 2 ---------------------------------------------------------------------
# Q0 (125 x 25) and Q2 (500 x 100: the mesh of Lastra's Figures 12-13) at the figure's times;
# the reference (Lastra: a 2000-cell 1-D high-order run) is a 1-D roe run of 4000 cells,
# 8x finer than Q2.  The cut is at y = 2.5 m like the paper's.
say "Lastra Test 2 (roe): Q0, Q2, 1-D reference of 4000 cells"
T2="0.05,0.15,0.25,0.45"
run --case lastra-test2 --set run.output_times="$T2" --out "$TMP/l2q0"
run --case lastra-test2 --set domain.level=2 --set run.output_times="$T2" --out "$TMP/l2q2"
run --case lastra-test2 --set domain.nx=4000 --set domain.ny=1 --set domain.dx=0.00625 --set domain.dy=0.00625 \
    --set run.output_times="$T2" --out "$TMP/l2ref"
for t in 0.05 0.15 0.25 0.45; do
    for r in l2q0 l2q2 l2ref; do middle "$TMP/$r/h_t$t.asc" "$TMP/$r/eta_t$t.asc" > "$TMP/$r/cut$t.dat"; done
    for r in l2q0 l2q2; do
        l1_against_ref "Test 2" "$t" "$TMP/l2ref/cut$t.dat" "$TMP/$r/cut$t.dat" "$([ $r = l2q0 ] && echo Q0 || echo Q2)"
    done
done
gnuplot <<EOF
$TERM_PNG4
set output "$OUT/analytic_lastra2.png"
set multiplot layout 2,2 title "Lastra et al. 2009 Test 2 (roe, cpu-scalar): free surface at y = 2.5 m (Lastra's Figure 12)"
set xlabel "x (m)"; set ylabel "eta (m)"; set grid
set key at graph 0.03, graph 0.13 left bottom Left reverse font ",8"
set yrange [-10.3:2]; set xrange [0:25]
do for [t in "0.05 0.15 0.25 0.45"] {
    set title "t = ".t." s"
    if (t ne "0.05") { unset key }
    plot "$TMP/l2ref/cut".t.".dat" u 1:(\$4-\$3) w l lc rgb "#8c6d46" lw 2 t "bed", \
         "$TMP/l2ref/cut".t.".dat" u 1:4 w l lc rgb "black" lw 1.5 t "1-D, 4000 cells (reference)", \
         "$TMP/l2q2/cut".t.".dat" u 1:4 w l lc rgb "#1f77b4" lw 1.2 t "Q_2 (500 x 100)", \
         "$TMP/l2q0/cut".t.".dat" u 1:4 w p pt 7 ps 0.35 lc rgb "#d62728" t "Q_0 (125 x 25)"
}
unset multiplot
EOF

# ---- Stoker and Ritter dam breaks ------------------------------------------------------
# The set-ups of tests/test_roe_dambreak.c and tests/test_kp_cpu.c: a 10 m channel of one
# row, walls all round, flat bed, h = 1 m for x < 5 m and 0.5 m (Stoker, t = 0.8 s) or
# 0 (Ritter, t = 0.5 s) beyond; roe: cfl 0.9, h_dry 1e-8, dy = 1 m, no kappa; kp: RK2,
# cfl 0.25, theta 1.3, h_dry 1e-10, dy = dx, kappa 0.01 dx (the default).
say "Dam breaks (Stoker, Ritter), roe and kp, 200/400/800 cells"
dam_ini() {   # SCHEME HR T_END NX FILE
    awk -v s="$1" -v hr="$2" -v te="$3" -v nx="$4" 'BEGIN {
        dx = 10 / nx
        printf "[domain]\nnx = %d\nny = 1\ndx = %.17g\ndy = %.17g\nbed = 0\n", nx, dx, (s == "roe" ? 1 : dx)
        printf "[initial]\ndepth = x < 5 ? 1 : %s\nqx = 0\nqy = 0\n", hr
        printf "[boundary]\nwest = wall\neast = wall\nsouth = wall\nnorth = wall\n"
        printf "[run]\nscheme = %s\nt_end = %s\ng = 9.81\n", s, te
        if (s == "roe") printf "cfl = 0.9\nh_dry = 1e-8\n[roe]\nkappa = 0\n"
        else printf "cfl = 0.25\nh_dry = 1e-10\n[kp]\ntheta = 1.3\nintegrator = rk2\n"
    }' > "$5"
}
# exact depth (cpu_ref/swe_exact.c in awk; Stoker's middle depth by bisection)
EXACT_AWK='
function stoker_hm(hl, hr, g,   a, b, m, it, ur, us) {
    a = hr; b = hl
    for (it = 0; it < 200; it++) {
        m = 0.5 * (a + b); if (m <= a || m >= b) break
        ur = 2 * (sqrt(g * hl) - sqrt(g * m)); us = (m - hr) * sqrt(0.5 * g * (m + hr) / (m * hr))
        if (ur - us > 0) a = m; else b = m
    }
    return 0.5 * (a + b)
}
function exact_h(hl, hr, g, x0, x, t,   xi, cl, hm, cm, um, s, tail, c) {
    xi = (x - x0) / t; cl = sqrt(g * hl)
    if (hr > 0) { hm = stoker_hm(hl, hr, g); cm = sqrt(g * hm); um = 2 * (cl - cm); s = hm * um / (hm - hr); tail = um - cm }
    else tail = 2 * cl
    if (xi <= -cl) return hl
    if (xi <= tail) { c = (2 * cl - xi) / 3; return c * c / g }
    if (hr > 0 && xi < s) return hm
    return hr > 0 ? hr : 0
}'
: > "$TMP/l1.dat"
for s in roe kp; do
    for c in stoker ritter; do
        if [ $c = stoker ]; then hr=0.5; te=0.8; else hr=0; te=0.5; fi
        for nx in 200 400 800; do
            f=$TMP/db_${s}_${c}_$nx
            dam_ini $s $hr $te $nx "$f.ini"
            run "$f.ini" --out "$f"
            awk -F, 'NR > 2 { print $1, $3 }' "$f/cut_y.csv" > "$f.dat"
            awk -v hr=$hr -v te=$te -v s=$s -v c=$c -v nx=$nx "$EXACT_AWK"'
                { e = $2 - exact_h(1, hr, 9.81, 5, $1, te); l1 += (e < 0 ? -e : e) * 10 / nx }
                END { printf "%s %s %d %.6g\n", s, c, nx, l1 }' "$f.dat" >> "$TMP/l1.dat"
        done
        awk -v hr=$hr -v te=$te "$EXACT_AWK"'BEGIN { for (k = 0; k <= 2000; k++) { x = 10 * k / 2000; print x, exact_h(1, hr, 9.81, 5, x, te) } }' \
            > "$TMP/exact_$c.dat"
    done
done
awk '{ k = $1 " " $2; e[k, ++n[k]] = $4 }
     END { for (k in n) printf "  %-11s L1(h) %.4g %.4g %.4g m^2 at 200/400/800 cells, orders %.3f %.3f\n", k,
               e[k, 1], e[k, 2], e[k, 3], log(e[k, 1] / e[k, 2]) / log(2), log(e[k, 2] / e[k, 3]) / log(2) }' "$TMP/l1.dat" | sort
for s in roe kp; do for c in stoker ritter; do
    awk -v s=$s -v c=$c '$1 == s && $2 == c { print $3, $4 }' "$TMP/l1.dat" > "$TMP/l1_${s}_$c.dat"
done; done
gnuplot <<EOF
$TERM_PNG4
set output "$OUT/analytic_dambreak_profiles.png"
set multiplot layout 2,2 title "1-D dam breaks on a 10 m channel (cpu-scalar): depth against the exact solution"
set xlabel "x (m)"; set ylabel "h (m)"; set grid
set key top right font ",8"
D = "$TMP/db_"
set title "Stoker (h_L = 1 m, h_R = 0.5 m), t = 0.8 s, 200 cells"
set xrange [0:10]; set yrange [0.4:1.05]
plot "$TMP/exact_stoker.dat" w l lc rgb "black" lw 1.5 t "exact", \\
     D."roe_stoker_200.dat" w l lc rgb "#d62728" t "roe (first order)", \\
     D."kp_stoker_200.dat" w l lc rgb "#1f77b4" dt 2 t "kp (second order)"
set title "Ritter (h_L = 1 m, dry bed), t = 0.5 s, 200 cells"
set yrange [-0.02:1.05]
plot "$TMP/exact_ritter.dat" w l lc rgb "black" lw 1.5 t "exact", \\
     D."roe_ritter_200.dat" w l lc rgb "#d62728" t "roe", \\
     D."kp_ritter_200.dat" w l lc rgb "#1f77b4" dt 2 t "kp"
set title "Stoker: the shock, 200 / 400 / 800 cells"
set xrange [6.9:7.7]; set yrange [0.48:0.75]
set key bottom left
plot "$TMP/exact_stoker.dat" w l lc rgb "black" lw 1.5 t "exact", \\
     D."roe_stoker_200.dat" w l lc rgb "#ff9896" t "roe 200", \\
     D."roe_stoker_400.dat" w l lc rgb "#e7553c" t "roe 400", \\
     D."roe_stoker_800.dat" w l lc rgb "#a50f15" t "roe 800", \\
     D."kp_stoker_200.dat" w l dt 2 lc rgb "#9ecae1" t "kp 200", \\
     D."kp_stoker_400.dat" w l dt 2 lc rgb "#4292c6" t "kp 400", \\
     D."kp_stoker_800.dat" w l dt 2 lc rgb "#08306b" t "kp 800"
set title "Ritter: the tip of the wave on the dry bed, 200 / 400 / 800 cells"
set xrange [6.5:8.5]; set yrange [-0.002:0.05]
set key top right
plot "$TMP/exact_ritter.dat" w l lc rgb "black" lw 1.5 t "exact", \\
     D."roe_ritter_200.dat" w l lc rgb "#ff9896" t "roe 200", \\
     D."roe_ritter_400.dat" w l lc rgb "#e7553c" t "roe 400", \\
     D."roe_ritter_800.dat" w l lc rgb "#a50f15" t "roe 800", \\
     D."kp_ritter_200.dat" w l dt 2 lc rgb "#9ecae1" t "kp 200", \\
     D."kp_ritter_400.dat" w l dt 2 lc rgb "#4292c6" t "kp 400", \\
     D."kp_ritter_800.dat" w l dt 2 lc rgb "#08306b" t "kp 800"
unset multiplot
EOF
gnuplot <<EOF
$TERM_PNG
set output "$OUT/analytic_dambreak_order.png"
set title "1-D dam breaks: L1 error of h against the exact solution"
set xlabel "cells"; set ylabel "L1(h) = sum |h - h_{exact}| dx  (m^2)"; set grid
set logscale xy; set xrange [160:1000]; set yrange [0.003:0.1]; set xtics (200, 400, 800)
set key bottom left font ",8"
plot "$TMP/l1_roe_stoker.dat" w lp pt 7 lc rgb "#d62728" t "roe, Stoker", \
     "$TMP/l1_roe_ritter.dat" w lp pt 5 lc rgb "#ff7f0e" t "roe, Ritter", \
     "$TMP/l1_kp_stoker.dat" w lp pt 7 lc rgb "#1f77b4" t "kp, Stoker", \
     "$TMP/l1_kp_ritter.dat" w lp pt 5 lc rgb "#17becf" t "kp, Ritter", \
     0.04 * 200 / x w l dt 2 lc rgb "black" t "slope -1 (first order)", \
     0.06 * sqrt(200 / x) w l dt 3 lc rgb "gray40" t "slope -1/2"
EOF

say "wrote $(ls "$OUT"/analytic_*.png | wc -l) figures to $OUT in $(( $(date +%s) - START )) s"
