/* validate_ucl.c — `swgl validate ucl RUNDIR`: a run of the built-in case ucl-building
 * (data/cases/ucl-building.ini) against the measurements of Soares-Frazão & Zech (2007),
 * "Experimental study of dam-break flow against an isolated obstacle", J. Hydraulic
 * Research 45 (Extra Issue), 27-36, in DATA/ucl_isolated_obstacle (its README.md).
 *
 * Gauges (RUNDIR/gauges.csv against building_gauges_h.txt and building_gauges_uv.txt):
 *   - every gauge is compared as the total depth h: the measured G1-G5 columns are depths
 *     (from the 0.02 m layer up once the wave is there), G6 in the reservoir from 0.40 m;
 *   - the leading zeros of G1-G5 (every sample before the first non-zero one) are "no water
 *     recorded": the probe read nothing while the channel held its 0.02 m layer.  They are
 *     no measurement and enter nothing (RMS, bias, peak, arrival); n counts what is compared;
 *   - the simulated series is interpolated linearly to the measured times, over
 *     0 .. min(30 s, the run's end);
 *   - per gauge: the RMS error over 0-30 s, the mean bias (simulated - measured) over
 *     15-30 s, the peak (G6: the lowest depth) measured and simulated with their times, the
 *     first arrival (the first time h exceeds the initial layer by 0.01 m: the model's h(0)
 *     at the gauge, the measured LAYER = 0.02 m; for G6 the first time the depth has fallen
 *     by 0.01 m; interpolated between samples), and where building_gauges_uv.txt has
 *     velocities (G1-G5) the RMS speed and vector differences of the point velocity;
 *   - the time origin: the record may start after the gate opened (docs/validation.md), so
 *     the same comparison is made a second time with the measured record's times moved by
 *     the shift that aligns G2's first rise: shift = arrival_sim(G2) - arrival_meas(G2), a
 *     measured sample at record time t compared with the model at t + shift.  The windows
 *     (0-30 s, 15-30 s) are the model's times in both.  It is printed beside the unshifted
 *     comparison, never instead of it; no shifted table when G2 has no arrival in either.
 * Velocity fields (RUNDIR/{h,qx,qy}_tT.asc against building_vel_tTT.txt, T = 1, 3, 5,
 * 10, 15 s): at each measured point inside the grid whose cell is active and wet (h >
 * 1e-3 m), the model's (u, v) = (qx, qy) / h of that cell.  A time after the run's end is
 * skipped with a note (a short run); a grid missing at a time the run reached is an error.
 *
 * Writes OUTDIR/ucl_gauges.csv (per gauge), ucl_gauges_shifted.csv (the same, the record
 * shifted), ucl_series.csv (t, per gauge measured, simulated and measured shifted),
 * ucl_velocity_tT.csv (x, y, u_meas, v_meas, u_sim, v_sim), ucl_velocity.csv (per
 * time), ucl_gauges.gp and ucl_velocity.gp, and runs gnuplot on the scripts where it is
 * on PATH (ucl_gauges.png, ucl_velocity_tT.png).  Prints markdown tables on stdout.
 * Errors: one line on stderr naming the file (and line) and what was expected; return 1.
 *
 * The parts: validate_ucl_read.c (the files), validate_ucl_velocity.c (the velocity
 * fields), validate_ucl_plot.c (the gnuplot scripts); here the gauges' comparison, the
 * output tables and the command. */
#include "validate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "validate_ucl.h"

/* ---- the gauges' comparison ------------------------------------------------------- */

/* the series a (at times t, n samples) at time x, linear; NaN outside */
static double interp(const double *t, const double *a, int n, double x)
{
    if (n < 1 || x < t[0] - 1e-12 || x > t[n - 1] + 1e-12) return NAN;
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (t[mid] <= x) lo = mid;
        else hi = mid;
    }
    if (hi == lo || t[hi] == t[lo]) return a[lo];
    double w = (x - t[lo]) / (t[hi] - t[lo]);
    if (w < 0) w = 0;
    if (w > 1) w = 1;
    return a[lo] + w * (a[hi] - a[lo]);
}

/* the first time the series (sign * a) exceeds thr, interpolated between samples (NaN
 * samples skipped); NaN when it never does within tmax */
static double first_crossing(const double *t, const double *a, int n, double thr, double sign, double tmax)
{
    double tp = NAN, ap = NAN;
    for (int i = 0; i < n && t[i] <= tmax + 1e-9; i++) {
        if (isnan(a[i])) continue;
        double y = sign * a[i];
        if (y > thr) {
            if (isnan(tp)) return t[i];
            return tp + (thr - ap) / (y - ap) * (t[i] - tp);
        }
        tp = t[i];
        ap = y;
    }
    return NAN;
}

