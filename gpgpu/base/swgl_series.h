/* swgl_series.h — a time series of rows (t_k, v_k), t increasing, n >= 1, read as the
 * piecewise-linear function the whole project gives it (hydrographs, tides, rain,
 * sources: solver/io/hydrograph.h, cpu_ref/swe.h swe_series_at):
 *
 *     f(t) = v_0                                       t <= t_0
 *            v_k + (t - t_k) (v_{k+1} - v_k) / (t_{k+1} - t_k)    t_k < t <= t_{k+1}
 *            v_{n-1}                                   t >= t_{n-1}
 *
 * and its exact mean over a time step,
 *
 *     mean(a, b) = 1/(b - a) \int_a^b f(t) dt,   mean(a, a) = f(a),
 *
 * the integral summed piece by piece: the constant parts outside [t_0, t_{n-1}], and each
 * row interval's overlap [x0, x1] with [a, b], whose integral is (x1 - x0) f((x0 + x1)/2)
 * (f is linear there: the midpoint rule is exact).  A step inside one interval is then
 * f at its midpoint, as exact as f itself.  A solver that adds dt mean(t, t + dt) every
 * step adds \int f over the run to rounding: the steps' ends are the next steps' starts.
 * Header only, so the io library (no solver) and cpu_ref (no io) share it. */
#ifndef SWGL_SERIES_H
#define SWGL_SERIES_H

/* The index lo of the row interval t[lo] < x <= t[lo + 1] (t[0] < x < t[n-1], n >= 2). */
static inline int swgl_series_find(int n, const double *t, double x)
{
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (t[mid] < x) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* f(x) of the header's comment. */
static inline double swgl_series_at(int n, const double *t, const double *v, double x)
{
    if (n <= 1 || !(x > t[0])) return v[0];
    if (x >= t[n - 1]) return v[n - 1];
    int lo = swgl_series_find(n, t, x);
    double a = (x - t[lo]) / (t[lo + 1] - t[lo]);
    return v[lo] + a * (v[lo + 1] - v[lo]);
}

/* mean(a, b) of the header's comment; f(a) where b <= a (dt = 0) or b is not a number. */
static inline double swgl_series_mean(int n, const double *t, const double *v, double a, double b)
{
    if (n <= 1) return v[0];
    if (!(b > a)) return swgl_series_at(n, t, v, a);
    const double t0 = t[0], tn = t[n - 1];
    if (a >= t0 && b <= tn) {   /* inside one interval: f at the midpoint, no width rounded */
        int k = a > t0 ? swgl_series_find(n, t, a) : 0;
        if (b <= t[k + 1]) {
            double m = a + 0.5 * (b - a), s = (m - t[k]) / (t[k + 1] - t[k]);
            return v[k] + s * (v[k + 1] - v[k]);
        }
    }
    double sum = 0.0;
    if (a < t0) sum += ((b < t0 ? b : t0) - a) * v[0];          /* before the first row */
    if (b > tn) sum += (b - (a > tn ? a : tn)) * v[n - 1];      /* after the last */
    const double lo = a > t0 ? a : t0, hi = b < tn ? b : tn;
    if (lo < hi)
        for (int k = lo > t0 ? swgl_series_find(n, t, lo) : 0; k < n - 1 && t[k] < hi; k++) {
            double x0 = lo > t[k] ? lo : t[k], x1 = hi < t[k + 1] ? hi : t[k + 1];
            if (!(x1 > x0)) continue;
            double m = x0 + 0.5 * (x1 - x0), s = (m - t[k]) / (t[k + 1] - t[k]);
            sum += (x1 - x0) * (v[k] + s * (v[k + 1] - v[k]));
        }
    return sum / (b - a);
}

#endif
