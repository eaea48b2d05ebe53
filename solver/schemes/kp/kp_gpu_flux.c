/* kp_gpu_flux.c — kp's flux evaluation as fragment passes (kpg_flux_eval: [wet map],
 * [fill], flux -> R; the fused kernel of gpu-compute is kp_gpu_kernels.c's): the flux
 * pass (shaders/kp/kp_flux_cell.glsl), the early exit of Brodtkorb 3.2.1 (kp_wet.glsl,
 * kp_fill.glsl, kp_tiles_vs.glsl), and the timing of auto early exit and of the profile (GL_TIME_ELAPSED
 * queries, gpu_timer; kpg_section_begin times every file's passes).
 *
 * Early exit skips a dry tile with dry neighbours through the depth test: the flux pass is
 * drawn as the full-screen quad (window depth 0.5) with GL_LESS and no depth write, into R
 * with its depth buffer; the fill pass (kp_tiles_vs.glsl, one instanced quad per 16x16 tile,
 * depth test GL_ALWAYS, depth write) writes what a skipped tile computes and draws the tiles
 * whose mark changed since the last early-exit evaluation, at depth 0 where skipped and 1
 * where computed, so early-Z rejects the skipped tiles' fragments before the shader runs
 * (the flux shader neither discards nor writes gl_FragDepth).  Cost: the depth buffer (4 B
 * per cell, read by no shader) and the few tiles that change; rasterization order as
 * without early exit.  The methods it won against (quads of 1, 2 or 4 tiles; the marks
 * made afresh each evaluation) and the "faces" flux variant were removed with their
 * figures kept in docs/performance.md and docs/kp.md.
 * Early exit: kp.early_exit = on | off | auto; auto times a flux evaluation (wet map, fill, flux
 * passes) of each variant with GL_TIME_ELAPSED queries read back without waiting: its
 * current choice on step 100 m, the other one on step 100 m + 2 (after a warm-up step),
 * and keeps the faster (Brodtkorb 3.2.1: runtime analysis and a probe every hundredth
 * step). */
#include "kp_gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Auto early exit: a probe of the other variant every this many steps. */
#define KP_AUTO_PERIOD 100
/* timer tags: the pass, the variant (early exit on), an auto sample, the last section of
 * a flux evaluation, a profiled section */
enum { TAG_EE = 8, TAG_SAMPLE = 16, TAG_END = 32, TAG_PROF = 64 };

static const char *pass_names[KP_PASS_COUNT] = {"wet map", "flux", "reduction", "clock", "integration"};
const char *kp_gpu_pass_name(int pass) { return pass >= 0 && pass < KP_PASS_COUNT ? pass_names[pass] : "?"; }
enum kp_early_exit kp_gpu_early_exit_mode(const kp_gpu *g) { return g->ee_mode; }

int kp_gpu_early_exit_active(const kp_gpu *g)
{
    return g->ee_mode == KP_EARLY_EXIT_ON || (g->ee_mode == KP_EARLY_EXIT_AUTO && g->ee_cur);
}

/* ---- timing: auto early exit and the profile ------------------------------------------ */

static void account(kp_gpu *g, int tag, double sec)
{
    int pass = tag & 7, v = (tag & TAG_EE) != 0;
    /* llvmpipe (Mesa 22-23) answers an elapsed-time query that begins right after a
     * fence (the clock's read-back) or around a context's first draw with thousands of
     * seconds (its clock's origin): no pass takes 10 s, such a sample is dropped */
    if (!(sec >= 0 && sec < 10)) return;
    if ((tag & TAG_PROF) && pass < KP_PASS_COUNT) {
        g->prof_sec[pass] += sec;
        g->prof_n[pass]++;
    }
    if (tag & TAG_SAMPLE) {
        g->acc[v].sec += sec;
        if (tag & TAG_END) g->acc[v].evals++;
    }
}