typedef struct {
    double shift;          /* s, the measured record's time origin moved by this */
    int n, nb;             /* measured samples compared over 0-30 s and over 15-30 s */
    double rms, bias, peak_m, tpeak_m, peak_s, tpeak_s, arr_m, arr_s;
    int uv_n;
    double uv_rms_speed, uv_rms_vec;
} gauge_stats;

/* gauge g: the measured depths mcol (NaN: none recorded) at record times tm (nrow) against
 * the run, a record time t compared with the model at t + shift; model times up to tmax */
static int compare_gauge(int g, const double *tm, const double *mcol, int nrow, const table *muv, const int *cu,
                         const int *cv, const sim_series *s, double shift, double tmax, gauge_stats *G)
{
    memset(G, 0, sizeof *G);
    G->shift = shift;
    const int is_res = g == 5;                 /* G6, in the reservoir: the fall, the lowest depth */
    const double sign = is_res ? -1 : 1, h0 = s->h[g][0];
    double sse = 0, sb = 0;
    G->peak_m = G->peak_s = G->tpeak_m = G->tpeak_s = NAN;
    for (int r = 0; r < nrow; r++) {
        double t = tm[r] + shift, mv = mcol[r];
        if (isnan(mv) || t < -1e-9 || t > tmax + 1e-9) continue;
        if (isnan(G->peak_m) || sign * mv > sign * G->peak_m) { G->peak_m = mv; G->tpeak_m = t; }
        double sv = interp(s->t, s->h[g], s->n, t);
        if (isnan(sv)) continue;
        sse += (sv - mv) * (sv - mv);
        G->n++;
        if (t >= BIAS_T0 - 1e-9) { sb += sv - mv; G->nb++; }
    }
    G->rms = G->n ? sqrt(sse / G->n) : NAN;
    G->bias = G->nb ? sb / G->nb : NAN;
    for (int i = 0; i < s->n && s->t[i] <= tmax + 1e-9; i++) {
        double sv = s->h[g][i];
        if (isnan(G->peak_s) || sign * sv > sign * G->peak_s) { G->peak_s = sv; G->tpeak_s = s->t[i]; }
    }
    /* arrival: h past the initial layer + RISE (G6: below its start - RISE) */
    if (is_res) {
        double m0 = NAN;
        for (int r = 0; r < nrow && isnan(m0); r++) m0 = mcol[r];
        G->arr_m = first_crossing(tm, mcol, nrow, RISE - m0, -1, tmax - shift) + shift;
        G->arr_s = first_crossing(s->t, s->h[g], s->n, RISE - h0, -1, tmax);
    } else {
        G->arr_m = first_crossing(tm, mcol, nrow, LAYER + RISE, 1, tmax - shift) + shift;
        G->arr_s = first_crossing(s->t, s->h[g], s->n, h0 + RISE, 1, tmax);
    }
    /* the point velocities G1..G5, at the same times */
    G->uv_rms_speed = G->uv_rms_vec = NAN;
    if (g < 5) {
        double ssp = 0, svec = 0;
        for (int r = 0; r < muv->nrow; r++) {
            const double *row = muv->v + (size_t)r * muv->ncol;
            double t = row[0] + shift, um = row[cu[g]], vm = row[cv[g]];
            if (isnan(um) || isnan(vm) || t < -1e-9 || t > tmax + 1e-9) continue;
            double us = interp(s->t, s->u[g], s->n, t), vsm = interp(s->t, s->v[g], s->n, t);
            if (isnan(us) || isnan(vsm)) continue;
            double d = hypot(us, vsm) - hypot(um, vm);
            ssp += d * d;
            svec += (us - um) * (us - um) + (vsm - vm) * (vsm - vm);
            G->uv_n++;
        }
        if (G->uv_n) {
            G->uv_rms_speed = sqrt(ssp / G->uv_n);
            G->uv_rms_vec = sqrt(svec / G->uv_n);
        }
    }
    return 0;
}

