/* roe_fast.c — the fast CPU solver of the Lastra et al. (2009) Roe scheme with the
 * draining limiter on the mass update: float (SSE intrinsics over 4 edges / 4 cells;
 * AVX2 over 8, AVX-512 over 16) or double (`--precision double`: SSE2 over 2, AVX2 over 4,
 * AVX-512 over 8), OpenMP over blocks of rows.  The kernels are written once over a vector
 * of lanes (roe_fast_body.h, included below for each type and instruction set; the widest
 * the CPU has is chosen at create, or --tune cpu.isa).  Same scheme, same sweep and the same order of sums as
 * the scalar solver (roe_scalar.c), whose comment block gives rates and apply with
 * equations (M1)-(M4); the edge function is roe_edge (roe_flux.c, equations there)
 * written for 4 (2) lanes, with every branch turned into a mask and a blend:
 *   dry cells         dry = h <= h_dry; u = dry ? 0 : q/h
 *   entropy fix       fix_k = lambda^L_k < 0 & lambda^R_k > 0, per lane
 *   emerging bottom   case A = dry_i & h_j <= H_j - H_i, case B = dry_j & h_i <= H_i - H_j
 *   boundary edges    a lane whose one side is a ghost gets that side rebuilt from the
 *                     active side (wall: q_n -> -q_n, free: copy; H_ext = H_int); the
 *                     ring's ghosts with a value (level, depth, discharge) are then
 *                     recomputed one edge at a time, in double, by the scalar solver's
 *                     roe_boundary_edge (roe_cpu.h "Boundary data") over the lanes' result
 *   forcing           rain with the flux update (h += dt rate, before the clip); after the
 *                     update, serially: the boundary edges' volumes (-theta P, the products
 *                     the update used) into the owner's swe_clock, the point sources and
 *                     the dry rule and (M5) on their cells (skipped there by the lanes)
 *   mass flux (M1)    G = |Gamma| (qn_L + F-_LR[0]), and 0 on wall lanes
 *                     (ghost side not free) and lanes with no active side
 *   drain time (M2)   O = (max(P_E,0) + max(P_W,0)) + (max(P_N,0) + max(P_S,0)),
 *                     tau = active & O > 0 ? h |V| / max(O, tiny) : +inf
 *   update (M3)-(M4)  theta = min(1, tau / dt) of the cell and of its 4 neighbours
 *                     (unaligned loads at c, c+-1, c+-st), t_X = P_X > 0 ? theta_c :
 *                     theta_neighbour; h -= dt/|V| ((t_E P_E + t_W P_W) + (t_N P_N +
 *                     t_S P_S)); momentum (4) as before; h = max(h, 0), dry -> q = 0
 * Divisions that can see 0 in a lane whose result is blended away use max(x, tiny)
 * so that no lane makes an inf or a NaN (tau = +inf is set by the blend, and inf / dt
 * = inf, min(1, inf) = 1: a ghost never limits).
 *
 * Storage: float (double) arrays with a padded row stride st = roundup(nx + L + 2, L) for
 * L lanes, so an L-wide load starting at any column 0..nx+1 stays in its row; the padding columns
 * are CELL_OFF (never active) with zero state and tau = +inf.  Full-size arrays: the
 * state, H, M (2 values), G of the east and north edge of each cell (phiE, phiN, as in
 * the scalar solver, index k = j st + i) and tau.  Each OpenMP thread sweeps its own
 * block of rows j0..j1-1 with its own row buffers (momentum F- and ||D|| of the x-edges
 * of the row and of its north and south edges); it writes G of the x-edges and north
 * edges of its own rows straight into phiE / phiN.  The y-edge row between two blocks
 * is computed by both threads: the one below owns it (writes phiN), the one above keeps
 * its copy of G in its buffer; the thread with j0 = 1 also writes row 0 of phiN.  The
 * update (apply) is a second parallel loop over rows, after the sweep's barrier.
 */
#include "cpu_info.h"
#include "roe_cpu.h"
#include "roe_internal.h"

#include <emmintrin.h>
#include <math.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


