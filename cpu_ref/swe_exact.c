/* swe_exact.c — exact 1-D dam-break solutions (Stoker wet bed, Ritter dry bed).
 *
 * Regions at time t > 0, xi = (x - x0)/t, cl = sqrt(g hl):
 *   xi <= -cl                  h = hl, u = 0               (undisturbed left state)
 *   -cl < xi <= um - cm        fan: u = 2 (cl + xi)/3, c = (2 cl - xi)/3, h = c^2/g
 *   um - cm < xi < s           h = hm, u = um              (Stoker only)
 *   xi >= s                    h = hr, u = 0               (s: shock speed)
 * Ritter (hr = 0): hm = 0, the fan ends at its tail xi = 2 cl, beyond it the bed is dry.
 */
#include "swe_exact.h"

#include <math.h>

/* velocity behind the rarefaction minus velocity behind the shock, for middle depth hm */
static double stoker_gap(double hm, double hl, double hr, double g)
{
    double u_rare = 2.0 * (sqrt(g * hl) - sqrt(g * hm));
    double u_shock = (hm - hr) * sqrt(0.5 * g * (hm + hr) / (hm * hr));
    return u_rare - u_shock;
}

double swe_exact_stoker_hm(double hl, double hr, double g)
{
    double a = hr, b = hl;      /* gap(a) > 0 > gap(b) */
    for (int it = 0; it < 200 && b - a > 0.0; it++) {
        double m = 0.5 * (a + b);
        if (m <= a || m >= b) break;
        if (stoker_gap(m, hl, hr, g) > 0.0) a = m; else b = m;
    }
    return 0.5 * (a + b);
}

double swe_exact_stoker_shock_speed(double hl, double hr, double g)
{
    double hm = swe_exact_stoker_hm(hl, hr, g);
    double um = 2.0 * (sqrt(g * hl) - sqrt(g * hm));
    return hm * um / (hm - hr);
}

void swe_exact_dambreak(double hl, double hr, double g, double x0, double x, double t,
                        double *h, double *u)
{
    if (t <= 0.0) {
        *h = x < x0 ? hl : (hr > 0.0 ? hr : 0.0);
        *u = 0.0;
        return;
    }
    const double xi = (x - x0) / t, cl = sqrt(g * hl);
    double hm = 0.0, um = 0.0, cm = 0.0, s = 0.0, tail;
    if (hr > 0.0) {
        hm = swe_exact_stoker_hm(hl, hr, g);
        cm = sqrt(g * hm);
        um = 2.0 * (cl - cm);
        s = hm * um / (hm - hr);
        tail = um - cm;
    } else {
        tail = 2.0 * cl;        /* Ritter: the fan reaches the dry bed */
    }
    if (xi <= -cl) {
        *h = hl;
        *u = 0.0;
    } else if (xi <= tail) {
        double c = (2.0 * cl - xi) / 3.0;
        *h = c * c / g;
        *u = 2.0 * (cl + xi) / 3.0;
    } else if (hr > 0.0 && xi < s) {
        *h = hm;
        *u = um;
    } else {
        *h = hr > 0.0 ? hr : 0.0;
        *u = 0.0;
    }
}
