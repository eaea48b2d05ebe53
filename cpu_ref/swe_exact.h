/* swe_exact.h — exact solutions of the 1-D dam break on a flat bed, for tests and
 * validation: still water of depth hl for x < x0 and hr for x > x0 at t = 0.
 *   hr > 0: Stoker (1957): a rarefaction to the left, a shock to the right, a constant
 *           middle state (hm, um) between them;
 *   hr = 0: Ritter (1892): a rarefaction that reaches the dry bed at x0 + 2 sqrt(g hl) t.
 * No GL, no allocation; plain double arithmetic. */
#ifndef SWGL_SWE_EXACT_H
#define SWGL_SWE_EXACT_H

/* Middle depth hm of the Stoker solution (hl > hr > 0), from
 *   2 (sqrt(g hl) - sqrt(g hm)) = (hm - hr) sqrt(g (hm + hr) / (2 hm hr))
 * (velocity behind the rarefaction = velocity behind the shock), by bisection on
 * (hr, hl) to full double precision.  Returns hm; its velocity is um = 2(cl - cm). */
double swe_exact_stoker_hm(double hl, double hr, double g);

/* Speed of the Stoker shock, s = hm um / (hm - hr) (mass jump condition). */
double swe_exact_stoker_shock_speed(double hl, double hr, double g);

/* Depth h and velocity u at (x, t) of the dam break (hl > 0, 0 <= hr < hl, t >= 0).
 * hr <= 0 gives Ritter's dry-bed solution.  In the fan, with xi = (x - x0)/t and
 * cl = sqrt(g hl):  u = 2 (cl + xi)/3,  h = (2 cl - xi)^2 / (9 g). */
void swe_exact_dambreak(double hl, double hr, double g, double x0, double x, double t,
                        double *h, double *u);

#endif