struct roe_fast {
    int nx, ny, nthreads;
    int nrun;                   /* threads of the parallel regions now (<= nthreads): cpu_load */
    cpu_load load;
    int dbl;                    /* 0: float, 1: double */
    int wide;                   /* the kernels: 0 SSE (x4 / x2), 1 AVX2 (x8 / x4), 2 AVX-512 (x16 / x8) */
    char simd[32];              /* "float, AVX-512 x16" */
    size_t st;                  /* row stride (values) */
    size_t n;                   /* values per field, with tail padding */
    double dx, dy, cfl, g, h_dry, kappa;
    /* arrays of float or double (dbl) */
    void *H, *h, *qx, *qy;
    void *mom[2];               /* M_i per cell */
    void *phiE, *phiN;          /* G of the east / north edge of cell k (owner: west/south cell) */
    void *tau;                  /* drain time; +inf off the active cells */
    void *act, *fre;            /* lane masks (int32 / int64): -1 active / free, 0 otherwise */
    void *cnt;                  /* lane mask: -1 active and counted in the bound (swe_problem own) */
    void *tbuf;                 /* per thread: 3 edge rows x 5 fields x st, 1 row of G */
    size_t tsize;
    int moving;                 /* rates saw a wave */
    double clip_vol, clip_rel;  /* last apply's clip */
    /* boundary data, rain, sources (roe_cpu.h "Boundary data") */
    swe_clock *clk;             /* the owner's (roe_scalar.c): the step's values and the accounts */
    unsigned char *code;        /* the problem's codes (grid_at layout): the ring's ghosts */
    int ring_fix;               /* a ghost of the ring has a value (level, depth, discharge) */
    void *rain;                 /* T per cell (m/s, active cells), NULL without rain */
    void *srcm;                 /* MT per cell: -1 on a source's cell, NULL without sources */
    size_t *src_kf;             /* per source: its cell in the padded layout */
    unsigned char *src_first;   /* per source: the first of its cell (the dry rule once) */
};

/* a ghost that shows a state of its own at a boundary edge (the ring's value codes) */
static inline int value_code(unsigned char c)
{
    return c == CELL_LEVEL || c == CELL_DEPTH || c == CELL_DISCHARGE;
}

/* ---- the kernels, float x4 (SSE) ---- */
#define T float
#define MT int32_t
#define V __m128
#define LANES 4
#define FN(name) name##_f
#define RF_TINY 1e-30f
#define RF_SQRT2 1.41421356f
#define v_set1 _mm_set1_ps
#define v_zero _mm_setzero_ps
#define v_add _mm_add_ps
#define v_sub _mm_sub_ps
#define v_mul _mm_mul_ps
#define v_div _mm_div_ps
#define v_max _mm_max_ps
#define v_min _mm_min_ps
#define v_sqrt _mm_sqrt_ps
#define v_and _mm_and_ps
#define v_or _mm_or_ps
#define v_andnot _mm_andnot_ps
#define v_lt _mm_cmplt_ps
#define v_le _mm_cmple_ps
#define v_gt _mm_cmpgt_ps
#define v_eq _mm_cmpeq_ps
#define v_unord _mm_cmpunord_ps
#define v_movemask _mm_movemask_ps
#define v_load _mm_loadu_ps
#define v_store _mm_storeu_ps
#define v_loadm(p) _mm_castsi128_ps(_mm_loadu_si128((const __m128i *)(p)))
#define v_ones() _mm_castsi128_ps(_mm_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"

/* ---- the kernels, double x2 (SSE2) ---- */
#define T double
#define MT int64_t
#define V __m128d
#define LANES 2
#define FN(name) name##_d
#define RF_TINY 1e-300
#define RF_SQRT2 1.4142135623730951
#define v_set1 _mm_set1_pd
#define v_zero _mm_setzero_pd
#define v_add _mm_add_pd
#define v_sub _mm_sub_pd
#define v_mul _mm_mul_pd
#define v_div _mm_div_pd
#define v_max _mm_max_pd
#define v_min _mm_min_pd
#define v_sqrt _mm_sqrt_pd
#define v_and _mm_and_pd
#define v_or _mm_or_pd
#define v_andnot _mm_andnot_pd
#define v_lt _mm_cmplt_pd
#define v_le _mm_cmple_pd
#define v_gt _mm_cmpgt_pd
#define v_eq _mm_cmpeq_pd
#define v_unord _mm_cmpunord_pd
#define v_movemask _mm_movemask_pd
#define v_load _mm_loadu_pd
#define v_store _mm_storeu_pd
#define v_loadm(p) _mm_castsi128_pd(_mm_loadu_si128((const __m128i *)(p)))
#define v_ones() _mm_castsi128_pd(_mm_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"

