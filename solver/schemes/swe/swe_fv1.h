/* swe_fv1.h — what the first-order shallow-water schemes on cells (roe, hllc) build from a
 * scenario, written once: the problem on the ghost-ring grid (H = -z_b, the cell codes),
 * Manning's n where the scheme takes friction and the scenario gives it, the boundary data,
 * rain and sources (swe_forcing.h); a rank's block of it over MPI; the halo a step reads and
 * the wave speed a bound stands for.  scheme_setup.problem points to a swe_fv1. */
#ifndef SWGL_SWE_FV1_H
#define SWGL_SWE_FV1_H

#include "scheme.h"
#include "swe_forcing.h"

typedef struct swe_fv1 {
    swe_problem p;               /* H, code and forcing on the ghost-ring grid */
    double *H;                   /* grid_size: H = -z_b */
    double *manning;             /* grid_size Manning's n; NULL: none (or a scheme without friction) */
    swe_forcing_store forcing;   /* boundary data, rain, sources (p.forcing) */
} swe_fv1;

/* The problem of sc into s (scheme_setup_begin's, 3 fields h, qx, qy), with kappa the
 * thin-film depth of the velocity desingularization (a key's value, < 0: not given:
 * K0 max(dx, dy), K0 = 1e-2, as Brodtkorb et al. choose for kp), and Manning's n where
 * friction is set and the scenario has [friction] manning. */
swgl_status swe_fv1_setup(const scenario *sc, scheme_setup *s, double kappa, int friction);
void swe_fv1_setup_free(scheme_setup *s);
/* scheme_desc window: H (and n) of the block win and its ring from g's, its share of the
 * boundary data, rain and sources (swe_forcing_window), the bound of the cells own. */
swgl_status swe_fv1_window(const scheme_setup *g, const int win[4], const int own[4], scheme_setup *l);
/* scheme_desc halo: a face reads the two cells beside it, and its draining limit the
 * donor's drain time, made from all four of the donor's faces: 2 */
int swe_fv1_halo(const scheme_setup *s);
/* scheme_desc speed_scale: dt = 2 cfl dx dy / S with S = sum over the 4 faces of |Gamma|
 * s_e <= 2 (dx + dy) s_max, so a bound dt means s_max >= cfl dx dy / ((dx + dy) dt) */
double swe_fv1_speed_scale(const scheme_setup *s);
const swe_forcing *swe_fv1_forcing(const scheme_setup *s);

/* The scheme_desc of a first-order scheme on cells (roe, hllc): the state h, qx, qy, this
 * file's setup_free, window, halo, bound speed and forcing, every shallow-water output
 * (swe_output.h), the scheme's own setup (its keys into swe_fv1_setup) and backends. */
#define SWE_FV1_DESC(name_str, setup_fn, gpu, cpu, cpu_scalar)                                                     \
    {.name = name_str, .n_fields = 3, .fields = {"h", "qx", "qy"}, .cell_word = "cells", .setup = setup_fn,        \
     .setup_free = swe_fv1_setup_free, .write_grids = swe_write_grids, .write_final = swe_write_final,             \
     .write_frame = swe_write_frame, .summary = swe_summary, .print = swe_print,                                   \
     .speed_scale = swe_fv1_speed_scale, .forcing = swe_fv1_forcing, .window = swe_fv1_window,                     \
     .halo = swe_fv1_halo, .backends = {gpu, cpu, cpu_scalar}}

#endif
