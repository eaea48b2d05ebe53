/* kp_gpu_kernels.c — kp's compute kernels (gpu-compute, float, no boundary data:
 * g->fused): the flux evaluation as the one kernel kp_flux_cs.glsl (R and each work
 * group's min of cfl r; the dry tiles skipped inside it when the step's early exit is on:
 * kp.early_exit on, or auto's current choice, timed as for the passes), and run_to's step
 * as kernels over lists of tiles (kp_tiles.glsl; kp_flux_cs, kp_integrate_cs): stage 0's
 * flux with the bound's min by atomicMin, the clock inside stage 0's integration, RK2's
 * stage 1 flux and integration fused: two dispatches a step (Euler) or three (RK2), each
 * of the tiles on the list only, and no reduction pass; with the rule for tiles at rest
 * (tune kp.rest, kp_tiles.glsl "The second rule") a small kernel first (kp_rest_cs.glsl)
 * puts the kept bounds of the tiles skipped at rest into the step's min.  Also the kernels'
 * shape (work group, cells an invocation, rows shared, staging; the environment) and the
 * tiles' buffer. */
#include "kp_gpu_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scheme_shaders.h"

/* kp_tiles.glsl's buffer: a header of 12 words (the two bound words, the time left and the
 * unknown steps' sum, two dispatch commands, the two lists' lengths), a stamp a tile, then
 * the two lists; then the rest rule's words: two dispatch commands and two lengths, a stamp
 * a tile, the two rest lists and a bound a tile (KT_WORDS in all).  A dispatch runs at most
 * KT_MAX_GROUPS work groups (GL guarantees 65535 in x; tune kp.max_groups=N fewer, to
 * test), each running its share of the tiles in turn.  The layout is kp_tiles_buf's
 * (shaders/kp/kp_tiles.glsl): change both together. */
#define KT_HEAD 12
#define KT_CMD(k) ((4 + 3 * (size_t)(k)) * sizeof(unsigned))
#define KT_COUNT(k) ((10 + (size_t)(k)) * sizeof(unsigned))
#define KT_RHEAD(nt) (KT_HEAD + 3 * (size_t)(nt))
#define KT_RCMD(nt, k) ((KT_RHEAD(nt) + 3 * (size_t)(k)) * sizeof(unsigned))
#define KT_RCOUNT(nt, k) ((KT_RHEAD(nt) + 6 + (size_t)(k)) * sizeof(unsigned))
#define KT_WORDS(nt) (KT_HEAD + 7 * (size_t)(nt) + 8)
#define KT_RG 256   /* kp_tiles.glsl's KP_RG */
#define KT_MAX_GROUPS 65535

/* kp_flux_cs's shape, whichever chose it: rows shared need one column an invocation and
 * groups 4 or more wide; staged, the tile (tx x ty cells) with its ring of two must fit the
 * 32 KiB of shared memory GL guarantees (two float4 a cell, 64 bytes for the group's flags
 * and min, and the shared rows' point and face a invocation, 32 bytes) */
static swgl_status flux_shape_check(int gx, int gy, int cx, int cy, int xshare, int staged)
{
    if (xshare && (cx != 1 || gx < 4))
        return swgl_fail(SWGL_ERR_ARG, "tune: kp.xshare=on: expected one column an invocation (kp.cells=1xB, "
                                       "here %dx%d) and work groups 4 or more wide (kp.group, here %dx%d)",
                         cx, cy, gx, gy);
    long tx = (long)(gx - (xshare ? 2 : 0)) * cx, ty = (long)gy * cy;
    long bytes = (tx + 4) * (ty + 4) * 32 + 64 + (xshare ? 32L * gx * gy : 0);
    if (staged && bytes > 32768)
        return swgl_fail(SWGL_ERR_ARG,
                         "tune: kp's flux kernel (kp.group=%dx%d, kp.cells=%dx%d, kp.xshare=%s, staged): its "
                         "tile of %ld x %ld cells with a ring of two needs %ld B of shared memory, more than the 32 KiB "
                         "GL guarantees (kp.stage=off reads the arrays instead)",
                         gx, gy, cx, cy, xshare ? "on" : "off", tx, ty, bytes);
    return SWGL_OK;
}