/* ---- the kernels on AVX2 (float x8, double x4) and AVX-512 (float x16, double x8) ----
 * Compiled for those instruction sets whatever the build's target (GCC's target pragma,
 * x86-64, not clang) and chosen at create by what the CPU has (or --tune cpu.isa).  The
 * compares give the same lane masks as SSE's (AVX-512's mask registers turned back into
 * vectors), max and min keep SSE's operand order (the second operand on NaN), and the
 * build is ISO C (no FMA contraction): every lane computes what the SSE lane computes. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(SWGL_NO_WIDE_SIMD)
#define RF_HAVE_WIDE 1
#include <immintrin.h>
#define RF_KERNELS_ONLY 1
#pragma GCC push_options
#pragma GCC target("avx2")
#define T float
#define MT int32_t
#define V __m256
#define LANES 8
#define FN(name) name##_f8
#define RF_TINY 1e-30f
#define RF_SQRT2 1.41421356f
#define v_set1 _mm256_set1_ps
#define v_zero _mm256_setzero_ps
#define v_add _mm256_add_ps
#define v_sub _mm256_sub_ps
#define v_mul _mm256_mul_ps
#define v_div _mm256_div_ps
#define v_max _mm256_max_ps
#define v_min _mm256_min_ps
#define v_sqrt _mm256_sqrt_ps
#define v_and _mm256_and_ps
#define v_or _mm256_or_ps
#define v_andnot _mm256_andnot_ps
#define v_lt(a, b) _mm256_cmp_ps(a, b, _CMP_LT_OS)
#define v_le(a, b) _mm256_cmp_ps(a, b, _CMP_LE_OS)
#define v_gt(a, b) _mm256_cmp_ps(a, b, _CMP_GT_OS)
#define v_eq(a, b) _mm256_cmp_ps(a, b, _CMP_EQ_OQ)
#define v_unord(a, b) _mm256_cmp_ps(a, b, _CMP_UNORD_Q)
#define v_movemask _mm256_movemask_ps
#define v_load _mm256_loadu_ps
#define v_store _mm256_storeu_ps
#define v_loadm(p) _mm256_castsi256_ps(_mm256_loadu_si256((const __m256i *)(p)))
#define v_ones() _mm256_castsi256_ps(_mm256_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"

#define T double
#define MT int64_t
#define V __m256d
#define LANES 4
#define FN(name) name##_d4
#define RF_TINY 1e-300
#define RF_SQRT2 1.4142135623730951
#define v_set1 _mm256_set1_pd
#define v_zero _mm256_setzero_pd
#define v_add _mm256_add_pd
#define v_sub _mm256_sub_pd
#define v_mul _mm256_mul_pd
#define v_div _mm256_div_pd
#define v_max _mm256_max_pd
#define v_min _mm256_min_pd
#define v_sqrt _mm256_sqrt_pd
#define v_and _mm256_and_pd
#define v_or _mm256_or_pd
#define v_andnot _mm256_andnot_pd
#define v_lt(a, b) _mm256_cmp_pd(a, b, _CMP_LT_OS)
#define v_le(a, b) _mm256_cmp_pd(a, b, _CMP_LE_OS)
#define v_gt(a, b) _mm256_cmp_pd(a, b, _CMP_GT_OS)
#define v_eq(a, b) _mm256_cmp_pd(a, b, _CMP_EQ_OQ)
#define v_unord(a, b) _mm256_cmp_pd(a, b, _CMP_UNORD_Q)
#define v_movemask _mm256_movemask_pd
#define v_load _mm256_loadu_pd
#define v_store _mm256_storeu_pd
#define v_loadm(p) _mm256_castsi256_pd(_mm256_loadu_si256((const __m256i *)(p)))
#define v_ones() _mm256_castsi256_pd(_mm256_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq")
#define T float
#define MT int32_t
#define V __m512
#define LANES 16
#define FN(name) name##_f16
#define RF_TINY 1e-30f
#define RF_SQRT2 1.41421356f
#define RF_MASK(m) _mm512_castsi512_ps(_mm512_movm_epi32(m))
#define v_set1 _mm512_set1_ps
#define v_zero _mm512_setzero_ps
#define v_add _mm512_add_ps
#define v_sub _mm512_sub_ps
#define v_mul _mm512_mul_ps
#define v_div _mm512_div_ps
#define v_max _mm512_max_ps
#define v_min _mm512_min_ps
#define v_sqrt _mm512_sqrt_ps
#define v_and _mm512_and_ps
#define v_or _mm512_or_ps
#define v_andnot _mm512_andnot_ps
#define v_lt(a, b) RF_MASK(_mm512_cmp_ps_mask(a, b, _CMP_LT_OS))
#define v_le(a, b) RF_MASK(_mm512_cmp_ps_mask(a, b, _CMP_LE_OS))
#define v_gt(a, b) RF_MASK(_mm512_cmp_ps_mask(a, b, _CMP_GT_OS))
#define v_eq(a, b) RF_MASK(_mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ))
#define v_unord(a, b) RF_MASK(_mm512_cmp_ps_mask(a, b, _CMP_UNORD_Q))
#define v_movemask(x) ((int)_mm512_movepi32_mask(_mm512_castps_si512(x)))
#define v_load _mm512_loadu_ps
#define v_store _mm512_storeu_ps
#define v_loadm(p) _mm512_castsi512_ps(_mm512_loadu_si512((const void *)(p)))
#define v_ones() _mm512_castsi512_ps(_mm512_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"
#undef RF_MASK

#define T double
#define MT int64_t
#define V __m512d
#define LANES 8
#define FN(name) name##_d8
#define RF_TINY 1e-300
#define RF_SQRT2 1.4142135623730951
#define RF_MASK(m) _mm512_castsi512_pd(_mm512_movm_epi64(m))
#define v_set1 _mm512_set1_pd
#define v_zero _mm512_setzero_pd
#define v_add _mm512_add_pd
#define v_sub _mm512_sub_pd
#define v_mul _mm512_mul_pd
#define v_div _mm512_div_pd
#define v_max _mm512_max_pd
#define v_min _mm512_min_pd
#define v_sqrt _mm512_sqrt_pd
#define v_and _mm512_and_pd
#define v_or _mm512_or_pd
#define v_andnot _mm512_andnot_pd
#define v_lt(a, b) RF_MASK(_mm512_cmp_pd_mask(a, b, _CMP_LT_OS))
#define v_le(a, b) RF_MASK(_mm512_cmp_pd_mask(a, b, _CMP_LE_OS))
#define v_gt(a, b) RF_MASK(_mm512_cmp_pd_mask(a, b, _CMP_GT_OS))
#define v_eq(a, b) RF_MASK(_mm512_cmp_pd_mask(a, b, _CMP_EQ_OQ))
#define v_unord(a, b) RF_MASK(_mm512_cmp_pd_mask(a, b, _CMP_UNORD_Q))
#define v_movemask(x) ((int)_mm512_movepi64_mask(_mm512_castpd_si512(x)))
#define v_load _mm512_loadu_pd
#define v_store _mm512_storeu_pd
#define v_loadm(p) _mm512_castsi512_pd(_mm512_loadu_si512((const void *)(p)))
#define v_ones() _mm512_castsi512_pd(_mm512_set1_epi32(-1))
#include "roe_fast_body.h"
#include "roe_fast_undef.h"
#undef RF_MASK
#pragma GCC pop_options
#undef RF_KERNELS_ONLY
#endif

/* ---- the solver ---- */