/* Takes the timer results that are in (all of them, waiting, when wait); auto chooses
 * once both variants have a measured flux evaluation. */
static void drain(kp_gpu *g, int wait)
{
    int tag;
    double sec;
    if (!g->timer) return;
    while (gpu_timer_fetch(g->timer, wait, &tag, &sec)) account(g, tag, sec);
    if (g->acc[0].evals > 0 && g->acc[1].evals > 0) {
        for (int v = 0; v < 2; v++) g->est[v] = g->acc[v].sec / (double)g->acc[v].evals;
        g->ee_cur = g->est[1] <= g->est[0];
        g->choices++;
        memset(g->acc, 0, sizeof g->acc);
    }
}

/* Opens a timed section for pass when the profile is on or the step is auto's sample;
 * returns whether one was opened (close it with kpg_section_end). */
int kpg_section_begin(kp_gpu *g, int pass, int end_of_eval)
{
    int sample = g->step_sample && (pass == KP_PASS_WET || pass == KP_PASS_FLUX);
    if (!g->timer || (!g->profile && !sample)) return 0;
    int tag = pass | (g->step_ee ? TAG_EE : 0) | (sample ? TAG_SAMPLE : 0) | (end_of_eval ? TAG_END : 0) |
              (g->profile ? TAG_PROF : 0);
    if (gpu_timer_begin(g->timer, tag)) return 1;
    if (!g->profile) return 0;   /* every slot in flight: this sample goes untimed */
    int t;
    double sec;
    if (gpu_timer_fetch(g->timer, 1, &t, &sec)) account(g, t, sec);   /* the profile waits for a slot */
    return gpu_timer_begin(g->timer, tag);
}

void kpg_section_end(kp_gpu *g, int opened)
{
    if (opened) gpu_timer_end(g->timer);
}

void kp_gpu_profile(kp_gpu *g, int on)
{
    drain(g, 1);
    g->profile = on && g->timer;
    memset(g->prof_sec, 0, sizeof g->prof_sec);
    memset(g->prof_n, 0, sizeof g->prof_n);
}

swgl_status kp_gpu_profile_read(kp_gpu *g, double seconds[KP_PASS_COUNT], long counts[KP_PASS_COUNT])
{
    if (!g->timer) return swgl_fail(SWGL_ERR_GL, "kp gpu: no timer queries");
    drain(g, 1);
    for (int k = 0; k < KP_PASS_COUNT; k++) {
        seconds[k] = g->prof_sec[k];
        counts[k] = g->prof_n[k];
    }
    return SWGL_OK;
}

void kp_gpu_auto_estimates(const kp_gpu *g, double *with_exit, double *without_exit, long *choices)
{
    if (with_exit) *with_exit = g->est[1];
    if (without_exit) *without_exit = g->est[0];
    if (choices) *choices = g->choices;
}

void kp_gpu_set_early_exit(kp_gpu *g, enum kp_early_exit mode)
{
    drain(g, 1);
    if (g->ee_forbidden) mode = KP_EARLY_EXIT_OFF;   /* kp_gpu_create says why */
    /* the compute passes have no early exit (its methods draw quads or use the depth
     * test); the fused kernel skips dry tiles itself, on, off or auto as the passes */
    g->ee_mode = g->compute && !g->fused ? KP_EARLY_EXIT_OFF : mode;
    g->ee_cur = 1;   /* auto starts with early exit on, as Brodtkorb's */
    g->step_n = 0;
    g->choices = 0;
    g->est[0] = g->est[1] = -1;
    memset(g->acc, 0, sizeof g->acc);
}

/* the fill program of the zero state of R, with the depth marks (KP_TILES_DEPTH) */
static swgl_status build_fill(kp_gpu *g)
{
    char defs[1200];
    if (g->p_fill) return SWGL_OK;
    snprintf(defs, sizeof defs, "%s#define KP_TILES_FILL 1\n#define KP_TILES_DEPTH 1\n", g->defs);
    return gpu_program_create_vs("kp_fill", "kp_tiles_vs", defs, &g->p_fill);
}

