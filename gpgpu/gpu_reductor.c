/* gpu_reductor.c — Lastra's GPUreductor (4.3.1): reduce a float4 array to one float4
 * by passes that each combine 2x2 blocks, w x h -> ceil(w/2) x ceil(h/2), until 1x1.
 * On compute passes (gpu_compute_passes) min and max run instead as the kernel
 * reduce_cs.glsl, 32x32 blocks per dispatch (w x h -> ceil(w/32) x ceil(h/32)): the
 * same result to the bit (min and max are exact in any order) in a quarter of the
 * dispatches or fewer; sums keep the 2x2 passes and their pairwise order.
 * The chains of scratch arrays (for the 2x2 passes and for the kernel) are built for an
 * input size and kept, up to CHAINS sizes of each (the least recently used one rebuilt past
 * that): a caller that reduces arrays of two sizes in turn (over MPI ranks, a stage in parts
 * reduces every cell's bound where the whole stage reduces its work groups' minima) does
 * not free and create textures at each call.  The programs (min, max, sum; the two
 * kernels) are built on first use. */
#include "gpu_reductor.h"

#include <stdlib.h>

#include "gpu_pass.h"

#define MAX_LEVELS 40
#define CHAINS 4

/* a chain of scratch arrays for one input size and one shrink factor */
typedef struct chain {
    int width, height;              /* the input size it was built for (0: none) */
    int levels;
    unsigned long used;             /* the call that last used it */
    gpu_array2d *a[MAX_LEVELS];
} chain;

struct gpu_reductor {
    gpu_program *prog[3];
    gpu_program *kernel[2];         /* reduce_cs: min, max */
    chain ch[2][CHAINS];            /* [0]: the 2x2 passes' (factor 2), [1]: the kernel's (32) */
    int last_passes;
    unsigned long calls, builds;
};

swgl_status gpu_reductor_create(gpu_reductor **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? SWGL_OK : swgl_fail(SWGL_ERR_NO_MEMORY, "out of memory");
}

static void free_chain(chain *c)
{
    for (int i = 0; i < c->levels; i++) gpu_array2d_destroy(c->a[i]);
    c->levels = 0;
    c->width = c->height = 0;
}

void gpu_reductor_destroy(gpu_reductor *r)
{
    if (!r) return;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < CHAINS; i++) free_chain(&r->ch[k][i]);
    for (int k = 0; k < 3; k++) gpu_program_destroy(r->prog[k]);
    for (int k = 0; k < 2; k++) gpu_program_destroy(r->kernel[k]);
    free(r);
}

static swgl_status build_chain(chain *c, int w, int h, int factor)
{
    free_chain(c);
    c->width = w;
    c->height = h;
    while (w > 1 || h > 1) {
        w = (w + factor - 1) / factor;
        h = (h + factor - 1) / factor;
        gpu_array2d_desc d = {w, h, GPU_RGBA32F, "reduction scratch"};
        swgl_status st = gpu_array2d_create(&d, &c->a[c->levels]);
        if (st != SWGL_OK) {
            free_chain(c);
            return st;
        }
        c->levels++;
    }
    return SWGL_OK;
}

swgl_status gpu_reductor_run_gpu(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op,
                                 const gpu_array2d **result)
{
    return gpu_reductor_run_gpu_until(r, in, op, 1, result);
}

swgl_status gpu_reductor_run_gpu_until(gpu_reductor *r, const gpu_array2d *in, gpu_reduce_op op, int max_elems,
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
    chain *c = NULL, *lru = &r->ch[kernel][0];
    for (int k = 0; k < CHAINS && !c; k++) {
        chain *t = &r->ch[kernel][k];
        if (t->width == w && t->height == h) c = t;
        else if (t->used < lru->used) lru = t;
    }
    if (!c) {
        if ((st = build_chain(lru, w, h, factor)) != SWGL_OK) return st;
        c = lru;
        r->builds++;
    }
    c->used = ++r->calls;
    const gpu_array2d *src = in;
    int i = 0;
    for (; i < c->levels && (long)gpu_array2d_width(src) * gpu_array2d_height(src) > (long)max_elems; i++) {
        gpu_pass p;
        gpu_pass_begin(&p, kernel ? r->kernel[op] : r->prog[op]);
        gpu_pass_array(&p, "u_in", src);
        if (kernel) {   /* one work group of 16 x 16 per output element */
            gpu_pass_image(&p, 0, c->a[i]);
            st = gpu_pass_dispatch(&p, 16 * gpu_array2d_width(c->a[i]), 16 * gpu_array2d_height(c->a[i]));
        } else {
            st = gpu_pass_draw(&p, c->a[i], NULL);
        }
        if (st != SWGL_OK) return st;
        src = c->a[i];
    }
    r->last_passes = i;
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

unsigned long gpu_reductor_builds(const gpu_reductor *r) { return r->builds; }