static int lanes_of(const struct roe_fast *f)
{
    return (f->dbl ? 2 : 4) << f->wide;
}

/* the kernels for the CPU (isa: SWE_ISA_*, swe.h): the widest it has, or the one asked for */
static swgl_status choose_isa(struct roe_fast *f, int isa)
{
    static const char *const name[] = {"SSE", "AVX2", "AVX-512"};
    int have = 0;
#ifdef RF_HAVE_WIDE
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) have = 1;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")) have = 2;
#endif
    if (isa < SWE_ISA_AUTO || isa > SWE_ISA_AVX512)
        return swgl_fail(SWGL_ERR_ARG, "roe: cpu.isa = %d: expected auto, sse2, avx2 or avx512", isa);
    if (isa == SWE_ISA_AUTO) f->wide = have;
    else if (isa - SWE_ISA_SSE2 > have)
        return swgl_fail(SWGL_ERR_ARG, "roe: --tune cpu.isa=%s: this CPU (or build) has no %s; it has %s",
                         isa == SWE_ISA_AVX2 ? "avx2" : "avx512", name[isa - SWE_ISA_SSE2], name[have]);
    else f->wide = isa - SWE_ISA_SSE2;
    snprintf(f->simd, sizeof f->simd, "%s, %s%s x%d", f->dbl ? "double" : "float", name[f->wide],
             f->wide == 0 && f->dbl ? "2" : "", lanes_of(f));
    return SWGL_OK;
}