swgl_status kpg_build_flux(kp_gpu *g)
{
    swgl_status st;
    if (!g->p_flux && (st = gpu_program_create("kp_flux_cell", g->defs, &g->p_flux)) != SWGL_OK) return st;
    return build_fill(g);
}

/* One draw of the flux pass: the whole output; or (early exit) the full-screen quad at
 * depth 0.5 with GL_LESS, the skipped tiles marked 0. */
static swgl_status draw_tiles(kp_gpu *g, gpu_pass *p, int ee)
{
    static const gpu_depth_test test = {GPU_DEPTH_LESS, 0, 0};   /* no depth write, no discard: early-Z */
    if (!ee) return gpu_pass_draw_mrt(p, g->R, NULL);
    return gpu_pass_draw_mrt_depth(p, g->dR, &test, 4, 0);
}

/* Early exit: writes what a skipped tile computes (kp_fill.glsl) into the tiles skipped
 * now that the last early-exit evaluation did not skip (all skipped tiles after a
 * full evaluation): the other skipped tiles hold it already, so no clear is needed; the
 * same draw writes the marks of the tiles whose mark changes (GL_ALWAYS). */
static swgl_status fill_skipped(kp_gpu *g)
{
    static const gpu_depth_test fill_mark = {GPU_DEPTH_ALWAYS, 1, 0};
    gpu_pass p;
    gpu_pass_begin(&p, g->p_fill);
    gpu_pass_array(&p, "u_wet", g->wet[g->wi]);
    gpu_pass_array(&p, "u_wet_prev", g->wet[1 - g->wi]);
    gpu_pass_int(&p, "u_prev_valid", g->prev_valid);
    gpu_pass_int(&p, "u_depth_valid", g->depth_valid);
    gpu_pass_int(&p, "u_rest", g->rest_frag);
    swgl_status st = gpu_pass_draw_mrt_depth(&p, g->dR, &fill_mark, 4, g->ntx * g->nty);
    if (st == SWGL_OK) g->depth_valid = 1;
    return st;
}

/* A step's early-exit variant (and whether auto samples it), fixed at its stage 0. */
void kpg_choose_early_exit(kp_gpu *g)
{
    drain(g, 0);
    if (g->ee_mode == KP_EARLY_EXIT_AUTO && g->timer) {
        /* phase 0: the current choice, timed; 1: the other one, untimed (its first
         * early-exit evaluation fills every skipped tile); 2: the other one, timed */
        long phase = g->step_n % KP_AUTO_PERIOD;
        g->step_ee = phase == 1 || phase == 2 ? !g->ee_cur : g->ee_cur;
        g->step_sample = phase == 0 || phase == 2;
    } else {
        g->step_ee = kp_gpu_early_exit_active(g);
        g->step_sample = 0;
    }
    g->step_n++;
}

/* Stage k's flux evaluation: [wet map], flux pass(es) -> R.  Stage 0 fixes the step's
 * early-exit variant (and whether auto samples it). */
