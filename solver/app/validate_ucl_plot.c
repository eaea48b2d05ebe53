/* validate_ucl_plot.c — `swgl validate ucl`: the gnuplot scripts ucl_gauges.gp and
 * ucl_velocity.gp, and finding gnuplot (validate_ucl.h). */
#include "validate_ucl.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the gnuplot scripts ------------------------------------------------------------ */

/* the building's corners b1..b4 in the experiment's frame (the case's geometry) */
static void building_corners(double c[5][2])
{
    const double a = 64.0 * acos(-1.0) / 180.0, x0 = 3.44, y0 = -0.05, L = 0.80, W = 0.40;
    double ux = cos(a), uy = sin(a), vx = -sin(a), vy = cos(a);
    c[0][0] = x0 + W * vx;          c[0][1] = y0 + W * vy;            /* b1 */
    c[1][0] = x0;                   c[1][1] = y0;                     /* b2 */
    c[2][0] = x0 + L * ux;          c[2][1] = y0 + L * uy;            /* b3 */
    c[3][0] = x0 + L * ux + W * vx; c[3][1] = y0 + L * uy + W * vy;   /* b4 */
    c[4][0] = c[0][0];              c[4][1] = c[0][1];
}

int ucl_write_gauges_gp(const char *path, double shift)
{
    FILE *f = fopen(path, "w");
    if (!f) return ucl_fail("%s: cannot write: %s", path, strerror(errno));
    fprintf(f, "# ucl_gauges.gp (swgl validate ucl): measured against simulated depth h at G1-G6, and the\n"
               "# measured record with its time origin shifted (dashed) where G2's first rise gives a shift.\n"
               "# Run in this folder: gnuplot ucl_gauges.gp -> ucl_gauges.png\n"
               "set terminal pngcairo size 1100,950 font ',10'\n"
               "set output 'ucl_gauges.png'\n"
               "set datafile separator ','\n"
               "set datafile missing 'nan'\n"
               "set key top right opaque\n"
               "set grid\n"
               "set xrange [0:30]\n"
               "set multiplot layout 3,2 title 'UCL dam break against a building (Soares-Frazao and Zech 2007): "
               "depth at the gauges'\n");
    for (int g = 0; g < NG; g++) {
        fprintf(f, "set title 'G%d (%.2f, %.2f) m'\n", g + 1, ucl_gauge_xy[g][0], ucl_gauge_xy[g][1]);
        fprintf(f, "set xlabel 't (s)'\nset ylabel 'depth h (m)'\n");
        /* ucl_series.csv: t, then per gauge measured, simulated, measured shifted */
        fprintf(f, "plot 'ucl_series.csv' using 1:%d with lines lw 2 lc rgb 'black' title 'measured', \\\n", 2 + 3 * g);
        if (isfinite(shift))
            fprintf(f, "     '' using 1:%d with lines lw 1 dt 2 lc rgb 'gray40' title 'measured, record %+.2f s', \\\n",
                    4 + 3 * g, shift);
        fprintf(f, "     '' using 1:%d with lines lw 2 lc rgb '#d62728' title 'swgl kp'\n", 3 + 3 * g);
    }
    fprintf(f, "unset multiplot\n");
    if (fclose(f) != 0) return ucl_fail("%s: cannot write: %s", path, strerror(errno));
    return 0;
}

int ucl_write_velocity_gp(const char *path, const int *done)
{
    FILE *f = fopen(path, "w");
    if (!f) return ucl_fail("%s: cannot write: %s", path, strerror(errno));
    double c[5][2];
    building_corners(c);
    fprintf(f, "# ucl_velocity.gp (swgl validate ucl): measured and simulated surface velocities.\n"
               "# Run in this folder: gnuplot ucl_velocity.gp -> ucl_velocity_tT.png (data blocks: comma-separated)\n"
               "set terminal pngcairo size 1200,680 font ',10'\n"
               "set datafile separator ','\n"
               "set size ratio -1\n"
               "set xrange [-1:6.5]\nset yrange [-1.8:1.8]\n"
               "set xlabel 'x (m, from the gate)'\nset ylabel 'y (m)'\n"
               "set key outside top center horizontal\n"
               "scale = 0.08   # s: an arrow is the distance covered in 0.08 s\n"
               "$building << EOD\n");
    for (int k = 0; k < 5; k++) fprintf(f, "%.4f,%.4f\n", c[k][0], c[k][1]);
    fprintf(f, "EOD\n"
               "$dam << EOD\n-0.8,1.8\n-0.8,0.5\n0,0.5\n0,1.8\n\n-0.8,-1.8\n-0.8,-0.5\n0,-0.5\n0,-1.8\nEOD\n"
               "$banks << EOD\n-1,1.46\n6.5,1.46\n\n-1,-1.46\n6.5,-1.46\nEOD\n"
               "$gauges << EOD\n");
    for (int g = 0; g < NG; g++) fprintf(f, "%.2f,%.2f,G%d\n", ucl_gauge_xy[g][0], ucl_gauge_xy[g][1], g + 1);
    fprintf(f, "EOD\n");
    for (int k = 0; k < NT; k++) {
        if (!done[k]) continue;
        fprintf(f, "set output 'ucl_velocity_t%d.png'\n"
                   "set title 'UCL dam break: surface velocity at t = %d s, measured (black) and swgl kp (red); "
                   "every 3rd point, arrow = 0.08 s of travel'\n"
                   "plot $banks using 1:2 with lines dt 2 lc rgb 'gray60' title 'bank toe', \\\n"
                   "     $dam using 1:2 with lines lw 2 lc rgb 'gray30' title 'dam', \\\n"
                   "     $building using 1:2 with filledcurves closed fc rgb 'gray40' title 'building', \\\n"
                   "     'ucl_velocity_t%d.csv' every 3 using 1:2:(scale*$3):(scale*$4) with vectors head size 0.03,20 "
                   "lc rgb 'black' title 'measured', \\\n"
                   "     '' every 3 using 1:2:(scale*$5):(scale*$6) with vectors head size 0.03,20 lc rgb '#d62728' "
                   "title 'simulated', \\\n"
                   "     $gauges using 1:2:3 with labels point pt 7 ps 0.8 lc rgb 'blue' offset 1,0.5 tc rgb 'blue' "
                   "notitle\n",
                ucl_field_t[k], ucl_field_t[k], ucl_field_t[k]);
    }
    if (fclose(f) != 0) return ucl_fail("%s: cannot write: %s", path, strerror(errno));
    return 0;
}