/* ucl_gauges.csv / ucl_gauges_shifted.csv */
static int write_gauges_csv(const char *out_dir, const char *name, const gauge_stats *gs, double tmax)
{
    char *path = ucl_join(out_dir, name);
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        ucl_fail("%s: cannot write: %s", path ? path : name, strerror(errno));
        free(path);
        return 1;
    }
    fprintf(f, "gauge,x_m,y_m,quantity,record_shift_s,t_end_s,n,rms_m,n_bias,bias_15_30_m,peak_meas_m,"
               "t_peak_meas_s,peak_sim_m,t_peak_sim_s,arrival_meas_s,arrival_sim_s,uv_n,uv_rms_speed_ms,"
               "uv_rms_vector_ms\n");
    for (int g = 0; g < NG; g++) {
        const gauge_stats *G = &gs[g];
        fprintf(f, "G%d,%.2f,%.2f,depth,%.3f,%g,%d,%.4f,%d,%.4f,%.4f,%.2f,%.4f,%.2f,%.3f,%.3f,%d,%.4f,%.4f\n", g + 1,
                ucl_gauge_xy[g][0], ucl_gauge_xy[g][1], G->shift, tmax, G->n, G->rms, G->nb, G->bias, G->peak_m,
                G->tpeak_m, G->peak_s, G->tpeak_s, G->arr_m, G->arr_s, G->uv_n, G->uv_rms_speed, G->uv_rms_vec);
    }
    if (fclose(f) != 0) {
        ucl_fail("%s: cannot write: %s", path, strerror(errno));
        free(path);
        return 1;
    }
    free(path);
    return 0;
}

static void print_gauges(const gauge_stats *gs)
{
    printf("| gauge | n | RMS 0-30 s (m) | bias 15-30 s (m) | peak meas (m) @ s | peak sim (m) @ s | arrival meas (s) |"
           " arrival sim (s) | u,v n | RMS speed (m/s) | RMS vector (m/s) |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int g = 0; g < NG; g++) {
        const gauge_stats *G = &gs[g];
        char bias[32] = "nan";   /* no sample in the window (a short run) */
        if (!isnan(G->bias)) snprintf(bias, sizeof bias, "%+.4f", G->bias);
        printf("| G%d | %d | %.4f | %s | %.4f @ %.2f | %.4f @ %.2f | %.2f | %.2f | %d | %.3f | %.3f |\n", g + 1, G->n,
               G->rms, bias, G->peak_m, G->tpeak_m, G->peak_s, G->tpeak_s, G->arr_m, G->arr_s, G->uv_n,
               G->uv_rms_speed, G->uv_rms_vec);
    }
}