/* the flux kernel's tiles over the array, for the shape chosen so far */
static long tiles_of(const kp_gpu *g)
{
    long tx = (long)(g->gx - (g->xshare ? 2 : 0)) * g->cx, ty = (long)g->gy * g->cy;
    return ((g->tw + tx - 1) / tx) * ((g->th + ty - 1) / ty);
}

/* kp_flux_cs's shape (measured on an H200, docs/performance.md, "What was tried"):
 * below 2^22 cells (2048^2; ghosts not counted) work groups of 16 x 8, one cell an invocation, the texels
 * staged in shared memory (Malpasset's 0.7 M cells: 4.37 s against 4.9 s or more for
 * every sweep); from 2^22 cells on, groups of 32 x 2 each sweeping columns of 8 cells
 * with a row's points shared (KP_XSHARE), reading the arrays (4096^2 RK2: 1.13e10
 * against 8.2e9), and taller where the tiles outnumber a dispatch's work groups (below).
 * To measure the choices (tuning.h): kp.group=AxB (the work group), kp.cells=AxB (the
 * cells an invocation sweeps), kp.xshare=on|off (a row's points shared between
 * invocations; one column an invocation) and kp.stage=on|off (the group's texels in
 * shared memory or read from the arrays).  Also the step on
 * kernels' settings: g->kstep and its most work groups a dispatch. */
swgl_status kpg_kernels_shape(kp_gpu *g, int flux_only)
{
    swgl_status st;
    const swgl_tuning *tn = &g->tune;
    int big = (long)g->nx * g->ny >= 1L << 22;
    g->staged = 0;
    g->gx = big ? 32 : 16;
    g->gy = big ? 2 : 8;
    g->cx = 1;
    g->cy = big ? 8 : 1;
    if (g->fused) {
        if (tn->kp_group[0]) {
            if ((st = tuning_check_group("kp.group", tn->kp_group, 1)) != SWGL_OK) return st;
            g->gx = tn->kp_group[0];
            g->gy = tn->kp_group[1];
        }
        if (tn->kp_cells[0]) {
            g->cx = tn->kp_cells[0];
            g->cy = tn->kp_cells[1];
        }
        g->xshare = tn->kp_xshare == TUNE_AUTO ? big : tn->kp_xshare;
        g->staged = tn->kp_stage == TUNE_AUTO ? !big : tn->kp_stage;
        /* more tiles than a dispatch of the step on kernels runs work groups (tune
         * kp.max_groups, to test): taller tiles, unless the shape is tuned or staged (a tile
         * that tall would not fit in shared memory).  Measured on an H200, RK2: 8192^2 in
         * 140,562 tiles of 30 x 16 cells stepped at 5.5e9 cells/s, in 35,346 of 30 x 64
         * (groups of 32 x 4 sweeping 16 cells) at 1.04e10, as 4096^2 does either way
         * (docs/performance.md) */
        long most = tn->kp_max_groups < KT_MAX_GROUPS ? tn->kp_max_groups : KT_MAX_GROUPS;
        if (big && !flux_only && !g->staged && !tn->kp_group[0] && !tn->kp_cells[0]) {
            while (tiles_of(g) > most - 1 && g->cy < 64) {
                if (g->gy < 4) g->gy *= 2;
                g->cy *= 2;
            }
        }
        if ((st = flux_shape_check(g->gx, g->gy, g->cx, g->cy, g->xshare, g->staged)) != SWGL_OK) return st;
    }
    int w = g->tw, h = g->th;
    g->tx = (g->gx - (g->xshare ? 2 : 0)) * g->cx;   /* a flux group's tile */
    g->ty = g->gy * g->cy;
    g->tnx = (w + g->tx - 1) / g->tx;
    g->tny = (h + g->ty - 1) / g->ty;
    /* the step on kernels (kp_tiles.glsl: RK2's stage 1 takes stage 0's skips, which needs
     * tiles 2 or more cells a side; the rest rule 4 or more, and no series' values on the
     * GPU, which change a boundary's faces while the cells rest); the integration kernel's
     * work group: the tile, or its rows in turns where it holds more than 1024 cells */
    g->kstep = g->fused && !flux_only && g->tx >= 2 && g->ty >= 2;
    g->rest_ok = g->kstep && tn->kp_rest && g->tx >= 4 && g->ty >= 4;
    g->max_groups = KT_MAX_GROUPS;
    if (tn->kp_max_groups < KT_MAX_GROUPS) g->max_groups = tn->kp_max_groups;
    return SWGL_OK;
}

