/* swe.c — the shallow-water problem's one validation (swe.h). */
#include "swe.h"

/* The one validation of a shallow-water problem (swe.h), called by every backend. */
swgl_status swe_problem_check(const swe_problem *p)
{
    const char *why = NULL;
    if (!p) why = "no problem";
    else if (p->nx < 1 || p->ny < 1) why = "nx and ny must be >= 1";
    else if (!(p->dx > 0.0) || !(p->dy > 0.0)) why = "dx and dy must be > 0";
    else if (!(p->g > 0.0)) why = "g must be > 0";
    else if (!(p->cfl > 0.0 && p->cfl <= 1.0)) why = "cfl must be in (0, 1]";
    else if (!(p->h_dry >= 0.0)) why = "h_dry must be >= 0";
    else if (!(p->kappa >= 0.0)) why = "kappa must be >= 0";
    else if (!p->H || !p->code) why = "H and code are required";
    return why ? swgl_fail(SWGL_ERR_ARG, "swe: %s", why) : SWGL_OK;
}
