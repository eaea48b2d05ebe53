/* kp_fast.c — the fast CPU solver of the Kurganov-Petrova scheme (kp_cpu.h, equations
 * 1-10 and the time integration there): float (dbl = 0) or double (dbl = 1), SIMD over
 * a row (branch-free loops with #pragma omp simd; the kernels are written once in
 * kp_fast_body.h (kp_fast_face.h, kp_fast_rates.h, kp_fast_update.h) and compiled for
 * both types), OpenMP over units of a tile row, and tile early exit.
 *
 * Storage: structure of arrays of the real type, the ghost-ring grid of swgl_grid.h with
 * one more ring of padding cells round it (CELL_OFF, zero state), so that every
 * neighbour read of the stencil (2 cells along x and y from an active cell, 1 from a
 * ghost) stays inside the array: cell (i, j), i = 0..nx+1, is at KP_IDX = (j+1) st +
 * (i+1), the row stride st a multiple of 16 values.  Per cell: Q^n = (w, hu, hv), Q*
 * (RK2), R (3), the bed B_E, B_W, B_N, B_S, B_ij of kp_cell_bed (precomputed), the code
 * as a number (its compares make lane masks of the right width), g n^2 (friction only).
 *
 * rates(stage): the interior is cut into units: one tile row (KP_TILE rows) by a run of
 * up to KP_CHUNK tiles that are computed (dynamic schedule over units).  A unit streams
 * its rows j = j0..j1-1 south to north with per-thread row buffers of its width (L1):
 *   y: the reconstruction (steps 1-6, in the face frame n = y) of row j+1, the fluxes
 *      (7) of the north faces of row j from row j's N points and row j+1's S points;
 *      the south faces are the previous row's north faces (the unit's first row
 *      computes them from rows j0-1 and j0: one face row in 17 done twice);
 *   x: the reconstruction of cells i0-1..i1 of row j, the fluxes of faces i0-1..i1-1;
 *   per cell: the source (8), R (9), the speed max(a_x / dx, a_y / dy) = 1 / r (10)
 *      (the bound is cfl / its max), R = 0 on non-active cells, and a sum that is NaN
 *      when an active cell's state or R is not finite (x - x).
 * Every face of the unit is computed from the same point values as a face of any other
 * unit, so the result does not depend on the cut, nor on the thread count.
 *
 * The equations are kp_scalar.c's (which the double path matches to ~1e-15 relative,
 * test_kp_fast): the flux's mass part uses the depth difference, the stage-1 sums are
 * associated as there, and apply sets a shoal cell's (h < kappa) momentum from its
 * desingularized velocity.  What differs is rounding only: the desingularization is a
 * factor s(h) with u = q s shared by both components (one division per point), the
 * flux multiplies by 1 / (a+ - a-), R by 1 / dx, 1 / dy.
 *
 * Early exit: wet[tile] = some active cell of the tile has !(h <= eps), kept by
 * set_state and apply.  A rates with the map computes the tiles that are wet or have a
 * wet edge neighbour, and marks the others skipped for that stage; a skipped tile has
 * R = 0 and r = +inf exactly (kp_cpu.h), so apply treats it without reading R:
 *   Euler, stage 0 skipped:                nothing (w + dt 0 = w, q = 0 stays 0),
 *   RK2 stage 0 skipped:                   Q* = Q^n (a copy, not needed when the tile's
 *                                          Q* is still the copy of the last step: a
 *                                          flag per tile, cleared when it is computed),
 *   RK2 stage 1 skipped, stage 0 too:      nothing ((w + (w + 0)) / 2 = w exactly),
 *   RK2 stage 1 skipped, stage 0 computed: the update with R = 0 (a row of zeros).
 * So the state is bit-identical with early exit on and off (test_kp_fast checks it).
 * set_state reads h < 0 (not a state) as 0, so that no skipped tile would have clipped.
 * AUTO: every KP_AUTO_PERIOD steps, one rates call runs without the map and the next
 * with it, both timed; the faster way is kept until the next trial (a trial costs one
 * full evaluation in 200 when the map saves most: ~5 % on a mostly dry domain).
 *
 * apply: OpenMP over tile rows (each thread writes the wet flags of its own tiles), runs
 * of tiles of the same action, per cell the update of kp_cpu.h with the friction
 * H~f = g n^2 |u| / (h cbrt(h)) (a vectorizable cube root, kp_fast_face.h).
 *
 * Forcing (cpu_ref/swe.h "Boundary data, rain and point sources"), as kp_scalar.c has it:
 *  - boundary faces: the vectorized flux treats a ghost of a value code as free (its
 *    slopes are those of free, GRID_BC_SIGN = +1); a unit that holds faces of the ring
 *    then overwrites each face between an active cell and a ghost of a segment (or of a
 *    value code) with kp_boundary_face (kp_internal.h), in double, from the
 *    active side's point, and writes the face's volume rate into the clock's ring_rate
 *    (each ring face belongs to exactly one unit: no two threads write one entry);
 *    rates starts with swe_clock_stage, as the scalar solver's;
 *  - rain: a per-cell array of rain[] in the padded layout, added in the update kernel
 *    (cw dt factor rain[k], before the clip);
 *  - sources: after the update, serially (they are few), swe_source_take on the
 *    destination surface with the accounts; the update kernel leaves the source cells'
 *    dry and thin-film rules undone (a mask) and this pass applies them after the
 *    source, so that each cell gets them once, on its final depth;
 *  - apply ends with the clip's account and swe_clock_applied;
 *  - early exit is off (a rain or a source wets a dry tile, an open boundary a dry edge
 *    tile): the name says "early exit off".
 *
 * Vectorization: no intrinsics; the loops are plain C with #pragma omp simd, every
 * choice a ternary the vectorizer turns into a blend.  Two things GCC 12 needs:
 *  - -fno-trapping-math (this file's #pragma): else a compare that only one arm of a
 *    ternary needs may not be speculated, and the loop is not if-converted;
 *  - a sqrt that sets no errno: -fno-math-errno cannot be asked for by a pragma (the
 *    libm builtins' attributes are fixed on the command line), so sqrt is a Newton
 *    iteration (kp_fast_face.h, within a few ulp), always, so that the bits do not
 *    depend on the flags.  It costs little: with -fno-math-errno and sqrtps instead,
 *    a Zen 4 core ran 12 % faster with SSE2 and 20 % slower with AVX-512.
 * Nested min/max are split into one compare per statement (GCC 12 cannot vectorize
 * the select of booleans it folds them into).  The kernels are compiled for the build's
 * target and, with GCC on x86-64 below AVX2, cloned for AVX2 and AVX-512 (ifunc).
 * Results are bit-identical across SSE2 / AVX2 / AVX-512 and thread counts (ISO C: no
 * FMA contraction); only the clip volume's sum order follows the vector width.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("no-trapping-math")
#endif
#if defined(__clang__)
/* clang leaves the max reductions scalar (they need no-NaN math): a speed matter only */
#pragma clang diagnostic ignored "-Wpass-failed"
#endif