const char *roe_fast_simd(const struct roe_fast *f)
{
    return f->simd;
}

static void *alloc16(size_t bytes)
{
    void *p = NULL;
    if (posix_memalign(&p, 64, bytes ? bytes : 16) != 0) return NULL;
    memset(p, 0, bytes);
    return p;
}

void roe_fast_destroy(struct roe_fast *f)
{
    if (!f) return;
    free(f->H);
    free(f->h);
    free(f->qx);
    free(f->qy);
    for (int m = 0; m < 2; m++) free(f->mom[m]);
    free(f->phiE);
    free(f->phiN);
    free(f->tau);
    free(f->act);
    free(f->cnt);
    free(f->fre);
    free(f->tbuf);
    free(f->code);
    free(f->rain);
    free(f->srcm);
    free(f->src_kf);
    free(f->src_first);
    free(f);
}

struct roe_fast *roe_fast_create(const swe_problem *p, int use_double, swe_clock *clk)
{
    if (swe_problem_check(p) != SWGL_OK) return NULL;
    struct roe_fast *f = calloc(1, sizeof *f);
    if (!f) goto fail;
    f->clk = clk;
    f->dbl = use_double != 0;
    f->nx = p->nx;
    f->ny = p->ny;
    f->dx = p->dx;
    f->dy = p->dy;
    f->cfl = p->cfl;
    f->g = p->g;
    f->h_dry = p->h_dry;
    f->kappa = p->kappa;
    if (choose_isa(f, p->isa) != SWGL_OK) {
        roe_fast_destroy(f);
        return NULL;
    }
    /* a LANES-wide load starting at any column 0..nx+1 stays in its row, and so does
     * one at column + 1 (apply's tau of the east neighbour) */
    const size_t L = (size_t)lanes_of(f);
    f->st = ((size_t)p->nx + L + 2 + L - 1) / L * L;
    f->n = f->st * (size_t)grid_rows(p->ny) + 2 * L;
    f->nthreads = omp_get_max_threads();
    if (p->threads > 0) f->nthreads = p->threads;   /* (--tune cpu.threads=N) */
    if (f->nthreads < 1) f->nthreads = 1;
    cpu_load_init(&f->load, f->nthreads, p->threads > 0);
    f->nrun = f->nthreads;
    f->tsize = 16 * f->st;
    size_t es = f->dbl ? sizeof(double) : sizeof(float), fb = f->n * es;
    f->H = alloc16(fb);
    f->h = alloc16(fb);
    f->qx = alloc16(fb);
    f->qy = alloc16(fb);
    for (int m = 0; m < 2; m++) f->mom[m] = alloc16(fb);
    f->phiE = alloc16(fb);
    f->phiN = alloc16(fb);
    f->tau = alloc16(fb);
    f->act = alloc16(fb);   /* int32 / int64 masks: the size of the real */
    f->fre = alloc16(fb);
    f->cnt = alloc16(fb);
    f->tbuf = alloc16((size_t)f->nthreads * f->tsize * es);
    if (!f->H || !f->h || !f->qx || !f->qy || !f->mom[0] || !f->mom[1] || !f->phiE ||
        !f->phiN || !f->tau || !f->act || !f->fre || !f->cnt || !f->tbuf)
        goto fail;
    const swe_forcing *fo = clk->f;
    size_t ng = grid_size(p->nx, p->ny), w = (size_t)grid_stride(p->nx);
    f->code = malloc(ng);
    if (!f->code) goto fail;
    memcpy(f->code, p->code, ng);
    for (size_t k = 0; k < ng; k++) {
        int i = (int)(k % w), j = (int)(k / w);
        if ((i == 0 || i == p->nx + 1 || j == 0 || j == p->ny + 1) && value_code(p->code[k])) f->ring_fix = 1;
    }
    if (fo && fo->rain && !(f->rain = alloc16(fb))) goto fail;
    if (fo && fo->n_src > 0) {
        f->srcm = alloc16(fb);
        f->src_kf = calloc((size_t)fo->n_src, sizeof *f->src_kf);
        f->src_first = calloc((size_t)fo->n_src, 1);
        if (!f->srcm || !f->src_kf || !f->src_first) goto fail;
        for (int q = 0; q < fo->n_src; q++) {   /* a grid_at index of an active cell (roe_scalar.c checks) */
            size_t k = fo->src_cell[q];
            f->src_kf[q] = (k / w) * f->st + k % w;
            f->src_first[q] = 1;
            for (int o = 0; o < q; o++)
                if (f->src_kf[o] == f->src_kf[q]) f->src_first[q] = 0;
        }
    }
    if (f->dbl) init_d(f, p);
    else init_f(f, p);
    return f;
fail:
    swgl_fail(SWGL_ERR_NO_MEMORY, "swe: out of memory");
    roe_fast_destroy(f);
    return NULL;
}