/* The flux kernel (the host clock's stage; tune kp.fused=flux: also run_to's) with its
 * per-work-group minima, and the step on kernels' three (two for Euler) with the tiles'
 * buffer; their defines from kpg_kernels_shape's choices. */
swgl_status kpg_kernels_create(kp_gpu *g)
{
    if (!g->fused) return SWGL_OK;
    char di_kfused1[1800], di_flux[1400], di_kflux[1800], di_kint[1600], grp[128], tdefs[128];
    const char *nostage = g->staged ? "" : "#define KP_NO_STAGING 1\n";
    int ix = g->tx < 1024 ? g->tx : 1024, iy = g->ty;
    while (ix * iy > 1024) iy = (iy + 1) / 2;
    snprintf(grp, sizeof grp, "#define KP_GX %d\n#define KP_GY %d\n#define KP_CX %d\n#define KP_CY %d\n%s", g->gx, g->gy,
             g->cx, g->cy, g->xshare ? "#define KP_XSHARE 1\n" : "");
    snprintf(tdefs, sizeof tdefs, "#define KP_TILES 1\n#define KP_TILES_X %d\n#define KP_TILES_Y %d\n#define KP_MAX_GROUPS %d\n",
             g->tnx, g->tny, g->max_groups);
    snprintf(di_flux, sizeof di_flux, "%s%s%s", g->defs, nostage, grp);
    snprintf(di_kflux, sizeof di_kflux, "%s%s", di_flux, tdefs);
    snprintf(di_kfused1, sizeof di_kfused1, "%s#define KP_STAGE1 1\n#define KP_FUSE_STAGE1 1\n%s", di_flux, tdefs);
    snprintf(di_kint, sizeof di_kint, "%s%s#define KP_TX %d\n#define KP_TY %d\n#define KP_IX %d\n#define KP_IY %d\n%s", g->defs,
             tdefs, g->tx, g->ty, ix, iy, g->rk2 ? "" : "#define KP_TILES_WRITE 1\n");
    snprintf(g->klast_defs, sizeof g->klast_defs, "%s", g->rk2 ? di_kfused1 : di_kint);
    swgl_status st;
    if ((g->fused && (st = gpu_array2d_create(&(gpu_array2d_desc){g->tnx, g->tny, GPU_RGBA32F, "kp cfl r per work group"},
                                              &g->part))) ||
        (g->fused && (st = gpu_program_create_kernel("kp_flux_cs", di_flux, &g->p_fused))) ||
        (g->kstep && (st = gpu_program_create_kernel("kp_flux_cs", di_kflux, &g->p_kflux))) ||
        (g->kstep && g->rk2 && (st = gpu_program_create_kernel("kp_flux_cs", di_kfused1, &g->p_kfused1))) ||
        (g->kstep && (st = gpu_program_create_kernel("kp_integrate_cs", di_kint, &g->p_kint))) ||
        (g->kstep && (st = gpu_program_create_kernel("kp_rest_cs", tdefs, &g->p_krest))) ||
        (g->kstep && (st = gpu_buffer_create(KT_WORDS((size_t)g->tnx * g->tny) * sizeof(unsigned), "kp tiles", &g->tiles))))
        return st;
    gpu_program *flux_kernels[3] = {g->p_fused, g->p_kflux, g->p_kfused1};
    for (int k = 0; k < 3; k++) {
        if (!flux_kernels[k]) continue;
        gpu_program_set_cells(flux_kernels[k], g->cx, g->cy);
        if (g->xshare) gpu_program_set_helpers(flux_kernels[k], 2);
    }
    return SWGL_OK;
}