swgl_status kpg_flux_eval(kp_gpu *g, int k)
{
    swgl_status st;
    gpu_pass p;
    gpu_mrt *src = k == 0 || !g->rk2 ? g->state[g->cur] : g->qstar;
    if (k == 0) kpg_choose_early_exit(g);
    int ee = g->step_ee, sec;
    if (g->fused) return kpg_flux_kernel(g, src, ee);   /* one kernel (kp_gpu_kernels.c) */
    g->last_ee = ee;
    if (ee) {
        /* the second rule (kp_wet.glsl): stage 0 looks where the arrays hold the last step's
         * history and the last map is valid; RK2's stage 1 takes stage 0's */
        int rest = !g->rest_frag ? 0 : k == 0 ? (g->rest_hist && g->prev_valid ? 1 : 0) : g->rest_s0 == 1 ? 2 : 0;
        if (k == 0) g->rest_s0 = rest;
        sec = kpg_section_begin(g, KP_PASS_WET, 0);
        gpu_pass_begin(&p, g->p_wet);
        BIND(g, &p, "u_state", src, 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        kpg_set_real(g, &p, "u_eps", g->eps);
        if (!g->dbl) {
            gpu_pass_int(&p, "u_rest", rest);
            BIND(g, &p, "u_prev", g->state[1 - g->cur], 0);
            if (g->rk2) BIND(g, &p, "u_qstar", g->qstar, 0);
            BIND(g, &p, "u_R", g->R, 0);
            gpu_pass_array(&p, "u_wet_prev", g->wet[1 - g->wi]);
            gpu_pass_array(&p, "u_rest_src", g->wet[1 - g->wi]);
        }
        st = gpu_pass_draw(&p, g->wet[g->wi], NULL);
        kpg_section_end(g, sec);
        if (st != SWGL_OK) return st;
    }
    sec = kpg_section_begin(g, KP_PASS_FLUX, 1);
    st = ee ? fill_skipped(g) : SWGL_OK;
    unsigned q = g->count_frags ? gpu_samples_begin() : 0;
    gpu_pass_begin(&p, g->p_flux);
    BIND(g, &p, "u_state", src, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    kpg_recon_uniforms(g, &p);
    kpg_set_real(g, &p, "u_cfl", g->cfl);
    if (st == SWGL_OK) st = draw_tiles(g, &p, ee);
    if (g->count_frags) g->frags = gpu_samples_end(q);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    /* the wet map just made describes R until the next evaluation */
    if (ee) g->wi = 1 - g->wi;
    g->prev_valid = ee;
    return SWGL_OK;
}

void kp_gpu_count_fragments(kp_gpu *g, int on)
{
    g->count_frags = on != 0;
    g->frags = -1;
}

long kp_gpu_fragments(const kp_gpu *g) { return g->frags; }

swgl_status kp_gpu_tiles(kp_gpu *g, long *computed, long *total)
{
    if (g->kstep) return kpg_kstep_tiles(g, computed, total);   /* kp_gpu_kernels.c */
    long all = (long)g->ntx * g->nty;
    *total = all;
    *computed = g->fused && g->last_ee ? -1 : all;   /* the kernel's skips are not counted */
    if (!g->last_ee || g->fused) return SWGL_OK;
    float *w = malloc((size_t)all * 4 * sizeof(float));
    if (!w) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    swgl_status st = gpu_array2d_download(g->wet[1 - g->wi], w);   /* the last one made */
    if (st == SWGL_OK) {
        long c = 0;
        /* a tile is computed when it or a neighbour is wet, unless (the second rule) it
         * and its 8 neighbours were still (kp_tiles_vs.glsl kp_class) */
        for (int j = 0; j < g->nty; j++)
            for (int i = 0; i < g->ntx; i++) {
                static const int d[5][2] = {{0, 0}, {1, 0}, {-1, 0}, {0, 1}, {0, -1}};
                int run = 0, still = g->rest_frag;
                for (int m = 0; m < 5 && !run; m++) {
                    int a = i + d[m][0], b = j + d[m][1];
                    run = a >= 0 && b >= 0 && a < g->ntx && b < g->nty && w[4 * ((size_t)b * g->ntx + a)] != 0.0f;
                }
                for (int b = j - 1; b <= j + 1 && run && still; b++)
                    for (int a = i - 1; a <= i + 1 && still; a++)
                        if (a >= 0 && b >= 0 && a < g->ntx && b < g->nty) still = w[4 * ((size_t)b * g->ntx + a) + 1] != 0.0f;
                c += run && !still;
            }
        *computed = c;
    }
    free(w);
    return st;
}