#include "cpu_info.h"
#include "kp_cpu.h"
#include "kp_internal.h"

#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KP_AUTO_PERIOD 100
#define KP_SQRT2 1.41421356237309504880
#define KP_MIN(a, b) ((a) < (b) ? (a) : (b))
#define KP_MAX(a, b) ((a) > (b) ? (a) : (b))
#if defined(__GNUC__)
#define KP_INLINE static inline __attribute__((always_inline))
#else
#define KP_INLINE static inline
#endif

/* most tiles per unit along x: its 42 row buffers (kp_fast_rates.h) stay in L1 / L2 */
#define KP_CHUNK_F 8
#define KP_CHUNK_D 4

/* The kernels (recon, flux, unit, update) are compiled for the build's target and, on
 * x86-64 with GCC when that target is below AVX2, also for x86-64-v3 (AVX2) and
 * x86-64-v4 (AVX-512), picked at load time by the CPU (ifunc): 2.5x and 3.5x the SSE2
 * speed on a Zen 4.  The build is ISO C (no FMA contraction), so every version gives the
 * same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(__AVX2__) && !defined(SWGL_NO_CLONES)
#define KP_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))
#define KP_HAVE_CLONES 1
#else
#define KP_CLONES
#endif

/* the vector unit the kernels run on (for the name): bytes per vector */
static const char *simd_isa(int *bytes)
{
#ifdef KP_HAVE_CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return *bytes = 64, "AVX-512";
    if (__builtin_cpu_supports("avx2")) return *bytes = 32, "AVX2";
    return *bytes = 16, "SSE2";
#elif defined(__AVX512F__)
    return *bytes = 64, "AVX-512";
#elif defined(__AVX2__)
    return *bytes = 32, "AVX2";
#elif defined(__AVX__)
    return *bytes = 32, "AVX";
#elif defined(__SSE2__) || defined(__x86_64__)
    return *bytes = 16, "SSE2";
#elif defined(__ARM_NEON)
    return *bytes = 16, "NEON";
#else
    return *bytes = 0, "SIMD";
#endif
}

