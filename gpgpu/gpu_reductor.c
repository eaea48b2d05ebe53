/* gpu_reductor.c — Lastra's GPUreductor (4.3.1): reduce a float4 array to one float4
 * by passes that each combine 2x2 blocks, w x h -> ceil(w/2) x ceil(h/2), until 1x1.
 * On compute passes (gpu_compute_passes) min and max run instead as the kernel
 * reduce_cs.glsl, 32x32 blocks per dispatch (w x h -> ceil(w/32) x ceil(h/32)): the
 * same result to the bit (min and max are exact in any order) in a quarter of the
 * dispatches or fewer; sums keep the 2x2 passes and their pairwise order.
 * The chain of scratch arrays is built for an input size and kept for the next call
 * of the same size; the programs (min, max, sum; the two kernels) are built on first use. */
#include "gpu_reductor.h"

#include <stdlib.h>

#include "gpu_pass.h"

#define MAX_LEVELS 40

struct gpu_reductor {
    gpu_program *prog[3];
    gpu_program *kernel[2];         /* reduce_cs: min, max */
    int width, height;              /* input size the chain was built for */
    int factor;                     /* and its shrink factor, 2 or 32 */
    int levels;
    gpu_array2d *chain[MAX_LEVELS];
    int last_passes;
};

swgl_status gpu_reductor_create(gpu_reductor **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
}

static void free_chain(gpu_reductor *r)
{
    for (int i = 0; i < r->levels; i++) gpu_array2d_destroy(r->chain[i]);
    r->levels = 0;
    r->width = r->height = 0;
}

void gpu_reductor_destroy(gpu_reductor *r)
{
    if (!r) return;
    free_chain(r);
    for (int k = 0; k < 3; k++) gpu_program_destroy(r->prog[k]);
    for (int k = 0; k < 2; k++) gpu_program_destroy(r->kernel[k]);
    free(r);
}

static swgl_status build_chain(gpu_reductor *r, int w, int h, int factor)
{
    free_chain(r);
    while (w > 1 || h > 1) {
        w = (w + factor - 1) / factor;
        h = (h + factor - 1) / factor;
        gpu_array2d_desc d = {w, h, GPU_RGBA32F, "reduction scratch"};
        swgl_status st = gpu_array2d_create(&d, &r->chain[r->levels]);
        if (st != SWGL_OK) {
            free_chain(r);
            return st;
        }
        r->levels++;
    }
    return SWGL_OK;
}

swgl_status gpu_reductor_run_gpu(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op,
                                 const gpu_array2d **result)
{
    static const char *defs[3] = {"#define REDUCE_OP 0\n", "#define REDUCE_OP 1\n", "#define REDUCE_OP 2\n"};
    swgl_status st;
    if (!r || !in || op < GPU_REDUCE_MIN || op > GPU_REDUCE_SUM)
        return swgl_fail(SWGL_ERR_ARG, "reduction: bad arguments");
    if (gpu_array2d_format(in) != GPU_RGBA32F)
        return swgl_fail(SWGL_ERR_ARG, "reduction of '%s': only RGBA32F arrays reduce", gpu_array2d_label(in));
    int kernel = gpu_compute_passes() && op != GPU_REDUCE_SUM, factor = kernel ? 32 : 2;
    if (kernel && !r->kernel[op] && (st = gpu_program_create_kernel("reduce_cs", defs[op], &r->kernel[op])) != SWGL_OK)
        return st;
    if (!kernel && !r->prog[op] && (st = gpu_program_create("reduce", defs[op], &r->prog[op])) != SWGL_OK) return st;
    int w = gpu_array2d_width(in), h = gpu_array2d_height(in);
    if ((w != r->width || h != r->height || factor != r->factor) && (st = build_chain(r, w, h, factor)) != SWGL_OK)
        return st;
    r->width = w;
    r->height = h;
    r->factor = factor;
    const gpu_array2d *src = in;
    for (int i = 0; i < r->levels; i++) {
        gpu_pass p;
        gpu_pass_begin(&p, kernel ? r->kernel[op] : r->prog[op]);
        gpu_pass_array(&p, "u_in", src);
        if (kernel) {   /* one work group of 16 x 16 per output element */
            gpu_pass_image(&p, 0, r->chain[i]);
            st = gpu_pass_dispatch(&p, 16 * gpu_array2d_width(r->chain[i]), 16 * gpu_array2d_height(r->chain[i]));
        } else {
            st = gpu_pass_draw(&p, r->chain[i], NULL);
        }
        if (st != SWGL_OK) return st;
        src = r->chain[i];
    }
    r->last_passes = r->levels;
    *result = src;
    return SWGL_OK;
}

swgl_status gpu_reductor_run(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op, float result[4])
{
    const gpu_array2d *one;
    swgl_status st = gpu_reductor_run_gpu(r, in, op, &one);
    return st == SWGL_OK ? gpu_array2d_download_rect(one, 0, 0, 1, 1, result) : st;
}

int gpu_reductor_passes(const gpu_reductor *r) { return r->last_passes; }