int validate_ucl(const char *run_dir, const char *data_dir, const char *out_dir)
{
    int rc = 1;
    char *ucl_dir = NULL, *path = NULL;
    sim_series s = {0};
    table mh = {0}, muv = {0};
    FILE *f = NULL;
    double *mcol = NULL;
    gauge_stats gs[NG], gsh[NG];
    double shift = NAN;
    double *tm = NULL;
    vel_stats vs[NT];
    int done[NT] = {0};
    double gxll = NAN, gyll = NAN;

    /* the data folder: DATA/ucl_isolated_obstacle, or DATA itself when it holds the files */
    if (!data_dir) data_dir = ".";
    path = ucl_join(data_dir, "building_gauges_h.txt");
    if (path && access(path, R_OK) == 0) ucl_dir = strdup(data_dir);
    else ucl_dir = ucl_join(data_dir, "ucl_isolated_obstacle");
    free(path);
    path = NULL;
    if (!ucl_dir) return ucl_fail("out of memory");
    if (access(ucl_dir, R_OK | X_OK) != 0) {
        ucl_fail("%s: no such folder: expected the UCL measurements (Soares-Frazao & Zech 2007) there; "
                 "give the shared data folder with --data DIR or SWGL_DATA", ucl_dir);
        goto out;
    }
    if (cli_mkdirs(out_dir) != 0) {
        ucl_fail("%s: cannot create the output folder: %s", out_dir, strerror(errno));
        goto out;
    }

    /* the run's gauges */
    path = ucl_join(run_dir, "gauges.csv");
    if (!path) goto oom;
    if (ucl_read_gauges_csv(path, &s)) goto out;
    free(path);
    path = NULL;
    const double t_run = s.t[s.n - 1], tmax = fmin(T_TEST, t_run);

    /* the measured depths: t, G1..G6 */
    path = ucl_join(ucl_dir, "building_gauges_h.txt");
    if (!path) goto oom;
    if (ucl_read_table(path, 1 + NG, 1 + NG, 1, &mh)) goto out;
    int ch[NG];
    if (ucl_gauge_columns(&mh, NG, 0, ch)) {
        ucl_fail("%s:1: expected a header line naming the columns G1 .. G6", path);
        goto out;
    }
    free(path);
    path = NULL;
    /* the measured velocities: t, (u, v) at G1..G5 */
    path = ucl_join(ucl_dir, "building_gauges_uv.txt");
    if (!path) goto oom;
    if (ucl_read_table(path, 1 + 2 * 5, 1, 1, &muv)) goto out;
    int cu[5], cv[5];
    if (ucl_gauge_columns(&muv, 5, 0, cu) || ucl_gauge_columns(&muv, 5, 1, cv)) {
        ucl_fail("%s:1: expected a header line naming the columns G1 G1 .. G5 G5 (u and v of each gauge)", path);
        goto out;
    }
    free(path);
    path = NULL;

    /* the measured depths per gauge, column-major in mcol: G1..G5's leading zeros (no water
     * recorded before the wave) as NaN */
    mcol = malloc(sizeof(double) * mh.nrow * NG);
    tm = malloc(sizeof(double) * mh.nrow);
    if (!mcol || !tm) goto oom;
    for (int r = 0; r < mh.nrow; r++) tm[r] = mh.v[(size_t)r * mh.ncol];
    for (int g = 0; g < NG; g++) {
        double *m = mcol + (size_t)g * mh.nrow;
        int lead = g < 5;
        for (int r = 0; r < mh.nrow; r++) {
            double mv = mh.v[(size_t)r * mh.ncol + ch[g]];
            if (lead && mv != 0 && !isnan(mv)) lead = 0;
            m[r] = lead ? NAN : mv;
        }
    }
    /* as recorded, then the record's time origin moved to align G2's first rise */
    for (int g = 0; g < NG; g++)
        compare_gauge(g, tm, mcol + (size_t)g * mh.nrow, mh.nrow, &muv, cu, cv, &s, 0, tmax, &gs[g]);
    shift = gs[1].arr_s - gs[1].arr_m;
    if (isfinite(shift))
        for (int g = 0; g < NG; g++)
            compare_gauge(g, tm, mcol + (size_t)g * mh.nrow, mh.nrow, &muv, cu, cv, &s, shift, tmax, &gsh[g]);

    /* ucl_series.csv: at the measured times (the model's times when unshifted) */
    path = ucl_join(out_dir, "ucl_series.csv");
    if (!path || !(f = fopen(path, "w"))) {
        ucl_fail("%s: cannot write: %s", path ? path : "ucl_series.csv", strerror(errno));
        goto out;
    }
    fprintf(f, "time_s");
    for (int g = 0; g < NG; g++) fprintf(f, ",G%d_h_meas_m,G%d_h_sim_m,G%d_h_meas_shifted_m", g + 1, g + 1, g + 1);
    fprintf(f, "\n");
    for (int r = 0; r < mh.nrow; r++) {
        double t = tm[r];
        if (t > tmax + 1e-9) break;
        fprintf(f, "%g", t);
        for (int g = 0; g < NG; g++) {
            const double *m = mcol + (size_t)g * mh.nrow;
            double v[3] = {m[r], interp(s.t, s.h[g], s.n, t),
                           isfinite(shift) ? interp(tm, m, mh.nrow, t - shift) : NAN};
            for (int k = 0; k < 3; k++) {
                if (isnan(v[k])) fprintf(f, ",nan");
                else fprintf(f, ",%.5g", v[k]);
            }
        }
        fprintf(f, "\n");
    }
    if (fclose(f) != 0) { f = NULL; ucl_fail("%s: cannot write: %s", path, strerror(errno)); goto out; }
    f = NULL;
    free(path);
    path = NULL;

    /* ucl_gauges.csv, ucl_gauges_shifted.csv */
    if (write_gauges_csv(out_dir, "ucl_gauges.csv", gs, tmax)) goto out;
    if (isfinite(shift)) {
        if (write_gauges_csv(out_dir, "ucl_gauges_shifted.csv", gsh, tmax)) goto out;
    } else {   /* no shift: no earlier run's shifted table left beside this one */
        path = ucl_join(out_dir, "ucl_gauges_shifted.csv");
        if (!path) goto oom;
        if (unlink(path) != 0 && errno != ENOENT) {
            ucl_fail("%s: cannot remove the previous shifted table: %s", path, strerror(errno));
            goto out;
        }
        free(path);
        path = NULL;
    }

    /* the velocity fields */
    for (int k = 0; k < NT; k++) {
        if (ucl_field_t[k] > t_run + 1e-6) continue;       /* the run ended before */
        if (ucl_velocity_field(run_dir, ucl_dir, out_dir, ucl_field_t[k], &vs[k], &gxll, &gyll)) goto out;
        done[k] = 1;
    }
    path = ucl_join(out_dir, "ucl_velocity.csv");
    if (!path || !(f = fopen(path, "w"))) {
        ucl_fail("%s: cannot write: %s", path ? path : "ucl_velocity.csv", strerror(errno));
        goto out;
    }
    fprintf(f, "time_s,n,n_dry_in_model,n_outside_or_inactive,rms_speed_diff_ms,mean_speed_meas_ms,"
               "mean_speed_sim_ms,rms_vector_diff_ms\n");
    for (int k = 0; k < NT; k++)
        if (done[k])
            fprintf(f, "%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f\n", ucl_field_t[k], vs[k].n, vs[k].ndry, vs[k].nout,
                    vs[k].rms_speed, vs[k].mean_meas, vs[k].mean_sim, vs[k].rms_vec);
    if (fclose(f) != 0) { f = NULL; ucl_fail("%s: cannot write: %s", path, strerror(errno)); goto out; }
    f = NULL;
    free(path);
    path = NULL;

    /* the tables */
    printf("UCL dam break against an isolated obstacle (Soares-Frazao & Zech 2007): %s against %s\n\n", run_dir,
           ucl_dir);
    printf("Depth h at the gauges, as recorded (t = 0: the gate opens), model times 0-%g s.  G1-G5's leading\n"
           "zeros (no water recorded before the wave) are left out; bias: mean of simulated - measured over\n"
           "%g-%g s; peak: G6's lowest depth; arrival: h first %.2f m above the initial layer (measured %.2f m,\n"
           "simulated h(0)), G6 first %.2f m below its start\n\n",
           tmax, BIAS_T0, T_TEST, RISE, LAYER, RISE);
    print_gauges(gs);
    if (isfinite(shift)) {
        printf("\nThe same with the measured record's time origin shifted by %+.3f s (a record time t compared with\n"
               "the model at t %+.3f s), the shift that aligns G2's first rise (arrival sim %.3f s - meas %.3f s);\n"
               "the windows are model times; arrivals and peaks measured are shifted too\n\n",
               shift, shift, gs[1].arr_s, gs[1].arr_m);
        print_gauges(gsh);
    } else {
        printf("\nNo shifted table: G2's first rise is not in the %s within %g s\n",
               isnan(gs[1].arr_s) ? "run" : "record", tmax);
    }
    printf("\nSurface velocity fields (measured points in active cells wet in the model, h > %g m)\n\n", WET);
    printf("| t (s) | points | dry in model | outside/inactive | RMS speed diff (m/s) | mean speed meas (m/s) |"
           " mean speed sim (m/s) | RMS vector diff (m/s) |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    for (int k = 0; k < NT; k++) {
        if (done[k])
            printf("| %d | %d | %d | %d | %.3f | %.3f | %.3f | %.3f |\n", ucl_field_t[k], vs[k].n, vs[k].ndry, vs[k].nout,
                   vs[k].rms_speed, vs[k].mean_meas, vs[k].mean_sim, vs[k].rms_vec);
        else
            printf("| %d | skipped: the run ended at %g s | | | | | | |\n", ucl_field_t[k], t_run);
    }
    if (isfinite(gxll) && fabs(gxll) < 1e-9 && fabs(gyll) < 1e-9)
        fprintf(stderr, "swgl validate ucl: note: the run's grids have their corner at (0, 0), not in the "
                        "experiment's frame (the case's xll = -7.55, yll = -1.8): the velocity points are misplaced\n");

    /* gnuplot */
    path = ucl_join(out_dir, "ucl_gauges.gp");
    if (!path || ucl_write_gauges_gp(path, shift)) goto out;
    free(path);
    path = ucl_join(out_dir, "ucl_velocity.gp");
    if (!path || ucl_write_velocity_gp(path, done)) goto out;
    free(path);
    path = NULL;
    int drawn = 0;
    if (validate_gnuplot(out_dir, "ucl_gauges.gp", "ucl_velocity.gp", &drawn) != 0) goto out;
    if (drawn) printf("\nplots: %s/ucl_gauges.png, ucl_velocity_tT.png\n", out_dir);
    rc = 0;
    goto out;
oom:
    ucl_fail("out of memory");
out:
    if (f) fclose(f);
    free(path);
    free(ucl_dir);
    free(mcol);
    free(tm);
    free(mh.v);
    free(muv.v);
    ucl_sim_free(&s);
    return rc;
}
