/* gpu_gather.c — texels gathered into one array and read back at once (gpu_gather.h). */
#include "gpu_gather.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_pass.h"

struct gpu_gather {
    int n;
    int *xy;              /* the cells, (x, y) pairs */
    gpu_array2d *at, *out;
    gpu_program *p;
    gpu_array2d *rows;    /* the captures: n x nrows */
    gpu_program *pk;
    int nrows;
    float *host;          /* the rows read back (NULL: not since the last capture) */
};

void gpu_gather_destroy(gpu_gather *g)
{
    if (!g) return;
    gpu_array2d_destroy(g->at);
    gpu_array2d_destroy(g->out);
    gpu_program_destroy(g->p);
    gpu_array2d_destroy(g->rows);
    gpu_program_destroy(g->pk);
    free(g->host);
    free(g->xy);
    free(g);
}

swgl_status gpu_gather_create(int n, const int *x, const int *y, gpu_gather **out)
{
    *out = NULL;
    if (n < 1) return swgl_fail(SWGL_ERR_ARG, "gpu_gather_create: no cells (n = %d)", n);
    gpu_gather *g = calloc(1, sizeof *g);
    float *at = calloc(4 * (size_t)n, sizeof *at);
    if (g) g->xy = malloc(2 * (size_t)n * sizeof *g->xy);
    if (!g || !at || !g->xy) {
        free(at);
        gpu_gather_destroy(g);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    g->n = n;
    for (int k = 0; k < n; k++) {
        g->xy[2 * k] = x[k];
        g->xy[2 * k + 1] = y[k];
        at[4 * k] = (float)x[k];   /* (exact: a texture is far below 2^24 texels wide) */
        at[4 * k + 1] = (float)y[k];
    }
    gpu_array2d_desc ad = {n, 1, GPU_RGBA32F, "gather cells"}, od = {n, 1, GPU_RGBA32F, "gathered texels"};
    swgl_status st;
    if ((st = gpu_array2d_create(&ad, &g->at)) != SWGL_OK || (st = gpu_array2d_upload(g->at, at)) != SWGL_OK ||
        (st = gpu_array2d_create(&od, &g->out)) != SWGL_OK || (st = gpu_program_create("gather", "", &g->p)) != SWGL_OK) {
        free(at);
        gpu_gather_destroy(g);
        return st;
    }
    free(at);
    *out = g;
    return SWGL_OK;
}

int gpu_gather_same(const gpu_gather *g, int n, const int *x, const int *y)
{
    if (!g || g->n != n) return 0;
    for (int k = 0; k < n; k++)
        if (g->xy[2 * k] != x[k] || g->xy[2 * k + 1] != y[k]) return 0;
    return 1;
}

swgl_status gpu_gather_read(gpu_gather *g, const gpu_array2d *src, float *v)
{
    gpu_pass p;
    gpu_pass_begin(&p, g->p);
    gpu_pass_array(&p, "u_src", src);
    gpu_pass_array(&p, "u_at", g->at);
    swgl_status st = gpu_pass_draw(&p, g->out, NULL);
    return st == SWGL_OK ? gpu_array2d_download(g->out, v) : st;
}

swgl_status gpu_gather_for(gpu_gather **g, const gpu_array2d *src, const size_t *idx, int n)
{
    int *x = malloc((size_t)(n > 0 ? n : 1) * sizeof *x), *y = malloc((size_t)(n > 0 ? n : 1) * sizeof *y);
    if (!x || !y) {
        free(x);
        free(y);
        return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
    }
    const size_t w = (size_t)gpu_array2d_width(src);
    for (int k = 0; k < n; k++) {
        x[k] = (int)(idx[k] % w);
        y[k] = (int)(idx[k] / w);
    }
    swgl_status st = SWGL_OK;
    if (!gpu_gather_same(*g, n, x, y)) {
        gpu_gather_destroy(*g);
        *g = NULL;
        st = gpu_gather_create(n, x, y, g);
    }
    free(x);
    free(y);
    return st;
}

swgl_status gpu_gather_texels(gpu_gather **g, const gpu_array2d *src, const size_t *idx, int n, float *v)
{
    swgl_status st = gpu_gather_for(g, src, idx, n);
    return st == SWGL_OK ? gpu_gather_read(*g, src, v) : st;
}

swgl_status gpu_gather_capture_begin(gpu_gather *g, int rows)
{
    static const float zero[4] = {0, 0, 0, 0};
    swgl_status st = SWGL_OK;
    if (rows < 1) return swgl_fail(SWGL_ERR_ARG, "gpu_gather_capture_begin: %d rows", rows);
    free(g->host);
    g->host = NULL;
    if (!g->pk && (st = gpu_program_create_kernel("capture", "", &g->pk)) != SWGL_OK) return st;
    if (!g->rows || g->nrows < rows) {
        gpu_array2d_destroy(g->rows);
        g->rows = NULL;
        gpu_array2d_desc d = {g->n, rows, GPU_RGBA32F, "captured texels"};
        if ((st = gpu_array2d_create(&d, &g->rows)) != SWGL_OK) return st;
        g->nrows = rows;
    }
    return gpu_array2d_fill(g->rows, zero);
}

swgl_status gpu_gather_capture(gpu_gather *g, const gpu_array2d *src, const gpu_array2d *clock, int first)
{
    free(g->host);   /* (the rows change) */
    g->host = NULL;
    gpu_pass p;
    gpu_pass_begin(&p, g->pk);
    gpu_pass_array(&p, "u_src", src);
    gpu_pass_array(&p, "u_at", g->at);
    gpu_pass_array(&p, "u_clock", clock);
    gpu_pass_float(&p, "u_first", (float)first);
    gpu_pass_int(&p, "u_rows", g->nrows);
    gpu_pass_image(&p, 0, g->rows);
    return gpu_pass_dispatch(&p, g->n, 1);
}

swgl_status gpu_gather_capture_row(gpu_gather *g, int k, int n, const float **v)
{
    *v = NULL;
    if (!g || !g->rows || n != g->n || k < 0 || k >= g->nrows)
        return swgl_fail(SWGL_ERR_ARG, "gpu_gather_capture_row: no row %d of %d cells kept", k, n);
    if (!g->host) {   /* all rows at once, the first time a row is asked for */
        if (!(g->host = malloc(4 * (size_t)g->n * (size_t)g->nrows * sizeof *g->host)))
            return swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
        swgl_status st = gpu_array2d_download(g->rows, g->host);
        if (st != SWGL_OK) {
            free(g->host);
            g->host = NULL;
            return st;
        }
    }
    *v = g->host + 4 * (size_t)k * (size_t)g->n;
    return SWGL_OK;
}