struct kp_fast {
    int dbl, nx, ny, nthreads, rk2;
    int nrun;                   /* threads of the parallel regions now (<= nthreads): cpu_load */
    cpu_load load;
    int own[4];                 /* swe_problem own: the cells whose bound counts (own[2] 0: all) */
    enum kp_early_exit early_exit;
    size_t st, n;               /* row stride, values per field */
    double dx, dy, g, cfl, eps, kappa, rkappa, kappa4, theta;
    double capd;                /* kp_problem cap_depth (0: no cap) */
    void *caps;                 /* the cap's speed S of the thin cells (kp_fast_update.h), or NULL */
    void *Q[2][3], *R[3], *BE, *BW, *BN, *BS, *Bij, *cd, *gn2;
    void *L[2];                 /* float: the surface's low words (kp_fast_update.h); NULL in double */
    double *Bij_d;              /* grid_size: B_ij in double (set_state's w = B + h) */
    void *tbuf;                 /* per thread: row buffers of a unit */
    size_t tsize, cw;           /* values per thread, per buffer row */
    void *zero;                 /* cw zeros: R of a skipped tile */
    int ntx, nty;               /* tiles */
    unsigned char *wet, *skip[2];
    unsigned char *same;        /* RK2: tile's Q* equals its Q^n (a skipped copy can go) */
    /* the second rule (tiles at rest, "Early exit" above): whether the run uses it, whether
     * still[] describes the last step, a tile's flags (still through the last step; at rest
     * and skipped this step; changed or moving in this step so far), its largest speed when
     * last computed (T: tsp), and the largest over this step's tiles at rest */
    int rest, rest_hist;
    unsigned char *still, *srest, *mvt;
    void *tsp;
    double rest_smax;
    int *units, nunits;         /* (ty, i0, i1) */
    long computed, total;       /* tiles of the last rates */
    long ncalls;                /* rates calls (AUTO's clock) */
    int auto_map;               /* AUTO: the map is the faster */
    double t_off;               /* AUTO: time of the last trial without the map */
    double clip_vol;
    swe_clock *clk;             /* the owner's (kp_scalar.c): boundary data and accounts */
    int bfix;                   /* some ring ghost has a segment or a value code */
    void *frain, *fsrc;         /* rain[] and the source-cell mask (1), padded; NULL: no
                                 * rain nor source */
    size_t *src_kf;             /* the sources' cells in the padded layout */
    char name[96];
};

#define KP_IDX(f, i, j) ((size_t)((j) + 1) * (f)->st + (size_t)((i) + 1))

/* ---- boundary faces (cpu_ref/swe.h), in double: kp_boundary_face (kp_internal.h) ---- */

/* The segment of ring index r (-1: none) */
static inline int bf_seg(const struct kp_fast *f, size_t r)
{
    const swe_forcing *fo = f->clk ? f->clk->f : NULL;
    return fo && fo->n_seg ? fo->seg_of[r] : -1;
}

static inline int bf_value_code(int c) { return c == CELL_LEVEL || c == CELL_DEPTH || c == CELL_DISCHARGE; }

/* sqrt: Newton (kp_fast_face.h), whatever the flags */
#define KP_SQRT_F nsqrt_f
#define KP_SQRT_D nsqrt_d

#define KP_T float
#define KP_U uint32_t
#define KP_SFX(n) n##_f
#define KP_SQRT KP_SQRT_F
#include "kp_fast_body.h"
#undef KP_T
#undef KP_U
#undef KP_SFX
#undef KP_SQRT

#define KP_T double
#define KP_U uint64_t
#define KP_SFX(n) n##_d
#define KP_SQRT KP_SQRT_D
#include "kp_fast_body.h"
#undef KP_T
#undef KP_U
#undef KP_SFX
#undef KP_SQRT

static void *alloc64(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 64) != 0) return NULL;
    memset(p, 0, bytes);
    return p;
}

