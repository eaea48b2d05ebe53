// step_rule.glsl — the rule of the time step, written once in the common subset of C and
// GLSL: solver/schemes/core/timeloop.c includes it (C, double: the host clock) and
// clock_rule.glsl includes it (GLSL, float: the device clock of clock.glsl and of kernels
// that choose the step themselves).  With b the bound of stage 0 (the largest step the
// state allows), left the time to the stop and floor the collapse floor:
//     blown  b is NaN, not > 0, or below the floor: no step (dt = 0)
//     lands  left <= b (within the relative slack): dt = max(left, 0), or b when left is
//            within the slack of b; the step ends exactly on the stop
//     else   dt = b
// and no step (dt = 0) after landing or a blow-up (the host loop ends there; the device
// clock keeps both as flags).  The host passes a slack of 1e-9 (what is left beyond that
// is the rounding of t, so the step never exceeds the bound); the device passes 0 (below
// float's resolution).  C: include <math.h> and <stdbool.h> first (this file holds no
// #include: the shader loader would expand it).
#ifndef SWGL_STEP_RULE
#define SWGL_STEP_RULE
#ifdef __STDC_VERSION__
#define SWGL_STEP_FN static inline
#define swgl_real double
#else
#define SWGL_STEP_FN
#define swgl_real float
#endif

// (isnan: NVIDIA's compiler turns !(b > 0.0) into b <= 0.0, which a NaN does not
// satisfy; in C !(b > 0.0) alone would do)
SWGL_STEP_FN bool swgl_step_blown(swgl_real b, swgl_real dt_floor)
{
    return isnan(b) || !(b > 0.0) || b < dt_floor;
}

SWGL_STEP_FN bool swgl_step_lands(swgl_real b, swgl_real left, swgl_real slack)
{
    return left <= b * (1.0 + slack);
}

// the step of a clock that has neither landed nor blown up, b not blown
SWGL_STEP_FN swgl_real swgl_step_dt(swgl_real b, swgl_real left, swgl_real slack)
{
    if (!swgl_step_lands(b, left, slack)) return b;
    return left < b * (1.0 - slack) ? (left > 0.0 ? left : 0.0) : b;
}
#endif