void roe_fast_set_state(struct roe_fast *f, const double *h, const double *qx, const double *qy)
{
    if (f->dbl) set_state_d(f, h, qx, qy);
    else set_state_f(f, h, qx, qy);
}

void roe_fast_halo(struct roe_fast *f, int set, int x, int y, int w, int h, double *buf)
{
    if (f->dbl) halo_d(f, set, x, y, w, h, buf);
    else halo_f(f, set, x, y, w, h, buf);
}

void roe_fast_get_state(const struct roe_fast *f, double *h, double *qx, double *qy)
{
    if (f->dbl) get_state_d(f, h, qx, qy);
    else get_state_f(f, h, qx, qy);
}

int roe_fast_threads(const struct roe_fast *f)
{
    return f->nthreads;
}

int roe_fast_is_double(const struct roe_fast *f)
{
    return f->dbl;
}

/* fn's instance for f's kernels: fn_f / fn_f8 / fn_f16 (ty f), fn_d / fn_d4 / fn_d8 (ty d) */
#ifdef RF_HAVE_WIDE
#define RF_W1_f f8
#define RF_W2_f f16
#define RF_W1_d d4
#define RF_W2_d d8
#define RF_CAT(a, b) a##_##b
#define RF_NAME(fn, w) RF_CAT(fn, w)
#define RF_PICK(f, fn, ty, args) \
    ((f)->wide == 2 ? RF_NAME(fn, RF_W2_##ty) args : (f)->wide == 1 ? RF_NAME(fn, RF_W1_##ty) args : fn##_##ty args)
#else
#define RF_PICK(f, fn, ty, args) fn##_##ty args
#endif

double roe_fast_rates(struct roe_fast *f)
{
    int bad = 0;
    f->nrun = cpu_load_threads(&f->load);   /* the threads the other programs leave (cpu_info.h) */
    if (f->dbl) {
        double smax = RF_PICK(f, rates, d, (f, &bad));
        f->moving = smax > 0.0;
        if (bad) return NAN;
        /* as the scalar solver writes it: 2 cfl |V| / max S */
        return smax > 0.0 ? 2.0 * f->cfl * (f->dx * f->dy) / smax : INFINITY;
    }
    float smax = RF_PICK(f, rates, f, (f, &bad));
    f->moving = smax > 0.0f;
    if (bad) return NAN;
    return smax > 0.0f ? 2.0 * f->cfl * f->dx * f->dy / (double)smax : INFINITY;
}

int roe_fast_apply(struct roe_fast *f, double dt)
{
    f->clip_vol = f->clip_rel = 0.0;
    /* an infinite dt: only when nothing moves and nothing comes in (roe_scalar.c) */
    if (isnan(dt) || dt < 0.0 || ((f->moving || swe_forcing_any(f->clk->f)) && !(dt < INFINITY))) return -1;
    /* nothing moves, or dt = 0: only the rain, the sources and the dry clean-up (and
     * theta is never 0/0) */
    const int move = f->moving && dt > 0.0;
    swe_clock_step(f->clk, dt);   /* the series' means over the step (swe.h "over a step") */
    int bad = f->dbl ? RF_PICK(f, apply, d, (f, dt, move)) : RF_PICK(f, apply, f, (f, dt, move));
    if (swe_forcing_any(f->clk->f) && (f->dbl ? forcing_d(f, dt, move) : forcing_f(f, dt, move))) bad = -1;
    f->clk->acc.clip += f->clip_vol;
    swe_clock_applied(f->clk, 0, 1, dt);
    return bad;
}

void roe_fast_clip_stats(const struct roe_fast *f, double *volume, double *rel)
{
    *volume = f->clip_vol;
    *rel = f->clip_rel;
}