void kp_fast_destroy(struct kp_fast *f)
{
    if (!f) return;
    for (int s = 0; s < 2; s++)
        for (int m = 0; m < 3; m++) free(f->Q[s][m]);
    for (int m = 0; m < 3; m++) free(f->R[m]);
    free(f->BE);
    free(f->BW);
    free(f->BN);
    free(f->BS);
    free(f->Bij);
    free(f->cd);
    free(f->gn2);
    free(f->L[0]);
    free(f->L[1]);
    free(f->Bij_d);
    free(f->caps);
    free(f->tbuf);
    free(f->zero);
    free(f->wet);
    free(f->skip[0]);
    free(f->skip[1]);
    free(f->same);
    free(f->still);
    free(f->srest);
    free(f->mvt);
    free(f->tsp);
    free(f->units);
    free(f->frain);
    free(f->fsrc);
    free(f->src_kf);
    free(f);
}

struct kp_fast *kp_fast_create(const kp_problem *p, int dbl, swe_clock *clk)
{
    if (kp_problem_check(p) != SWGL_OK) return NULL;
    const swe_forcing *fo = p->sw.forcing;
    if (swe_forcing_any(fo) && !clk) {
        swgl_fail(SWGL_ERR_ARG, "kp: the fast solver's forcing needs a clock");
        return NULL;
    }
    struct kp_fast *f = calloc(1, sizeof *f);
    if (!f) goto fail;
    f->clk = clk;
    f->dbl = dbl != 0;
    f->nx = p->sw.nx;
    memcpy(f->own, p->sw.own, sizeof f->own);
    f->ny = p->sw.ny;
    f->rk2 = p->rk2 != 0;
    f->early_exit = p->early_exit;
    /* the boundary faces to overwrite: a ring ghost with a segment or a value code */
    {
        const int nx = p->sw.nx, ny = p->sw.ny, M = nx > ny ? nx : ny;
        for (int side = 0; side < 4 && !f->bfix; side++)
            for (int m = 0; m < (side < 2 ? ny : nx); m++) {
                int i = side == 0 ? 0 : side == 1 ? nx + 1 : m + 1, j = side == 2 ? 0 : side == 3 ? ny + 1 : m + 1;
                int seg = fo && fo->n_seg ? fo->seg_of[SWE_RING(side, m, M)] : -1;
                if (seg >= 0 || bf_value_code(p->sw.code[grid_at(nx, i, j)])) f->bfix = 1;
            }
    }
    /* water that appears in a dry tile (rain, a source) or at a dry edge (a level, depth or
     * discharge boundary): no tile may be skipped.  Free outlets alone take no water in (a
     * free ghost copies the cell beside it, so a dry edge stays dry): their faces' rates are
     * zeroed before each stage (kp_fast_rates), so a skipped dry tile's faces count 0 */
    int open_only = fo && fo->n_seg > 0 && !fo->rain && fo->n_src == 0 && !fo->forced;
    for (int s = 0; open_only && s < fo->n_seg; s++) open_only = fo->seg[s].code == CELL_FREE;
    for (size_t k = 0; open_only && k < grid_size(p->sw.nx, p->sw.ny); k++) open_only = !bf_value_code(p->sw.code[k]);
    if ((swe_forcing_any(fo) || f->bfix) && !open_only) f->early_exit = KP_EARLY_EXIT_OFF;
    /* the second rule: with the map, on one block (a rank's bound counts its own cells only) */
    f->rest = !p->rest_off && f->early_exit != KP_EARLY_EXIT_OFF && !p->sw.own[2];
    f->dx = p->sw.dx;
    f->dy = p->sw.dy;
    f->g = p->sw.g;
    f->cfl = p->sw.cfl;
    f->eps = p->sw.h_dry;
    f->kappa = p->sw.kappa;
    f->rkappa = p->sw.kappa > 0.0 ? 1.0 / p->sw.kappa : 0.0;
    f->kappa4 = (p->sw.kappa * p->sw.kappa) * (p->sw.kappa * p->sw.kappa);
    f->theta = p->theta;
    f->capd = p->cap_depth > 0.0 ? p->cap_depth : 0.0;
    f->nthreads = omp_get_max_threads();
    if (p->sw.threads > 0) f->nthreads = p->sw.threads;   /* (--tune cpu.threads=N) */
    if (f->nthreads < 1) f->nthreads = 1;
    cpu_load_init(&f->load, f->nthreads, p->sw.threads > 0);
    f->nrun = f->nthreads;
    const size_t sz = f->dbl ? sizeof(double) : sizeof(float);
    f->st = ((size_t)f->nx + 4 + 15) / 16 * 16;
    f->n = f->st * ((size_t)f->ny + 4);
    const size_t fb = f->n * sz;
    for (int m = 0; m < 3; m++) {
        f->Q[0][m] = alloc64(fb);
        if (f->rk2) f->Q[1][m] = alloc64(fb);
        f->R[m] = alloc64(fb);
        if (!f->Q[0][m] || (f->rk2 && !f->Q[1][m]) || !f->R[m]) goto fail;
    }
    if (!f->dbl) {   /* the low words, 0 until set_state and the updates write them */
        for (int s = 0; s < 1 + f->rk2; s++)
            if (!(f->L[s] = alloc64(fb))) goto fail;
            else memset(f->L[s], 0, fb);
        if (!f->rk2) f->L[1] = NULL;
    }
    f->BE = alloc64(fb);
    f->BW = alloc64(fb);
    f->BN = alloc64(fb);
    f->BS = alloc64(fb);
    f->Bij = alloc64(fb);
    f->cd = alloc64(fb);
    if (f->capd > 0.0) {
        if (!(f->caps = alloc64(fb))) goto fail;
        memset(f->caps, 0, fb);
    }
    int friction = 0;
    if (p->manning)
        for (size_t k = 0; k < grid_size(f->nx, f->ny); k++)
            if (p->sw.code[k] == CELL_ACTIVE && p->manning[k] > 0.0) friction = 1;
    if (friction) f->gn2 = alloc64(fb);
    f->Bij_d = malloc(grid_size(f->nx, f->ny) * sizeof *f->Bij_d);
    f->cw = (size_t)(f->dbl ? KP_CHUNK_D : KP_CHUNK_F) * KP_TILE + 16;
    f->tsize = 44 * f->cw;
    f->tbuf = alloc64((size_t)f->nthreads * f->tsize * sz);
    f->zero = alloc64(f->cw * sz);
    f->ntx = (f->nx + KP_TILE - 1) / KP_TILE;
    f->nty = (f->ny + KP_TILE - 1) / KP_TILE;
    const size_t nt = (size_t)f->ntx * (size_t)f->nty;
    f->wet = calloc(nt, 1);
    f->skip[0] = calloc(nt, 1);
    f->skip[1] = calloc(nt, 1);
    f->same = calloc(nt, 1);
    f->still = calloc(nt, 1);
    f->srest = calloc(nt, 1);
    f->mvt = calloc(nt, 1);
    f->tsp = calloc(nt, sz);
    f->units = malloc(3 * nt * sizeof *f->units);
    const int forced = fo && (fo->rain || fo->n_src > 0);
    if (forced) {
        f->frain = alloc64(fb);
        f->fsrc = alloc64(fb);
        f->src_kf = malloc(((size_t)fo->n_src + 1) * sizeof *f->src_kf);
        if (!f->frain || !f->fsrc || !f->src_kf) goto fail;
        for (int q = 0; q < fo->n_src; q++) {
            const size_t k = fo->src_cell[q], W = (size_t)grid_stride(f->nx);
            f->src_kf[q] = KP_IDX(f, (int)(k % W), (int)(k / W));
        }
    }
    if (!f->BE || !f->BW || !f->BN || !f->BS || !f->Bij || !f->cd || (friction && !f->gn2) || !f->Bij_d ||
        !f->tbuf || !f->zero || !f->wet || !f->skip[0] || !f->skip[1] || !f->same || !f->still || !f->srest ||
        !f->mvt || !f->tsp || !f->units)
        goto fail;
    if (f->dbl) fill_d(f, p);
    else fill_f(f, p);
    if (f->dbl) wet_map_d(f);
    else wet_map_f(f);
    f->auto_map = 1;
    static const char *ee[] = {"auto", "on", "off"};
    int bytes;
    const char *isa = simd_isa(&bytes);
    const char *mode = ee[(unsigned)f->early_exit <= 2 ? f->early_exit : 0];
    if (bytes)
        snprintf(f->name, sizeof f->name, "cpu (%s, %s x%d, up to %d threads, early exit %s%s)",
                 f->dbl ? "double" : "float", isa, bytes / (int)sz, f->nthreads, mode, f->rest ? ": dry and resting tiles" : "");
    else
        snprintf(f->name, sizeof f->name, "cpu (%s, SIMD, up to %d threads, early exit %s%s)", f->dbl ? "double" : "float",
                 f->nthreads, mode, f->rest ? ": dry and resting tiles" : "");
    return f;
fail:
    swgl_fail(SWGL_ERR_NO_MEMORY, "kp: out of memory");
    kp_fast_destroy(f);
    return NULL;
}