/* The flux evaluation as one kernel (kpg_flux_eval when g->fused): R, and each work
 * group's min of cfl r in g->part; the dry tiles skipped inside it when ee. */
swgl_status kpg_flux_kernel(kp_gpu *g, gpu_mrt *src, int ee)
{
    gpu_pass p;
    int sec = kpg_section_begin(g, KP_PASS_FLUX, 1);
    gpu_pass_begin(&p, g->p_fused);
    BIND(g, &p, "u_state", src, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    kpg_recon_uniforms(g, &p);
    kpg_set_real(g, &p, "u_cfl", g->cfl);
    gpu_pass_int(&p, "u_skip_dry", ee);
    gpu_pass_image(&p, 1, g->part);
    swgl_status st = gpu_pass_draw_mrt(&p, g->R, NULL);
    kpg_section_end(g, sec);
    g->last_ee = ee;   /* kp_gpu_tiles: unknown (-1) then */
    return st;
}

/* The step on kernels: the tiles on the list the last step ran (kp_tiles.glsl), of all
 * its tiles; after steps on the host clock, unknown (-1) as for the flux kernel alone. */
swgl_status kpg_kstep_tiles(kp_gpu *g, long *computed, long *total)
{
    long all = (long)g->tnx * g->tny;
    unsigned x = 0;
    *total = all;
    *computed = g->last_ee && g->tiles_stale ? -1 : all;
    if (!g->last_ee || g->tiles_stale) return SWGL_OK;
    swgl_status st = gpu_buffer_download(g->tiles, KT_COUNT(1 - g->tpar), sizeof x, &x);
    if (st == SWGL_OK) *computed = (long)x;
    return st;
}

/* ---- run_to's step on kernels ------------------------------------------------------- */

/* kpg_integrate_pass's friction and thin-film uniforms (kernels) */
static void integrate_uniforms(kp_gpu *g, gpu_pass *p)
{
    if (g->manning == MAN_TEXTURE) BIND(g, p, "u_manning", g->man, 0);
    if (g->manning == MAN_UNIFORM) kpg_set_real(g, p, "u_gn2", g->gn2);
    kpg_set_real(g, p, "u_kappa", g->kappa);
    kpg_set_real(g, p, "u_cap_depth", g->cap_depth);
    kpg_set_real(g, p, "u_cap_g", g->g);
}

/* The buffer afresh, when anything but these kernels changed the state: both bound
 * words +inf (group_min.glsl's key), no stamp, and every tile on the first list (each is
 * computed once before the lists say more). */
static swgl_status tiles_reset(kp_gpu *g)
{
    size_t nt = (size_t)g->tnx * g->tny, n = KT_WORDS(nt);   /* (rest lists empty, commands 0 groups) */
    unsigned *w = calloc(n, sizeof *w);
    if (!w) return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    w[0] = w[1] = 0xFFFFFFFFu;
    w[4] = (unsigned)(nt + 1 < (size_t)g->max_groups ? nt + 1 : (size_t)g->max_groups);   /* list 0: every tile, */
    w[10] = (unsigned)nt;                                                  /* and the control group */
    w[5] = w[6] = w[7] = w[8] = w[9] = 1;
    for (size_t k = 0; k < nt; k++) w[KT_HEAD + nt + k] = (unsigned)k;
    w[KT_RHEAD(nt) + 1] = w[KT_RHEAD(nt) + 2] = w[KT_RHEAD(nt) + 4] = w[KT_RHEAD(nt) + 5] = 1;   /* (rest: 0 x 1 x 1) */
    swgl_status st = gpu_buffer_upload(g->tiles, 0, n * sizeof *w, w);
    free(w);
    if (st == SWGL_OK) {
        g->tpar = 0;
        g->tstamp = 0;
        g->tiles_stale = 0;
    }
    return st;
}

/* A dispatch of a step on kernels: this step's list of tiles (indirect), or every tile
 * (early exit off), each with the control group */
static swgl_status kdispatch(kp_gpu *g, gpu_pass *p, int all)
{
    long groups = (long)g->tnx * g->tny + 1;
    if (all) return gpu_pass_dispatch_groups(p, groups < g->max_groups ? (int)groups : g->max_groups, 1, g->tw, g->th);
    return gpu_pass_dispatch_indirect(p, g->tiles, KT_CMD(g->tpar), g->tw, g->th);
}

/* A step on kernels (g->kstep; kp_tiles.glsl): stage 0's flux (kp_flux_cs under KP_TILES:
 * R of the listed tiles, the bound's min by atomicMin, the time left), the clock with
 * stage 0's integration (kp_integrate_cs: Q* or, Euler, Q^{n+1} and the next list) and,
 * RK2, stage 1's flux and integration (kp_flux_cs under KP_FUSE_STAGE1: Q^{n+1} and the
 * next list): two dispatches a step (Euler) or three (RK2), each of the tiles on the list
 * only, and no reduction pass. */
swgl_status kpg_step_kernels(kp_gpu *g, const gpu_clock_args *a)
{
    /* the rest rule (kp_tiles.glsl), where the run allows it: not while a series' values
     * change boundary faces; the lists afresh where that changes (the dry rule's lists
     * leave no tile at rest on the rest list) */
    int rest = g->rest_ok && !g->bvary;
    swgl_status st =
        g->tiles_stale || g->tstamp == 0xFFFFFFFFu || rest != g->rest ? tiles_reset(g) : SWGL_OK;
    if (st != SWGL_OK) return st;
    g->rest = rest;
    g->rest_hist = 0;   /* (the passes' rule reads a history these kernels do not keep) */
    gpu_pass p;
    kpg_choose_early_exit(g);
    g->last_ee = g->step_ee;
    g->tstamp++;
    int all = !g->step_ee;
    /* (the rest kernel timed with stage 0's flux: part of early exit's cost, for auto) */
    int sec = kpg_section_begin(g, KP_PASS_FLUX, 1);
    if (g->rest && !all) {   /* the tiles at rest left off this step's list: their bounds */
        gpu_pass_begin(&p, g->p_krest);
        gpu_pass_int(&p, "u_par", g->tpar);
        gpu_pass_uint(&p, "u_stamp", g->tstamp);
        gpu_pass_buffer(&p, 0, g->tiles);
        st = gpu_pass_dispatch_indirect(&p, g->tiles, KT_RCMD((size_t)g->tnx * g->tny, g->tpar), KT_RG, 1);
        if (st != SWGL_OK) {
            kpg_section_end(g, sec);
            return st;
        }
    }
    /* the flood maps in the last kernel (kp_gpu_maps_start), at the time after the step */
    int maps = g->p_klast_maps != NULL && gpu_maps_on(&g->maps);
    double t_known = a->t;
    gpu_pass_begin(&p, g->p_kflux);
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    kpg_recon_uniforms(g, &p);
    kpg_set_real(g, &p, "u_cfl", g->cfl);
    gpu_clock_bind_unknown(g->clock, &p, a);
    gpu_pass_int(&p, "u_par", g->tpar);
    gpu_pass_int(&p, "u_all", all);
    gpu_pass_int(&p, "u_rest", g->rest);
    gpu_pass_buffer(&p, 0, g->tiles);
    gpu_pass_image(&p, 0, gpu_mrt_member(g->R, 0));
    st = kdispatch(g, &p, all);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    gpu_pass_begin(&p, maps && !g->rk2 ? g->p_klast_maps : g->p_kint);
    BIND(g, &p, "u_state", g->state[g->cur], 0);
    BIND(g, &p, "u_R", g->R, 0);
    BIND(g, &p, "u_bed", g->bed, 0);
    gpu_clock_bind_texel(g->clock, &p, a);
    kpg_set_real(g, &p, "u_eps", g->eps);
    kpg_set_real(g, &p, "u_kappa4", kpg_kappa4(g));
    integrate_uniforms(g, &p);
    gpu_pass_int(&p, "u_par", g->tpar);
    gpu_pass_int(&p, "u_all", all);
    if (!g->rk2) gpu_pass_int(&p, "u_rest", g->rest);
    if (!g->rk2) gpu_pass_uint(&p, "u_stamp", g->tstamp);
    gpu_pass_buffer(&p, 0, g->tiles);
    gpu_pass_image(&p, 0, gpu_mrt_member(g->rk2 ? g->qstar : g->state[1 - g->cur], 0));
    gpu_pass_image(&p, 1, gpu_clock_next(g->clock));
    if (maps && !g->rk2) gpu_maps_bind(&g->maps, &p, 2, t_known);
    sec = kpg_section_begin(g, KP_PASS_INTEGRATE, 0);
    st = kdispatch(g, &p, all);
    kpg_section_end(g, sec);
    if (st != SWGL_OK) return st;
    gpu_clock_flip(g->clock);
    const gpu_array2d *clock = gpu_clock_now(g->clock);
    /* open, level and depth faces' volumes of stage 0, summed on the GPU (kp_gpu_forcing.c);
     * then a series' values at t^n + dt (this step's clock: the steps the CPU has not read
     * and this one), RK2's stage 1 and the next step's stage 0 */
    if (g->devb && (st = kpg_ring_acc(g, g->state[g->cur], clock)) != SWGL_OK) return st;
    if (g->bvary && (st = kpg_forcing_values_gpu(g, t_known, clock, a->unknown + 1)) != SWGL_OK) return st;
    if (g->rk2) {
        gpu_pass_begin(&p, maps ? g->p_klast_maps : g->p_kfused1);
        BIND(g, &p, "u_state", g->qstar, 0);
        BIND(g, &p, "u_qn", g->state[g->cur], 0);
        BIND(g, &p, "u_bed", g->bed, 0);
        gpu_pass_array(&p, "u_clock", clock);
        kpg_recon_uniforms(g, &p);   /* (no u_cfl: the bound of stage 1 is not used) */
        integrate_uniforms(g, &p);
        gpu_pass_int(&p, "u_par", g->tpar);
        gpu_pass_int(&p, "u_all", all);
        gpu_pass_int(&p, "u_rest", g->rest);
        gpu_pass_uint(&p, "u_stamp", g->tstamp);
        gpu_pass_buffer(&p, 0, g->tiles);
        gpu_pass_image(&p, 0, gpu_mrt_member(g->state[1 - g->cur], 0));
        if (maps) gpu_maps_bind(&g->maps, &p, 1, t_known);
        sec = kpg_section_begin(g, KP_PASS_FLUX, 1);
        st = kdispatch(g, &p, all);
        kpg_section_end(g, sec);
        if (st != SWGL_OK) return st;
    }
    /* RK2's stage 1 faces' volumes (from Q*) */
    if (g->devb && g->rk2 && (st = kpg_ring_acc(g, g->qstar, clock)) != SWGL_OK) return st;
    g->cur = 1 - g->cur;
    g->tpar = 1 - g->tpar;
    return maps ? SWGL_OK : kpg_maps_pass(g, 0, clock, t_known);
}
