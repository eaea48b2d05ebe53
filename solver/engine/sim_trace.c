/* sim_trace.c — swgl trace: the passes of one step made visible (Lastra's design: arrays
 * are textures, kernels are passes).  swgl_sim_trace_step runs a sim's next step on the GPU
 * backend and writes every pass's input and output arrays, each component of each
 * texel as a colour-mapped PNG with its range, and DIR/index.html listing the passes in
 * order with their shader file, the file's own description of what its texels and
 * components hold (its header comment), and the pictures. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gpu_context.h"
#include "gpu_pass.h"
#include "gpu_program.h"
#include "output.h"
#include "sim_internal.h"

typedef struct trace_ctx {
    const char *dir;
    FILE *html;
    int pass;
    swgl_status st;
} trace_ctx;

static void html_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '&') fputs("&amp;", f);
        else fputc(*s, f);
    }
}

/* an array's components as PNGs and a row of the page */
static void picture(trace_ctx *c, const char *role, const char *name, const gpu_array2d *a)
{
    int w = gpu_array2d_width(a), h = gpu_array2d_height(a), dbl = gpu_array2d_format(a) == GPU_RGBA32UI;
    size_t n = (size_t)w * h;
    void *buf = malloc(4 * n * sizeof(float) * (dbl ? 1 : 1));
    double *v = malloc(n * sizeof(double));
    unsigned char *ok = malloc(n);
    if (!buf || !v || !ok || gpu_array2d_download(a, buf) != SWGL_OK) {
        free(buf), free(v), free(ok);
        return;
    }
    int ncomp = dbl ? 2 : 4;   /* RGBA32UI: two packed doubles a texel */
    fprintf(c->html, "<tr><td>%s <code>", role);
    html_text(c->html, name);
    fprintf(c->html, "</code><br><small>%s, %d x %d%s</small></td>", gpu_array2d_label(a), w, h,
            dbl ? ", two doubles a texel" : "");
    for (int comp = 0; comp < ncomp; comp++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t k = 0; k < n; k++) {
            v[k] = dbl ? ((const double *)buf)[2 * k + comp] : ((const float *)buf)[4 * k + comp];
            ok[k] = isfinite(v[k]);
            if (ok[k]) lo = fmin(lo, v[k]), hi = fmax(hi, v[k]);
        }
        if (!(lo <= hi)) lo = hi = 0;
        char file[160], path[1200], title[96];
        snprintf(file, sizeof file, "p%03d_%s_%.40s_%c.png", c->pass, role, name, dbl ? "ab"[comp] : "xyzw"[comp]);
        snprintf(path, sizeof path, "%s/%s", c->dir, file);
        snprintf(title, sizeof title, "%.40s.%c", name, dbl ? "ab"[comp] : "xyzw"[comp]);
        if (png_write_field(path, w, h, v, ok, NULL, lo, hi > lo ? hi : lo + 1, CMAP_VIRIDIS, w < 64 ? 4 : 0, title, "") ==
            SWGL_OK)
            fprintf(c->html, "<td><img src=\"%s\" width=\"240\"><br><small>%c: [%.6g, %.6g]%s</small></td>", file,
                    dbl ? "ab"[comp] : "xyzw"[comp], lo, hi, n > 0 && lo == hi ? " constant" : "");
    }
    fputs("</tr>\n", c->html);
    free(buf), free(v), free(ok);
}

static void on_draw(void *user, const gpu_pass *p, gpu_array2d *const *outs, int n_outs)
{
    trace_ctx *c = user;
    const char *name = gpu_program_name(p->program);
    char file[96];
    snprintf(file, sizeof file, "%.80s.glsl", name);
    fprintf(c->html, "<h2>%d. <code>", c->pass + 1);
    html_text(c->html, file);
    fputs("</code></h2>\n<pre>", c->html);
    const char *src = gpu_shader_source(file);
    for (const char *s = src; s && strncmp(s, "//", 2) == 0;) {   /* the file's header comment */
        const char *e = strchr(s, '\n');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        char line[512];
        snprintf(line, sizeof line, "%.*s\n", (int)(len > 500 ? 500 : len), s);
        html_text(c->html, line);
        if (!e) break;
        s = e + 1;
    }
    fputs("</pre>\n<table>\n", c->html);
    for (int i = 0; i < p->n_inputs; i++) picture(c, "in", p->inputs[i].name, p->inputs[i].array);
    for (int k = 0; k < n_outs; k++) {
        char oname[32];
        snprintf(oname, sizeof oname, "target%d", k);
        picture(c, "out", oname, outs[k]);
    }
    fputs("</table>\n", c->html);
    c->pass++;
}

SWGL_API swgl_status swgl_sim_trace_step(swgl_sim *sim, const char *dir, int *passes)
{
    swgl_status st = sim_fail_if_finished(sim, "swgl_sim_trace_step");
    if (st != SWGL_OK) return st;
    if (sim->idle) return SWGL_OK;
    if (passes) *passes = 0;
    if (!dir) return swgl_fail(SWGL_ERR_ARG, "swgl_sim_trace_step: no folder (NULL)");
    if (sim->backend != BACKEND_GPU && sim->backend != BACKEND_GPU_COMPUTE)
        return swgl_fail(SWGL_ERR_ARG, "swgl_sim_trace_step: the passes are the GPU backends' (this sim runs on %s)",
                         backend_name(sim->backend));
    if (outdir_mkdirs(dir) != 0) return swgl_fail(SWGL_ERR_IO, "%s: cannot create the folder", dir);
    trace_ctx tc = {dir, NULL, 0, SWGL_OK};
    char path[1100];
    snprintf(path, sizeof path, "%s/index.html", dir);
    if (!(tc.html = fopen(path, "w"))) return swgl_fail(SWGL_ERR_IO, "%s: cannot write", path);
    fprintf(tc.html, "<!doctype html><meta charset=\"utf-8\"><title>swgl trace</title>\n"
                     "<style>body{font-family:sans-serif;max-width:1400px}img{image-rendering:pixelated}"
                     "pre{background:#f4f4f4;padding:6px}td{vertical-align:top;padding:4px}</style>\n"
                     "<h1>swgl trace: %s, step %ld on %s</h1>\n<p>Every pass of the step in the order it ran: its "
                     "shader, what the shader says its texels hold, and each component of each input and output "
                     "array as a picture (row 0, the south, at the bottom; grey: not a finite number), with its "
                     "range.</p>\n", sim->sc.source, sim->steps + 1, sim->in.name);
    double t0 = sim->t;
    gpu_pass_trace(on_draw, &tc);
    st = swgl_sim_step(sim);
    gpu_finish();
    gpu_pass_trace(NULL, NULL);
    fprintf(tc.html, "<p>%d passes; t = %.9g s after step %ld (dt = %.6g s).</p>\n", tc.pass, sim->t, sim->steps,
            sim->t - t0);
    if (fclose(tc.html) != 0 && st == SWGL_OK) st = swgl_fail(SWGL_ERR_IO, "%s: write failed", path);
    if (passes) *passes = tc.pass;
    return st;
}