void kp_fast_set_state(struct kp_fast *f, const double *h, const double *qx, const double *qy)
{
    memset(f->same, 0, (size_t)f->ntx * (size_t)f->nty);
    f->rest_hist = 0;   /* (no step's history: no tile at rest until one is taken) */
    if (f->dbl) {
        set_state_d(f, h, qx, qy);
        wet_map_d(f);
    } else {
        set_state_f(f, h, qx, qy);
        wet_map_f(f);
    }
}

void kp_fast_halo(struct kp_fast *f, int set, int x, int y, int w, int h, double *buf)
{
    if (f->dbl) halo_d(f, set, x, y, w, h, buf);
    else halo_f(f, set, x, y, w, h, buf);
    if (!set) return;
    /* the new values may wet tiles: the map and RK2's same-tile marks start again */
    memset(f->same, 0, (size_t)f->ntx * (size_t)f->nty);
    f->rest_hist = 0;
    if (f->dbl) wet_map_d(f);
    else wet_map_f(f);
}

void kp_fast_get_state(const struct kp_fast *f, double *h, double *qx, double *qy)
{
    if (f->dbl) get_state_d(f, h, qx, qy);
    else get_state_f(f, h, qx, qy);
}

/* The units of a rates call and its skipped tiles; use_map 0 computes every tile.  A
 * unit is a run of up to `chunk` computed tiles of a tile row, chunk chosen so that
 * there are some 4 units per thread when few tiles are computed (balance). */
static void plan(struct kp_fast *f, int stage, int use_map)
{
    const int ntx = f->ntx, nty = f->nty;
    unsigned char *skip = f->skip[stage], *wet = f->wet;
    long computed = 0;
    /* the second rule: stage 0 finds the tiles at rest (it and its 8 neighbours still through
     * the last step) among those the dry rule computes, and their largest speed; stage 1
     * skips the same */
    const int rest = f->rest && use_map && (stage == 1 || f->rest_hist);
    if (stage == 0) {
        memset(f->srest, 0, (size_t)ntx * nty);
        f->rest_smax = 0.0;
    }
    for (int ty = 0; ty < nty; ty++)
        for (int tx = 0; tx < ntx; tx++) {
            size_t t = (size_t)ty * ntx + tx;
            int need = !use_map || wet[t] || (tx > 0 && wet[t - 1]) || (tx + 1 < ntx && wet[t + 1]) ||
                       (ty > 0 && wet[t - ntx]) || (ty + 1 < nty && wet[t + ntx]);
            if (need && rest && stage == 0) {
                int still = 1;
                for (int b = ty - 1; b <= ty + 1 && still; b++)
                    for (int c = tx - 1; c <= tx + 1 && still; c++)
                        if (b >= 0 && c >= 0 && b < nty && c < ntx) still = f->still[(size_t)b * ntx + c];
                if (still) {
                    f->srest[t] = 1;
                    double sp = f->dbl ? ((const double *)f->tsp)[t] : (double)((const float *)f->tsp)[t];
                    f->rest_smax = sp > f->rest_smax ? sp : f->rest_smax;
                }
            }
            if (rest && f->srest[t]) need = 0;
            else if (!need && f->rest && stage == 0) {   /* a dry tile's speed is 0 (R = 0, r = +inf) */
                if (f->dbl) ((double *)f->tsp)[t] = 0.0;
                else ((float *)f->tsp)[t] = 0.0f;
            }
            skip[t] = !need;
            computed += need;
        }
    long per = computed / (4L * f->nthreads);
    const int chunk = (int)KP_MAX(1L, KP_MIN(per, (long)(f->dbl ? KP_CHUNK_D : KP_CHUNK_F)));
    int nu = 0;
    for (int ty = 0; ty < nty; ty++) {
        const unsigned char *sk = skip + (size_t)ty * ntx;
        int tx = 0;
        while (tx < ntx) {
            if (sk[tx]) {
                tx++;
                continue;
            }
            int tx1 = tx + 1;
            while (tx1 < ntx && !sk[tx1] && tx1 - tx < chunk) tx1++;
            f->units[3 * nu] = ty;
            f->units[3 * nu + 1] = tx * KP_TILE + 1;
            f->units[3 * nu + 2] = KP_MIN(tx1 * KP_TILE + 1, f->nx + 1);
            nu++;
            tx = tx1;
        }
    }
    f->nunits = nu;
    f->computed = computed;
    f->total = (long)ntx * nty;
}

/* The level ghosts' w: their segment's level at the stage's time, which the slopes of
 * the cell beside them read (recon in kp_fast_face.h), in both state arrays. */
static void level_ghosts(struct kp_fast *f)
{
    const swe_forcing *fo = f->clk->f;
    if (!fo || !fo->n_seg) return;
    int M = f->clk->M;
    for (int side = 0; side < 4; side++)
        for (int m = 0; m < (side < 2 ? f->ny : f->nx); m++) {
            int sg = fo->seg_of[SWE_RING(side, m, M)];
            if (sg < 0 || fo->seg[sg].code != CELL_LEVEL) continue;
            int i = side == 0 ? 0 : side == 1 ? f->nx + 1 : m + 1, j = side == 2 ? 0 : side == 3 ? f->ny + 1 : m + 1;
            size_t kf = KP_IDX(f, i, j);
            for (int b = 0; b < 1 + f->rk2; b++) {
                if (f->dbl) ((double *)f->Q[b][0])[kf] = f->clk->seg_val[sg];
                else ((float *)f->Q[b][0])[kf] = (float)f->clk->seg_val[sg];
            }
        }
}

double kp_fast_rates(struct kp_fast *f, int stage)
{
    if (stage < 0 || stage > f->rk2) return NAN;
    f->nrun = cpu_load_threads(&f->load);   /* the threads the other programs leave (cpu_info.h) */
    if (f->clk) {
        swe_clock_stage(f->clk, stage);   /* the boundary values of the stage */
        level_ghosts(f);
        /* (a face of a tile early exit skips carries nothing: bface writes the others) */
        if (f->clk->f && f->clk->f->n_seg) memset(f->clk->ring_rate, 0, 4 * (size_t)f->clk->M * sizeof(double));
    }
    int use_map = 0, phase = -1;
    switch (f->early_exit) {
    case KP_EARLY_EXIT_ON: use_map = 1; break;
    case KP_EARLY_EXIT_OFF: use_map = 0; break;
    default:
        phase = (int)(f->ncalls % (KP_AUTO_PERIOD * (1 + f->rk2)));   /* every 100 steps */
        use_map = phase == 0 ? 0 : phase == 1 ? 1 : f->auto_map;
        break;
    }
    f->ncalls++;
    const double t0 = phase == 0 || phase == 1 ? omp_get_wtime() : 0.0;
    plan(f, stage, use_map);
    double r = f->dbl ? rates_d(f, stage) : rates_f(f, stage);
    if (phase == 0) f->t_off = omp_get_wtime() - t0;
    if (phase == 1) f->auto_map = omp_get_wtime() - t0 <= f->t_off;
    return r;
}

int kp_fast_apply(struct kp_fast *f, int stage, double dt)
{
    f->clip_vol = 0.0;
    if (stage < 0 || stage > f->rk2 || !(dt >= 0.0) || !(dt < INFINITY)) return -1;
    if (f->clk && stage == 0) swe_clock_step(f->clk, dt);   /* the series' means over the step (swe.h) */
    int r = f->dbl ? apply_d(f, stage, dt) : apply_f(f, stage, dt);
    if (f->clk) {   /* as kp_scalar.c: the clip's account, the faces' and the rain's */
        f->clk->acc.clip += (f->rk2 && stage == 0 ? 0.5 : 1.0) * f->clip_vol;
        swe_clock_applied(f->clk, stage, 1 + f->rk2, dt);
    }
    return r;
}

void kp_fast_clip_stats(const struct kp_fast *f, double *volume)
{
    if (volume) *volume = f->clip_vol;
}

void kp_fast_tiles(const struct kp_fast *f, long *computed, long *total)
{
    const int off = f->early_exit == KP_EARLY_EXIT_OFF;
    if (computed) *computed = off ? 0 : f->computed;
    if (total) *total = off ? 0 : f->total;
}

int kp_fast_threads(const struct kp_fast *f)
{
    return f->nthreads;
}

const char *kp_fast_name(const struct kp_fast *f)
{
    return f->name;
}
